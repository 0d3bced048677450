/**
 * A small argv parser: positionals, boolean flags and valued options
 * (`--name value`, `--name=value`, `-o value`), `--` ends options, a lone
 * `-` is a positional (stdin).
 *
 * Invariant: an option the command does not declare, or a valued option
 * without its value, is a `UsageError`, never silently ignored.
 * @module
 */
import { UsageError } from './errors.js';

export interface OptionSpec {
  /** Boolean flags, long names without dashes. */
  readonly flags: readonly string[];
  /** Options taking a value, long names without dashes. */
  readonly values: readonly string[];
  /** Short aliases: `o` → `output`. */
  readonly short?: Readonly<Record<string, string>>;
}

export interface ParsedArgs {
  readonly positionals: string[];
  readonly flags: Set<string>;
  readonly values: Map<string, string>;
}

export function parseArgs(argv: readonly string[], spec: OptionSpec): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    let name: string;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
    } else {
      const long = spec.short?.[arg.slice(1)];
      if (long === undefined) throw new UsageError(`unknown option ${arg}`);
      name = long;
    }
    if (spec.flags.includes(name)) {
      if (inline !== undefined) throw new UsageError(`option --${name} takes no value`);
      flags.add(name);
    } else if (spec.values.includes(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`option --${name} needs a value`);
      values.set(name, value);
    } else throw new UsageError(`unknown option ${arg}`);
  }
  return { positionals, flags, values };
}
