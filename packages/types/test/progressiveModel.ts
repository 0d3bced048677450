/**
 * A plain model of progressive merkleization written from the spec text
 * (ssz/simple-serialize.md at the pinned consensus-specs version):
 * `merkleize`, `merkleize_progressive` (recursive, subtree LEFT, recursion
 * RIGHT, as the spec states it), `pack` and `mix_in_length`, over
 * `node:crypto` SHA-256 — nothing of the library. Tests hold our roots, and
 * @chainsafe/ssz's, to it.
 */
import { createHash } from 'node:crypto';

export const sha = (a: Uint8Array, b: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(a).update(b).digest());
export const ZERO: Uint8Array = new Uint8Array(32);

/** `merkleize(chunks, limit)`: padded with zero chunks to next_pow_of_two(limit), folded pairwise. */
export function merkleize(chunks: Uint8Array[], limit: number): Uint8Array {
  let width = 1;
  while (width < limit) width *= 2;
  let level: Uint8Array[] = [...chunks];
  let zero: Uint8Array = ZERO;
  for (; width > 1; width /= 2) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < width; i += 2) {
      if (i >= level.length) break;
      next.push(sha(level[i] as Uint8Array, level[i + 1] ?? zero));
    }
    level = next;
    zero = sha(zero, zero);
  }
  return level[0] ?? zero;
}

/** The spec's `merkleize_progressive(chunks, num_leaves=1)`, recursively: H(merkleize(first), progressive(rest, 4n)). */
export function merkleizeProgressive(chunks: Uint8Array[], numLeaves = 1): Uint8Array {
  if (chunks.length === 0) return ZERO;
  return sha(merkleize(chunks.slice(0, numLeaves), numLeaves), merkleizeProgressive(chunks.slice(numLeaves), numLeaves * 4));
}

/** `pack` of serialized bytes: right-padded to chunks. */
export function pack(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += 32) {
    const c = new Uint8Array(32);
    c.set(bytes.subarray(i, i + 32));
    out.push(c);
  }
  return out;
}

export function uint256le(n: number): Uint8Array {
  const c = new Uint8Array(32);
  new DataView(c.buffer).setBigUint64(0, BigInt(n), true);
  return c;
}

export const mixInLength = (root: Uint8Array, n: number): Uint8Array => sha(root, uint256le(n));
