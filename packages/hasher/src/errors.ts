/**
 * The one error type the hasher throws for bad arguments, so callers can tell
 * a misuse (wrong length, limit exceeded, unknown backend) from a bug.
 * @module
 */

/** What went wrong: bad lengths or limits, or an unknown / unavailable backend name. */
export type HasherErrorCode = 'INPUT_LENGTH' | 'OUTPUT_LENGTH' | 'LIMIT_EXCEEDED' | 'DEPTH_RANGE' | 'LENGTH_RANGE' | 'UNKNOWN_HASHER' | 'HASHER_UNAVAILABLE';

export class HasherError extends Error {
  override readonly name = 'HasherError';
  constructor(
    readonly code: HasherErrorCode,
    message: string,
  ) {
    super(message);
  }
}
