/**
 * Bulk builds over wide leaves: the subtree whose first `count` positions
 * of one level are new wide leaves ("pages") made from caller bytes, the
 * rest zero, hashed as it is built.
 *
 * This is the page-level twin of `buildFromChunks`: the pages are allocated
 * as runs of consecutive slots of their wide pool (`Pool.allocRuns`) and
 * their data copied in, and the branch levels above are allocated and
 * linked run by run — no pending lists, no per-node navigation. Hashing
 * takes one of two routes:
 * - with the worker pool on, a large build whose pages lie back to back in
 *   the source (an epoch's balances written in order, a list from bytes)
 *   hashes whole levels: all page roots in one `hashSubtreesInto` straight
 *   from the source, then each wide branch level in one `hashInto` over a
 *   contiguous buffer, the hashes copied into the nodes' slots. Calls that
 *   large are what the hasher's worker pool shares (a pool page run, 1024
 *   pages, is below its threshold);
 * - otherwise run by run (first fold straight from the data page, the last
 *   straight into the pool's hash page, branches from hash page to hash page).
 * Both give the same bytes. Packed views use it when a commit rewrites most
 * pages of a list (an epoch's balances) and to build packed lists from bytes.
 *
 * Invariant (as in store/levels.ts): every node returned is hashed (dh 0, not
 * pending), the pages' and branches' counts are their parent links, and the
 * returned root has no holder yet (the caller attaches or floats it).
 * @module
 */
import { hashInto, hashSubtreesInto, threadCount, zeroHash, zeroHashInto } from '@ssztree/hasher';
import { fillMeta, hashedBranch, LevelHasher, linkLevel } from '../store/levels.js';
import { CoreError } from '../errors.js';
import { staging } from '../hash/flush.js';
import { checkDepth } from '../gindex.js';
import { KIND_WIDE_BASE, MAX_WIDE_DEPTH, MAX_ZERO_DEPTH, type NodeId, zeroId } from '../nodes/ids.js';
import type { Pool } from '../nodes/pool.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';
import { pagesToHash } from './zeroPages.js';

/** Where the bytes of the pages come from. */
export interface PageSource {
  /** The bytes. */
  readonly data: Uint8Array;
  /**
   * Byte offset of page i in `data` (each a full page inside `data`); when
   * absent, page i starts at i·pageBytes and bytes past the end of `data`
   * read as zero (a partial last page).
   */
  readonly offsets?: ArrayLike<number> | undefined;
}

/**
 * The subtree of depth `depth` (counted in page levels: the result spans
 * 2^(depth + innerDepth) chunks) whose first `count` positions are new wide
 * leaves of inner depth `innerDepth` made from `source`, the rest zero.
 * `ids`, when given, receives page i's node id at ids[i].
 */
export function buildFromPages(store: NodeStore, source: PageSource, count: number, innerDepth: number, depth: number, ids?: Int32Array): NodeId {
  checkDepth(innerDepth, 1, MAX_WIDE_DEPTH);
  checkDepth(depth, 0, MAX_ZERO_DEPTH - innerDepth);
  const pageBytes = 32 << innerDepth;
  const { data, offsets } = source;
  if (!(data instanceof Uint8Array)) throw new CoreError('BAD_INPUT', 'pages: data must be a Uint8Array');
  if (!Number.isInteger(count) || count < 0 || count > 2 ** depth) throw new CoreError('INDEX_RANGE', `${count} pages do not fit in depth ${depth}`);
  // Byte offset in `data` where the pages lie back to back, in order (-1: scattered).
  let start = 0;
  if (offsets !== undefined) {
    if (offsets.length < count) throw new CoreError('BAD_INPUT', `${count} pages but ${offsets.length} offsets`);
    start = count > 0 ? offsets[0]! : 0;
    for (let i = 0; i < count; i++) {
      const o = offsets[i]!;
      if (!Number.isInteger(o) || o < 0 || o + pageBytes > data.length) throw new CoreError('BAD_INPUT', `no ${pageBytes} bytes at offset ${o}`);
      if (o !== start + i * pageBytes) start = -1;
    }
  } else if (data.length > count * pageBytes) {
    throw new CoreError('BAD_INPUT', `${data.length} bytes are more than ${count} pages of ${pageBytes}`);
  }
  if (count === 0) return zeroId(depth + innerDepth);
  if (ids !== undefined && ids.length < count) throw new CoreError('BAD_INPUT', `ids holds ${ids.length} of ${count} pages`);

  const pool = store.pools[KIND_WIDE_BASE + innerDepth - 1]!;
  const pageRuns = pool.allocRuns(count);
  // Contiguous pages of a large build are hashed level by level when the worker pool can share the levels (see LevelBuffer).
  const levels = start >= 0 && count >= WHOLE_LEVELS_MIN && threadCount() > 0 ? new LevelBuffer(store, count) : null;
  if (levels !== null) hashPageRoots(data, start, count, innerDepth, levels.hashes);
  // Pages are linked by the first run level (count 1); the top levels reset this (see below).
  const pageRc = 1;
  let first = 0;
  for (let r = 0; r < pageRuns.length; r += 2) {
    const slot = pageRuns[r]!;
    const len = pageRuns[r + 1]!;
    fillMeta(pool, slot, len, pageRc);
    copyPages(pool, slot, len, data, offsets, first, pageBytes);
    if (levels === null) hashPages(store, pool, slot, len, innerDepth);
    if (ids !== undefined) writeRunIds(ids, first, slot, len, pool.kind);
    first += len;
  }
  if (levels !== null) levels.place(pool, pageRuns);
  // The page roots sit in runs like leaves do: the wide branch levels are built as in buildFromChunks.
  let childPool: Pool = pool;
  let runs = pageRuns;
  let n = count;
  let level = 0;
  for (; n >>> 1 >= RUN_LEVEL_MIN; level++) {
    const parentRuns = store.branches.allocRuns((n + 1) >>> 1);
    linkLevel(store, childPool, runs, n, parentRuns, level + innerDepth);
    if (levels !== null) {
      levels.up(n, level + innerDepth);
      levels.place(store.branches, parentRuns);
    } else {
      new LevelHasher(childPool, runs, n, store.branches, parentRuns, level + innerDepth).step(Number.MAX_SAFE_INTEGER, true);
    }
    childPool = store.branches;
    runs = parentRuns;
    n = (n + 1) >>> 1;
  }
  // The narrow top (fewer than RUN_LEVEL_MIN parents per level) node by node: asking the pool for
  // small runs would scan fragmented pages for short stretches, level after level.
  // Their counts are reset: the run levels counted a parent link that hashedBranch now makes (and counts).
  let nodes: NodeId[] = [];
  for (let r = 0; r < runs.length; r += 2) {
    for (let i = 0; i < runs[r + 1]!; i++) {
      childPool.setRc(runs[r]! + i, 0);
      nodes.push(((runs[r]! + i) << 4) | childPool.kind);
    }
  }
  for (; nodes.length > 1; level++) {
    const parents: NodeId[] = [];
    for (let i = 0; i < nodes.length; i += 2) parents.push(hashedBranch(store, nodes[i]!, i + 1 < nodes.length ? nodes[i + 1]! : zeroId(level + innerDepth)));
    nodes = parents;
  }
  let root = nodes[0]!;
  for (; level < depth; level++) root = hashedBranch(store, root, zeroId(level + innerDepth));
  return root;
}

/**
 * Fewest pages hashed level by level in one buffer rather than run by run
 * (with the worker pool on): from here the page folds are large enough
 * (2^13 messages) for the pool to take a share. With the pool off the run
 * by run route stays: it hashes each run from the data page it has just
 * copied (still in cache), where the level route reads the source a second
 * time — measured no faster single-threaded on an epoch (2^15 pages), up
 * to ~1.5 ms slower.
 */
const WHOLE_LEVELS_MIN = 1 << 11;

/**
 * One level's hashes of a large build, back to back in the store's staging
 * (page roots first, then each branch level in place over the one below), so
 * that each level is one `hashInto` call the worker pool can share instead
 * of one call per pool page run. `place` copies a level into its nodes'
 * hash slots.
 */
class LevelBuffer {
  readonly hashes: Uint8Array;

  constructor(store: NodeStore, count: number) {
    const bytes = 32 * (count + 1);
    this.hashes = staging(store, bytes).subarray(0, bytes);
  }

  /** Hashes the level of `n` nodes at `level` (an odd last one paired with the zero subtree) into its parents, in place. */
  up(n: number, level: number): void {
    const h = this.hashes;
    if ((n & 1) === 1) zeroHashInto(level, h, 32 * n);
    const parents = (n + 1) >>> 1;
    hashInto(h.subarray(0, 64 * parents), h.subarray(0, 32 * parents));
  }

  /** Copies the current level's hashes into the hash slots of `runs` of `pool`, in order. */
  place(pool: Pool, runs: number[]): void {
    for (let r = 0, at = 0; r < runs.length; r += 2) {
      const slot = runs[r]!;
      const len = runs[r + 1]!;
      const off = (slot & pool.mask) << 5;
      pool.h8[slot >>> pool.shift]!.set(this.hashes.subarray(at, at + 32 * len), off);
      at += 32 * len;
    }
  }
}

/**
 * Writes the roots of `count` contiguous pages (from byte `start` of
 * `data`) to `roots`: the whole pages in one `hashSubtreesInto` straight from
 * the source (shared with the worker pool when on), a partial tail through
 * a zero-padded copy.
 */
function hashPageRoots(data: Uint8Array, start: number, count: number, innerDepth: number, roots: Uint8Array): void {
  const pageBytes = 32 << innerDepth;
  const whole = Math.min(count, Math.floor((data.length - start) / pageBytes));
  hashSubtreesInto(data.subarray(start, start + whole * pageBytes), innerDepth, roots.subarray(0, 32 * whole));
  if (whole === count) return;
  // A partial page is hashed from a zero-padded copy; pages past the end of the data are zero subtrees.
  const rest = data.length - start - whole * pageBytes;
  let next = whole;
  if (rest > 0) {
    const tail = new Uint8Array(pageBytes);
    tail.set(data.subarray(start + whole * pageBytes));
    hashSubtreesInto(tail, innerDepth, roots.subarray(32 * next, 32 * next + 32));
    next++;
  }
  for (; next < count; next++) zeroHashInto(innerDepth, roots, 32 * next);
}

/**
 * ids[first + i] = the id of slot + i, for a run. Its own function, as are
 * the other long loops of a build: a build runs once per epoch, and when V8
 * deoptimises the caller at a path it has not seen yet (it did, in the
 * first epochs after a state build), the loops it calls keep their own
 * optimised code instead of running on in the interpreter.
 */
function writeRunIds(ids: Int32Array, first: number, slot: number, len: number, kind: number): void {
  for (let i = 0; i < len; i++) ids[first + i] = ((slot + i) << 4) | kind;
}

/** Levels with fewer parents than this are built node by node (see buildFromPages). */
const RUN_LEVEL_MIN = 64;

/** Copies pages [first, first + len) of `source` into the data blocks of slots [slot, slot + len) (one data page). */
function copyPages(pool: Pool, slot: number, len: number, data: Uint8Array, offsets: ArrayLike<number> | undefined, first: number, pageBytes: number): void {
  const d8 = pool.d8[slot >>> pool.shift]!;
  const at = (slot & pool.mask) * pageBytes;
  if (offsets === undefined) {
    // Contiguous pages: one copy for the run, zeros past the end of the data (recycled slots hold old bytes).
    const from = first * pageBytes;
    const to = Math.min(data.length, from + len * pageBytes);
    d8.set(data.subarray(from, to), at);
    d8.fill(0, at + (to - from), at + len * pageBytes);
    return;
  }
  if (data.byteOffset % 4 === 0) {
    const words = new Int32Array(data.buffer, data.byteOffset, data.length >>> 2);
    const d32 = pool.d32[slot >>> pool.shift]!;
    const n = pageBytes >>> 2;
    let aligned = true;
    for (let i = 0; i < len && aligned; i++) aligned = offsets[first + i]! % 4 === 0;
    if (aligned) {
      for (let i = 0, o = at >>> 2; i < len; ) {
        // Pages back to back in `data` (a view's pages dirtied in order) are copied as one stretch.
        const src = offsets[first + i]!;
        let end = i + 1;
        while (end < len && offsets[first + end] === src + (end - i) * pageBytes) end++;
        const from = src >>> 2;
        const count = (end - i) * n;
        if (end - i > 1) d32.set(words.subarray(from, from + count), o);
        else for (let w = 0; w < n; w++) d32[o + w] = words[from + w]!;
        o += count;
        i = end;
      }
      return;
    }
  }
  for (let i = 0; i < len; i++) {
    const src = offsets[first + i]!;
    d8.set(data.subarray(src, src + pageBytes), at + i * pageBytes);
  }
}

/**
 * Hashes the roots of the pages in slots [slot, slot + len): folds from the
 * data page, through staging, into the hash page. Long stretches of all-zero
 * pages are not hashed (zeroPages.ts): their root is the zero hash.
 */
function hashPages(store: NodeStore, pool: Pool, slot: number, len: number, innerDepth: number): void {
  const page = slot >>> pool.shift;
  const off = slot & pool.mask;
  const pageBytes = 32 << innerDepth;
  const data = pool.d8[page]!;
  const roots = pool.h8[page]!;
  const skipped = pagesToHash(pool.d32[page]!, (off * pageBytes) >>> 2, len, pageBytes >>> 2, stretches);
  if (skipped > 0) {
    const zero = (zeroRoots[innerDepth] ??= zeroHash(innerDepth));
    for (let i = 0; i < len; i++) roots.set(zero, 32 * (off + i));
  }
  for (let k = 0; k < stretches.length; k += 2) {
    const from = off + stretches[k]!;
    const to = off + stretches[k + 1]!;
    foldPages(store, data.subarray(from * pageBytes, to * pageBytes), to - from, innerDepth, roots.subarray(32 * from, 32 * to));
  }
}

/** `hashPages`' stretches to hash (kept). */
const stretches: number[] = [];
/** The root of an all-zero page, by inner depth. */
const zeroRoots: Uint8Array[] = [];

/** The roots of `count` pages back to back in `data` into `roots`: one fold per level, through staging. */
function foldPages(store: NodeStore, data: Uint8Array, count: number, innerDepth: number, roots: Uint8Array): void {
  if (innerDepth === 1) {
    hashInto(data, roots);
    return;
  }
  let bytes = (count * (32 << innerDepth)) / 2;
  const st = staging(store, bytes);
  hashInto(data, st.subarray(0, bytes));
  for (let level = 2; level < innerDepth; level++, bytes >>>= 1) hashInto(st.subarray(0, bytes), st.subarray(0, bytes >>> 1));
  hashInto(st.subarray(0, bytes), roots);
}
