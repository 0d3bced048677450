/**
 * The one error type `@ssztree/core` throws for misuse, so callers can tell a
 * bad argument (an out-of-range generalized index, a disposed tree, a freed
 * node id) from a bug. Every check that guards the store's invariants throws
 * this, never a raw `RangeError` and never a silently wrong value.
 * @module
 */

/** What went wrong, as a stable code to branch on (each member documents its meaning). */
export type CoreErrorCode =
  /** A generalized index that is not a positive integer (or bigint). */
  | 'GINDEX'
  /** A depth outside the range the operation supports. */
  | 'DEPTH_RANGE'
  /** An index outside 0..2^depth-1, or a count that does not fit. */
  | 'INDEX_RANGE'
  /** Indices passed to a batch write that are not strictly ascending. */
  | 'UNSORTED'
  /** A path that continues below a leaf. */
  | 'NOT_BRANCH'
  /** A path that continues below an opaque node of a partial tree. */
  | 'OPAQUE'
  /** A value that is not a live node id of this store. */
  | 'BAD_NODE'
  /** Byte input of the wrong length (chunks, hashes, wide leaves). */
  | 'BAD_INPUT'
  /** A tree handle used after `dispose()`. */
  | 'DISPOSED'
  /** The store ran out of 27-bit slot numbers in one pool. */
  | 'STORE_FULL'
  /** A malformed proof (wrong helper count, overlapping indices). */
  | 'PROOF';

export class CoreError extends Error {
  override readonly name = 'CoreError';
  constructor(
    readonly code: CoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
