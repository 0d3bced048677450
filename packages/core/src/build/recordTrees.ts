/**
 * Building a subtree whose first leaves are new records (wide/records.ts) — a
 * list or vector of fixed-size containers stored compactly — hashed as it
 * is built, with no per-record id list, nursery entry or pending entry.
 *
 * The records get runs of consecutive slots (`Pool.allocRuns`) and the
 * caller's `fill` writes their bytes straight into the record pages, run by
 * run. Then, as in store/levels.ts, every branch level is allocated as runs and
 * linked, and hashing walks the record runs in order: each batch of records
 * is hashed by the layout's `RecordHasher` straight into its slots of the
 * record hash page, and every branch level is carried up as far as the
 * records hashed so far allow (`LevelHasher`: children hashed from their
 * hash page into their parents', no gather), while those hashes are still
 * in cache.
 *
 * `buildPairTree` builds the same list as record pairs one level up
 * (wide/recordPairs.ts): the pairs by `buildRecordTree` of the pair kind (a pair's
 * bytes are two records back to back, so the fill is the same), an odd last
 * record as a single record beside the zero chunk, written in afterwards.
 *
 * Invariants: a `fill` that throws leaves the store as it was (the record
 * slots are freed before anything links them); every node returned is
 * hashed and the root has no holder yet (the caller attaches or floats it).
 * @module
 */
import { CoreError } from '../errors.js';
import { startSubtrees, threadCount, type PendingSubtrees } from '@ssztree/hasher';
import { fillMeta, hashedBranch, linkLevels, type LevelHasher } from '../store/levels.js';
import { checkDepth } from '../gindex.js';
import { MAX_ZERO_DEPTH, type NodeId, zeroId } from '../nodes/ids.js';
import { FLAG_FREE, pageView, type Pool } from '../nodes/pool.js';
import { recordHasher, RECORD_BATCH, type RecordHasher } from '../hash/recordHash.js';
import { setNodesAtDepth } from '../write/batchWrite.js';
import { layoutOf } from '../nodes/recordLayouts.js';
import { newRecord, recordPool } from '../wide/records.js';
import type { StoreCore } from '../store/storeCore.js';

/**
 * Writes records [first, first + n) back to back into `out` (exactly their
 * n · size bytes of a record page; `view` a DataView of the same bytes),
 * every byte of each: the slots may hold a freed record's bytes. It may
 * throw (a value that does not encode): the build is then undone.
 */
export type RecordFill = (out: Uint8Array, view: DataView, first: number, n: number) => void;

/**
 * Where a build put its records: `runs` holds the first slot and the length
 * of each run of slots, in record order; `kind` is the records' node kind
 * (-1: no record made); `paired` says they are record pairs (record k holds
 * elements 2k and 2k + 1). A view's element table of the new list, without
 * a walk.
 */
export interface RecordRuns {
  kind: number;
  runs: number[];
  paired: boolean;
}

/**
 * The subtree of `depth` whose first `count` leaves are new records of
 * `kind` written by `fill`, the rest zero. `height`: the records' height
 * above the level padded with zero chunks (1 for record pairs, whose level
 * pads with zeroId(1)).
 */
export function buildRecordTree(store: StoreCore, kind: number, count: number, depth: number, fill: RecordFill, height = 0, placed?: RecordRuns): NodeId {
  const layout = Number.isInteger(kind) ? layoutOf(kind) : undefined;
  if (layout === undefined) throw new CoreError('BAD_INPUT', `no record layout has kind ${String(kind)}`);
  checkDepth(depth, 0, MAX_ZERO_DEPTH);
  if (!Number.isInteger(count) || count < 0 || count > 2 ** depth) throw new CoreError('INDEX_RANGE', `${count} records do not fit in depth ${depth}`);
  if (count === 0) return zeroId(depth + height);

  const pool = recordPool(store, layout);
  const size = layout.size;
  const runs = pool.allocRuns(count);
  const rc = count > 1 ? 1 : 0;
  for (let r = 0; r < runs.length; r += 2) fillMeta(pool, runs[r]!, runs[r + 1]!, rc);
  try {
    for (let r = 0, first = 0; r < runs.length; first += runs[r + 1]!, r += 2) {
      // The fill sees only its run's bytes: live records sharing the page are out of its reach.
      const page = pool.d8[runs[r]! >>> pool.shift]!;
      const at = page.byteOffset + (runs[r]! & pool.mask) * size;
      const len = runs[r + 1]! * size;
      fill(new Uint8Array(page.buffer, at, len), new DataView(page.buffer, at, len), first, runs[r + 1]!);
    }
  } catch (e) {
    discard(pool, runs, count);
    throw e;
  }

  // Allocate and link every branch level first; hashes come after, run by run.
  const { hashers, root: top } = linkLevels(store, pool, runs, count, height);

  const hasher = recordHasher(layout);
  const carry = levelCarrier(hashers);
  // Two batches or more with the worker pool on: pipelined (see hashRunsPipelined).
  if (count > RECORD_BATCH && threadCount() > 0) hashRunsPipelined(pool, runs, size, hasher, carry);
  else {
    let done = 0;
    forEachBatch(pool, runs, size, (view, data, dataAt, hashes, hashAt, m) => {
      hasher.begin(m);
      hasher.spreadRun(view, data, dataAt, m);
      hasher.finish(m, hashes, hashAt);
      done += m;
      carry(done);
    });
  }
  // The odd last node of each level, in order (each needs the level below complete).
  for (const h of hashers) h.step(Number.MAX_SAFE_INTEGER, true);

  let root: NodeId = top;
  for (let level = hashers.length; level < depth; level++) root = hashedBranch(store, root, zeroId(level + height));
  if (placed !== undefined) {
    placed.kind = kind;
    placed.runs = runs;
  }
  return root;
}

/**
 * Carries every branch level up as far as the first `done` records (hashed)
 * allow: level h can hash floor(done / 2^(h+1)) pairs.
 */
function levelCarrier(hashers: LevelHasher[]): (done: number) => void {
  const stepped = new Array<number>(hashers.length).fill(0);
  return (done) => {
    for (let h = 0; h < hashers.length; h++) {
      const pairs = Math.floor(done / 2 ** (h + 1));
      if (pairs === stepped[h]) break;
      hashers[h]!.step(pairs - stepped[h]!, false);
      stepped[h] = pairs;
    }
  };
}

/**
 * The record hashing of a build with the worker pool on, as a pipeline over
 * two threads: each batch's rows are spread and its long fields hashed here,
 * then the rows' folds (all levels, the bulk of the hashing) are handed to a
 * worker with `startSubtrees`, and while the worker folds batch i this
 * thread spreads batch i + 1 and carries the branch levels up over batch
 * i − 1. Single-threaded, spreading and hashing take turns on one core;
 * here each has a core. Batches alternate between two row buffers in shared
 * memory (`RecordHasher.useRows`): the worker reads one in place while this
 * thread spreads into the other.
 *
 * This thread never waits for the worker mid-build: when the worker's batch
 * is not done by the time the next one is ready, this thread folds that
 * next one itself. It also folds the first part of each batch it hands
 * over, so that the two threads finish together: the part grows when the
 * worker was behind and shrinks when it was not (`RecordHasher.hereShare`,
 * kept from build to build).
 */
function hashRunsPipelined(pool: Pool, runs: number[], size: number, hasher: RecordHasher, carry: (done: number) => void): void {
  let pending: PendingSubtrees | undefined;
  // Records before the current batch; the buffer of the pair to spread into.
  let done = 0;
  let rows = 0;
  try {
    forEachBatch(pool, runs, size, (view, data, dataAt, h8, at, m) => {
      hasher.begin(m);
      hasher.useRows(rows);
      hasher.spreadRun(view, data, dataAt, m);
      hasher.hashLongs(m);
      if (pending !== undefined && !pending.done) {
        // The worker is behind (or has lost its core to another process): this thread folds
        // the batch itself rather than wait, and its rows buffer is free again for the next.
        hasher.hereShare = Math.min(HERE_MAX, hasher.hereShare + HERE_STEP);
        hasher.foldRows(0, m, h8, at);
      } else {
        if (pending !== undefined) {
          hasher.hereShare = Math.max(0, hasher.hereShare - HERE_STEP);
          pending.wait();
        }
        const k = Math.round(hasher.hereShare * m);
        pending = startSubtrees(hasher.rows(k, m), hasher.depth, h8.subarray(at + 32 * k, at + 32 * m));
        // The worker reads this buffer until the wait: the next batch goes to the other.
        rows ^= 1;
        hasher.foldRows(0, k, h8, at);
        // Every batch before this one is hashed now.
        carry(done);
      }
      done += m;
    });
  } finally {
    pending?.wait();
    hasher.useRows(-1);
  }
  carry(done);
}

/**
 * Visits the records of `runs` in batches of up to RECORD_BATCH, run by run
 * (a run lies in one page): the page's data view and bytes with the batch's
 * first byte, the page's hashes with the batch's first root, and its size.
 */
function forEachBatch(
  pool: Pool,
  runs: number[],
  size: number,
  visit: (view: DataView, data: Uint8Array, dataAt: number, hashes: Uint8Array, hashAt: number, m: number) => void,
): void {
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r]!;
    const len = runs[r + 1]!;
    const p = start >>> pool.shift;
    const data = pool.d8[p]!;
    const view = pageView(data);
    const off = start & pool.mask;
    for (let b = 0; b < len; b += RECORD_BATCH) visit(view, data, (off + b) * size, pool.h8[p]!, 32 * (off + b), Math.min(RECORD_BATCH, len - b));
  }
}

/** The share of a batch this thread folds in a pipelined build: at most half, moved by 1/64 a batch. */
const HERE_MAX = 0.5;
const HERE_STEP = 1 / 64;

/** Frees the record slots of a build whose fill threw (nothing links them yet). */
function discard(pool: Pool, runs: number[], count: number): void {
  for (let r = 0; r < runs.length; r += 2) {
    for (let slot = runs[r]!; slot < runs[r]! + runs[r + 1]!; slot++) {
      pool.setState(slot, FLAG_FREE);
      pool.recycle(slot);
    }
  }
  pool.live -= count;
}

/**
 * The subtree of `depth` whose first `count` elements (at level `depth`) are
 * records of base kind `kind` written by `fill`, stored as pairs one level
 * up; an odd last record stays a single record under a branch beside the
 * zero chunk (SSZ pads a list with zero chunks, and no record's root is
 * zero). Without a pair kind (or at depth 0) it is `buildRecordTree` of
 * single records. Hashed as built but for the odd record and its path,
 * which the next flush hashes.
 */
export function buildPairTree(store: StoreCore, kind: number, count: number, depth: number, fill: RecordFill, placed?: RecordRuns): NodeId {
  const layout = Number.isInteger(kind) ? layoutOf(kind) : undefined;
  if (layout === undefined || layout.halves !== 0) throw new CoreError('BAD_INPUT', `no base record layout has kind ${String(kind)}`);
  checkDepth(depth, 0, MAX_ZERO_DEPTH);
  if (layout.pair < 0 || depth < 1) return buildRecordTree(store, kind, count, depth, fill, 0, placed);
  if (!Number.isInteger(count) || count < 0 || count > 2 ** depth) throw new CoreError('INDEX_RANGE', `${count} records do not fit in depth ${depth}`);
  const pairs = Math.floor(count / 2);
  // Pair i is records 2i and 2i + 1, back to back: the caller's fill writes them as it writes any run.
  const root = buildRecordTree(store, layout.pair, pairs, depth - 1, (out, view, first, n) => fill(out, view, 2 * first, 2 * n), 1, placed);
  if (placed !== undefined) placed.paired = true;
  if (count % 2 === 0) return root;
  const tail = new Uint8Array(layout.size);
  try {
    fill(tail, new DataView(tail.buffer), count - 1, 1);
  } catch (e) {
    store.dropIfUnheld(root);
    throw e;
  }
  const result = setNodesAtDepth(store, root, depth, [count - 1], [newRecord(store, layout, tail, 0)]);
  store.dropIfUnheld(root);
  return result;
}
