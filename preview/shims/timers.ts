/** node:timers for the preview page: setImmediate as one macrotask (a MessageChannel message: no 4 ms clamp). */
const queue: (() => void)[] = [];
const channel = new MessageChannel();
channel.port1.onmessage = () => queue.shift()?.();
export function setImmediate(fn: () => void): void {
  queue.push(fn);
  channel.port2.postMessage(0);
}
