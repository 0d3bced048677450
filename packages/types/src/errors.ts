/**
 * `SszError`: the one exception type every schema operation throws.
 *
 * Invariant: `typePath` names where the failure happened, from the outermost
 * type down (`BeaconState.validators[3].pubkey`), and `offset` is the byte
 * offset in the input being decoded (or in the output being written) at
 * which the problem was found. Inner types throw with an empty path; each
 * enclosing type prepends its own segment on the way out, so building paths
 * costs nothing until something actually fails.
 * @module
 */

/** What went wrong, as a stable code to branch on (each member documents its meaning). */
export type SszErrorCode =
  /** The input ended before the type's bytes did. */
  | 'SHORT_INPUT'
  /** Bytes were left over after the type's bytes. */
  | 'TRAILING_BYTES'
  /** The serialized size does not fit the type (not a multiple of the element size, wrong fixed size). */
  | 'BAD_SIZE'
  /** A variable-size offset is out of order, out of bounds, or not the fixed part's end. */
  | 'BAD_OFFSET'
  /** A boolean byte other than 0 or 1. */
  | 'BAD_BOOLEAN'
  /** Bitvector padding bits set, or a bitlist without its delimiter bit. */
  | 'BAD_BITS'
  /** A list or bitlist longer than its limit. */
  | 'LIMIT_EXCEEDED'
  /** An input longer than the type's byte bound (its largest valid size, or a bound the spec sets), refused before decoding. */
  | 'BOUND_EXCEEDED'
  /** A union selector with no matching option. */
  | 'BAD_SELECTOR'
  /** A value that the type cannot represent (out of range, wrong length, wrong shape). */
  | 'INVALID_VALUE'
  /** A JSON value of the wrong shape. */
  | 'INVALID_JSON'
  /** A type definition that SSZ does not allow (e.g. a vector of length 0). */
  | 'INVALID_TYPE'
  /** The output buffer is too small, or the write offset is out of range. */
  | 'BUFFER_TOO_SMALL'
  /** A tree node does not have the shape the type needs (an opaque node, a leaf where a branch belongs, a bad length leaf). */
  | 'BAD_TREE'
  /** A view path or index that the type does not have (a field name it lacks, an index past the length). */
  | 'BAD_PATH'
  /** A view used after `dispose()` (child views of lists and vectors are disposed by their parent's next commit). */
  | 'STALE_VIEW';

export class SszError extends Error {
  override readonly name = 'SszError';
  /** What went wrong (see `SszErrorCode`). */
  readonly code: SszErrorCode;
  /** Type path from the outermost type, e.g. `BeaconState.validators[3].pubkey`. */
  typePath: string;
  /** Byte offset in the input (decoding) or output (encoding); -1 when no bytes are involved. */
  readonly offset: number;
  /** The problem alone, without path and offset. */
  readonly detail: string;

  constructor(code: SszErrorCode, detail: string, offset = -1, typePath = '') {
    super('');
    this.code = code;
    this.detail = detail;
    this.offset = offset;
    this.typePath = typePath;
    this.message = this.compose();
  }

  /** Prepends a path segment (`.field`, `[3]`, or a type name) and refreshes the message. */
  prefixPath(segment: string): this {
    this.typePath = segment + this.typePath;
    this.message = this.compose();
    return this;
  }

  private compose(): string {
    const where = this.typePath === '' ? '' : ` at ${this.typePath}`;
    const at = this.offset >= 0 ? ` (byte ${this.offset})` : '';
    return `${this.code}${where}${at}: ${this.detail}`;
  }
}

/** An argument as an error message shows it: strings quoted (so `'5'` and `5` read differently), other kinds by name. */
export function describeArg(arg: unknown): string {
  if (typeof arg === 'string') return JSON.stringify(arg);
  if (typeof arg === 'number') return String(arg);
  if (typeof arg === 'bigint') return `${arg}n`;
  return arg === null ? 'null' : `a ${typeof arg}`;
}

/** The message for an index outside a sequence of `length` positions. */
export function indexOutside(i: unknown, length: number): string {
  return length === 0 ? `index ${describeArg(i)}: the sequence is empty` : `index ${describeArg(i)} is outside 0..${length - 1}`;
}

/**
 * Rethrows `error` with `segment` prepended to its path. Anything that is not
 * an SszError (a bug, or a host error such as out-of-memory) is wrapped so no
 * other exception type escapes the public API.
 */
export function withPath(error: unknown, segment: string, offset = -1): SszError {
  if (error instanceof SszError) return error.prefixPath(segment);
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new SszError('INVALID_VALUE', detail, offset, segment);
}
