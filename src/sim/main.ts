/** The runner as a program: every procedure, the command line, the exit code. */
import { PROCEDURES } from '../rules/procedures/all';
import { quoted, ROOT, simulate } from './cli';
import { show } from './scenario';
import { loadStrings, Strings } from './strings';

try {
  const r = simulate(process.argv.slice(2), PROCEDURES);
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(r.stderr);
  process.exitCode = r.code;
} catch (e) {
  const t = new Strings(loadStrings(ROOT));
  const message = e instanceof Error ? `${e.name}: ${e.message}` : show(e);
  process.stderr.write(t.format('TENSEG.Error.EngineFault', quoted({ procedure: '?', message })) + '\n');
  process.exitCode = 1;
}
