/**
 * What the tracker reads of addict's declaring in turn (who is called, the
 * clock): loaded when a tracker draws an addict combat, not at start-up.
 */
import { clockView, turnCall } from '../../documents/declaring-in-turn';

export const turnClock = { turnCall, clockView };
