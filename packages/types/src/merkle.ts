/**
 * Merkle helpers over `@ssztree/hasher`: merkleize into a caller's buffer,
 * mix in a length without allocating, and the batched fold that hashes many
 * same-shaped subtrees together.
 *
 * The batched fold is what makes roots of long lists of composites fast:
 * `n` subtrees of `2^d` chunks each lie back to back in one buffer, so level
 * k of all of them is one contiguous run and one `hashInto` call folds it in
 * place (pairs never straddle two subtrees because each holds a power of
 * two of chunks). After `d` calls the `n` roots sit at the buffer's front.
 * @module
 */
import { depthForLimit, hashInto, merkleize, zeroHashInto } from '@ssztree/hasher';

export { depthForLimit };

/** Chunks per batch in batched folds: big enough to amortise each call, small enough to stay in cache. */
export const BATCH_CHUNKS = 1 << 15;

/** merkleize(chunks, limit) written to out[offset..offset+32). */
export function merkleizeInto(chunks: Uint8Array, limit: number, out: Uint8Array, offset: number): void {
  if (chunks.length === 0) {
    zeroHashInto(depthForLimit(limit), out, offset);
    return;
  }
  out.set(merkleize(chunks, limit), offset);
}

const mixScratch = new Uint8Array(64);
const TWO_POW_32 = 2 ** 32;

/** Replaces the root at out[offset] with SHA-256(root ‖ uint256-le(length)). */
export function mixInLengthInto(out: Uint8Array, offset: number, length: number): void {
  mixScratch.set(out.subarray(offset, offset + 32), 0);
  mixScratch.fill(0, 32);
  const hi = Math.floor(length / TWO_POW_32);
  const lo = length - hi * TWO_POW_32;
  mixScratch[32] = lo & 0xff;
  mixScratch[33] = (lo >>> 8) & 0xff;
  mixScratch[34] = (lo >>> 16) & 0xff;
  mixScratch[35] = lo >>> 24;
  mixScratch[36] = hi & 0xff;
  mixScratch[37] = (hi >>> 8) & 0xff;
  mixScratch[38] = (hi >>> 16) & 0xff;
  mixScratch[39] = hi >>> 24;
  hashInto(mixScratch, out.subarray(offset, offset + 32));
}

/**
 * Folds `count` subtrees of `2^depth` chunks each, laid out back to back
 * from buf[0], down to their roots at buf[0 .. 32*count).
 */
export function foldSubtrees(buf: Uint8Array, count: number, depth: number): void {
  let width = count << depth; // chunks at the current level
  for (let level = 0; level < depth; level++) {
    hashInto(buf.subarray(0, 32 * width), buf.subarray(0, 16 * width));
    width >>>= 1;
  }
}

/** Number of values per batch when each value's subtree holds 2^depth chunks. */
export function batchSize(depth: number): number {
  return Math.max(1, BATCH_CHUNKS >>> depth);
}
