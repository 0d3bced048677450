/**
 * CLI errors and their one-line rendering.
 *
 * Invariant: whatever goes wrong, the user sees exactly one line
 * `ssztree: …` on stderr (plus the usage line for usage errors, and a stack
 * only with `--debug`), and the process exits non-zero. Schema failures keep
 * the library's type path and byte offset.
 * @module
 */
import { SszError } from '@ssztree/types';

/** Exit codes: 0 success; 1 a negative answer (diff: different, verify-proof: invalid); 2 any error. */
export const EXIT_OK = 0;
export const EXIT_NO = 1;
export const EXIT_ERROR = 2;

export class CliError extends Error {
  override readonly name = 'CliError';
  /** True when the command line itself was wrong: the usage line follows the message. */
  readonly usage: boolean;

  constructor(message: string, usage = false) {
    super(message);
    this.usage = usage;
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, true);
  }
}

/**
 * The one line describing an `SszError`: what failed, where in the type, and
 * at which byte. `source` names the input (a file name) and `bytesNote`
 * says which bytes the offset counts (e.g. of the decompressed SSZ).
 */
export function describeSszError(e: SszError, source = '', bytesNote = ''): string {
  const head = source === '' ? '' : `${source}: `;
  const at = e.typePath === '' ? '' : ` at ${e.typePath}`;
  const offset = e.offset >= 0 ? `, byte offset ${e.offset}${bytesNote}` : '';
  return `${head}${e.detail} (${e.code})${at}${offset}`;
}

/**
 * The line printed for any thrown value (without the `ssztree: ` prefix).
 * An internal error points to `--debug` for its stack, unless `debug` is on
 * (the stack follows the line then).
 */
export function describeError(e: unknown, debug = false): string {
  if (e instanceof CliError) return e.message;
  if (e instanceof SszError) return describeSszError(e);
  if (e instanceof Error) return `internal error: ${e.name}: ${e.message}${debug ? '' : ' (run with --debug for the stack)'}`;
  return `internal error: ${String(e)}`;
}
