/**
 * `js` backend: SHA-256 compression in plain TypeScript, specialised for
 * 64-byte messages.
 *
 * Each message costs one full compression of its data block plus one
 * compression of the constant padding block whose schedule (W + K) is
 * precomputed (`PADDING_WK`), so the second block does no schedule work.
 * Words are read straight from the input bytes and the digest written straight
 * to the output bytes: no allocation per call, no intermediate buffers beyond
 * one reused 64-word schedule.
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { IV, K, PADDING_WK } from '../sha256Constants.js';

// The schedule of the data block, reused across calls (this module is single-threaded).
const W = new Int32Array(64);

const IV0 = IV[0]! | 0, IV1 = IV[1]! | 0, IV2 = IV[2]! | 0, IV3 = IV[3]! | 0;
const IV4 = IV[4]! | 0, IV5 = IV[5]! | 0, IV6 = IV[6]! | 0, IV7 = IV[7]! | 0;
const KI = Int32Array.from(K);
const PWK = Int32Array.from(PADDING_WK);

/** SHA-256 of input[inOff, inOff+64) written to output[outOff, outOff+32). */
function hashBlock(input: Uint8Array, inOff: number, output: Uint8Array, outOff: number): void {
  for (let t = 0; t < 16; t++) {
    const p = inOff + 4 * t;
    W[t] = (input[p]! << 24) | (input[p + 1]! << 16) | (input[p + 2]! << 8) | input[p + 3]!;
  }
  for (let t = 16; t < 64; t++) {
    const x = W[t - 15]!;
    const y = W[t - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[t] = (s1 + W[t - 7]! + s0 + W[t - 16]!) | 0;
  }

  // Block 1: the data.
  let a = IV0, b = IV1, c = IV2, d = IV3, e = IV4, f = IV5, g = IV6, h = IV7;
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const T1 = (h + S1 + (g ^ (e & (f ^ g))) + KI[t]! + W[t]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const T2 = (S0 + ((a & b) | (c & (a | b)))) | 0;
    h = g; g = f; f = e; e = (d + T1) | 0;
    d = c; c = b; b = a; a = (T1 + T2) | 0;
  }
  const m0 = (a + IV0) | 0, m1 = (b + IV1) | 0, m2 = (c + IV2) | 0, m3 = (d + IV3) | 0;
  const m4 = (e + IV4) | 0, m5 = (f + IV5) | 0, m6 = (g + IV6) | 0, m7 = (h + IV7) | 0;

  // Block 2: the constant padding, its W + K precomputed.
  a = m0; b = m1; c = m2; d = m3; e = m4; f = m5; g = m6; h = m7;
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const T1 = (h + S1 + (g ^ (e & (f ^ g))) + PWK[t]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const T2 = (S0 + ((a & b) | (c & (a | b)))) | 0;
    h = g; g = f; f = e; e = (d + T1) | 0;
    d = c; c = b; b = a; a = (T1 + T2) | 0;
  }
  writeWord(output, outOff, a + m0);
  writeWord(output, outOff + 4, b + m1);
  writeWord(output, outOff + 8, c + m2);
  writeWord(output, outOff + 12, d + m3);
  writeWord(output, outOff + 16, e + m4);
  writeWord(output, outOff + 20, f + m5);
  writeWord(output, outOff + 24, g + m6);
  writeWord(output, outOff + 28, h + m7);
}

function writeWord(out: Uint8Array, off: number, word: number): void {
  out[off] = word >>> 24;
  out[off + 1] = word >>> 16;
  out[off + 2] = word >>> 8;
  out[off + 3] = word;
}

export function createJsBackend(): HasherBackend {
  return {
    name: 'js',
    hashInto(input: Uint8Array, output: Uint8Array): void {
      const count = output.length >>> 5;
      // Message i is read fully into W before digest i is written, which keeps
      // in-place folding (output at or before input in one buffer) safe.
      for (let i = 0; i < count; i++) hashBlock(input, i << 6, output, i << 5);
    },
  };
}
