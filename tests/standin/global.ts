/**
 * Import this first in a test file whose imports touch Foundry globals at
 * module load (`class X extends foundry.abstract.TypeDataModel`):
 *
 *   import '../standin/global';
 *   import { CombatData } from '../../src/data/combat-models';
 *
 * It installs generation FOUNDRY_GENERATION (default 13). The stand-in's base
 * classes are the same objects in every install, so a later
 * installFoundry({ generation: 14 }) keeps the imported subclasses working.
 */
import { installFoundry } from './index';

const generation = Number(process.env.FOUNDRY_GENERATION ?? 13) === 14 ? 14 : 13;
export const foundryHandle = installFoundry({ generation });
