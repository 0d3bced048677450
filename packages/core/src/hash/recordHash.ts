/**
 * Record roots in batches (wide/records.ts): each record's bytes are spread into
 * a row of 2^d chunks by a copy plan made once per layout (unaligned 4-byte
 * reads through a DataView into aligned word writes, tail bytes one by one;
 * runs of records back to back by a spreader made from the plan,
 * recordSpread.ts),
 * the long fields of the batch are hashed by one `hashInto`, and the rows
 * fold d times, one `hashInto` per level, the last fold straight into the
 * caller's output (a record pool's hash page, or staging).
 *
 * Invariant: the row and long-field staging of a layout is written only at
 * the plan's positions — the same bytes for every record — and folds write
 * into separate buffers, so every padding byte stays zero from allocation
 * on and no batch re-zeroes anything.
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import type { Layout } from '../nodes/recordLayouts.js';
import { makeSpreadOne, makeSpreadRun, spreadCodegenAvailable, type SpreadOne, type SpreadPlan, type SpreadRun } from './recordSpread.js';

/** Records per batch: rows of a depth-3 record are 256 B, so the row staging stays about 512 KiB. */
export const RECORD_BATCH = 2048;

/** Hashes batches of records of one layout; one per layout, made on first use. */
export class RecordHasher {
  /** Levels of a row (2^depth chunks). */
  readonly depth: number;
  private readonly stride: number;
  private readonly nl: number;
  private readonly plan: SpreadPlan;
  private readonly run: SpreadRun;
  private readonly one: SpreadOne;
  /** Word offset within a row of long field j's chunk. */
  private readonly longChunk: Int32Array;
  private cap = 0;
  /** The rows being spread into: the own rows, or one of the pipeline's pair (`useRows`). */
  private rows8: Uint8Array<ArrayBufferLike> = new Uint8Array(0);
  private rows32: Int32Array<ArrayBufferLike> = new Int32Array(0);
  private own8 = new Uint8Array(0);
  private own32 = new Int32Array(0);
  private pipe: { rows8: Uint8Array<ArrayBufferLike>; rows32: Int32Array<ArrayBufferLike> }[] = [];
  private longs8 = new Uint8Array(0);
  private longs32 = new Int32Array(0);
  private digests8 = new Uint8Array(0);
  private digests32 = new Int32Array(0);
  private fold = new Uint8Array(0);
  /** The part of each batch a pipelined build folds on this thread (build/recordTrees.ts adjusts it as it goes). */
  hereShare = 0.125;

  /** `generate`: whether the run spreader is generated code (recordSpread.ts); tests force both. */
  constructor(layout: Layout, generate = spreadCodegenAvailable()) {
    this.depth = layout.depth;
    this.stride = 32 << layout.depth;
    this.nl = layout.longs.length;
    const rowW: number[] = [];
    const longW: number[] = [];
    const rowB: number[] = [];
    const longB: number[] = [];
    let j = 0;
    for (let i = 0; i < layout.offs.length; i++) {
      const off = layout.offs[i]!;
      const len = layout.lens[i]!;
      const long = len > 32;
      const dst = long ? 64 * j++ : 32 * layout.chunks[i]!;
      let b = 0;
      for (; b + 4 <= len; b += 4) (long ? longW : rowW).push(off + b, (dst + b) >>> 2);
      for (; b < len; b++) (long ? longB : rowB).push(off + b, dst + b);
    }
    this.plan = {
      size: layout.size,
      rowWords: this.stride >>> 2,
      longBlock: 16 * this.nl,
      rowW: Int32Array.from(rowW),
      rowB: Int32Array.from(rowB),
      longW: Int32Array.from(longW),
      longB: Int32Array.from(longB),
    };
    this.run = makeSpreadRun(this.plan, generate);
    this.one = makeSpreadOne(this.plan, generate);
    this.longChunk = Int32Array.from(layout.longs, (i) => 8 * layout.chunks[i]!);
  }

  private ensure(n: number): void {
    if (n <= this.cap) return;
    // Fresh zeroed buffers: the zero padding is what the invariant keeps.
    this.cap = Math.max(n, Math.min(RECORD_BATCH, 2 * this.cap));
    this.own8 = this.rows8 = new Uint8Array(this.cap * this.stride);
    this.own32 = this.rows32 = new Int32Array(this.own8.buffer);
    this.longs8 = new Uint8Array(64 * this.nl * this.cap);
    this.longs32 = new Int32Array(this.longs8.buffer);
    this.digests8 = new Uint8Array(32 * this.nl * this.cap);
    this.digests32 = new Int32Array(this.digests8.buffer);
    this.fold = new Uint8Array((this.cap * this.stride) >>> 1);
  }

  /** Makes room for a batch of `n` (at most RECORD_BATCH) records; call before `spread`. */
  begin(n: number): void {
    this.ensure(n);
  }

  /**
   * Spreads (after `begin`) into row buffer `i` of a pair of full-batch
   * buffers, or back into the own rows for -1. A pipelined build
   * (build/recordTrees.ts) alternates the pair: a worker folds one while
   * this thread spreads into the other. The pair lies in shared memory
   * where there is any, so the worker reads the rows in place. Each buffer
   * keeps the zero-padding invariant: only plan positions are ever written.
   */
  useRows(i: number): void {
    if (i < 0) {
      this.rows8 = this.own8;
      this.rows32 = this.own32;
      return;
    }
    if (this.pipe.length > 0 && this.pipe[0]!.rows8.length < this.cap * this.stride) this.pipe = [];
    while (this.pipe.length < 2) {
      const bytes = this.cap * this.stride;
      const buffer = typeof SharedArrayBuffer === 'undefined' ? new ArrayBuffer(bytes) : new SharedArrayBuffer(bytes);
      this.pipe.push({ rows8: new Uint8Array(buffer), rows32: new Int32Array(buffer) });
    }
    this.rows8 = this.pipe[i]!.rows8;
    this.rows32 = this.pipe[i]!.rows32;
  }

  /** Spreads the record at `view[s]` (a view of `page`) into row k of the batch (records that are not back to back: the pending flush). */
  spread(k: number, view: DataView, s: number, page: Uint8Array): void {
    this.one(view, page, s, k, this.rows32, this.rows8, this.longs32, this.longs8);
  }

  /** Spreads `n` records back to back in `page` from byte `base` into rows [0, n) of the batch. */
  spreadRun(view: DataView, page: Uint8Array, base: number, n: number): void {
    this.run(view, page, base, n, this.rows32, this.rows8, this.longs32, this.longs8);
  }

  /** Hashes rows [0, n) spread since `begin` and writes root k to `out[outOffset + 32k]`. */
  finish(n: number, out: Uint8Array, outOffset: number): void {
    this.hashLongs(n);
    this.foldRows(0, n, out, outOffset);
  }

  /** The first half of `finish`: hashes the long fields of rows [0, n) into their chunks, leaving whole rows to fold. */
  hashLongs(n: number): void {
    const nl = this.nl;
    if (nl === 0) return;
    const rows32 = this.rows32;
    const words = this.stride >>> 2;
    // Every long field of the batch in one call; digest k·nl + j goes to row k's chunk of long field j.
    hashInto(this.longs8.subarray(0, 64 * nl * n), this.digests8.subarray(0, 32 * nl * n));
    const d32 = this.digests32;
    const longChunk = this.longChunk;
    for (let k = 0; k < n; k++) {
      for (let j = 0; j < nl; j++) {
        const from = 8 * (k * nl + j);
        const to = k * words + longChunk[j]!;
        for (let w = 0; w < 8; w++) rows32[to + w] = d32[from + w]!;
      }
    }
  }

  /** The rows [first, last) after `hashLongs`: 2^depth chunks each, to fold (as subtrees of height `depth`) elsewhere. */
  rows(first: number, last: number): Uint8Array {
    return this.rows8.subarray(first * this.stride, last * this.stride);
  }

  /** The second half of `finish`: folds rows [first, first + n) and writes root k to `out[outOffset + 32k]`. */
  foldRows(first: number, n: number, out: Uint8Array, outOffset: number): void {
    // Folds: rows -> fold (or out), then in place within fold, the last into out.
    let bytes = n * this.stride;
    let input = this.rows8.subarray(first * this.stride);
    for (let level = 0; level < this.depth; level++, bytes >>>= 1) {
      const last = level === this.depth - 1;
      const target = last ? out.subarray(outOffset, outOffset + (bytes >>> 1)) : this.fold.subarray(0, bytes >>> 1);
      hashInto(input.subarray(0, bytes), target);
      input = this.fold;
    }
  }
}

const hashers: (RecordHasher | undefined)[] = [];

/** The hasher of a layout (made on first use; a layout never changes once registered). */
export function recordHasher(layout: Layout): RecordHasher {
  let h = hashers[layout.kind];
  if (h === undefined) {
    h = new RecordHasher(layout);
    hashers[layout.kind] = h;
  }
  return h;
}
