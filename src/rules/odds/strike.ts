/**
 * One rolled attack of an odds trial (issue 14), as the Foundry layer rolls
 * it (src/documents/handlers/attack.ts): under individual-speed d20 + attack
 * bonus against Defense (+4 for a Full-Defense this round), a natural 20 a
 * critical hit multiplying the damage by the weapon's multiplier, the
 * target's Armour taken off each hit (rules/attack.ts damageTaken); under
 * every other procedure d20 against AAC0 and the armor class the procedure
 * gives now (flow/casting.ts armorClassNow), missile weapons with their
 * missile modifiers. Every d20 and damage die goes through the Dice.
 */
import { criticalMultiplier, damageTaken, defenseScore, fullDefenseIn, missileModifiers, resolveAttack, resolveDefenseAttack, totalModifier, type Aac0 } from '../attack';
import type { Dice } from '../dice';
import type { Combatant, DamageType, WeaponStats } from '../model';
import { RulesError } from '../model';
import type { Procedure, ProcedureOptions } from '../procedure';
import { armorClassNow, type FlowState } from '../flow';
import { rollCompiled, type Compiled } from './formula';

/** What strikes: each attack's damage (one entry per attack roll; a weapon has one), the weapon (critical multiplier, damage type, missile). */
export interface Blow {
  damage: readonly Compiled[];
  weapon?: WeaponStats;
  missile: boolean;
}

/** What the attacker brings: AAC0 and the Combatant (attack bonus, missile bonus). */
export interface Striker {
  combatant: Combatant;
  aac0: Aac0;
}

/** The target's side of it: the Combatant (Defense, Armour) and its sheet's armor class. */
export interface Struck {
  combatant: Combatant;
  ac: number;
}

/** The damage a blow does (its attacks' hits together, after Armour) and whether any hit was critical (individual-speed). */
export interface Landed {
  amount: number;
  critical: boolean;
  type?: DamageType;
}

/** Roll every attack of a blow at `target` now; the hits land together. */
export function strike(state: FlowState, procedure: Procedure<ProcedureOptions>, attacker: Striker, target: Struck, blow: Blow, dice: Dice): Landed {
  const speed = procedure.id === 'individual-speed';
  const who = attacker.combatant;
  const mods = blow.missile ? missileModifiers(who.missileBonus ?? 0, 0, speed) : null;
  const modifier = mods ? totalModifier(mods) : 0;
  let defense = 0;
  let ac = target.ac;
  if (speed) defense = defenseScore(target.combatant, fullDefenseIn(state.schedule, target.combatant.id));
  else ac = armorClassNow(state, target.combatant.id, target.ac, procedure).ac;
  const multiplier = speed ? criticalMultiplier(blow.weapon?.critical) : 1;
  let amount = 0;
  let critical = false;
  for (const damage of blow.damage) {
    const natural = dice.roll({ purpose: 'attack', count: 1, faces: 20, combatant: who.id, round: state.round });
    let hit: boolean;
    let crit = false;
    if (speed) {
      const r = resolveDefenseAttack({ attackBonus: who.attackBonus ?? 0, defense, modifiers: mods ?? undefined }, natural);
      if (!r.ok) throw new RulesError(r.problem);
      hit = r.value.hit;
      crit = r.value.critical;
    } else {
      const r = resolveAttack({ aac0: attacker.aac0, ac, modifiers: modifier ? mods ?? undefined : undefined }, natural);
      if (!r.ok) throw new RulesError(r.problem);
      hit = r.value.hit;
    }
    if (!hit) continue;
    const rolled = rollCompiled(damage, dice, 'damage', who.id, state.round);
    if (speed) {
      const taken = damageTaken(rolled, { critical: crit, multiplier, armour: target.combatant.armour });
      amount += taken.taken;
      if (crit) critical = true;
    } else amount += Math.max(0, rolled);
  }
  const landed: Landed = { amount, critical };
  const type = speed ? blow.weapon?.damageTypes?.[0] : undefined;
  if (type !== undefined) landed.type = type;
  return landed;
}
