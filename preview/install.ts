/**
 * Imported first by preview/main.ts: the system's modules extend Foundry's
 * classes when they load (`class X extends foundry.abstract.TypeDataModel`),
 * so the stand-in is installed before them, as tests/standin/global.ts does
 * in Node. main.ts installs it again with the language and the manifest (the
 * base classes are the same objects in every install).
 */
import { installFoundry } from '../tests/standin';

installFoundry({ generation: 13 });
