import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getBackend, listHashers, type HasherName } from '../src/index.js';
import { referenceLayer, toHex } from './reference.js';

const available = listHashers().filter((h) => h.available).map((h) => h.name);

describe('backend availability', () => {
  it('always offers the portable backends', () => {
    expect(available).toEqual(expect.arrayContaining(['wasm', 'js', 'noble']));
  });
});

describe.each(available)('backend %s', (name: HasherName) => {
  const backend = getBackend(name);

  it('hashes 64 zero bytes to zeroHash(1)', () => {
    const out = new Uint8Array(32);
    backend.hashInto(new Uint8Array(64), out);
    expect(toHex(out)).toBe('f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b');
  });

  it('matches the reference on every layer size 0..40', () => {
    for (let n = 0; n <= 40; n++) {
      const input = Uint8Array.from({ length: 64 * n }, (_, i) => (i * 37 + n) & 0xff);
      const out = new Uint8Array(32 * n);
      backend.hashInto(input, out);
      expect(toHex(out)).toBe(toHex(referenceLayer(input)));
    }
  });

  it('matches the reference on random layers, at random offsets into larger buffers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 63 }),
        fc.integer({ min: 0, max: 63 }),
        fc.integer(),
        (n, inOffset, outOffset, seed) => {
          const inBuf = new Uint8Array(inOffset + 64 * n + 7);
          let x = seed | 1;
          for (let i = 0; i < inBuf.length; i++) {
            x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
            inBuf[i] = x & 0xff;
          }
          const input = inBuf.subarray(inOffset, inOffset + 64 * n);
          const outBuf = new Uint8Array(outOffset + 32 * n + 5).fill(0xaa);
          const output = outBuf.subarray(outOffset, outOffset + 32 * n);
          backend.hashInto(input, output);
          expect(toHex(output)).toBe(toHex(referenceLayer(input)));
          // Bytes around the output are untouched.
          expect(outBuf.subarray(0, outOffset).every((b) => b === 0xaa)).toBe(true);
          expect(outBuf.subarray(outOffset + 32 * n).every((b) => b === 0xaa)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('folds a layer in place down to a single root', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 40 }), (depth, offset) => {
        const buf = new Uint8Array(offset + 32 * 2 ** depth);
        for (let i = 0; i < buf.length; i++) buf[i] = (i * 7 + depth) & 0xff;
        let expected: Uint8Array = buf.slice(offset);
        let layer = buf.subarray(offset);
        while (layer.length > 32) {
          expected = referenceLayer(expected);
          backend.hashInto(layer, layer.subarray(0, layer.length / 2));
          layer = layer.subarray(0, layer.length / 2);
          expect(toHex(layer)).toBe(toHex(expected));
        }
      }),
      { numRuns: 30 },
    );
  });

  it('handles layers larger than any internal chunk, in place too', () => {
    const n = 2 ** 16 + 5;
    const input = new Uint8Array(64 * n);
    for (let i = 0; i < input.length; i++) input[i] = (i * 2654435761) >>> 24;
    const expected = referenceLayer(input);
    const out = new Uint8Array(32 * n);
    backend.hashInto(input, out);
    expect(toHex(out)).toBe(toHex(expected));
    backend.hashInto(input, input.subarray(0, 32 * n));
    expect(toHex(input.subarray(0, 32 * n))).toBe(toHex(expected));
  });
});
