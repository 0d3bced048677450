import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from '@noble/hashes/sha2.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HasherBackend } from '../src/backend.js';
import { createWasmBackend, createWasmBackendAsync, wasmSimdSupported } from '../src/backends/wasm.js';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

/** Index of the first differing byte, or -1 if equal (cheap on megabytes, unlike hex). */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

/** SHA-256 of each 64-byte message, one noble call each. */
function expected(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(input.length / 2);
  for (let i = 0; i < input.length / 64; i++) out.set(sha256(input.subarray(64 * i, 64 * i + 64)), 32 * i);
  return out;
}

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce. */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/**
 * Root of the 32-byte chunks in `chunks`, folded pairwise with a zero chunk
 * appended to each odd layer, one noble call per pair.
 */
function expectedRoot(chunks: Uint8Array): Uint8Array {
  let layer: Uint8Array = chunks.slice();
  while (layer.length > 32) {
    if ((layer.length / 32) % 2 === 1) {
      const padded = new Uint8Array(layer.length + 32);
      padded.set(layer);
      layer = padded;
    }
    layer = expected(layer);
  }
  return layer;
}

it('the SIMD module validates on Node 20', () => {
  expect(wasmSimdSupported()).toBe(true);
});

describe.each([
  ['SIMD', true],
  ['scalar', false],
])('wasm backend, %s kernel', (_label, simd) => {
  const backend: HasherBackend = createWasmBackend({ simd });
  const hashLayer = (input: Uint8Array): Uint8Array => {
    const out = new Uint8Array(input.length / 2);
    backend.hashInto(input, out);
    return out;
  };

  it('is named wasm', () => {
    expect(backend.name).toBe('wasm');
  });

  it('hashes known vectors', () => {
    const zero = new Uint8Array(64);
    expect(hex(hashLayer(zero))).toBe('f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b');
    const counting = Uint8Array.from({ length: 64 }, (_, i) => i);
    expect(hex(hashLayer(counting))).toBe('fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108');
    // zeroHash(2) = H(zeroHash(1) || zeroHash(1)).
    const z1 = hashLayer(zero);
    const pair = new Uint8Array(64);
    pair.set(z1, 0);
    pair.set(z1, 32);
    expect(hex(hashLayer(pair))).toBe('db56114e00fdd4c1f85c892bf35ac9a89289aaecb1ebd0a96cde606a748b5d71');
    // Same message in all four SIMD lanes and in the scalar remainder.
    const five = new Uint8Array(5 * 64);
    for (let i = 0; i < 5; i++) five.set(counting, 64 * i);
    expect(hex(hashLayer(five))).toBe('fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108'.repeat(5));
  });

  it('matches noble for every count 0..9 (full groups of 4 plus each remainder)', () => {
    for (let n = 0; n <= 9; n++) {
      const input = bytes(64 * n, 1000 + n);
      expect(hex(hashLayer(input)), `n = ${n}`).toBe(hex(expected(input)));
    }
  });

  it('tells lanes apart: changing one byte of message i changes digest i only', () => {
    const input = bytes(64 * 9, 7);
    const before = hashLayer(input);
    for (let i = 0; i < 9; i++) {
      const changed = input.slice();
      changed[64 * i + ((i * 7) % 64)]! ^= 1;
      const after = hashLayer(changed);
      for (let j = 0; j < 9; j++) {
        const same = hex(after.subarray(32 * j, 32 * j + 32)) === hex(before.subarray(32 * j, 32 * j + 32));
        expect(same, `message ${i} changed, digest ${j}`).toBe(j !== i);
      }
    }
  });

  it('matches noble on random layers of 0..300 messages at odd offsets into larger buffers', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 31 }).map((k) => 2 * k + 1),
        fc.integer({ min: 0, max: 31 }).map((k) => 2 * k + 1),
        fc.integer(),
        (n, inOffset, outOffset, seed) => {
          const inBuf = bytes(inOffset + 64 * n + 3, seed);
          const input = inBuf.subarray(inOffset, inOffset + 64 * n);
          const inCopy = input.slice();
          const outBuf = new Uint8Array(outOffset + 32 * n + 5).fill(0xaa);
          const output = outBuf.subarray(outOffset, outOffset + 32 * n);
          backend.hashInto(input, output);
          expect(hex(output)).toBe(hex(expected(inCopy)));
          // Input unchanged, bytes around the output untouched.
          expect(hex(input)).toBe(hex(inCopy));
          expect(outBuf.subarray(0, outOffset).every((b) => b === 0xaa)).toBe(true);
          expect(outBuf.subarray(outOffset + 32 * n).every((b) => b === 0xaa)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('folds in place: output = first half of the input, repeated down to one chunk', () => {
    for (const n of [1, 2, 3, 5, 8, 13, 64, 100, 257]) {
      const buf = bytes(32 * n + 32, n);
      const want = expectedRoot(buf.subarray(0, 32 * n));
      let count = n;
      while (count > 1) {
        // An odd layer gets a zero chunk, as merkleization pads it.
        if (count % 2 === 1) buf.fill(0, 32 * count, 32 * count + 32);
        const pairs = (count + 1) >> 1;
        backend.hashInto(buf.subarray(0, 64 * pairs), buf.subarray(0, 32 * pairs));
        count = pairs;
      }
      expect(hex(buf.subarray(0, 32)), `n = ${n}`).toBe(hex(want));
    }
  });

  it('hashes in place when output starts before input at an odd offset', () => {
    for (const n of [1, 4, 7, 41]) {
      const buf = bytes(64 * n + 200, 31 * n);
      const input = buf.subarray(101, 101 + 64 * n);
      const want = expected(input.slice());
      const output = buf.subarray(37, 37 + 32 * n);
      backend.hashInto(input, output);
      expect(hex(output), `n = ${n}`).toBe(hex(want));
    }
  });

  it('handles layers larger than one internal chunk, out of place and in place', () => {
    const n = 2 ** 16 + 5;
    const input = bytes(64 * n, 99);
    const want = expected(input);
    const out = new Uint8Array(32 * n);
    backend.hashInto(input, out);
    expect(firstDifference(out, want)).toBe(-1);

    // In place: digests over the first half of the input's own buffer.
    backend.hashInto(input, input.subarray(0, 32 * n));
    expect(firstDifference(input.subarray(0, 32 * n), want)).toBe(-1);
  });

  it('is equal when compiled asynchronously', async () => {
    const asyncBackend = await createWasmBackendAsync({ simd });
    const input = bytes(64 * 23, 5);
    const out = new Uint8Array(32 * 23);
    asyncBackend.hashInto(input, out);
    expect(hex(out)).toBe(hex(expected(input)));
  });
});

describe('generated sources', () => {
  it('wasmModules.generated.ts is up to date with the .wat files (build-wasm --check)', () => {
    const r = spawnSync(process.execPath, ['scripts/build-wasm.mjs', '--check'], { cwd: packageDir, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('the .wat files are what gen-sha256-wat.ts emits (--check)', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/gen-sha256-wat.ts', '--check'], { cwd: packageDir, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
