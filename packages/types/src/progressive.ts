/**
 * Progressive merkleization (EIP-7916, `merkleize_progressive` of the SSZ
 * spec): the geometry of its tree and the root of a run of chunks.
 *
 * The tree of `n` chunks is a spine of branches, right-recursive and ended
 * by the zero chunk; spine node k has on its LEFT the binary subtree of
 * chunks [(4^k − 1)/3, (4^k − 1)/3 + 4^k) — 1, 4, 16, 64, … chunks, zero
 * padded, depth 2k — and on its RIGHT the rest of the spine:
 *
 *   root = H(B0, H(B1, H(B2, … H(B(m−1), 0x00…) …)))
 *
 * (consensus-specs PR #4813 put the subtree left and the recursion right.)
 * The spine has exactly as many nodes as the chunks need subtrees, so a
 * tree of `n` chunks has one shape, and chunk c has one position in it:
 * k rights, one left, then the 2k bits of c's place in subtree k.
 *
 * Invariants: every function here is a pure function of its arguments;
 * positions are exact doubles (a chunk index below 2^48 gives a depth of at
 * most 49); `merkleizeProgressiveInto` equals the spec's recursive
 * definition for every chunk count (tests compare it with a plain recursive
 * model of the spec text).
 * @module
 */
import { hashPairInto, merkleize } from '@ssztree/hasher';
import { SszError } from './errors.js';

/** Subtrees the geometry covers: subtree 24 starts past chunk 2^47, beyond any serializable value. */
const MAX_SUBTREES = 25;

/** First chunk of subtree k: (4^k − 1) / 3. */
const STARTS: readonly number[] = /* @__PURE__ */ Array.from({ length: MAX_SUBTREES + 1 }, (_, k) => (4 ** k - 1) / 3);

/** The most chunks a progressive tree is laid out for here (the start of subtree MAX_SUBTREES). */
export const MAX_PROGRESSIVE_CHUNKS: number = /* @__PURE__ */ STARTS[MAX_SUBTREES] as number;

/**
 * The largest serialization of any SSZ value is 2^32 − 1 bytes (offsets are
 * uint32): the bound progressive kinds, which have no limit of their own,
 * give as `maxSize` and to index checks.
 */
export const MAX_SERIALIZED_SIZE = 2 ** 32 - 1;

/** The chunks subtree k holds: 4^k. */
export function subtreeCapacity(k: number): number {
  return 4 ** k;
}

/** The first chunk of subtree k: (4^k − 1) / 3. */
export function subtreeStart(k: number): number {
  return STARTS[k] as number;
}

/** The subtree that holds chunk `c`: the k with (4^k − 1)/3 ≤ c < (4^(k+1) − 1)/3. */
export function subtreeOf(c: number): number {
  if (!Number.isSafeInteger(c) || c < 0 || c >= MAX_PROGRESSIVE_CHUNKS) {
    throw new SszError('INVALID_VALUE', `chunk ${c} is outside a progressive tree of at most ${MAX_PROGRESSIVE_CHUNKS} chunks`);
  }
  // 3c + 1 lies in [4^k, 4^(k+1)): k is half its bit length, rounded down.
  const x = 3 * c + 1;
  const bits = x < 0x80000000 ? 31 - Math.clz32(x) : 62 - Math.clz32(Math.floor(x / 0x80000000));
  return bits >>> 1;
}

/** How many subtrees (spine nodes) `chunks` chunks need: 0 for none. */
export function subtreeCount(chunks: number): number {
  return chunks === 0 ? 0 : subtreeOf(chunks - 1) + 1;
}

/** A position in a tree: `depth` levels down, `index` from the left at that level. */
export interface TreePosition {
  readonly depth: number;
  readonly index: number;
}

/** The position of subtree k's root below the progressive root: k rights, then one left. */
export function subtreePosition(k: number): TreePosition {
  return { depth: k + 1, index: 2 ** (k + 1) - 2 };
}

/** The position of the spine's end after k subtrees (the zero chunk, or where subtree k would go): k rights. */
export function spineEndPosition(k: number): TreePosition {
  return { depth: k, index: 2 ** k - 1 };
}

/** The position of chunk `c` below the progressive root (its subtree's position, then c's place in it). */
export function chunkPosition(c: number): TreePosition {
  const k = subtreeOf(c);
  const local = c - (STARTS[k] as number);
  return { depth: 3 * k + 1, index: (2 ** (k + 1) - 2) * 4 ** k + local };
}

/** `p` one level further down, on the left (contents under a length, a selector or active fields). */
export function belowLeft(p: TreePosition): TreePosition {
  return { depth: p.depth + 1, index: p.index };
}

const spineScratch = new Uint8Array(32);
const ZERO_CHUNK = new Uint8Array(32);

/**
 * `merkleize_progressive` of the first `count` chunks of `chunks`, written to
 * out[offset, offset + 32): each subtree's chunks merkleized to its capacity
 * (batched, one hasher call per level, by `merkleize`), then the spine folded
 * from its zero end. `chunks` is not changed.
 */
export function merkleizeProgressiveInto(chunks: Uint8Array, count: number, out: Uint8Array, offset: number): void {
  if (count === 0) {
    out.fill(0, offset, offset + 32);
    return;
  }
  const m = subtreeCount(count);
  const roots = new Uint8Array(32 * m);
  for (let k = 0; k < m; k++) {
    const start = STARTS[k] as number;
    const n = Math.min(4 ** k, count - start);
    roots.set(merkleize(chunks.subarray(32 * start, 32 * (start + n)), 4 ** k), 32 * k);
  }
  foldSpineInto(roots, m, out, offset);
}

/** Folds `m` subtree roots (32 bytes each, subtree 0 first) into the spine's root at out[offset]. */
export function foldSpineInto(roots: Uint8Array, m: number, out: Uint8Array, offset: number): void {
  const acc = spineScratch;
  acc.set(ZERO_CHUNK);
  for (let k = m - 1; k >= 0; k--) hashPairInto(roots.subarray(32 * k, 32 * k + 32), acc, acc);
  out.set(acc, offset);
}

/**
 * The chunk `pack_bits(active_fields)`: bit i of the pattern at bit i % 8 of
 * byte i / 8 (at most 256 bits: one chunk).
 */
export function activeFieldsChunk(active: readonly boolean[]): Uint8Array {
  const chunk = new Uint8Array(32);
  for (let i = 0; i < active.length; i++) if (active[i] === true) chunk[i >>> 3] = (chunk[i >>> 3] as number) | (1 << (i & 7));
  return chunk;
}
