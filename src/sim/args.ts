/**
 * A command line walked argument by argument, as both runners read theirs
 * (`npm run sim`, cli.ts; `npm run odds`, odds/cli.ts): a flag's name is what
 * comes before any "=", its value the rest ("--seed=7") or else the next
 * argument unless that is itself a flag ("--seed 7").
 */
export interface Arg {
  /** The argument as given. */
  arg: string;
  /** The flag's name ("--seed" of "--seed=7"), or the argument itself. */
  name: string;
  /** The flag's value: inline, or the next argument (then skipped); undefined when there is none. */
  value(): string | undefined;
}

export function walkArgs(argv: readonly string[], visit: (a: Arg) => void): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    visit({
      arg,
      name: eq > 0 ? arg.slice(0, eq) : arg,
      value: () => {
        if (inline !== undefined) return inline;
        const next = argv[i + 1];
        if (next === undefined || (next.startsWith('--') && next.length > 2)) return undefined;
        i++;
        return next;
      },
    });
  }
}
