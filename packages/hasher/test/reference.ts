/**
 * Plain reference models the tests compare against: SHA-256 per message via
 * `@noble/hashes`, and a recursive merkleize that pads with explicit zero
 * chunks (only usable for small depths) or with a zero-hash table.
 */
import { sha256 } from '@noble/hashes/sha2.js';

export function referenceLayer(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(input.length / 2);
  for (let i = 0; i < input.length / 64; i++) out.set(sha256(input.subarray(64 * i, 64 * i + 64)), 32 * i);
  return out;
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** zero[d] = root of 2^d zero chunks, computed with the reference digest. */
export const referenceZeroHashes: Uint8Array[] = (() => {
  const zeros = [new Uint8Array(32)];
  for (let d = 1; d <= 64; d++) zeros.push(sha256(concat(zeros[d - 1]!, zeros[d - 1]!)));
  return zeros;
})();

/** Recursive merkleize: the node at `depth` covering chunks [start, start + 2^depth). */
function node(chunks: Uint8Array[], depth: number, start: bigint): Uint8Array {
  if (start >= BigInt(chunks.length)) return referenceZeroHashes[depth]!;
  if (depth === 0) return chunks[Number(start)]!;
  const half = 1n << BigInt(depth - 1);
  return sha256(concat(node(chunks, depth - 1, start), node(chunks, depth - 1, start + half)));
}

export function referenceMerkleize(chunks: Uint8Array[], limit: bigint): Uint8Array {
  let depth = 0;
  while (1n << BigInt(depth) < limit) depth++;
  return node(chunks, depth, 0n);
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Deterministic test bytes (xorshift32, seeded). */
export function pseudoRandom(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
