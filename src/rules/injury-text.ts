/**
 * A Combat Injury (individual-speed) in words, for the runner's lines and
 * Foundry's chat cards alike: pure, it only picks the localization keys
 * (TENSEG.Injury.*) and fills them through the formatter it is given.
 */
import type { CombatInjury } from './model';

export type Format = (key: string, data?: Record<string, string | number>) => string;

/** "Broken upper arm (Blunt 9, off-hand side). Strength −7. No attacks with that arm." `has`: is there a string for this key (a row's effect)? */
export function injuryText(format: Format, has: (key: string) => boolean, injury: CombatInjury): string {
  const type = injury.type !== undefined ? format(`TENSEG.DamageType.${injury.type}`) : '';
  const parts: string[] = [];
  if (injury.row !== undefined && injury.type !== undefined) {
    const base = `TENSEG.Injury.${injury.type}.${injury.row}`;
    const where = injury.side !== undefined ? format('TENSEG.Injury.WithSide', { type, row: injury.row, side: format(`TENSEG.Injury.Side.${injury.side}`) }) : format('TENSEG.Injury.Where', { type, row: injury.row });
    parts.push(format('TENSEG.Injury.Named', { name: format(`${base}.Name`), where }));
    if (injury.abilityDamage) {
      const abilities = injury.abilityDamage.abilities.map((a) => format(`TENSEG.Injury.Ability.${a}`)).join(format('TENSEG.Injury.And'));
      parts.push(format('TENSEG.Injury.AbilityDamage', { abilities, amount: injury.abilityDamage.amount }));
    }
    if (has(`${base}.Effect`)) parts.push(format(`${base}.Effect`));
  } else if (injury.text === undefined) {
    parts.push(injury.type !== undefined ? format('TENSEG.Injury.Pending', { type }) : format('TENSEG.Injury.PendingUntyped'));
  }
  if (injury.text !== undefined) parts.push(injury.type !== undefined && injury.row === undefined ? format('TENSEG.Injury.Text', { text: injury.text, type }) : injury.text);
  return parts.join(' ');
}
