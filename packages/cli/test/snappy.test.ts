/**
 * Snappy block and framing formats: our decoder against snappyjs's
 * compressor, the framing checksums against published CRC-32C values, and
 * every kind of corrupt input rejected with a one-line error and offset.
 */
import { randomBytes } from 'node:crypto';
import snappyjs from 'snappyjs';
import { describe, expect, it } from 'vitest';
import { crc32c, decodeBlock, decodeFramed, encodeFramed, isFramed, maskedCrc32c } from '../src/index.js';
import { CliError } from '../src/errors.js';

const ascii = (s: string) => new TextEncoder().encode(s);

function framedChunk(type: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + body.length);
  out[0] = type;
  out[1] = body.length & 0xff;
  out[2] = (body.length >>> 8) & 0xff;
  out[3] = body.length >>> 16;
  out.set(body, 4);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

const STREAM_ID = Uint8Array.of(0xff, 6, 0, 0, ...ascii('sNaPpY'));

function le32(n: number): Uint8Array {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
}

describe('crc32c', () => {
  it('matches the published check values (RFC 3720 B.4 and the CRC catalogue)', () => {
    expect(crc32c(ascii('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c);
  });

  it('masks as the framing format says: rotate right 15, add 0xa282ead8', () => {
    const c = 0xe3069283;
    expect(maskedCrc32c(ascii('123456789'))).toBe(((((c >>> 15) | (c << 17)) >>> 0) + 0xa282ead8) % 2 ** 32);
  });
});

describe('raw block format', () => {
  it('decodes what snappyjs compresses: empty, text, runs, random, mixed', () => {
    const inputs = [
      new Uint8Array(0),
      ascii('a'),
      ascii('hello hello hello hello hello hello'),
      new Uint8Array(100_000).fill(7),
      new Uint8Array(randomBytes(70_000)),
      concat(new Uint8Array(randomBytes(5000)), new Uint8Array(20_000), new Uint8Array(randomBytes(300)), new Uint8Array(9000).fill(3)),
    ];
    for (const input of inputs) {
      expect(Buffer.from(decodeBlock(snappyjs.compress(input))).equals(Buffer.from(input))).toBe(true);
    }
  });

  it('rejects corrupt blocks with the compressed byte offset, without allocating what the header claims', () => {
    const good = snappyjs.compress(ascii('hello hello hello hello hello hello'));
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array(0), /length preamble is cut off, compressed byte offset 0/],
      [Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x0f, 0), /more than 1 compressed bytes can hold/],
      [Uint8Array.of(0x80, 0x80, 0x80, 0x80, 0x80, 0x01), /longer than 5 bytes/],
      [good.subarray(0, good.length - 1), /(ends after|cut off|runs past)/],
      [Uint8Array.of(5, 0x01 | (0 << 2), 9), /reaches back 9 bytes with only 0 written, compressed byte offset 1/],
      [Uint8Array.of(2, 4 << 2, 0x61), /literal of 5 bytes runs past the input/],
      [Uint8Array.of(3, 0 << 2, 0x61), /ends after 1 of its declared 3 bytes/],
    ];
    for (const [data, message] of cases) {
      expect(() => decodeBlock(data)).toThrow(CliError);
      expect(() => decodeBlock(data)).toThrow(message);
    }
  });
});

describe('framing format', () => {
  it('round-trips through encodeFramed, with chunks of at most 64 KiB and the stream identifier first', () => {
    for (const input of [new Uint8Array(0), ascii('x'), new Uint8Array(randomBytes(200_000)), new Uint8Array(300_000).fill(1)]) {
      const framed = encodeFramed(input);
      expect(isFramed(framed)).toBe(true);
      expect(Buffer.from(decodeFramed(framed)).equals(Buffer.from(input))).toBe(true);
    }
    // Random data does not compress: stored as uncompressed chunks (type 1).
    expect(encodeFramed(new Uint8Array(randomBytes(100)))[10]).toBe(0x01);
    expect(encodeFramed(new Uint8Array(1000))[10]).toBe(0x00);
  });

  it('decodes a stream built by hand: compressed and uncompressed chunks, padding, a skippable chunk, a repeated identifier', () => {
    const a = ascii('abcabcabcabcabcabc');
    const b = ascii('plain');
    const stream = concat(
      STREAM_ID,
      framedChunk(0x00, concat(le32(maskedCrc32c(a)), snappyjs.compress(a))),
      framedChunk(0xfe, new Uint8Array(3)),
      framedChunk(0x80, ascii('skip me')),
      STREAM_ID,
      framedChunk(0x01, concat(le32(maskedCrc32c(b)), b)),
    );
    expect(new TextDecoder().decode(decodeFramed(stream))).toBe('abcabcabcabcabcabcplain');
  });

  it('rejects bad checksums, unskippable chunks, truncation and oversized chunks with the chunk offset', () => {
    const b = ascii('plain');
    const badCrc = concat(STREAM_ID, framedChunk(0x01, concat(le32(maskedCrc32c(b) ^ 1), b)));
    expect(() => decodeFramed(badCrc)).toThrow(/checksum mismatch.*compressed byte offset 10/);
    expect(() => decodeFramed(concat(STREAM_ID, framedChunk(0x02, b)))).toThrow(/reserved unskippable chunk type 0x02, compressed byte offset 10/);
    const ok = concat(STREAM_ID, framedChunk(0x01, concat(le32(maskedCrc32c(b)), b)));
    expect(() => decodeFramed(ok.subarray(0, ok.length - 2))).toThrow(/runs past the end of the input, compressed byte offset 10/);
    expect(() => decodeFramed(ok.subarray(0, 12))).toThrow(/chunk header is cut off/);
    expect(() => decodeFramed(concat(STREAM_ID, framedChunk(0x01, ascii('ab'))))).toThrow(/no room for its checksum/);
    const big = new Uint8Array(65537);
    expect(() => decodeFramed(concat(STREAM_ID, framedChunk(0x01, concat(le32(maskedCrc32c(big)), big))))).toThrow(/exceeds 65536/);
    // A compressed chunk may not declare more than 64 KiB either.
    const bigBlock = snappyjs.compress(big);
    expect(() => decodeFramed(concat(STREAM_ID, framedChunk(0x00, concat(le32(0), bigBlock))))).toThrow(/exceeds the 65536 bytes allowed/);
    expect(() => decodeFramed(b)).toThrow(/no stream identifier/);
  });
});
