import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  HasherError,
  digest64,
  getHasher,
  hashInto,
  hashPair,
  hashPairInto,
  listHashers,
  mixInLength,
  setHasher,
  zeroHash,
  zeroHashInto,
} from '../src/index.js';
import { concat, referenceLayer, referenceZeroHashes, toHex } from './reference.js';

const initial = getHasher();
afterAll(() => setHasher(initial));

function bytes(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 89 + seed * 13 + 1) & 0xff);
}

describe('digest64 / hashPair', () => {
  it('equal SHA-256 of the 64 bytes', () => {
    const input = bytes(64, 3);
    expect(toHex(digest64(input))).toBe(toHex(sha256(input)));
    expect(toHex(hashPair(input.subarray(0, 32), input.subarray(32)))).toBe(toHex(sha256(input)));
  });

  it('reject every other length with a HasherError', () => {
    for (const n of [0, 1, 32, 63, 65, 128]) {
      expect(() => digest64(new Uint8Array(n))).toThrowError(HasherError);
      expect(() => digest64(new Uint8Array(n))).toThrowError(/expected 64 bytes, got/);
    }
    expect(() => hashPair(new Uint8Array(31), new Uint8Array(32))).toThrowError(HasherError);
    expect(() => hashPairInto(new Uint8Array(32), new Uint8Array(32), new Uint8Array(33))).toThrowError(HasherError);
  });

  it('hashPairInto may write over one of its own inputs', () => {
    const left = bytes(32, 1);
    const right = bytes(32, 2);
    const expected = sha256(concat(left, right));
    hashPairInto(left, right, left);
    expect(toHex(left)).toBe(toHex(expected));
  });
});

describe('hashInto argument checks', () => {
  it('rejects inputs that are not whole messages, and mismatched outputs', () => {
    expect(() => hashInto(new Uint8Array(65), new Uint8Array(32))).toThrowError(/not a multiple of 64/);
    expect(() => hashInto(new Uint8Array(128), new Uint8Array(32))).toThrowError(/must be half/);
    expect(() => hashInto(new Uint8Array(64), new Uint8Array(64))).toThrowError(HasherError);
  });

  it('accepts an empty layer', () => {
    expect(() => hashInto(new Uint8Array(0), new Uint8Array(0))).not.toThrow();
  });

  it('gives the right digests when the output overlaps the input further on', () => {
    // Output starts inside the input, after it: a naive front-to-back pass
    // would overwrite messages before reading them.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 100 }), (n, shift) => {
        const buf = bytes(64 * n + shift + 32 * n, n);
        const input = buf.subarray(0, 64 * n);
        const expected = referenceLayer(input.slice());
        const output = buf.subarray(shift, shift + 32 * n);
        hashInto(input, output);
        expect(toHex(output)).toBe(toHex(expected));
      }),
      { numRuns: 50 },
    );
  });
});

describe('zero hashes', () => {
  it('match the known SSZ zero hashes', () => {
    expect(toHex(zeroHash(0))).toBe('0'.repeat(64));
    expect(toHex(zeroHash(1))).toBe('f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b');
    expect(toHex(zeroHash(2))).toBe('db56114e00fdd4c1f85c892bf35ac9a89289aaecb1ebd0a96cde606a748b5d71');
    expect(toHex(zeroHash(3))).toBe('c78009fdf07fc56a11f122370658a353aaa542ed63e44c4bc15ff4cd105ab33c');
    for (let d = 0; d <= 64; d++) expect(toHex(zeroHash(d))).toBe(toHex(referenceZeroHashes[d]!));
  });

  it('hand out copies, so callers cannot corrupt them', () => {
    zeroHash(5).fill(1);
    expect(toHex(zeroHash(5))).toBe(toHex(referenceZeroHashes[5]!));
    const out = new Uint8Array(40);
    zeroHashInto(2, out, 8);
    expect(toHex(out.subarray(8))).toBe(toHex(referenceZeroHashes[2]!));
  });

  it('reject depths outside 0..64', () => {
    for (const d of [-1, 65, 1.5, Number.NaN]) expect(() => zeroHash(d)).toThrowError(HasherError);
  });
});

describe('mixInLength', () => {
  it('hashes the root with the little-endian uint256 length', () => {
    const root = bytes(32, 9);
    for (const len of [0, 1, 255, 256, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
      const lengthChunk = new Uint8Array(32);
      new DataView(lengthChunk.buffer).setBigUint64(0, BigInt(len), true);
      expect(toHex(mixInLength(root, len))).toBe(toHex(sha256(concat(root, lengthChunk))));
      expect(toHex(mixInLength(root, BigInt(len)))).toBe(toHex(sha256(concat(root, lengthChunk))));
    }
    const max = (1n << 256n) - 1n;
    expect(toHex(mixInLength(root, max))).toBe(toHex(sha256(concat(root, new Uint8Array(32).fill(0xff)))));
  });

  it('rejects negative, fractional and too-large lengths', () => {
    for (const len of [-1, 1.5, 2 ** 53, 1n << 256n, -1n]) expect(() => mixInLength(new Uint8Array(32), len)).toThrowError(HasherError);
  });
});

describe('backend selection', () => {
  it('lists every backend in preference order, the size dispatch first', () => {
    expect(listHashers().map((h) => h.name)).toEqual(['auto', 'shani', 'avx512', 'hashtree', 'wasm', 'js', 'noble']);
  });

  it('defaults to the first available backend: auto wherever a native one loads', () => {
    const available = listHashers().filter((h) => h.available).map((h) => h.name);
    expect(initial).toBe(available[0]);
    const native = available.filter((n) => n === 'shani' || n === 'avx512' || n === 'hashtree');
    expect(available.includes('auto')).toBe(native.length > 0);
  });

  it('switches backends and rejects unknown names', () => {
    setHasher('js');
    expect(getHasher()).toBe('js');
    expect(() => setHasher('sha3' as never)).toThrowError(/unknown hasher "sha3"/);
    expect(getHasher()).toBe('js');
  });

  it('honours SSZTREE_HASHER at start-up', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const script = "import('@ssztree/hasher').then((h) => console.log(h.getHasher()))";
    for (const name of ['js', 'noble']) {
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--conditions=source', '-e', script], {
        cwd: root,
        env: { ...process.env, SSZTREE_HASHER: name },
        encoding: 'utf8',
      });
      expect(out.trim()).toBe(name);
    }
  });
});
