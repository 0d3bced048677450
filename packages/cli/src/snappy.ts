/**
 * Snappy, as consensus clients store and serve SSZ: the raw *block* format
 * (what the spec test vectors' `serialized.ssz_snappy` hold), and the
 * encoder of the *framing* format (stream identifier, then compressed /
 * uncompressed chunks each carrying the masked CRC-32C of its uncompressed
 * bytes), whose decoder is `snappyFrames.ts`.
 *
 * Invariant: decoding never reads or writes out of bounds, never allocates
 * more than the input can expand to (a block's declared length is checked
 * against the most its compressed bytes can produce before anything is
 * allocated), and every defect is a `CliError` naming the compressed byte
 * offset. Compression is snappyjs's (tests check our decoder against it).
 * @module
 */
import snappyjs from 'snappyjs';
import { maskedCrc32c } from './crc32c.js';
import { CliError } from './errors.js';

/** The framing format's stream identifier chunk: type 0xff, length 6, "sNaPpY". */
export const STREAM_IDENTIFIER = Uint8Array.of(0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59);
/** A framed chunk holds at most 64 KiB of uncompressed data. */
export const MAX_FRAME_DATA = 65536;
/** The most output one compressed byte can produce: a 3-byte copy of 64 bytes (rounded up). */
const MAX_EXPANSION = 22;

export function isFramed(data: Uint8Array): boolean {
  if (data.length < STREAM_IDENTIFIER.length) return false;
  for (let i = 0; i < STREAM_IDENTIFIER.length; i++) if (data[i] !== STREAM_IDENTIFIER[i]) return false;
  return true;
}

export function fail(what: string, offset: number): never {
  throw new CliError(`bad snappy data: ${what}, compressed byte offset ${offset}`);
}

/**
 * The uncompressed length a raw block `data[start, end)` declares, and where
 * its tags begin, checked against `maxLength` and against the most its
 * compressed bytes can produce. Reads only the preamble (at most 5 bytes),
 * so a block's size is known before anything is allocated for it.
 */
export function blockLength(data: Uint8Array, start = 0, end = data.length, maxLength = Infinity, base = 0): { length: number; tags: number } {
  // Preamble: the uncompressed length as a little-endian varint of at most 5 bytes (< 2^32).
  let pos = start;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= end) fail('the length preamble is cut off', base + pos);
    if (shift > 28) fail('the length preamble is longer than 5 bytes', base + pos);
    const b = data[pos++] as number;
    length += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) break;
  }
  if (length > 0xffffffff) fail(`declared length ${length} is not below 2^32`, base + start);
  if (length > maxLength) fail(`declared length ${length} exceeds the ${maxLength} bytes allowed here`, base + start);
  return { length, tags: pos };
}

/** Fails unless `length` bytes can come out of `compressed` bytes of tags. */
export function checkExpansion(length: number, compressed: number, at: number): void {
  if (length > compressed * MAX_EXPANSION) fail(`declared length ${length} is more than ${compressed} compressed bytes can hold`, at);
}

/**
 * Decodes one raw snappy block `data[start, end)`. `base` is added to
 * offsets in errors (the block's position in a framed stream). With `into`,
 * the bytes are written there from `intoOffset` (which must have room for
 * them) and that part of `into` is returned; else a new array.
 */
export function decodeBlock(data: Uint8Array, start = 0, end = data.length, maxLength = Infinity, base = 0, into?: Uint8Array, intoOffset = 0): Uint8Array {
  const { length, tags } = blockLength(data, start, end, maxLength, base);
  let pos = tags;
  checkExpansion(length, end - pos, base + start);
  const out = into === undefined ? new Uint8Array(length) : into.subarray(intoOffset, intoOffset + length);
  if (out.length !== length) fail(`declared length ${length} does not fit the ${out.length} bytes expected here`, base + start);
  let o = 0;
  while (pos < end) {
    const tagAt = pos;
    const tag = data[pos++] as number;
    let len: number;
    let offset = 0;
    switch (tag & 3) {
      case 0: {
        // Literal: length-1 in the tag's upper 6 bits, or in 1..4 following bytes when those say 60..63.
        len = tag >>> 2;
        if (len >= 60) {
          const extra = len - 59;
          if (pos + extra > end) fail('a literal length is cut off', base + tagAt);
          len = 0;
          for (let k = 0; k < extra; k++) len += (data[pos + k] as number) * 2 ** (8 * k);
          pos += extra;
        }
        len += 1;
        if (len > end - pos) fail(`a literal of ${len} bytes runs past the input`, base + tagAt);
        if (len > length - o) fail(`a literal of ${len} bytes runs past the declared length ${length}`, base + tagAt);
        out.set(data.subarray(pos, pos + len), o);
        pos += len;
        o += len;
        continue;
      }
      case 1:
        if (pos + 1 > end) fail('a copy is cut off', base + tagAt);
        len = ((tag >>> 2) & 7) + 4;
        offset = ((tag >>> 5) << 8) | (data[pos++] as number);
        break;
      case 2:
        if (pos + 2 > end) fail('a copy is cut off', base + tagAt);
        len = (tag >>> 2) + 1;
        offset = (data[pos] as number) | ((data[pos + 1] as number) << 8);
        pos += 2;
        break;
      default:
        if (pos + 4 > end) fail('a copy is cut off', base + tagAt);
        len = (tag >>> 2) + 1;
        offset = ((data[pos] as number) | ((data[pos + 1] as number) << 8) | ((data[pos + 2] as number) << 16)) + (data[pos + 3] as number) * 2 ** 24;
        pos += 4;
    }
    if (offset === 0 || offset > o) fail(`a copy reaches back ${offset} bytes with only ${o} written`, base + tagAt);
    if (len > length - o) fail(`a copy of ${len} bytes runs past the declared length ${length}`, base + tagAt);
    // Byte by byte: source and destination may overlap (a run).
    for (let k = 0; k < len; k++, o++) out[o] = out[o - offset] as number;
  }
  if (o !== length) fail(`the block ends after ${o} of its declared ${length} bytes`, base + end);
  return out;
}

/** The raw block format of `data` (snappyjs's compressor). */
export function encodeBlock(data: Uint8Array): Uint8Array {
  return snappyjs.compress(data);
}

/** The framing format of `data`: stream identifier, then one chunk per 64 KiB, stored uncompressed when that is smaller. */
export function encodeFramed(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [STREAM_IDENTIFIER];
  let total = STREAM_IDENTIFIER.length;
  for (let start = 0; start < data.length; start += MAX_FRAME_DATA) {
    const raw = data.subarray(start, Math.min(data.length, start + MAX_FRAME_DATA));
    const packed = encodeBlock(raw);
    const compressed = packed.length < raw.length;
    const payload = compressed ? packed : raw;
    const header = new Uint8Array(8);
    const len = payload.length + 4;
    header[0] = compressed ? 0x00 : 0x01;
    header[1] = len & 0xff;
    header[2] = (len >>> 8) & 0xff;
    header[3] = (len >>> 16) & 0xff;
    new DataView(header.buffer).setUint32(4, maskedCrc32c(raw), true);
    parts.push(header, payload);
    total += header.length + payload.length;
  }
  return concat(parts, total);
}

/** `parts` back to back in one array of `total` bytes. */
function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
