/**
 * Decoding the snappy framing format from an input read at offsets: one scan
 * of the chunk headers (a few bytes per chunk, never the bodies) gives the
 * uncompressed size and a sparse index, before anything is decompressed or
 * allocated for the output; then any byte range can be decompressed alone
 * (a layout check reads a state's fixed part without the rest), or the whole
 * stream into one buffer of exactly its size.
 *
 * Invariants: every chunk's header is checked in the scan (types, lengths,
 * declared sizes), every data chunk's checksum when it is decompressed; the
 * output is never larger than the scan said; the index holds one entry per
 * 64 KiB of output at most, whatever the chunks' sizes; every defect is a
 * `CliError` naming the compressed byte offset of its chunk.
 * @module
 */
import { maskedCrc32c } from './crc32c.js';
import { blockLength, checkExpansion, decodeBlock, fail, isFramed, MAX_FRAME_DATA, STREAM_IDENTIFIER } from './snappy.js';

/** Reads bytes `[start, end)` of the compressed input (fewer at its end). */
export type CompressedReader = (start: number, end: number) => Uint8Array;

/** A chunk header and what follows it that the scan needs: 4 header + 4 checksum + 5 preamble bytes. */
const PEEK = 13;
/** The scan reads the input in windows of this size: one read per large chunk, many headers per read of small ones. */
const WINDOW = 4096;
/** One index entry per this many output bytes. */
const MARK_EVERY = MAX_FRAME_DATA;

interface Chunk {
  /** Offset of the chunk's header in the compressed input. */
  readonly at: number;
  /** 0x00 compressed, 0x01 uncompressed, anything else carries no data. */
  readonly type: number;
  /** Offset just past the chunk. */
  readonly end: number;
  /** Uncompressed bytes it carries. */
  readonly length: number;
}

/** Windowed reads of the compressed input for the header walk. */
class Window {
  private start = 0;
  private bytes: Uint8Array = new Uint8Array(0);

  constructor(
    private readonly read: CompressedReader,
    private readonly size: number,
  ) {}

  /** Up to `n` bytes from `pos` (fewer at the end of the input). */
  at(pos: number, n: number): Uint8Array {
    if (pos < this.start || pos + Math.min(n, this.size - pos) > this.start + this.bytes.length) {
      this.start = pos;
      this.bytes = this.read(pos, Math.min(this.size, pos + Math.max(n, WINDOW)));
    }
    return this.bytes.subarray(pos - this.start, pos - this.start + n);
  }
}

/** The chunk at `at` (its header checked; its body not read beyond the preamble). */
function chunkAt(window: Window, at: number, size: number): Chunk {
  if (at + 4 > size) fail('a chunk header is cut off', at);
  const head = window.at(at, PEEK);
  const type = head[0] as number;
  const len = (head[1] as number) | ((head[2] as number) << 8) | ((head[3] as number) << 16);
  const end = at + 4 + len;
  if (len > size - at - 4) fail(`a chunk of ${len} bytes runs past the end of the input`, at);
  let length = 0;
  if (type === 0xff) {
    if (len !== 6 || !isFramed(window.at(at, STREAM_IDENTIFIER.length))) fail('a malformed stream identifier', at);
  } else if (type === 0x00 || type === 0x01) {
    if (len < 4) fail(`a data chunk of ${len} bytes has no room for its checksum`, at);
    if (type === 0x01) {
      length = len - 4;
      if (length > MAX_FRAME_DATA) fail(`an uncompressed chunk of ${length} bytes exceeds 65536`, at);
    } else {
      const declared = blockLength(head, 8, Math.min(head.length, 4 + len), MAX_FRAME_DATA, at);
      checkExpansion(declared.length, end - (at + declared.tags), at);
      length = declared.length;
    }
  } else if (type >= 0x02 && type <= 0x7f) {
    fail(`reserved unskippable chunk type 0x${type.toString(16).padStart(2, '0')}`, at);
  }
  // 0x80..0xfe: padding and reserved skippable chunks carry nothing.
  return { at, type, end, length };
}

export class FramedStream {
  private constructor(
    private readonly read: CompressedReader,
    private readonly compressedSize: number,
    /** Uncompressed size of the whole stream. */
    readonly size: number,
    /** For each 64 KiB block of output: the first chunk starting in it (compressed offset), and its output offset. */
    private readonly markAt: readonly number[],
    private readonly markOut: readonly number[],
  ) {}

  /** Walks every chunk header of a framed stream of `compressedSize` bytes. */
  static scan(read: CompressedReader, compressedSize: number): FramedStream {
    const window = new Window(read, compressedSize);
    if (compressedSize < STREAM_IDENTIFIER.length || !isFramed(window.at(0, STREAM_IDENTIFIER.length))) fail('no stream identifier at the start', 0);
    const markAt: number[] = [];
    const markOut: number[] = [];
    let out = 0;
    for (let pos = 0; pos < compressedSize; ) {
      const chunk = chunkAt(window, pos, compressedSize);
      if (chunk.length > 0 && (markOut.length === 0 || Math.floor(out / MARK_EVERY) > Math.floor(markOut[markOut.length - 1]! / MARK_EVERY))) {
        markAt.push(pos);
        markOut.push(out);
      }
      out += chunk.length;
      pos = chunk.end;
    }
    return new FramedStream(read, compressedSize, out, markAt, markOut);
  }

  /** Uncompressed bytes `[start, end)` (clamped to the stream), decompressing only the chunks that hold them. */
  readRange(start: number, end: number): Uint8Array {
    const from = Math.min(Math.max(start, 0), this.size);
    const to = Math.min(Math.max(end, from), this.size);
    const result = new Uint8Array(to - from);
    if (to === from) return result;
    // The last mark at or before `from`, then chunk by chunk.
    let lo = 0;
    let hi = this.markOut.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.markOut[mid]! <= from) lo = mid;
      else hi = mid - 1;
    }
    const window = new Window(this.read, this.compressedSize);
    let out = this.markOut[lo]!;
    for (let pos = this.markAt[lo]!; pos < this.compressedSize && out < to; ) {
      const chunk = chunkAt(window, pos, this.compressedSize);
      if (chunk.length > 0 && out + chunk.length > from) {
        const bytes = this.chunkBytes(chunk);
        const a = Math.max(from, out);
        const b = Math.min(to, out + chunk.length);
        result.set(bytes.subarray(a - out, b - out), a - from);
      }
      out += chunk.length;
      pos = chunk.end;
    }
    return result;
  }

  /** The whole stream, in one buffer of `size` bytes; `onProgress(done)` gets the compressed bytes consumed so far. */
  decompressAll(onProgress?: (done: number) => void): Uint8Array {
    const buffer = Buffer.allocUnsafeSlow(this.size);
    const output = new Uint8Array(buffer.buffer, buffer.byteOffset, this.size);
    // Read in large batches: one read per batch of chunks rather than per chunk.
    const window = new Window(this.read, this.compressedSize);
    let out = 0;
    for (let pos = 0; pos < this.compressedSize; ) {
      const chunk = chunkAt(window, pos, this.compressedSize);
      if (chunk.length > 0) this.chunkBytes(chunk, output, out);
      out += chunk.length;
      pos = chunk.end;
      onProgress?.(pos);
    }
    return output;
  }

  /** The uncompressed bytes of a data chunk, checksum verified (written into `into` at `intoOffset` when given). */
  private chunkBytes(chunk: Chunk, into?: Uint8Array, intoOffset = 0): Uint8Array {
    const body = this.read(chunk.at + 4, chunk.end);
    if (body.length !== chunk.end - chunk.at - 4) fail('a chunk is cut off', chunk.at);
    const crc = ((body[0] as number) | ((body[1] as number) << 8) | ((body[2] as number) << 16)) + (body[3] as number) * 2 ** 24;
    let bytes: Uint8Array;
    if (chunk.type === 0x00) bytes = decodeBlock(body, 4, body.length, MAX_FRAME_DATA, chunk.at + 4, into, intoOffset);
    else {
      bytes = body.subarray(4);
      if (into !== undefined) {
        into.set(bytes, intoOffset);
        bytes = into.subarray(intoOffset, intoOffset + bytes.length);
      }
    }
    if (maskedCrc32c(bytes) !== crc) fail('checksum mismatch (masked CRC-32C) in a data chunk', chunk.at);
    return bytes;
  }
}

/** Decodes a framing-format stream held in memory; `onProgress(done)` gets the compressed bytes consumed so far. */
export function decodeFramed(data: Uint8Array, onProgress?: (done: number) => void): Uint8Array {
  return FramedStream.scan((start, end) => data.subarray(start, end), data.length).decompressAll(onProgress);
}
