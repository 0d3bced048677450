/** Shared helpers for the core tests: chunk makers, byte comparisons, a record-expansion model, error codes. */
import { digest64, merkleize } from '@ssztree/hasher';
import { CoreError, type RecordLayout } from '../src/index.js';

/** A deterministic 32-byte chunk for a seed; seed 0 is the zero chunk. */
export function chunkOf(seed: number): Uint8Array {
  const c = new Uint8Array(32);
  if (seed === 0) return c;
  for (let k = 0; k < 32; k++) c[k] = (seed * 31 + k * 7 + (seed >>> 8)) & 0xff;
  c[0] = seed & 0xff;
  c[1] = (seed >>> 8) & 0xff;
  return c;
}

/** `count` chunks from consecutive seeds, packed. */
export function chunksOf(seeds: readonly number[]): Uint8Array {
  const out = new Uint8Array(32 * seeds.length);
  seeds.forEach((s, i) => out.set(chunkOf(s), 32 * i));
  return out;
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

/** The expected root of a plain model: chunks padded to depth. */
export function modelRoot(model: Uint8Array, depth: number): string {
  return hex(merkleize(model, 2 ** depth));
}

/** The chunks a record layout makes of `bytes` at `at`, computed independently of core (long fields: digest of the zero-padded bytes). */
export function expandRecord(layout: RecordLayout, bytes: Uint8Array, at = 0): Uint8Array {
  const out = new Uint8Array(32 << layout.depth);
  layout.fields.forEach(([o, l], i) => {
    if (l > 32) {
      const padded = new Uint8Array(64);
      padded.set(bytes.subarray(at + o, at + o + l));
      out.set(digest64(padded), 32 * i);
    } else out.set(bytes.subarray(at + o, at + o + l), 32 * i);
  });
  return out;
}

/** The `CoreError` code `fn` throws, a description of any other throw, or undefined. */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof CoreError ? e.code : `not a CoreError: ${String(e)}`;
  }
  return undefined;
}

/** Validator-shaped: 48-byte key (hashed), 32-byte credentials, 8-byte numbers, a 1-byte flag; 121 bytes, depth 3. */
export const VALIDATOR_LAYOUT: RecordLayout = {
  size: 121,
  depth: 3,
  fields: [
    [0, 48],
    [48, 32],
    [80, 8],
    [88, 1],
    [89, 8],
    [97, 8],
    [105, 8],
    [113, 8],
  ],
};

/** Deterministic xorshift generator of numbers in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/** `n` random bytes from `r`. */
export function randomBytes(n: number, r: () => number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(r() * 256);
  return out;
}
