/**
 * `hashSubtreesInto`: the roots of many equal, complete subtrees laid end to
 * end (a packed list's pages of 2^height chunks), one call for all of them,
 * shared with the worker pool when it is on and the work is large enough.
 *
 * Single-threaded, the subtrees are folded batch by batch through a small
 * reused scratch (a batch's levels stay in L2, as in merkleize), one
 * `hashInto` per level per batch. With workers, each worker folds a
 * contiguous share of whole subtrees in its own staging (`parallelFoldBlocks`)
 * while this thread folds the first share; a worker that fails or times out
 * has its share folded here.
 *
 * `startSubtrees` is the same fold handed to one worker without waiting for
 * it: the caller goes on with other work (preparing the next batch, say)
 * and `wait()` collects the roots later. The worker reads chunks that lie
 * in a SharedArrayBuffer where they are (others are copied to its staging).
 * With the pool off, no idle worker or a small job, it folds here at once
 * and `wait()` has nothing to do.
 *
 * Invariants: `chunks` is only read, never written; results are the same
 * bytes with the pool on or off, whatever happens to the workers.
 * @module
 */
import { HasherError } from './errors.js';
import { hashInto } from './hash.js';
import { LAYER_THRESHOLD, parallelFoldBlocks, startFold } from './parallel/pool.js';
import { activeBackend } from './registry.js';

/** Most levels a subtree may have here (a 2^24-chunk subtree is 512 MiB). */
export const MAX_SUBTREE_HEIGHT = 24;
/** Input bytes folded per batch on this thread: the batch and its first level (96 KiB) fit in L2. */
const BATCH_BYTES = 1 << 16;

let scratch = new Uint8Array(BATCH_BYTES >>> 1);

/**
 * Writes the root of each subtree of 2^height chunks in `chunks` (their
 * bytes back to back) to `roots` (32 bytes each, in order). `chunks.length`
 * must be a whole number of subtrees and `roots.length` 32 per subtree;
 * `roots` must not overlap `chunks`. Height 0 copies the chunks.
 */
export function hashSubtreesInto(chunks: Uint8Array, height: number, roots: Uint8Array): void {
  const blocks = checkSubtrees('hashSubtreesInto', chunks, height, roots);
  if (blocks === 0) return;
  if (height === 0) {
    roots.set(chunks);
    return;
  }
  const foldOnMain = (first: number, count: number): void => foldRange(chunks, height, roots, first, count);
  // Worth the pool only when the whole job is a large layer's worth of messages.
  const minBlocks = Math.ceil(LAYER_THRESHOLD / ((1 << height) - 1));
  if (!parallelFoldBlocks(activeBackend(), chunks, blocks, height, roots, foldOnMain, Math.max(2, minBlocks))) foldOnMain(0, blocks);
}

/** Subtree folds handed to a worker by {@link startSubtrees}. */
export interface PendingSubtrees {
  /** Whether the roots are ready (a `wait()` now would not block). */
  readonly done: boolean;
  /** Blocks until every root is in `roots`; later calls do nothing. Must be called once the roots are needed. */
  wait(): void;
}

/** A job already finished here. */
const FINISHED: PendingSubtrees = { done: true, wait: () => undefined };

/**
 * Fewest messages (2^height − 1 per subtree) `startSubtrees` hands to a
 * worker: this thread does not wait for the job while the worker runs it,
 * so the pool pays off below LAYER_THRESHOLD, but it still copies the
 * chunks in and the roots out and the worker still has to wake.
 */
const START_MIN_MESSAGES = 1 << 11;

/**
 * Starts {@link hashSubtreesInto} on a worker of the pool and returns
 * without waiting. Until the returned job's `wait()` returns, `chunks` must
 * not be written and `roots` neither read nor written; `wait()` must be
 * called (the worker stays reserved until then). Chunks in a
 * SharedArrayBuffer are read by the worker in place, others copied to its
 * staging before this returns. With the pool off, no idle worker, or fewer
 * than 2^11 messages, the roots are hashed here before it returns. The
 * roots are the same bytes in every case, a worker that fails included
 * (its job is then folded here from `chunks`).
 */
export function startSubtrees(chunks: Uint8Array, height: number, roots: Uint8Array): PendingSubtrees {
  const blocks = checkSubtrees('startSubtrees', chunks, height, roots);
  if (blocks === 0) return FINISHED;
  const job =
    height > 0 && blocks * ((1 << height) - 1) >= START_MIN_MESSAGES
      ? startFold(activeBackend(), chunks, blocks, height, roots, () => foldRange(chunks, height, roots, 0, blocks))
      : undefined;
  if (job !== undefined) return job;
  hashSubtreesInto(chunks, height, roots);
  return FINISHED;
}

/** Checks the arguments of a subtree fold; returns the number of subtrees. */
function checkSubtrees(what: string, chunks: Uint8Array, height: number, roots: Uint8Array): number {
  if (!Number.isInteger(height) || height < 0 || height > MAX_SUBTREE_HEIGHT) {
    throw new HasherError('DEPTH_RANGE', `${what}: height ${height} is outside 0..${MAX_SUBTREE_HEIGHT}`);
  }
  const blockBytes = 32 << height;
  if (chunks.length % blockBytes !== 0) {
    throw new HasherError('INPUT_LENGTH', `${what}: ${chunks.length} bytes are not whole subtrees of ${blockBytes}`);
  }
  const blocks = chunks.length / blockBytes;
  if (roots.length !== 32 * blocks) {
    throw new HasherError('OUTPUT_LENGTH', `${what}: ${blocks} subtrees need ${32 * blocks} output bytes, got ${roots.length}`);
  }
  if (overlap(chunks, roots)) throw new HasherError('OUTPUT_LENGTH', `${what}: roots overlap the chunks`);
  return blocks;
}

/** Folds subtrees [first, first + count) on this thread, batch by batch through `scratch`. */
function foldRange(chunks: Uint8Array, height: number, roots: Uint8Array, first: number, count: number): void {
  const blockBytes = 32 << height;
  const perBatch = Math.max(1, Math.floor(BATCH_BYTES / blockBytes));
  const need = (perBatch * blockBytes) >>> 1;
  if (scratch.length < need) scratch = new Uint8Array(need);
  for (let b = first; b < first + count; b += perBatch) {
    const n = Math.min(perBatch, first + count - b);
    const input = chunks.subarray(b * blockBytes, (b + n) * blockBytes);
    const out = roots.subarray(32 * b, 32 * (b + n));
    if (height === 1) {
      hashInto(input, out);
      continue;
    }
    let half = input.length >>> 1;
    hashInto(input, scratch.subarray(0, half));
    for (let level = 2; level < height; level++, half >>>= 1) hashInto(scratch.subarray(0, half), scratch.subarray(0, half >>> 1));
    hashInto(scratch.subarray(0, half), out);
  }
}

function overlap(a: Uint8Array, b: Uint8Array): boolean {
  if (a.buffer !== b.buffer || a.length === 0 || b.length === 0) return false;
  return a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}
