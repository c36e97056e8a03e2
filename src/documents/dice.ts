/**
 * The engine's Dice, backed by Foundry Roll objects: every die the engine
 * asks for is a real Roll, kept so it can be shown in chat.
 */
import type { Dice, DieRequest } from '../rules/dice';

export class FoundryDice implements Dice {
  readonly rolls: { request: DieRequest; roll: Roll }[] = [];
  roll(request: DieRequest): number {
    const roll = new Roll(`${request.count}d${request.faces}`);
    roll.evaluateSync();
    this.rolls.push({ request, roll });
    return roll.total as number;
  }
}
