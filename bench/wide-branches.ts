/**
 * Wider inner nodes: what would they save a block's copied paths? A
 * decision prototype, standalone: it changes nothing in packages/core.
 *
 * A block writes, on a clone of the previous head, 1024 random pages of the
 * balances (2^15 wide-leaf pages of 8 chunks under a depth-35 contents
 * tree, as a 2^20-validator state has them) and 128 random validators (new
 * record pairs at level 39 of a depth-40 contents tree holding 2^19 pairs);
 * then the old head is released (the free cascade of its replaced paths),
 * as bench/realistic.ts does after the new root. This file times that block
 * on miniature stores built the way core builds its own (paged
 * struct-of-arrays pools of 2^15-slot pages, free stacks with checked pops,
 * reference counts, ids `slot << 4 | kind`, the real `hashInto`):
 *
 * - `bin`: today's binary layout. A branch is a 16 B meta row [left, right,
 *   rc, state] plus a 32 B hash in a hash page. The commit is
 *   write/copiedWides.ts (paths found breadth first, each level's new
 *   branches linked, their off-path children retained, the level hashed by
 *   one `hashInto`); the release is store/reclaim.ts's `freeCascade`. The
 *   validators are written by the same fused copy (core itself walks them:
 *   write/batchWrite.ts + the flush, see the `core` row).
 * - `r8`, `r16`: radix-8 / radix-16 inner nodes, one row each (cache-line
 *   padded): [rc, state, the node's root hash, the hashes of its other
 *   internal binary levels (7 or 15 hashes in all), 8 or 16 child ids].
 *   A written path touches one node per 3 or 4 binary levels; copying a
 *   node copies its row and retains its 7 or 15 off-path children; only the
 *   written path's internal hashes are recomputed, level by level across
 *   all nodes of a node level (one `hashInto` per binary level, as today).
 *   Where the depth is not a multiple of 3 or 4 the top node covers fewer
 *   levels.
 * - `r8root`, `r16root`: the same nodes keeping only their root hash (and
 *   child ids): smaller rows, but a written node rehashes all its 7 or 15
 *   internal messages from all its children's roots.
 * - `binw`, `r8w`, `r16w`, `r8rootw`: weighted links (weighted reference
 *   counting): a row keeps a weight per child link and a child's count is
 *   the sum of its links' weights (plus 1 per handle); a copy splits the
 *   old row's weight with the new row instead of counting on the child,
 *   which is touched only when the weight is down to 1 (it then gets
 *   W = 2^20 more); the release subtracts the link's weight. Binary rows
 *   grow to [left, right, rc, state, wLeft, wRight, –, –].
 * - `core`: the real @ssztree/core on the same writes (calibration of
 *   `bin`): a `Tree` built by `fromPages` / `recordPairTreeFromBytes`, the
 *   balances written by `setWidesAtDepth` on a clone (copiedWides.ts: a
 *   dense slab of ≥ 64 pages), the validators by `record` (pair kind) +
 *   `setNodesAtDepth` on a clone, `rootInto`, then the old tree's
 *   `dispose()`; a task turn after each block.
 *
 * Every layout gets the same blocks (balances' slab roots and the new pairs'
 * roots are hashed inside the timed commit in all of them), every layout's
 * roots are checked equal to the first layout's after every round, and the
 * miniatures' live node counts equal the build's after the run (each block
 * frees what it replaces).
 *
 * Rounds are interleaved: each round runs one block per layout, in a
 * rotating order. Hot (default): just before its timed block each layout
 * commits the same block on a clone and drops that version, so every row
 * the timed commit and release touch is in cache and its new nodes take
 * the same slots. `--cold`: a 64 MiB buffer is written before each timed
 * block, evicting the caches as the peer's runs between ours do in the
 * realistic bench. `--loop`: each layout runs an untimed block of its own
 * just before (a loop of blocks in one process: the pools warm, but a new
 * block's random paths mostly miss).
 * Reported: CPU ms (process.cpuUsage) per part, median (min–max) over the
 * rounds, and the median of the block totals' paired ratios against `bin`;
 * hashes (64-byte messages) per block; bytes of inner nodes per validator
 * and per balance (rows as padded here, packed in brackets); inside the
 * miniatures' commits, the leaves' and the paths' CPU ms, the wall ms of
 * their `hashInto` calls, and nodes made / off-path links / nodes freed /
 * links dropped per block; wall ms per part. Results and their reading:
 * docs/CORE.md, "Wider inner nodes: what they would save".
 *
 * Usage: node --conditions=source --import tsx --expose-gc bench/wide-branches.ts
 *   [--rounds 30] [--warmup 40] [--cold | --loop]
 *   [--layouts core,bin,r8,r16,r8root,r16root,binw,r8w,r16w,r8rootw]
 *   [--validators 20] (log2) [--pages 1024] [--vwrites 128] [--seed 1]
 */
import { hashInto } from '@ssztree/hasher';
import { NodeStore, registerRecordLayout, registerRecordPairs, Tree } from '@ssztree/core';

// ------------------------------------------------------------------ options

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}
const ROUNDS = Number(arg('rounds', '30'));
const WARMUP = Number(arg('warmup', '40'));
const COLD = process.argv.includes('--cold');
const LOOP = process.argv.includes('--loop');
const MODE = COLD ? 'cold' : LOOP ? 'loop' : 'hot';
const LAYOUTS = arg('layouts', 'core,bin,r8,r16,r8root,r16root,binw,r8w,r16w,r8rootw').split(',');
const LOG_V = Number(arg('validators', '20'));
const PAGE_WRITES = Number(arg('pages', '1024'));
const VAL_WRITES = Number(arg('vwrites', '128'));
let seed = Number(arg('seed', '1')) >>> 0 || 1;

const V = 2 ** LOG_V; // validators
const PAIRS = V / 2;
const PAGES = V / 32; // 32 uint64 balances per 8-chunk page
const BAL_DEPTH = 35; // List[uint64, 2^40]: 2^38 chunks, pages of 8 chunks at depth 35
const VAL_DEPTH = 39; // List[Validator, 2^40]: pairs at depth 39
const REC = 121; // Validator bytes
const PAIR_BYTES = 2 * REC;
const PAIR_WORDS = 61; // a pair's 242 bytes at a 244-byte stride (word copies)
const PAGE_WORDS = 64; // 256 bytes

function random(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 4294967296;
}

// ------------------------------------------------------------------ hashing

let hashMessages = 0;
/** Wall ms spent in `hashInto`. */
let hashMs = 0;
/** `hashInto`, counting 64-byte messages and its time. */
function H(input: Uint8Array, output: Uint8Array): void {
  hashMessages += output.length >>> 5;
  const t = performance.now();
  hashInto(input, output);
  hashMs += performance.now() - t;
}

/** Work counters of the passes: inner nodes made and freed, off-path children linked (retained) and unlinked (released). */
const work = { made: 0, links: 0, freed: 0, unlinks: 0, refills: 0 };

let st8 = new Uint8Array(1 << 16);
let st32 = new Int32Array(st8.buffer);
/** A second buffer, for digests scattered while the next level is staged. */
let ho8 = new Uint8Array(1 << 15);
let ho32 = new Int32Array(ho8.buffer);
/** Staging of at least `bytes` (and half that for digests). */
function staging(bytes: number): void {
  if (st8.length < bytes) {
    st8 = new Uint8Array(Math.max(bytes, 2 * st8.length));
    st32 = new Int32Array(st8.buffer);
  }
  if (ho8.length < bytes >>> 1) {
    ho8 = new Uint8Array(st8.length >>> 1);
    ho32 = new Int32Array(ho8.buffer);
  }
}

const zeroHashes = new Uint8Array(65 * 32);
{
  const pair = new Uint8Array(64);
  for (let d = 1; d <= 64; d++) {
    pair.set(zeroHashes.subarray((d - 1) * 32, d * 32), 0);
    pair.set(zeroHashes.subarray((d - 1) * 32, d * 32), 32);
    hashInto(pair, zeroHashes.subarray(d * 32, d * 32 + 32));
  }
}

// ------------------------------------------------------------------ pools (nodes/pool.ts, trimmed)

const FLAG_FREE = 1;
const MIN_RUN = 64;
const KIND_ZERO = 0;
const KIND_BRANCH = 1;
const KIND_WNODE = 3;
const KIND_PAGE = 6; // wide leaf of inner depth 3
const KIND_PAIR = 10; // record pair

class Pool {
  readonly shift: number;
  readonly mask: number;
  readonly pageSize: number;
  /** Meta words per slot; rc and state at rcAt, stAt. */
  readonly stride: number;
  readonly rcAt: number;
  readonly stAt: number;
  readonly hashed: boolean;
  readonly dataWords: number;
  readonly meta: Int32Array[] = [];
  readonly h32: Int32Array[] = [];
  readonly d32: Int32Array[] = [];
  readonly freeInPage: number[] = [];
  readonly longestFree: number[] = [];
  readonly scanFrom: number[] = [];
  readonly longFrom: number[] = [];
  free = new Int32Array(1024);
  freeLen = 0;
  top = 0;
  live = 0;
  recyclable = 0;

  constructor(shift: number, stride: number, rcAt: number, hashed: boolean, dataWords: number) {
    this.shift = shift;
    this.pageSize = 1 << shift;
    this.mask = this.pageSize - 1;
    this.stride = stride;
    this.rcAt = rcAt;
    this.stAt = rcAt + 1;
    this.hashed = hashed;
    this.dataWords = dataWords;
  }

  alloc(): number {
    this.live++;
    const free = this.free;
    while (this.freeLen > 0) {
      const slot = free[--this.freeLen]!;
      const page = slot >>> this.shift;
      if (this.meta[page]![(slot & this.mask) * this.stride + this.stAt] === FLAG_FREE) {
        this.freeInPage[page]!--;
        this.recyclable--;
        return slot;
      }
    }
    const slot = this.top;
    this.reserve(slot + 1);
    this.top = slot + 1;
    return slot;
  }

  /** `n` consecutive never-used slots (bulk builds). */
  allocRun(n: number): number {
    const slot = this.top;
    this.reserve(slot + n);
    this.top += n;
    this.live += n;
    return slot;
  }

  recycle(slot: number): void {
    if (this.freeLen === this.free.length) {
      const next = new Int32Array(2 * this.free.length);
      next.set(this.free);
      this.free = next;
    }
    this.free[this.freeLen++] = slot;
    const page = slot >>> this.shift;
    this.freeInPage[page]!++;
    this.longestFree[page] = this.pageSize;
    const off = slot & this.mask;
    if (off < this.scanFrom[page]!) this.scanFrom[page] = off;
    const longAt = off >= MIN_RUN - 1 ? off - (MIN_RUN - 1) : 0;
    if (longAt < this.longFrom[page]!) this.longFrom[page] = longAt;
    this.recyclable++;
  }

  reserve(n: number): void {
    while (this.meta.length << this.shift < n) {
      this.meta.push(new Int32Array(this.pageSize * this.stride));
      if (this.hashed) this.h32.push(new Int32Array(this.pageSize * 8));
      if (this.dataWords > 0) this.d32.push(new Int32Array(this.pageSize * this.dataWords));
      this.freeInPage.push(0);
      this.longestFree.push(this.pageSize);
      this.scanFrom.push(this.pageSize);
      this.longFrom.push(this.pageSize);
    }
  }

  bytes(): number {
    return (this.meta.length << this.shift) * 4 * (this.stride + (this.hashed ? 8 : 0) + this.dataWords);
  }
}

// ------------------------------------------------------------------ a miniature store

/** Layout of a store: k = 0 binary branches, else radix-2^k nodes keeping all inner hashes (full) or only their root. */
interface LayoutSpec {
  readonly name: string;
  readonly k: number;
  readonly full: boolean;
  /** Weighted links: each parent row keeps a weight per child, a copy splits the old row's weight instead of counting on the child. */
  readonly weighted: boolean;
}

/** Weight of a new link (weighted layouts): a child's count is the sum of its links' weights plus its handles (1 each). */
const W = 1 << 20;

class Mini {
  readonly spec: LayoutSpec;
  readonly pools: Pool[] = [];
  readonly zeros = new Pool(7, 2, 0, true, 0);
  readonly branches: Pool;
  /** Binary rows: [left, right, rc, state] (<< 2), weighted [left, right, rc, state, wLeft, wRight, –, –] (<< 3). */
  readonly rowShift: number;
  /** Wide rows, weighted: the weight of child c at wAt + c. */
  readonly wAt: number;
  readonly wnodes: Pool;
  readonly pages = new Pool(10, 2, 0, true, PAGE_WORDS);
  readonly pairs = new Pool(10, 2, 0, true, PAIR_WORDS);
  /** Wide rows: [rc, state = span << 8 | flags, hash of heap index h at 2 + 8(h - 1), …, child ids at idsAt]. */
  readonly radix: number;
  readonly idsAt: number;
  /** Row words before padding to a cache line. */
  readonly packedWords: number;
  balRoot = 0;
  valRoot = 0;
  balInner = 0;
  valInner = 0;

  constructor(spec: LayoutSpec) {
    this.spec = spec;
    this.radix = spec.k === 0 ? 2 : 1 << spec.k;
    const hashes = spec.full ? this.radix - 1 : 1;
    this.idsAt = 2 + 8 * hashes;
    this.wAt = this.idsAt + this.radix;
    this.packedWords = this.wAt + (spec.weighted ? this.radix : 0);
    this.rowShift = spec.weighted ? 3 : 2;
    this.branches = new Pool(15, 1 << this.rowShift, 2, true, 0);
    this.wnodes = new Pool(12, (this.packedWords + 15) & ~15, 0, false, 0);
    for (let k = 0; k < 16; k++) this.pools.push(this.branches);
    this.pools[KIND_ZERO] = this.zeros;
    this.pools[KIND_WNODE] = this.wnodes;
    this.pools[KIND_PAGE] = this.pages;
    this.pools[KIND_PAIR] = this.pairs;
    this.zeros.allocRun(65);
    this.zeros.h32[0]!.set(new Int32Array(zeroHashes.buffer, 0, 65 * 8));
  }

  /** Bytes of one inner node: a binary branch (48), or a wide row (padded, and packed). */
  nodeBytes(padded: boolean): number {
    if (this.spec.k === 0) return this.spec.weighted ? (padded ? 64 : 56) : 48;
    return 4 * (padded ? this.wnodes.stride : this.packedWords);
  }
}

/** Copies the root of `id` (any kind) into st32[s, s + 8). */
function gatherRoot(m: Mini, id: number, st: Int32Array, s: number): void {
  const kind = id & 15;
  const slot = id >>> 4;
  if (kind === KIND_WNODE) {
    const pool = m.wnodes;
    const row = pool.meta[slot >>> pool.shift]!;
    const o = (slot & pool.mask) * pool.stride + 2;
    for (let w = 0; w < 8; w++) st[s + w] = row[o + w]!;
    return;
  }
  const pool = m.pools[kind]!;
  const h = pool.h32[slot >>> pool.shift]!;
  const o = (slot & pool.mask) << 3;
  st[s] = h[o]!;
  st[s + 1] = h[o + 1]!;
  st[s + 2] = h[o + 2]!;
  st[s + 3] = h[o + 3]!;
  st[s + 4] = h[o + 4]!;
  st[s + 5] = h[o + 5]!;
  st[s + 6] = h[o + 6]!;
  st[s + 7] = h[o + 7]!;
}

function retain(m: Mini, id: number): void {
  const pool = m.pools[id & 15]!;
  const slot = id >>> 4;
  pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.rcAt]!++;
}

function addRc(m: Mini, id: number, by: number): void {
  const pool = m.pools[id & 15]!;
  const slot = id >>> 4;
  pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.rcAt]! += by;
}

/** A parent's new link to `id`: +1 on its count, or (weighted) +W and the weight W for the parent's row. */
function link(m: Mini, id: number): number {
  if (!m.spec.weighted) {
    retain(m, id);
    return 1;
  }
  addRc(m, id, W);
  return W;
}

function rootWords(m: Mini, id: number): Int32Array {
  const out = new Int32Array(8);
  gatherRoot(m, id, out, 0);
  return out;
}

// ------------------------------------------------------------------ leaves (pages, pairs)

/** A new hashed leaf of `pool` from words[from..] and its root at roots[rootAt..] (slabWides.ts `hashedWide`). */
function hashedLeaf(pool: Pool, kind: number, words: Int32Array, from: number, roots: Int32Array, rootAt: number): number {
  const slot = pool.alloc();
  const page = slot >>> pool.shift;
  const off = slot & pool.mask;
  const n32 = pool.dataWords;
  const d32 = pool.d32[page]!;
  for (let w = 0, o = off * n32; w < n32; w++) d32[o + w] = words[from + w]!;
  const h32 = pool.h32[page]!;
  for (let w = 0; w < 8; w++) h32[(off << 3) + w] = roots[rootAt + w]!;
  const m = pool.meta[page]!;
  m[off << 1] = 0;
  m[(off << 1) + 1] = 0;
  return (slot << 4) | kind;
}

/** Roots of `count` 8-chunk pages at words[from..]: folds in staging (slabWides.ts `slabRoots`). */
function pageRoots(data: Uint8Array, count: number, out: Int32Array, outAt: number): void {
  let half = count * 128;
  staging(half);
  H(data.subarray(0, count * 256), st8.subarray(0, half));
  for (let level = 1; level < 3; level++, half >>>= 1) H(st8.subarray(0, half), st8.subarray(0, half >>> 1));
  out.set(st32.subarray(0, count * 8), outAt);
}

/**
 * Roots of `count` Validator record pairs (242 bytes at a 244-byte stride
 * in `bytes`): as core's record hashing does it — pubkeys (48 bytes, zero
 * padded to 64) hashed in one call, each record spread into 8 chunks, then
 * four folds (three per record, one for the pair).
 */
let pairRows = new Uint8Array(0);
let pubkeys = new Uint8Array(0);
function pairRoots(bytes: Uint8Array, count: number, out: Int32Array, outAt: number): void {
  const recs = 2 * count;
  if (pairRows.length < recs * 256) {
    pairRows = new Uint8Array(recs * 256);
    pubkeys = new Uint8Array(recs * 64);
  }
  pubkeys.fill(0, 0, recs * 64);
  for (let r = 0; r < recs; r++) {
    const at = (r >>> 1) * 244 + (r & 1) * REC;
    pubkeys.set(bytes.subarray(at, at + 48), r * 64);
  }
  H(pubkeys.subarray(0, recs * 64), pubkeys.subarray(0, recs * 32));
  const rows = pairRows;
  rows.fill(0, 0, recs * 256);
  for (let r = 0; r < recs; r++) {
    const at = (r >>> 1) * 244 + (r & 1) * REC;
    const o = r * 256;
    rows.set(pubkeys.subarray(r * 32, r * 32 + 32), o);
    rows.set(bytes.subarray(at + 48, at + 80), o + 32);
    rows.set(bytes.subarray(at + 80, at + 88), o + 64);
    rows[o + 96] = bytes[at + 88]!;
    for (let f = 0; f < 4; f++) rows.set(bytes.subarray(at + 89 + 8 * f, at + 97 + 8 * f), o + 128 + 32 * f);
  }
  let half = recs * 128;
  for (let level = 0; level < 4; level++, half >>>= 1) H(rows.subarray(0, 2 * half), rows.subarray(0, half));
  out.set(new Int32Array(rows.buffer, 0, count * 8), outAt);
}

// ------------------------------------------------------------------ builds

/** Binary levels over `ids` (height 0) up to height `depth`, zero siblings zero(h + leafHeight) (a page of 8 chunks: 3; a pair of two element roots: 1): consecutive slots per level, hashed (build/pages.ts, simplified). */
function buildBinary(m: Mini, ids: Int32Array, depth: number, leafHeight: number): { root: number; inner: number } {
  let cur = ids;
  let inner = 0;
  for (let h = 0; h < depth; h++) {
    const n = (cur.length + 1) >>> 1;
    const start = m.branches.allocRun(n);
    const next = new Int32Array(n);
    const pool = m.branches;
    const rs = m.rowShift;
    for (let p = 0; p < n; p++) {
      const slot = start + p;
      const row = pool.meta[slot >>> pool.shift]!;
      const b = (slot & pool.mask) << rs;
      const left = cur[2 * p]!;
      const right = 2 * p + 1 < cur.length ? cur[2 * p + 1]! : (h + leafHeight) << 4;
      row[b] = left;
      row[b + 1] = right;
      row[b + 2] = 0;
      row[b + 3] = 0;
      const wl = link(m, left);
      const wr = (right & 15) !== KIND_ZERO ? link(m, right) : 0;
      if (m.spec.weighted) {
        row[b + 4] = wl;
        row[b + 5] = wr;
      }
      next[p] = (slot << 4) | KIND_BRANCH;
    }
    for (let p0 = 0; p0 < n; p0 += 1 << 14) {
      const c = Math.min(n - p0, 1 << 14);
      staging(64 * c);
      for (let p = 0; p < c; p++) {
        const slot = start + p0 + p;
        const row = pool.meta[slot >>> pool.shift]!;
        const b = (slot & pool.mask) << rs;
        gatherRoot(m, row[b]!, st32, 16 * p);
        gatherRoot(m, row[b + 1]!, st32, 16 * p + 8);
      }
      H(st8.subarray(0, 64 * c), st8.subarray(0, 32 * c));
      for (let p = 0; p < c; p++) {
        const slot = start + p0 + p;
        pool.h32[slot >>> pool.shift]!.set(st32.subarray(8 * p, 8 * p + 8), (slot & pool.mask) << 3);
      }
    }
    inner += n;
    cur = next;
  }
  return { root: cur[0]!, inner };
}

/** Heights of the node levels of a tree of `depth` over leaves: 0, k, 2k, …, depth (the top node may span fewer levels). */
function nodeHeights(depth: number, k: number): number[] {
  const hs = [0];
  if (k === 0) return hs;
  while (hs[hs.length - 1]! < depth) hs.push(Math.min(depth, hs[hs.length - 1]! + k));
  return hs;
}

/** Wide levels over `ids`: each node of span j takes 2^j children (zero subtrees past the end), all internal hashes computed and, when full, kept. */
function buildWide(m: Mini, ids: Int32Array, depth: number, leafHeight: number): { root: number; inner: number } {
  const hs = nodeHeights(depth, m.spec.k);
  const pool = m.wnodes;
  const stride = pool.stride;
  const idsAt = m.idsAt;
  let cur = ids;
  let inner = 0;
  for (let L = 1; L < hs.length; L++) {
    const j = hs[L]! - hs[L - 1]!;
    const R = 1 << j;
    const h = hs[L - 1]!;
    const n = Math.ceil(cur.length / R);
    const start = pool.allocRun(n);
    const next = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      const slot = start + p;
      const row = pool.meta[slot >>> pool.shift]!;
      const b = (slot & pool.mask) * stride;
      row[b] = 0;
      row[b + 1] = j << 8;
      for (let c = 0; c < R; c++) {
        const id = p * R + c < cur.length ? cur[p * R + c]! : (h + leafHeight) << 4;
        row[b + idsAt + c] = id;
        const w = (id & 15) !== KIND_ZERO ? link(m, id) : 0;
        if (m.spec.weighted) row[b + m.wAt + c] = w;
      }
      next[p] = (slot << 4) | KIND_WNODE;
    }
    const batch = Math.max(1, (1 << 14) >>> j);
    for (let p0 = 0; p0 < n; p0 += batch) {
      const c = Math.min(n - p0, batch);
      staging(32 * R * c);
      for (let p = 0; p < c; p++) {
        const slot = start + p0 + p;
        const row = pool.meta[slot >>> pool.shift]!;
        const b = (slot & pool.mask) * stride;
        for (let q = 0; q < R; q++) gatherRoot(m, row[b + idsAt + q]!, st32, 8 * (p * R + q));
      }
      // Fold e: 2^(j-e) hashes per node → 2^(j-e-1), heap indices 2^(j-e-1) .. 2^(j-e) - 1.
      for (let e = 0; e < j; e++) {
        const per = R >>> (e + 1);
        H(st8.subarray(0, 64 * per * c), st8.subarray(0, 32 * per * c));
        if (!m.spec.full && per > 1) continue;
        for (let p = 0; p < c; p++) {
          const slot = start + p0 + p;
          const row = pool.meta[slot >>> pool.shift]!;
          const b = (slot & pool.mask) * stride;
          for (let i = 0; i < per; i++) {
            const at = b + 2 + 8 * (per + i - 1);
            const s = 8 * (p * per + i);
            for (let w = 0; w < 8; w++) row[at + w] = st32[s + w]!;
          }
        }
      }
    }
    inner += n;
    cur = next;
  }
  return { root: cur[0]!, inner };
}

/** The store's two lists from the shared leaf data and roots; the roots retained once (the head). */
function buildMini(m: Mini, pageData: Int32Array, pageRootsAll: Int32Array, pairData: Int32Array, pairRootsAll: Int32Array): void {
  const leafIds = (pool: Pool, kind: number, count: number, data: Int32Array, roots: Int32Array): Int32Array => {
    const start = pool.allocRun(count);
    const ids = new Int32Array(count);
    for (let i = 0; i < count; i++) {
      const slot = start + i;
      const page = slot >>> pool.shift;
      const off = slot & pool.mask;
      pool.d32[page]!.set(data.subarray(i * pool.dataWords, (i + 1) * pool.dataWords), off * pool.dataWords);
      pool.h32[page]!.set(roots.subarray(8 * i, 8 * i + 8), off << 3);
      ids[i] = (slot << 4) | kind;
    }
    return ids;
  };
  const build = m.spec.k === 0 ? buildBinary : buildWide;
  const bal = build(m, leafIds(m.pages, KIND_PAGE, PAGES, pageData, pageRootsAll), BAL_DEPTH, 3);
  const val = build(m, leafIds(m.pairs, KIND_PAIR, PAIRS, pairData, pairRootsAll), VAL_DEPTH, 1);
  m.balRoot = bal.root;
  m.valRoot = val.root;
  m.balInner = bal.inner;
  m.valInner = val.inner;
  retain(m, bal.root);
  retain(m, val.root);
}

// ------------------------------------------------------------------ (a) binary copy pass (write/copiedWides.ts + write/ownedPaths.ts)

let pathNodes = new Int32Array(1 << 16);
let pathLos = new Int32Array(1 << 16);
let pathHis = new Int32Array(1 << 16);
let pathBases = new Float64Array(1 << 16);
let pathLefts = new Int32Array(1 << 16);
let pathRights = new Int32Array(1 << 16);
let pathMasks = new Int32Array(1 << 16);
let made = new Int32Array(1 << 16);
const levelStart = new Int32Array(65);
const levelEnd = new Int32Array(65);

function ensurePaths(size: number): void {
  if (pathNodes.length >= size) return;
  pathNodes = new Int32Array(size);
  pathLos = new Int32Array(size);
  pathHis = new Int32Array(size);
  pathBases = new Float64Array(size);
  pathLefts = new Int32Array(size);
  pathRights = new Int32Array(size);
  pathMasks = new Int32Array(size);
  made = new Int32Array(size);
}

/** ownedPaths.ts `findOwnedPaths` with `shared`: the path nodes level by level, from the root down. */
function findPaths(m: Mini, root: number, depth: number, indices: Int32Array, n: number): boolean {
  let bound = 0;
  for (let d = 0; d <= depth; d++) bound += Math.min(n, 2 ** (depth - d));
  ensurePaths(bound);
  const nodes = pathNodes;
  const los = pathLos;
  const his = pathHis;
  const bases = pathBases;
  const lefts = pathLefts;
  const rights = pathRights;
  const branches = m.branches;
  const meta = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;
  const rs = m.rowShift;
  nodes[0] = root;
  los[0] = 0;
  his[0] = n;
  bases[0] = 0;
  levelStart[depth] = 0;
  levelEnd[depth] = 1;
  for (let d = depth; d > 0; d--) {
    const half = d <= 31 ? 1 << (d - 1) : 2 ** (d - 1);
    const end = levelEnd[d]!;
    let w = end;
    for (let k = levelStart[d]!; k < end; k++) {
      const node = nodes[k]!;
      if ((node & 15) !== KIND_BRANCH) return false;
      const slot = node >>> 4;
      const row = meta[slot >>> shift]!;
      const b = (slot & mask) << rs;
      const left = row[b]!;
      const right = row[b + 1]!;
      lefts[k] = left;
      rights[k] = right;
      const lo = los[k]!;
      const hi = his[k]!;
      const base = bases[k]!;
      const mid = base + half;
      let split = lo;
      if (indices[hi - 1]! < mid) split = hi;
      else if (indices[lo]! < mid) {
        let top = hi;
        while (split < top) {
          const c = (split + top) >>> 1;
          if (indices[c]! < mid) split = c + 1;
          else top = c;
        }
      }
      if (split > lo) {
        nodes[w] = left;
        los[w] = lo;
        his[w] = split;
        bases[w] = base;
        w++;
      }
      if (hi > split) {
        nodes[w] = right;
        los[w] = split;
        his[w] = hi;
        bases[w] = mid;
        w++;
      }
    }
    levelStart[d - 1] = end;
    levelEnd[d - 1] = w;
  }
  return true;
}

function linkNew(m: Mini, id: number): void {
  const pool = m.pools[id & 15]!;
  const slot = id >>> 4;
  pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.rcAt]!++;
}

function linkLevel(m: Mini, d: number): void {
  const branches = m.branches;
  const half = d <= 31 ? 1 << (d - 1) : 2 ** (d - 1);
  let j = levelStart[d - 1]!;
  const jEnd = levelEnd[d - 1]!;
  for (let k = levelStart[d]!, end = levelEnd[d]!; k < end; k++) {
    const base = pathBases[k]!;
    let left = pathLefts[k]!;
    let right = pathRights[k]!;
    if (j < jEnd && pathBases[j] === base) {
      left = made[j++]!;
      linkNew(m, left);
    } else if ((left & 15) !== KIND_ZERO) {
      retain(m, left);
      work.links++;
    }
    if (j < jEnd && pathBases[j] === base + half) {
      right = made[j++]!;
      linkNew(m, right);
    } else if ((right & 15) !== KIND_ZERO) {
      retain(m, right);
      work.links++;
    }
    work.made++;
    const slot = branches.alloc();
    const row = branches.meta[slot >>> branches.shift]!;
    const b = (slot & branches.mask) << 2;
    row[b] = left;
    row[b + 1] = right;
    row[b + 2] = 0;
    row[b + 3] = 0;
    made[k] = (slot << 4) | KIND_BRANCH;
  }
}

/**
 * linkLevel with weighted links: an off-path child's link weight is split
 * between the old branch's row and the new one (the child is not touched
 * unless the old weight is down to 1, then the child gets W more).
 */
function linkLevelW(m: Mini, d: number): void {
  const branches = m.branches;
  const meta = branches.meta;
  const shift = branches.shift;
  const mask = branches.mask;
  const half = d <= 31 ? 1 << (d - 1) : 2 ** (d - 1);
  let j = levelStart[d - 1]!;
  const jEnd = levelEnd[d - 1]!;
  for (let k = levelStart[d]!, end = levelEnd[d]!; k < end; k++) {
    const base = pathBases[k]!;
    let left = pathLefts[k]!;
    let right = pathRights[k]!;
    const old = pathNodes[k]! >>> 4;
    const om = meta[old >>> shift]!;
    const ob = (old & mask) << 3;
    let wl = 0;
    let wr = 0;
    if (j < jEnd && pathBases[j] === base) {
      left = made[j++]!;
      addRc(m, left, W);
      wl = W;
    } else if ((left & 15) !== KIND_ZERO) {
      work.links++;
      const w = om[ob + 4]!;
      if (w > 1) {
        wl = w >>> 1;
        om[ob + 4] = w - wl;
      } else {
        addRc(m, left, W);
        wl = W;
        work.refills++;
      }
    }
    if (j < jEnd && pathBases[j] === base + half) {
      right = made[j++]!;
      addRc(m, right, W);
      wr = W;
    } else if ((right & 15) !== KIND_ZERO) {
      work.links++;
      const w = om[ob + 5]!;
      if (w > 1) {
        wr = w >>> 1;
        om[ob + 5] = w - wr;
      } else {
        addRc(m, right, W);
        wr = W;
        work.refills++;
      }
    }
    work.made++;
    const slot = branches.alloc();
    const row = meta[slot >>> shift]!;
    const b = (slot & mask) << 3;
    row[b] = left;
    row[b + 1] = right;
    row[b + 2] = 0;
    row[b + 3] = 0;
    row[b + 4] = wl;
    row[b + 5] = wr;
    made[k] = (slot << 4) | KIND_BRANCH;
  }
}

function hashLevel(m: Mini, d: number): void {
  const start = levelStart[d]!;
  const count = levelEnd[d]! - start;
  staging(64 * count);
  const st = st32;
  const branches = m.branches;
  const rs = m.rowShift;
  for (let k = 0, s = 0; k < count; k++, s += 16) {
    const slot = made[start + k]! >>> 4;
    const row = branches.meta[slot >>> branches.shift]!;
    const b = (slot & branches.mask) << rs;
    gatherRoot(m, row[b]!, st, s);
    gatherRoot(m, row[b + 1]!, st, s + 8);
  }
  H(st8.subarray(0, 64 * count), st8.subarray(0, 32 * count));
  const shift = branches.shift;
  const mask = branches.mask;
  for (let k = 0, s = 0; k < count; k++, s += 8) {
    const slot = made[start + k]! >>> 4;
    const h = branches.h32[slot >>> shift]!;
    const o = (slot & mask) << 3;
    for (let w = 0; w < 8; w++) h[o + w] = st[s + w]!;
  }
}

/** The new root over `leaves` (new, hashed, one per index) with every path copied (copiedWides.ts `writeCopiedWides`). */
function copyBinary(m: Mini, root: number, depth: number, indices: Int32Array, n: number, leaves: Int32Array): number {
  if (!findPaths(m, root, depth, indices, n)) throw new Error('path through a non-branch');
  made.set(leaves.subarray(0, n), levelStart[0]!);
  const weighted = m.spec.weighted;
  for (let d = 1; d <= depth; d++) {
    if (weighted) linkLevelW(m, d);
    else linkLevel(m, d);
    hashLevel(m, d);
  }
  return made[0]!;
}

// ------------------------------------------------------------------ (b) wide copy pass

/**
 * The path nodes, node level by node level from the root down (entries at
 * levelStart[L] .. levelEnd[L]); for each, the mask of its children on a
 * path. Reads the old node's child ids of the written children only.
 */
function findWidePaths(m: Mini, root: number, hs: number[], indices: Int32Array, n: number): void {
  const top = hs.length - 1;
  ensurePaths(n * (top + 1) + 1);
  const nodes = pathNodes;
  const los = pathLos;
  const his = pathHis;
  const bases = pathBases;
  const masks = pathMasks;
  const pool = m.wnodes;
  const meta = pool.meta;
  const shift = pool.shift;
  const mask = pool.mask;
  const stride = pool.stride;
  const idsAt = m.idsAt;
  nodes[0] = root;
  los[0] = 0;
  his[0] = n;
  bases[0] = 0;
  levelStart[top] = 0;
  levelEnd[top] = 1;
  for (let L = top; L > 0; L--) {
    const span = 2 ** hs[L - 1]!; // positions under one child
    const end = levelEnd[L]!;
    let w = end;
    for (let k = levelStart[L]!; k < end; k++) {
      const node = nodes[k]!;
      if ((node & 15) !== KIND_WNODE) throw new Error('path through a non-node');
      const slot = node >>> 4;
      const row = meta[slot >>> shift]!;
      const b = (slot & mask) * stride + idsAt;
      const hi = his[k]!;
      const base = bases[k]!;
      let bits = 0;
      for (let i = los[k]!; i < hi; ) {
        const c = Math.floor((indices[i]! - base) / span);
        const cBase = base + c * span;
        const limit = cBase + span;
        let e = i + 1;
        while (e < hi && indices[e]! < limit) e++;
        nodes[w] = row[b + c]!;
        los[w] = i;
        his[w] = e;
        bases[w] = cBase;
        w++;
        bits |= 1 << c;
        i = e;
      }
      masks[k] = bits;
    }
    levelStart[L - 1] = end;
    levelEnd[L - 1] = w;
  }
}

/** Node level L's new nodes: each a copy of its old row with its path children replaced (linked) and its other children retained. */
function linkWideLevel(m: Mini, L: number, j: number): void {
  const pool = m.wnodes;
  const meta = pool.meta;
  const shift = pool.shift;
  const mask = pool.mask;
  const stride = pool.stride;
  const idsAt = m.idsAt;
  const R = 1 << j;
  // Full rows keep the inner hashes below the root (heap 2 .. R - 1): copied, then the path's rewritten.
  const hashFrom = 10;
  const hashTo = m.spec.full ? 2 + 8 * (R - 1) : 10;
  const weighted = m.spec.weighted;
  let cj = levelStart[L - 1]!;
  for (let k = levelStart[L]!, end = levelEnd[L]!; k < end; k++) {
    const old = pathNodes[k]! >>> 4;
    const om = meta[old >>> shift]!;
    const ob = (old & mask) * stride;
    work.made++;
    const slot = pool.alloc();
    const nm = meta[slot >>> shift]!;
    const nb = (slot & mask) * stride;
    nm[nb] = 0;
    nm[nb + 1] = j << 8;
    for (let w = hashFrom; w < hashTo; w++) nm[nb + w] = om[ob + w]!;
    const bits = pathMasks[k]!;
    if (weighted) {
      const wAt = m.wAt;
      for (let c = 0; c < R; c++) {
        let child: number;
        let w = 0;
        if (((bits >>> c) & 1) !== 0) {
          child = made[cj++]!;
          addRc(m, child, W);
          w = W;
        } else {
          child = om[ob + idsAt + c]!;
          if ((child & 15) !== KIND_ZERO) {
            work.links++;
            const ow = om[ob + wAt + c]!;
            if (ow > 1) {
              w = ow >>> 1;
              om[ob + wAt + c] = ow - w;
            } else {
              addRc(m, child, W);
              w = W;
              work.refills++;
            }
          }
        }
        nm[nb + idsAt + c] = child;
        nm[nb + wAt + c] = w;
      }
      made[k] = (slot << 4) | KIND_WNODE;
      continue;
    }
    for (let c = 0; c < R; c++) {
      let child: number;
      if (((bits >>> c) & 1) !== 0) {
        child = made[cj++]!;
        linkNew(m, child);
      } else {
        child = om[ob + idsAt + c]!;
        if ((child & 15) !== KIND_ZERO) {
          retain(m, child);
          work.links++;
        }
      }
      nm[nb + idsAt + c] = child;
    }
    made[k] = (slot << 4) | KIND_WNODE;
  }
}

/** Full rows: the written path's internal hashes of node level L, one hasher call per binary level across all its nodes. */
function hashWideLevel(m: Mini, L: number, j: number): void {
  const pool = m.wnodes;
  const meta = pool.meta;
  const shift = pool.shift;
  const mask = pool.mask;
  const stride = pool.stride;
  const idsAt = m.idsAt;
  const start = levelStart[L]!;
  const end = levelEnd[L]!;
  const R = 1 << j;
  staging(32 * R * (end - start));
  const st = st32;
  // Bottom internal level (heap R/2 + i): children 2i, 2i + 1.
  let s = 0;
  for (let k = start; k < end; k++) {
    const slot = made[k]! >>> 4;
    const row = meta[slot >>> shift]!;
    const b = (slot & mask) * stride + idsAt;
    const bits = pathMasks[k]!;
    for (let i = 0; i < R >>> 1; i++) {
      if (((bits >>> (2 * i)) & 3) === 0) continue;
      gatherRoot(m, row[b + 2 * i]!, st, s);
      gatherRoot(m, row[b + 2 * i + 1]!, st, s + 8);
      s += 16;
    }
  }
  const ho = ho32;
  for (let per = R >>> 1; per >= 1; per >>>= 1) {
    H(st8.subarray(0, 4 * s), ho8.subarray(0, 2 * s));
    // Scatter heap per + i, and stage the next level up (heap per/2 + i: children per + 2i, per + 2i + 1).
    let q = 0;
    let s2 = 0;
    for (let k = start; k < end; k++) {
      const slot = made[k]! >>> 4;
      const row = meta[slot >>> shift]!;
      const b = (slot & mask) * stride;
      const bits = pathMasks[k]!;
      // Dirty nodes of this level: bit i set when any child below is on a path.
      const span = R / per; // children per node of this level
      const group = (1 << span) - 1;
      for (let i = 0; i < per; i++) {
        if (((bits >>> (span * i)) & group) === 0) continue;
        const at = b + 2 + 8 * (per + i - 1);
        for (let w = 0; w < 8; w++) row[at + w] = ho[q + w]!;
        q += 8;
      }
      if (per === 1) continue;
      const up = per >>> 1;
      const group2 = (1 << (2 * span)) - 1;
      for (let i = 0; i < up; i++) {
        if (((bits >>> (2 * span * i)) & group2) === 0) continue;
        const at = b + 2 + 8 * (per + 2 * i - 1);
        for (let w = 0; w < 16; w++) st[s2 + w] = row[at + w]!;
        s2 += 16;
      }
    }
    s = s2;
  }
}

/** Root-only rows: every child root of every node of level L gathered, folded j times, the roots scattered. */
function hashWideLevelRoots(m: Mini, L: number, j: number): void {
  const pool = m.wnodes;
  const meta = pool.meta;
  const shift = pool.shift;
  const mask = pool.mask;
  const stride = pool.stride;
  const idsAt = m.idsAt;
  const start = levelStart[L]!;
  const count = levelEnd[L]! - start;
  const R = 1 << j;
  staging(32 * R * count);
  const st = st32;
  for (let k = 0; k < count; k++) {
    const slot = made[start + k]! >>> 4;
    const row = meta[slot >>> shift]!;
    const b = (slot & mask) * stride + idsAt;
    for (let c = 0; c < R; c++) gatherRoot(m, row[b + c]!, st, 8 * (k * R + c));
  }
  for (let half = 16 * R * count; half >= 32 * count; half >>>= 1) H(st8.subarray(0, 2 * half), st8.subarray(0, half));
  for (let k = 0; k < count; k++) {
    const slot = made[start + k]! >>> 4;
    const row = meta[slot >>> shift]!;
    const b = (slot & mask) * stride + 2;
    for (let w = 0; w < 8; w++) row[b + w] = st[8 * k + w]!;
  }
}

function copyWide(m: Mini, root: number, hs: number[], indices: Int32Array, n: number, leaves: Int32Array): number {
  findWidePaths(m, root, hs, indices, n);
  made.set(leaves.subarray(0, n), levelStart[0]!);
  for (let L = 1; L < hs.length; L++) {
    const j = hs[L]! - hs[L - 1]!;
    linkWideLevel(m, L, j);
    if (m.spec.full) hashWideLevel(m, L, j);
    else hashWideLevelRoots(m, L, j);
  }
  return made[0]!;
}

// ------------------------------------------------------------------ release (store/reclaim.ts `freeCascade`)

let stack = new Int32Array(1024);

function freeRow(m: Mini, x: number): void {
  const pool = m.pools[x & 15]!;
  const slot = x >>> 4;
  const row = pool.meta[slot >>> pool.shift]!;
  const at = (slot & pool.mask) * pool.stride + pool.stAt;
  pool.live--;
  row[at] = FLAG_FREE;
  pool.recycle(slot);
}

function push(sp: number, id: number): number {
  if (sp === stack.length) {
    const next = new Int32Array(2 * sp);
    next.set(stack);
    stack = next;
  }
  stack[sp] = id;
  return sp + 1;
}

/** freeCascade: branches through the stack, other children freed on the spot. */
function freeBinary(m: Mini, id: number): void {
  const pools = m.pools;
  const branches = m.branches;
  const bMeta = branches.meta;
  const bShift = branches.shift;
  const bMask = branches.mask;
  let sp = push(0, id);
  while (sp > 0) {
    const x = stack[--sp]!;
    if ((x & 15) !== KIND_BRANCH) {
      freeRow(m, x);
      continue;
    }
    const slot = x >>> 4;
    const row = bMeta[slot >>> bShift]!;
    const base = (slot & bMask) << 2;
    for (let c = 0; c < 2; c++) {
      const child = row[base + c]!;
      const kind = child & 15;
      if (kind === KIND_ZERO) continue;
      work.unlinks++;
      if (kind === KIND_BRANCH) {
        const cs = child >>> 4;
        if (--bMeta[cs >>> bShift]![((cs & bMask) << 2) + 2]! === 0) sp = push(sp, child);
        continue;
      }
      const pool = pools[kind]!;
      const cs = child >>> 4;
      if (--pool.meta[cs >>> pool.shift]![(cs & pool.mask) << 1]! === 0) freeRow(m, child);
    }
    work.freed++;
    branches.live--;
    row[base + 3] = FLAG_FREE;
    branches.recycle(slot);
  }
}

/** freeBinary with weighted links: a child's count drops by the link's weight. */
function freeBinaryW(m: Mini, id: number): void {
  const pools = m.pools;
  const branches = m.branches;
  const bMeta = branches.meta;
  const bShift = branches.shift;
  const bMask = branches.mask;
  let sp = push(0, id);
  while (sp > 0) {
    const x = stack[--sp]!;
    if ((x & 15) !== KIND_BRANCH) {
      freeRow(m, x);
      continue;
    }
    const slot = x >>> 4;
    const row = bMeta[slot >>> bShift]!;
    const base = (slot & bMask) << 3;
    for (let c = 0; c < 2; c++) {
      const child = row[base + c]!;
      const kind = child & 15;
      if (kind === KIND_ZERO) continue;
      work.unlinks++;
      const w = row[base + 4 + c]!;
      if (kind === KIND_BRANCH) {
        const cs = child >>> 4;
        if ((bMeta[cs >>> bShift]![((cs & bMask) << 3) + 2]! -= w) === 0) sp = push(sp, child);
        continue;
      }
      const pool = pools[kind]!;
      const cs = child >>> 4;
      if ((pool.meta[cs >>> pool.shift]![(cs & pool.mask) << 1]! -= w) === 0) freeRow(m, child);
    }
    work.freed++;
    branches.live--;
    row[base + 3] = FLAG_FREE;
    branches.recycle(slot);
  }
}

/** The same for wide rows: a node's span and children read from its row. */
function freeWide(m: Mini, id: number): void {
  const pools = m.pools;
  const pool = m.wnodes;
  const meta = pool.meta;
  const shift = pool.shift;
  const mask = pool.mask;
  const stride = pool.stride;
  const idsAt = m.idsAt;
  const weighted = m.spec.weighted;
  const wAt = m.wAt;
  let sp = push(0, id);
  while (sp > 0) {
    const x = stack[--sp]!;
    if ((x & 15) !== KIND_WNODE) {
      freeRow(m, x);
      continue;
    }
    const slot = x >>> 4;
    const row = meta[slot >>> shift]!;
    const b = (slot & mask) * stride;
    const R = 1 << (row[b + 1]! >>> 8);
    for (let c = 0; c < R; c++) {
      const child = row[b + idsAt + c]!;
      const kind = child & 15;
      if (kind === KIND_ZERO) continue;
      work.unlinks++;
      const w = weighted ? row[b + wAt + c]! : 1;
      if (kind === KIND_WNODE) {
        const cs = child >>> 4;
        if ((meta[cs >>> shift]![(cs & mask) * stride]! -= w) === 0) sp = push(sp, child);
        continue;
      }
      const cp = pools[kind]!;
      const cs = child >>> 4;
      if ((cp.meta[cs >>> cp.shift]![(cs & cp.mask) << 1]! -= w) === 0) freeRow(m, child);
    }
    work.freed++;
    pool.live--;
    row[b + 1] = FLAG_FREE;
    pool.recycle(slot);
  }
}

function release(m: Mini, id: number): void {
  const pool = m.pools[id & 15]!;
  const slot = id >>> 4;
  const row = pool.meta[slot >>> pool.shift]!;
  const at = (slot & pool.mask) * pool.stride + pool.rcAt;
  if (--row[at]! === 0) (m.spec.k !== 0 ? freeWide : m.spec.weighted ? freeBinaryW : freeBinary)(m, id);
}

// ------------------------------------------------------------------ blocks

/** One block's writes, the same for every layout. */
interface Block {
  readonly pageIdx: Int32Array; // sorted, distinct
  readonly slab: Uint8Array; // the written pages back to back
  readonly pairIdx: Int32Array; // sorted, distinct
  readonly pairMini: Uint8Array; // the new pairs at a 244-byte stride
  readonly pairCore: Uint8Array; // the same at 242 bytes
}

function sample(count: number, n: number): Int32Array {
  const set = new Set<number>();
  while (set.size < n) set.add(Math.floor(random() * count));
  return Int32Array.from([...set].sort((a, b) => a - b));
}

/** A block: new page bytes (one balance changed per page) and new pair bytes (one validator's effective balance each), applied to the master copies. */
function makeBlock(pageMaster: Uint8Array, pairMaster: Uint8Array): Block {
  const pageIdx = sample(PAGES, PAGE_WRITES);
  const slab = new Uint8Array(256 * pageIdx.length);
  pageIdx.forEach((p, i) => {
    const at = 256 * p + 8 * Math.floor(random() * 32);
    pageMaster[at] = (pageMaster[at]! + 1) & 255;
    pageMaster[at + 1] = Math.floor(random() * 256);
    slab.set(pageMaster.subarray(256 * p, 256 * p + 256), 256 * i);
  });
  const vals = sample(V, VAL_WRITES);
  const pairIdx = Int32Array.from([...new Set(Array.from(vals, (v) => v >>> 1))]);
  for (const v of vals) {
    const at = 244 * (v >>> 1) + REC * (v & 1) + 80; // effective_balance
    pairMaster[at] = (pairMaster[at]! + 1) & 255;
  }
  const pairMini = new Uint8Array(244 * pairIdx.length);
  const pairCore = new Uint8Array(PAIR_BYTES * pairIdx.length);
  pairIdx.forEach((p, i) => {
    pairMini.set(pairMaster.subarray(244 * p, 244 * p + 244), 244 * i);
    pairCore.set(pairMaster.subarray(244 * p, 244 * p + PAIR_BYTES), PAIR_BYTES * i);
  });
  return { pageIdx, slab, pairIdx, pairMini, pairCore };
}

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Per part: wall and CPU ms, messages hashed. */
const PARTS = ['balCommit', 'balRelease', 'valCommit', 'valRelease'] as const;
type Part = (typeof PARTS)[number];
/** Inside the miniatures' commits (wall ms): the leaves (slab or pair roots hashed, a node each), and the path pass's hashing. */
interface Inside {
  refills: number;
  leaves: number;
  pathHash: number;
  hashes: number;
  made: number;
  links: number;
  freed: number;
  unlinks: number;
}
interface Sample {
  wall: Record<Part, number>;
  cpu: Record<Part, number>;
  hashes: { bal: number; val: number };
  bal?: Inside;
  val?: Inside;
}

interface Runner {
  readonly name: string;
  /** Applies a block; returns the timings, and leaves the new roots' words in `roots`. */
  block(b: Block, timed: boolean): Sample;
  /** Commits `b` on a clone of the head and drops the new version again: every row the block's commit touches is then in cache, and its new nodes get the same slots. */
  rehearse(b: Block): void;
  roots(): { bal: Int32Array; val: Int32Array };
  bytes(): { balance: number; validator: number; balancePacked: number; validatorPacked: number; node: string };
}

let leafIds = new Int32Array(Math.max(2048, PAGE_WRITES));
let leafRoots = new Int32Array(8 * Math.max(2048, PAGE_WRITES));

class MiniRunner implements Runner {
  readonly name: string;
  readonly m: Mini;
  readonly balHs: number[];
  readonly valHs: number[];
  readonly builtLive: string;
  constructor(spec: LayoutSpec, shared: Shared) {
    this.name = spec.name;
    this.m = new Mini(spec);
    buildMini(this.m, shared.pageData, shared.pageRoots, shared.pairData, shared.pairRoots);
    this.builtLive = this.live();
    this.balHs = nodeHeights(BAL_DEPTH, spec.k);
    this.valHs = nodeHeights(VAL_DEPTH, spec.k);
  }

  #commit(root: number, depth: number, hs: number[], idx: Int32Array, leaves: Int32Array): number {
    const m = this.m;
    retain(m, root); // the clone's handle
    const next = m.spec.k === 0 ? copyBinary(m, root, depth, idx, idx.length, leaves) : copyWide(m, root, hs, idx, idx.length, leaves);
    retain(m, next); // the clone now holds the new version
    release(m, root); // …and no longer the old one (still held by the head)
    return next;
  }

  block(b: Block, timed: boolean): Sample {
    const m = this.m;
    const wall = {} as Record<Part, number>;
    const cpu = {} as Record<Part, number>;
    let t = performance.now();
    let c = cpuMs();
    const mark = (part: Part): void => {
      const t2 = performance.now();
      const c2 = cpuMs();
      wall[part] = t2 - t;
      cpu[part] = c2 - c;
      t = t2;
      c = c2;
    };
    void timed;
    const inside = (): Inside => ({ refills: work.refills, leaves: 0, pathHash: 0, hashes: hashMessages, made: work.made, links: work.links, freed: 0, unlinks: 0 });
    const since = (x: Inside, leavesAt: number, pathAt: number, hashAt: number): void => {
      x.leaves = pathAt - leavesAt; // CPU ms
      x.pathHash = hashMs - hashAt;
      x.hashes = hashMessages - x.hashes;
      x.made = work.made - x.made;
      x.links = work.links - x.links;
      x.refills = work.refills - x.refills;
    };
    // Balances: slab roots hashed up front, a hashed page per position, the paths copied.
    const bal = inside();
    const n = b.pageIdx.length;
    if (leafIds.length < n) {
      leafIds = new Int32Array(n);
      leafRoots = new Int32Array(8 * n);
    }
    pageRoots(b.slab, n, leafRoots, 0);
    const slabWords = new Int32Array(b.slab.buffer, b.slab.byteOffset, b.slab.length >>> 2);
    for (let i = 0; i < n; i++) leafIds[i] = hashedLeaf(m.pages, KIND_PAGE, slabWords, i * PAGE_WORDS, leafRoots, 8 * i);
    let pathAt = cpuMs();
    let hashAt = hashMs;
    const oldBal = m.balRoot;
    m.balRoot = this.#commit(oldBal, BAL_DEPTH, this.balHs, b.pageIdx, leafIds);
    since(bal, c, pathAt, hashAt);
    mark('balCommit');
    // Validators: the new pairs hashed together, a node each, the paths copied.
    const val = inside();
    const p = b.pairIdx.length;
    pairRoots(b.pairMini, p, leafRoots, 0);
    const pairWords = new Int32Array(b.pairMini.buffer, b.pairMini.byteOffset, b.pairMini.length >>> 2);
    for (let i = 0; i < p; i++) leafIds[i] = hashedLeaf(m.pairs, KIND_PAIR, pairWords, i * PAIR_WORDS, leafRoots, 8 * i);
    pathAt = cpuMs();
    hashAt = hashMs;
    const oldVal = m.valRoot;
    m.valRoot = this.#commit(oldVal, VAL_DEPTH, this.valHs, b.pairIdx, leafIds);
    since(val, c, pathAt, hashAt);
    mark('valCommit');
    // The old head released.
    let freed = work.freed;
    let unlinks = work.unlinks;
    release(m, oldBal);
    bal.freed = work.freed - freed;
    bal.unlinks = work.unlinks - unlinks;
    mark('balRelease');
    freed = work.freed;
    unlinks = work.unlinks;
    release(m, oldVal);
    val.freed = work.freed - freed;
    val.unlinks = work.unlinks - unlinks;
    mark('valRelease');
    return { wall, cpu, hashes: { bal: bal.hashes, val: val.hashes }, bal, val };
  }

  rehearse(b: Block): void {
    const m = this.m;
    const n = b.pageIdx.length;
    pageRoots(b.slab, n, leafRoots, 0);
    const slabWords = new Int32Array(b.slab.buffer, b.slab.byteOffset, b.slab.length >>> 2);
    for (let i = 0; i < n; i++) leafIds[i] = hashedLeaf(m.pages, KIND_PAGE, slabWords, i * PAGE_WORDS, leafRoots, 8 * i);
    const bal = this.#commit(m.balRoot, BAL_DEPTH, this.balHs, b.pageIdx, leafIds);
    const p = b.pairIdx.length;
    pairRoots(b.pairMini, p, leafRoots, 0);
    const pairWords = new Int32Array(b.pairMini.buffer, b.pairMini.byteOffset, b.pairMini.length >>> 2);
    for (let i = 0; i < p; i++) leafIds[i] = hashedLeaf(m.pairs, KIND_PAIR, pairWords, i * PAIR_WORDS, leafRoots, 8 * i);
    const val = this.#commit(m.valRoot, VAL_DEPTH, this.valHs, b.pairIdx, leafIds);
    release(m, bal);
    release(m, val);
  }

  roots(): { bal: Int32Array; val: Int32Array } {
    return { bal: rootWords(this.m, this.m.balRoot), val: rootWords(this.m, this.m.valRoot) };
  }

  bytes(): { balance: number; validator: number; balancePacked: number; validatorPacked: number; node: string } {
    const m = this.m;
    const padded = m.nodeBytes(true);
    const packed = m.nodeBytes(false);
    return {
      balance: (m.balInner * padded) / V,
      validator: (m.valInner * padded) / V,
      balancePacked: (m.balInner * packed) / V,
      validatorPacked: (m.valInner * packed) / V,
      node: m.spec.k === 0 ? '48' : `${padded} (${packed} packed)`,
    };
  }

  /** Live nodes per pool: must stay flat from block to block. */
  live(): string {
    const m = this.m;
    return `branches ${m.branches.live}, nodes ${m.wnodes.live}, pages ${m.pages.live}, pairs ${m.pairs.live}`;
  }
}

class CoreRunner implements Runner {
  readonly name = 'core';
  readonly store = new NodeStore();
  readonly pairKind: number;
  bal: Tree;
  val: Tree;
  readonly out = new Uint8Array(32);
  constructor(shared: Shared) {
    const vk = registerRecordLayout({
      size: REC,
      depth: 3,
      fields: [
        [0, 48],
        [48, 32],
        [80, 8],
        [88, 1],
        [89, 8],
        [97, 8],
        [105, 8],
        [113, 8],
      ],
    });
    this.pairKind = registerRecordPairs(vk);
    const s = this.store;
    this.bal = new Tree(s.fromPages({ data: new Uint8Array(shared.pageData.buffer) }, PAGES, 3, BAL_DEPTH), s);
    const bytes = new Uint8Array(V * REC);
    const pairBytes = new Uint8Array(shared.pairData.buffer);
    for (let p = 0; p < PAIRS; p++) bytes.set(pairBytes.subarray(244 * p, 244 * p + PAIR_BYTES), PAIR_BYTES * p);
    this.val = new Tree(s.recordPairTreeFromBytes(vk, bytes, 0, V, VAL_DEPTH + 1), s);
    this.bal.rootInto(this.out);
    this.val.rootInto(this.out);
  }

  block(b: Block): Sample {
    const s = this.store;
    const wall = {} as Record<Part, number>;
    const cpu = {} as Record<Part, number>;
    let t = performance.now();
    let c = cpuMs();
    const mark = (part: Part): void => {
      const t2 = performance.now();
      const c2 = cpuMs();
      wall[part] = t2 - t;
      cpu[part] = c2 - c;
      t = t2;
      c = c2;
    };
    const n = b.pageIdx.length;
    const offsets = Array.from({ length: n }, (_, i) => 256 * i);
    const nextBal = this.bal.clone();
    nextBal.setWidesAtDepth(BAL_DEPTH, b.pageIdx, 3, b.slab, offsets);
    nextBal.rootInto(this.out);
    mark('balCommit');
    const nodes: number[] = [];
    for (let i = 0; i < b.pairIdx.length; i++) nodes.push(s.record(this.pairKind, b.pairCore, PAIR_BYTES * i));
    const nextVal = this.val.clone();
    nextVal.setNodesAtDepth(VAL_DEPTH, b.pairIdx, nodes);
    nextVal.rootInto(this.out);
    mark('valCommit');
    this.bal.dispose();
    this.bal = nextBal;
    mark('balRelease');
    this.val.dispose();
    this.val = nextVal;
    mark('valRelease');
    return { wall, cpu, hashes: { bal: NaN, val: NaN } };
  }

  rehearse(b: Block): void {
    const s = this.store;
    const offsets = Array.from({ length: b.pageIdx.length }, (_, i) => 256 * i);
    const bal = this.bal.clone();
    bal.setWidesAtDepth(BAL_DEPTH, b.pageIdx, 3, b.slab, offsets);
    bal.rootInto(this.out);
    const nodes: number[] = [];
    for (let i = 0; i < b.pairIdx.length; i++) nodes.push(s.record(this.pairKind, b.pairCore, PAIR_BYTES * i));
    const val = this.val.clone();
    val.setNodesAtDepth(VAL_DEPTH, b.pairIdx, nodes);
    val.rootInto(this.out);
    bal.dispose();
    val.dispose();
  }

  roots(): { bal: Int32Array; val: Int32Array } {
    const a = new Uint8Array(32);
    const v = new Uint8Array(32);
    this.bal.rootInto(a);
    this.val.rootInto(v);
    return { bal: new Int32Array(a.buffer), val: new Int32Array(v.buffer) };
  }

  bytes(): { balance: number; validator: number; balancePacked: number; validatorPacked: number; node: string } {
    return { balance: NaN, validator: NaN, balancePacked: NaN, validatorPacked: NaN, node: '48' };
  }
}

// ------------------------------------------------------------------ shared leaves

interface Shared {
  readonly pageData: Int32Array; // PAGES × 64 words
  readonly pageRoots: Int32Array;
  readonly pairData: Int32Array; // PAIRS × 61 words (242 bytes + 2 pad)
  readonly pairRoots: Int32Array;
}

function makeShared(): Shared {
  const pageData = new Int32Array(PAGES * PAGE_WORDS);
  for (let i = 0; i < pageData.length; i++) pageData[i] = (i & 1) === 0 ? 32_000_000_000 % 2 ** 31 : 0;
  const pages8 = new Uint8Array(pageData.buffer);
  for (let i = 0; i < pages8.length; i += 8) pages8[i] = Math.floor(random() * 256);
  const pageRootsAll = new Int32Array(PAGES * 8);
  for (let p0 = 0; p0 < PAGES; p0 += 4096) {
    const c = Math.min(4096, PAGES - p0);
    pageRoots(pages8.subarray(256 * p0, 256 * (p0 + c)), c, pageRootsAll, 8 * p0);
  }
  const pairData = new Int32Array(PAIRS * PAIR_WORDS);
  const pair8 = new Uint8Array(pairData.buffer);
  for (let v = 0; v < V; v++) {
    const at = 244 * (v >>> 1) + REC * (v & 1);
    pair8[at] = v & 255; // pubkey
    pair8[at + 1] = (v >>> 8) & 255;
    pair8[at + 2] = v >>> 16;
    pair8.fill(v % 7, at + 48, at + 80); // withdrawal credentials
    pair8[at + 80] = 0x00; // effective balance 32e9 (LE)
    pair8[at + 81] = 0x40;
    pair8[at + 82] = 0x59;
    pair8[at + 83] = 0x73;
    pair8[at + 84] = 0x07;
    pair8[at + 89] = v & 255; // activation eligibility
    pair8[at + 90] = (v >>> 8) & 255;
    pair8.fill(255, at + 105, at + 121); // exit, withdrawable: FAR
  }
  const pairRootsAll = new Int32Array(PAIRS * 8);
  for (let p0 = 0; p0 < PAIRS; p0 += 2048) {
    const c = Math.min(2048, PAIRS - p0);
    pairRoots(pair8.subarray(244 * p0, 244 * (p0 + c)), c, pairRootsAll, 8 * p0);
  }
  return { pageData, pageRoots: pageRootsAll, pairData, pairRoots: pairRootsAll };
}

// ------------------------------------------------------------------ main

const SPECS: Record<string, LayoutSpec> = {
  bin: { name: 'bin', k: 0, full: true, weighted: false },
  r8: { name: 'r8', k: 3, full: true, weighted: false },
  r16: { name: 'r16', k: 4, full: true, weighted: false },
  r8root: { name: 'r8root', k: 3, full: false, weighted: false },
  r16root: { name: 'r16root', k: 4, full: false, weighted: false },
  binw: { name: 'binw', k: 0, full: true, weighted: true },
  r8w: { name: 'r8w', k: 3, full: true, weighted: true },
  r16w: { name: 'r16w', k: 4, full: true, weighted: true },
  r8rootw: { name: 'r8rootw', k: 3, full: false, weighted: true },
};

const evictBuf = new Int32Array(16 << 20); // 64 MiB
function evict(): void {
  for (let i = 0; i < evictBuf.length; i += 16) evictBuf[i]!++;
}

const gc = (globalThis as { gc?: () => void }).gc;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 === 1 ? s[n >> 1]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
}
function fmt(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  return `${median(s).toFixed(2)} (${s[0]!.toFixed(2)}–${s[s.length - 1]!.toFixed(2)})`;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const shared = makeShared();
  const pageMaster = new Uint8Array(shared.pageData.buffer.slice(0));
  const pairMaster = new Uint8Array(shared.pairData.buffer.slice(0));
  const runners: Runner[] = [];
  for (const name of LAYOUTS) runners.push(name === 'core' ? new CoreRunner(shared) : new MiniRunner(SPECS[name]!, shared));
  const check = (): void => {
    const base = runners[0]!.roots();
    for (const r of runners.slice(1)) {
      const x = r.roots();
      for (let w = 0; w < 8; w++) {
        if (x.bal[w] !== base.bal[w] || x.val[w] !== base.val[w]) throw new Error(`${r.name}: roots differ from ${runners[0]!.name} (balances ${x.bal[w] === base.bal[w]}, validators ${x.val[w] === base.val[w]})`);
      }
    }
  };
  check();
  console.log(`built ${LAYOUTS.join(', ')} over 2^${LOG_V} validators in ${((performance.now() - t0) / 1000).toFixed(1)} s; roots agree`);
  const apply = (b: Block, timed: boolean): Sample[] => runners.map((r) => r.block(b, timed));
  for (let w = 0; w < WARMUP; w++) {
    apply(makeBlock(pageMaster, pairMaster), false);
    await turn();
  }
  check();
  const samples = new Map<string, Sample[]>(runners.map((r) => [r.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    gc?.();
    const warm = LOOP ? makeBlock(pageMaster, pairMaster) : null;
    const b = makeBlock(pageMaster, pairMaster);
    for (let q = 0; q < runners.length; q++) {
      const r = runners[(round + q) % runners.length]!;
      if (MODE === 'loop') r.block(warm!, false);
      else if (MODE === 'cold') evict();
      else r.rehearse(b);
      samples.get(r.name)!.push(r.block(b, true));
      await turn();
    }
    check();
  }
  // Each block replaces what it frees one for one: the pools' live counts are back to the build's.
  for (const r of runners) if (r instanceof MiniRunner && r.live() !== r.builtLive) throw new Error(`${r.name}: live ${r.live()} after the blocks, ${r.builtLive} built`);
  const base = samples.get('bin');
  const modeText = { cold: 'cold: 64 MiB written before each block', loop: 'loop: each layout ran its previous block just before', hot: 'hot: the same block committed and dropped just before (its rows in cache)' }[MODE];
  console.log(`\n${modeText}; ${ROUNDS} rounds after ${WARMUP} warm-up blocks; ${PAGE_WRITES} pages of ${PAGES}, ${VAL_WRITES} validators of ${V}; CPU ms median (min–max)`);
  console.log('| layout | node B | balances commit | balances release | balances total | validators commit | validators release | validators total | block total | vs bin (median of paired) | hashes bal / val | B per balance | B per validator |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of runners) {
    const ss = samples.get(r.name)!;
    const col = (f: (s: Sample) => number): number[] => ss.map(f);
    const bal = (s: Sample): number => s.cpu.balCommit + s.cpu.balRelease;
    const val = (s: Sample): number => s.cpu.valCommit + s.cpu.valRelease;
    const total = (s: Sample): number => bal(s) + val(s);
    const ratio = base === undefined ? '–' : `${median(ss.map((s, i) => total(base[i]!) / total(s))).toFixed(2)}×`;
    const by = r.bytes();
    const hb = ss[0]!.hashes;
    console.log(
      `| ${r.name} | ${by.node} | ${fmt(col((s) => s.cpu.balCommit))} | ${fmt(col((s) => s.cpu.balRelease))} | ${fmt(col(bal))} | ${fmt(col((s) => s.cpu.valCommit))} | ${fmt(col((s) => s.cpu.valRelease))} | ${fmt(col(val))} | ${fmt(col(total))} | ${ratio} | ${Number.isNaN(hb.bal) ? '–' : `${hb.bal} / ${hb.val}`} | ${Number.isNaN(by.balance) ? '1.50' : `${by.balance.toFixed(2)} (${by.balancePacked.toFixed(2)})`} | ${Number.isNaN(by.validator) ? '24.00' : `${by.validator.toFixed(2)} (${by.validatorPacked.toFixed(2)})`} |`,
    );
  }
  console.log('\ninside the commits (CPU ms median; hashing: wall ms in hashInto): leaves = slab / pair roots hashed + a node each; paths = the copy pass, of which hashing; per block: inner nodes made / off-path links / inner nodes freed / links dropped');
  for (const r of runners) {
    const ss = samples.get(r.name)!;
    if (ss[0]!.bal === undefined) continue;
    const part = (pick: (s: Sample) => Inside, commit: Part): string => {
      const xs = ss.map(pick);
      const leaves = median(xs.map((x) => x.leaves));
      const paths = median(ss.map((s) => s.cpu[commit] - pick(s).leaves));
      const x = xs[0]!;
      const refills = r.name.endsWith('w') ? ` (${median(xs.map((y) => y.refills))} touching the child)` : '';
      return `leaves ${leaves.toFixed(2)}, paths ${paths.toFixed(2)} (hashing ${median(xs.map((y) => y.pathHash)).toFixed(2)}); ${x.made} / ${x.links}${refills} / ${x.freed} / ${x.unlinks}`;
    };
    console.log(`${r.name}: balances ${part((s) => s.bal!, 'balCommit')} | validators ${part((s) => s.val!, 'valCommit')}`);
  }
  console.log('\nwall ms median (min–max): balances total, validators total, block total');
  for (const r of runners) {
    const ss = samples.get(r.name)!;
    const bal = (s: Sample): number => s.wall.balCommit + s.wall.balRelease;
    const val = (s: Sample): number => s.wall.valCommit + s.wall.valRelease;
    console.log(`${r.name}: ${fmt(ss.map(bal))} | ${fmt(ss.map(val))} | ${fmt(ss.map((s) => bal(s) + val(s)))}`);
  }
}

await main();
