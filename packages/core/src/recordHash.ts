/**
 * Record roots in batches (records.ts): each record's bytes are spread into
 * a row of 2^d chunks by a copy plan made once per layout (unaligned 4-byte
 * reads through a DataView into aligned word writes, tail bytes one by one),
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
import type { Layout } from './records.js';

/** Records per batch: rows of a depth-3 record are 256 B, so the row staging stays about 512 KiB. */
export const RECORD_BATCH = 2048;

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Hashes batches of records of one layout; one per layout, made on first use. */
export class RecordHasher {
  private readonly depth: number;
  private readonly stride: number;
  private readonly nl: number;
  /** [source byte, destination word] pairs: row words (destination within a row) and long-field words (within a record's 64·nl long block). */
  private readonly rowWords: Int32Array;
  private readonly longWords: Int32Array;
  /** [source byte, destination byte] pairs for the bytes past a field's last whole word. */
  private readonly rowBytes: Int32Array;
  private readonly longBytes: Int32Array;
  /** Word offset within a row of long field j's chunk. */
  private readonly longChunk: Int32Array;
  private cap = 0;
  private rows8 = new Uint8Array(0);
  private rows32 = new Int32Array(0);
  private longs8 = new Uint8Array(0);
  private longs32 = new Int32Array(0);
  private digests8 = new Uint8Array(0);
  private digests32 = new Int32Array(0);
  private fold = new Uint8Array(0);

  constructor(layout: Layout) {
    this.depth = layout.depth;
    this.stride = 32 << layout.depth;
    this.nl = layout.longs.length;
    const rowWords: number[] = [];
    const longWords: number[] = [];
    const rowBytes: number[] = [];
    const longBytes: number[] = [];
    let j = 0;
    for (let i = 0; i < layout.offs.length; i++) {
      const off = layout.offs[i]!;
      const len = layout.lens[i]!;
      const long = len > 32;
      const dst = long ? 64 * j++ : 32 * i;
      let b = 0;
      for (; b + 4 <= len; b += 4) (long ? longWords : rowWords).push(off + b, (dst + b) >>> 2);
      for (; b < len; b++) (long ? longBytes : rowBytes).push(off + b, dst + b);
    }
    this.rowWords = Int32Array.from(rowWords);
    this.longWords = Int32Array.from(longWords);
    this.rowBytes = Int32Array.from(rowBytes);
    this.longBytes = Int32Array.from(longBytes);
    this.longChunk = Int32Array.from(layout.longs, (i) => 8 * i);
  }

  private ensure(n: number): void {
    if (n <= this.cap) return;
    // Fresh zeroed buffers: the zero padding is what the invariant keeps.
    this.cap = Math.max(n, Math.min(RECORD_BATCH, 2 * this.cap));
    this.rows8 = new Uint8Array(this.cap * this.stride);
    this.rows32 = new Int32Array(this.rows8.buffer);
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

  /** Spreads the record at `view[s]` into row k of the batch. */
  spread(k: number, view: DataView, s: number): void {
    const { rowWords, rowBytes, longWords, longBytes, rows32, rows8 } = this;
    const rw = k * (this.stride >>> 2);
    for (let w = 0; w < rowWords.length; w += 2) rows32[rw + rowWords[w + 1]!] = view.getInt32(s + rowWords[w]!, LITTLE_ENDIAN);
    const rb = rw << 2;
    for (let b = 0; b < rowBytes.length; b += 2) rows8[rb + rowBytes[b + 1]!] = view.getUint8(s + rowBytes[b]!);
    if (this.nl === 0) return;
    const longs32 = this.longs32;
    const longs8 = this.longs8;
    const lw = k * 16 * this.nl;
    for (let w = 0; w < longWords.length; w += 2) longs32[lw + longWords[w + 1]!] = view.getInt32(s + longWords[w]!, LITTLE_ENDIAN);
    const lb = lw << 2;
    for (let b = 0; b < longBytes.length; b += 2) longs8[lb + longBytes[b + 1]!] = view.getUint8(s + longBytes[b]!);
  }

  /** Hashes rows [0, n) spread since `begin` and writes root k to `out[outOffset + 32k]`. */
  finish(n: number, out: Uint8Array, outOffset: number): void {
    const rows32 = this.rows32;
    const rows8 = this.rows8;
    const words = this.stride >>> 2;
    const nl = this.nl;
    if (nl > 0) {
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
    // Folds: rows -> fold (or out), then in place within fold, the last into out.
    let bytes = n * this.stride;
    let input = rows8;
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
