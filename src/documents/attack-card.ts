/**
 * An attack's chat card, drawn from what the blow was (the `attack` entry's
 * mark, log.ts BlowMark): by the active GM as it strikes (handlers/attack.ts),
 * and by a GM taking over for a blow whose card the last GM never posted
 * (blow-record.ts). Part of the GM's side.
 */
import type { BlowMark } from '../rules/flow/log';
import type { InjuryCheck } from '../rules/procedure';
import { injuryText } from '../rules/injury-text';
import { SYSTEM_ID } from '../settings';
import { postCard, type CardMode } from './chat';
import { storedActor } from './stored';

/** The card's text. */
export async function attackCardContent(attacker: string, target: string, b: BlowMark, check?: InjuryCheck): Promise<string> {
  const i18n = game.i18n;
  const injury =
    check && i18n
      ? i18n.format(check.injury ? 'TENSEG.Chat.Attack.Injury' : 'TENSEG.Chat.Attack.NoInjury', {
          roll: String(check.roll),
          wounds: String(check.wounds),
          injury: check.injury ? injuryText((key, data) => i18n.format(key, Object.fromEntries(Object.entries(data ?? {}).map(([k, v]) => [k, String(v)]))), (key) => i18n.has(key), check.injury) : '',
        })
      : '';
  return foundry.applications.handlebars.renderTemplate(`systems/${SYSTEM_ID}/templates/chat/attack.hbs`, {
    attacker,
    target,
    label: b.l,
    natural: b.n,
    total: b.t,
    needed: b.need,
    hit: b.hit,
    reason: b.why,
    damage: b.d,
    critical: !!b.c && b.hit,
    rolled: b.c?.rolled ?? 0,
    multiplier: b.c?.multiplier,
    dealt: b.c?.dealt ?? b.ar?.dealt ?? b.d,
    armour: b.hit && b.ar ? b.ar.armour : 0,
    type: b.ty !== undefined && b.hit ? (i18n?.localize(`TENSEG.DamageType.${b.ty}`) ?? b.ty) : '',
    injury,
    // III.E: the AC the attack was rolled against when a casting changed it (AC 0 shown too).
    castingAc: b.ac !== undefined,
    ac: b.ac,
  });
}

/** Post the card of a blow (its request's key `q` in its flags: a retry is answered from it). */
export async function postAttackCard(
  combat: Combat.Implementation,
  blow: { attacker: Combatant.Implementation; target: Combatant.Implementation; q: string; b: BlowMark; rolls?: Roll[]; injury?: InjuryCheck },
  shown: CardMode,
): Promise<void> {
  const { attacker, target, q, b } = blow;
  const content = await attackCardContent(attacker.name ?? '', target.name ?? '', b, blow.injury);
  await postCard(
    {
      content,
      rolls: blow.rolls ?? [],
      speaker: ChatMessage.getSpeaker({ actor: storedActor(attacker.actor) }),
      flags: { [SYSTEM_ID]: { kind: 'attack', combat: combat.id, attacker: attacker.id, target: target.id, request: q, hit: b.hit, natural: b.n, needed: b.need, damage: b.d, ...(b.c ? { critical: true } : {}) } },
    },
    shown,
  );
}
