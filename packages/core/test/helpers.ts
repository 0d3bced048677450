/** Shared helpers for the core tests: chunk makers and byte comparisons. */
import { merkleize } from '@ssztree/hasher';

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
