import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { HasherError, depthForLimit, getHasher, listHashers, merkleize, setHasher } from '../src/index.js';
import { referenceMerkleize, referenceZeroHashes, toHex } from './reference.js';

const initial = getHasher();
afterAll(() => setHasher(initial));

function chunkList(count: number, seed: number): Uint8Array[] {
  return Array.from({ length: count }, (_, c) => Uint8Array.from({ length: 32 }, (_, i) => (c * 31 + i * 7 + seed) & 0xff));
}

function flat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(32 * chunks.length);
  chunks.forEach((c, i) => out.set(c, 32 * i));
  return out;
}

const available = listHashers().filter((h) => h.available).map((h) => h.name);

describe.each(available)('merkleize with %s', (name) => {
  it('equals the recursive reference for random counts and limits', () => {
    setHasher(name);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 70 }),
        fc.oneof(
          fc.integer({ min: 0, max: 200 }).map(BigInt),
          fc.constantFrom(1n, 2n, 3n, 63n, 64n, 65n, 127n, 128n, 129n, 1n << 40n, (1n << 40n) + 1n, 1n << 64n, (1n << 64n) - 1n),
        ),
        fc.integer({ min: 0, max: 255 }),
        (count, rawLimit, seed) => {
          const limit = rawLimit < BigInt(count) ? BigInt(count) : rawLimit;
          const chunks = chunkList(count, seed);
          const expected = referenceMerkleize(chunks, limit);
          expect(toHex(merkleize(flat(chunks), limit))).toBe(toHex(expected));
          if (limit <= BigInt(Number.MAX_SAFE_INTEGER)) expect(toHex(merkleize(flat(chunks), Number(limit)))).toBe(toHex(expected));
        },
      ),
      { numRuns: 120 },
    );
  });

  it('defaults the limit to the chunk count', () => {
    setHasher(name);
    for (const count of [1, 2, 3, 5, 8, 13, 33]) {
      const chunks = chunkList(count, count);
      expect(toHex(merkleize(flat(chunks)))).toBe(toHex(referenceMerkleize(chunks, BigInt(count))));
    }
  });

  it('equals the reference on inputs that span several internal blocks', () => {
    setHasher(name);
    const block = 2 ** 14;
    for (const count of [block - 1, block + 1, 3 * block + 5]) {
      const chunks = chunkList(count, count & 0xff);
      for (const limit of [BigInt(count), 1n << 64n]) {
        expect(toHex(merkleize(flat(chunks), limit))).toBe(toHex(referenceMerkleize(chunks, limit)));
      }
    }
  });

  it('leaves the caller\'s chunks untouched', () => {
    setHasher(name);
    const input = flat(chunkList(2 ** 14 * 2 + 37, 1));
    const copy = input.slice();
    merkleize(input, 1n << 40n);
    expect(toHex(input)).toBe(toHex(copy));
  });
});

describe('merkleize edge cases', () => {
  it('of no chunks is the zero hash of the limit\'s depth', () => {
    expect(toHex(merkleize(new Uint8Array(0)))).toBe(toHex(referenceZeroHashes[0]!));
    expect(toHex(merkleize(new Uint8Array(0), 0))).toBe(toHex(referenceZeroHashes[0]!));
    expect(toHex(merkleize(new Uint8Array(0), 1n << 40n))).toBe(toHex(referenceZeroHashes[40]!));
    expect(toHex(merkleize(new Uint8Array(0), 1n << 64n))).toBe(toHex(referenceZeroHashes[64]!));
  });

  it('of one chunk with limit 1 is the chunk itself (a copy)', () => {
    const chunk = chunkList(1, 5)[0]!;
    const root = merkleize(chunk, 1);
    expect(toHex(root)).toBe(toHex(chunk));
    root[0] = root[0]! ^ 1;
    expect(root[0]).not.toBe(chunk[0]);
  });

  it('rejects more chunks than the limit, partial chunks and bad limits', () => {
    expect(() => merkleize(new Uint8Array(96), 2)).toThrowError(/3 chunks exceed the limit of 2/);
    expect(() => merkleize(new Uint8Array(33))).toThrowError(HasherError);
    expect(() => merkleize(new Uint8Array(32), -1)).toThrowError(HasherError);
    expect(() => merkleize(new Uint8Array(32), (1n << 64n) + 1n)).toThrowError(HasherError);
    expect(() => merkleize(new Uint8Array(32), 2.5)).toThrowError(HasherError);
  });

  it('depthForLimit is the least depth with room for the limit', () => {
    expect([0, 1, 2, 3, 4, 5, 1024, 1025].map(depthForLimit)).toEqual([0, 0, 1, 2, 2, 3, 10, 11]);
    expect(depthForLimit(1n << 40n)).toBe(40);
    expect(depthForLimit(1n << 64n)).toBe(64);
  });
});
