/**
 * What the map shows on a combatant's token, and who acts now: both read from
 * the timeline view (timeline.ts), never from the flow itself, so a screen of
 * one viewer shows only what that viewer's view holds.
 *
 *  - surprised: kept from acting by surprise at this moment (`stillSurprised`):
 *    in the surprise segments, or the lost round, then gone;
 *  - casting: a casting begun (in a step played, or carried in) that has not
 *    gone off, been interrupted, prevented or given up;
 *  - delayed: high-low's delayed condition;
 *  - holding: a held (segment-d6 "hold") or prepared (addict) action whose
 *    entry has come this round, until it is released or the round is over;
 *  - bleeding: where the procedure bleeds (`procedureBleeds`), a dying
 *    combatant not staunched nor stabilized (addict: below 0 hp; its exact
 *    health, so read from a view that has it), and whoever bled at the end of
 *    this round and is still alive;
 *  - routed: its morale broke.
 * Nothing for the dead or the fled: Foundry's defeated marker says enough.
 */
import type { ProcedureId } from './model';
import type { ProcedureOptions } from './procedure';
import type { EntryView, TimelineView } from './timeline';

export const TOKEN_STATUSES = ['surprised', 'casting', 'delayed', 'holding', 'bleeding', 'routed'] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

/** Outcomes that end a casting when its entry is played. */
const ENDS_CASTING = new Set(['goes-off', 'interrupted', 'prevented', 'cancelled', 'cannot-act']);

/** Where a procedure bleeds: the dying whose hit points are below `below` lose hit points at the end of a round. */
export interface Bleeding {
  below: number;
}

/**
 * Does the procedure, under these options, take hit points from the dying at
 * the end of a round? addict (phase 9: below 0 hp) and individual-speed (the
 * Dying) always; the others where the table set `bleedPerRound`
 * (d12-ascending: with death below 0 hp only). null: nobody bleeds.
 */
export function procedureBleeds(procedure: ProcedureId, options: ProcedureOptions): Bleeding | null {
  if (procedure === 'addict') return { below: 0 };
  if (procedure === 'individual-speed') return { below: Infinity };
  const per = Number(options.bleedPerRound ?? 0);
  if (!(per > 0)) return null;
  if (procedure === 'd12-ascending' && !(Number(options.deathAt ?? 0) < 0)) return null;
  return { below: Infinity };
}

/** Statuses of each combatant the view shows (combatant id → statuses in TOKEN_STATUSES order; none: absent). */
export function tokenStatuses(view: TimelineView, bleeds: Bleeding | null): Record<string, TokenStatus[]> {
  const out: Record<string, Set<TokenStatus>> = {};
  const add = (id: string, s: TokenStatus) => (out[id] ??= new Set()).add(s);
  const played = view.steps.filter((s) => s.when !== 'next');

  // Castings: begun (carried in and still pending, or a begin played), less those ended.
  const casters = new Map<string, string>();
  const ended = new Set<string>();
  for (const c of view.carryIn) {
    casters.set(c.casting, c.caster);
    if (c.status !== 'pending') ended.add(c.casting);
  }
  for (const c of view.carryOut) casters.set(c.casting, c.caster);
  const released = new Set<string>();
  const holding = new Set<string>();
  for (const step of played) {
    for (const e of step.entries) {
      if (e.casting !== undefined && e.kind === 'cast-begin' && e.outcome === 'begins') casters.set(e.casting, e.combatant);
      if (e.casting !== undefined && e.outcome !== undefined && ENDS_CASTING.has(e.outcome)) ended.add(e.casting);
      if (isHold(e)) holding.add(e.combatant);
    }
    for (const i of step.interruptions) ended.add(i.casting);
    for (const m of step.midRound ?? []) {
      if (m.kind === 'cancel') ended.add(m.casting);
      if (m.kind === 'release') released.add(m.combatant);
    }
  }
  for (const [casting, caster] of casters) if (!ended.has(casting)) add(caster, 'casting');
  if (view.stage !== 'declare') for (const id of holding) if (!released.has(id)) add(id, 'holding');

  const bledNow = new Set((view.end ?? []).filter((e) => e.kind === 'bleed').map((e) => e.combatant));
  for (const c of view.combatants) {
    if (c.condition === 'dead' || c.condition === 'fled') {
      delete out[c.id];
      continue;
    }
    if (c.stillSurprised) add(c.id, 'surprised');
    if (c.delayed) add(c.id, 'delayed');
    if (bledNow.has(c.id) || (bleeds !== null && c.condition === 'dying' && !c.staunched && !c.health?.stabilized && (c.health?.hp ?? -Infinity) < bleeds.below)) add(c.id, 'bleeding');
    if (c.routed) add(c.id, 'routed');
  }
  const shown = new Set(view.combatants.map((c) => c.id));
  const result: Record<string, TokenStatus[]> = {};
  for (const [id, set] of Object.entries(out)) if (shown.has(id)) result[id] = TOKEN_STATUSES.filter((s) => set.has(s));
  return result;
}

/** A held or prepared action's entry that has come (AttackRules.held: the `wait` action, both procedures). */
function isHold(e: EntryView): boolean {
  return e.action === 'wait' && e.outcome === 'acts';
}

/** Who acts in the step being played: its entries that act, begin a casting or see one go off. */
export function actingNow(view: TimelineView): EntryView[] {
  if (view.current === null) return [];
  const step = view.steps.find((s) => s.index === view.current);
  return (step?.entries ?? []).filter((e) => e.outcome === 'acts' || e.outcome === 'begins' || e.outcome === 'goes-off');
}
