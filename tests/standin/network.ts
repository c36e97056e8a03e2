/**
 * The network between the clients and the server, without wall time. Every
 * message (a client's request to the server, the server's broadcast to a
 * client, a socket relay, a query and its answer) waits in one queue and is
 * delivered in order, one per microtask, unless the test holds the network.
 * A delivery runs its handler at once; an async handler keeps running on its
 * own (tracked for settle()) while later messages are delivered.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { nextTurn, recordError, track, trackedCount, trackedWork, type Endpoint } from './state';

/** What a test sees of a message in flight. */
export interface PendingMessage {
  /** Sequence number, unique in the world. */
  id: number;
  /** The sending user's id, or "server". */
  from: string;
  /** The receiving user's id, or "server". */
  to: string;
  /** modifyDocument, setting, socket, query, queryAnswer, refusal. */
  type: string;
  /** modifyDocument: create, update or delete. */
  action?: string;
  documentName?: string;
  /** socket: the event name; query: the query name; setting: the key. */
  name?: string;
  /** The payload as it travels (JSON). */
  data: any;
}

interface Envelope {
  message: PendingMessage;
  /** The client at either end (the server is not one); a message of a gone client is lost. */
  fromClient: Endpoint | null;
  toClient: Endpoint | null;
  deliver: () => unknown;
}

export class Network {
  #queue: Envelope[] = [];
  #held = false;
  #scheduled = false;
  #nextId = 1;
  /** Messages delivered, in order (descriptors only). */
  readonly log: PendingMessage[] = [];

  reset(): void {
    this.#queue = [];
    this.#held = false;
    this.#nextId = 1;
    this.log.length = 0;
  }

  send(message: Omit<PendingMessage, 'id'>, ends: { fromClient: Endpoint | null; toClient: Endpoint | null }, deliver: () => unknown): void {
    if (ends.fromClient && !ends.fromClient.connected) throw new Error(`The client of user ${ends.fromClient.id} is not connected`);
    this.#queue.push({ message: { id: this.#nextId++, ...message }, ...ends, deliver });
    this.#schedule();
  }

  get held(): boolean {
    return this.#held;
  }
  /** Messages waiting, in delivery order. */
  get pending(): PendingMessage[] {
    return this.#queue.map((e) => e.message);
  }
  hold(): void {
    this.#held = true;
  }
  release(): void {
    this.#held = false;
    this.#schedule();
  }
  /** Deliver the first n waiting messages now (all by default), held or not; then let their synchronous effects run. */
  async deliver(n = this.#queue.length): Promise<void> {
    for (let i = 0; i < n && this.#queue.length; i++) this.#deliverOne();
    await nextTurn();
  }
  /** Lose the waiting messages the filter selects (all by default); returns them. */
  drop(filter: ((m: PendingMessage) => boolean) | number = () => true): PendingMessage[] {
    const test = typeof filter === 'number' ? (m: PendingMessage) => m.id === filter : filter;
    const dropped = this.#queue.filter((e) => test(e.message));
    this.#queue = this.#queue.filter((e) => !dropped.includes(e));
    return dropped.map((e) => e.message);
  }
  /** A client went away: what it had queued, and what was queued for it, is lost. */
  forget(client: Endpoint): void {
    this.#queue = this.#queue.filter((e) => e.fromClient !== client && e.toClient !== client);
  }
  /** Something can still be delivered without the test's help. */
  get busy(): boolean {
    return !this.#held && this.#queue.length > 0;
  }

  #progress(): string {
    return `${this.#nextId}/${this.#queue.length}/${this.log.length}/${trackedCount()}`;
  }

  #schedule(): void {
    if (this.#held || this.#scheduled || !this.#queue.length) return;
    this.#scheduled = true;
    void Promise.resolve().then(() => {
      this.#scheduled = false;
      if (this.#held) return;
      this.#deliverOne();
      this.#schedule();
    });
  }

  #deliverOne(): void {
    const envelope = this.#queue.shift();
    if (!envelope) return;
    const { message, fromClient, toClient } = envelope;
    if ((fromClient && !fromClient.connected) || (toClient && !toClient.connected)) return;
    this.log.push(message);
    try {
      const result = envelope.deliver();
      if (result instanceof Promise) track(result, `deliver ${message.type}`, toClient ?? undefined);
    } catch (err) {
      recordError(`deliver ${message.type}`, err, toClient ?? undefined);
    }
  }

  /**
   * Wait until nothing can be delivered and the tracked async work has
   * finished. With the network held, work waiting on a held message cannot
   * finish: settle returns once a turn of the event loop brings no progress.
   */
  async settle(): Promise<void> {
    let idleTurns = 0;
    for (let turns = 0; turns < 100_000; turns++) {
      const before = this.#progress();
      await nextTurn();
      if (this.busy) continue;
      if (trackedCount() === 0) return;
      if (!this.#held) {
        await Promise.race([Promise.all(trackedWork()), nextTurn()]);
        continue;
      }
      idleTurns = this.#progress() === before ? idleTurns + 1 : 0;
      if (idleTurns >= 3) return;
    }
    throw new Error('settle(): tracked async work never finished in 100000 turns of the event loop (waiting on a timer? with fake timers, advance them first)');
  }
}

export const network = new Network();
