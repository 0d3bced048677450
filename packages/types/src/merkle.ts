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
import { depthForLimit, hashInto, hashPairInto, merkleize, zeroHash, zeroHashInto } from '@ssztree/hasher';

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

/** Copies `count` 32-byte roots from src[srcOffset] (back to back) to dst[dstOffset + i*stride]. */
export function scatterRoots(src: Uint8Array, srcOffset: number, dst: Uint8Array, dstOffset: number, count: number, stride: number): void {
  if (stride === 32) {
    dst.set(src.subarray(srcOffset, srcOffset + 32 * count), dstOffset);
    return;
  }
  // Word copies through one Int32Array view per buffer: a subarray per root
  // would cost more than copying its 32 bytes.
  const s0 = src.byteOffset + srcOffset;
  const d0 = dst.byteOffset + dstOffset;
  if (s0 % 4 === 0 && d0 % 4 === 0 && stride % 4 === 0) {
    const s32 = new Int32Array(src.buffer, s0, 8 * count);
    const d32 = new Int32Array(dst.buffer, d0, (stride / 4) * (count - 1) + 8);
    const step = stride / 4;
    for (let i = 0, d = 0; i < count; i++, d += step) {
      const s = 8 * i;
      d32[d] = s32[s] as number;
      d32[d + 1] = s32[s + 1] as number;
      d32[d + 2] = s32[s + 2] as number;
      d32[d + 3] = s32[s + 3] as number;
      d32[d + 4] = s32[s + 4] as number;
      d32[d + 5] = s32[s + 5] as number;
      d32[d + 6] = s32[s + 6] as number;
      d32[d + 7] = s32[s + 7] as number;
    }
    return;
  }
  for (let i = 0; i < count; i++) {
    const s = srcOffset + 32 * i;
    const d = dstOffset + stride * i;
    for (let b = 0; b < 32; b++) dst[d + b] = src[s + b] as number;
  }
}

/** A reusable scratch buffer of at least `size` bytes (per owner; owners are never re-entered). */
export function growScratch(current: Uint8Array | null, size: number): Uint8Array {
  return current !== null && current.length >= size ? current : new Uint8Array(size);
}

/**
 * merkleize of the `count` chunks at buf[0..32*count), padded to `limit`
 * chunks, folded in place (buf is the caller's scratch and is overwritten;
 * it needs room for one extra chunk, used to pad an odd level). Avoids the
 * fresh level buffer `merkleize` allocates, whose page faults are a visible
 * cost for lists of 2^18 roots.
 */
export function merkleizeInPlace(buf: Uint8Array, count: number, limit: number, out: Uint8Array, offset: number): void {
  const depth = depthForLimit(limit);
  if (count === 0) {
    zeroHashInto(depth, out, offset);
    return;
  }
  let n = count;
  let level = 0;
  while (n > 1) {
    if ((n & 1) === 1) zeroHashInto(level, buf, 32 * n++);
    hashInto(buf.subarray(0, 32 * n), buf.subarray(0, 16 * n));
    n >>>= 1;
    level++;
  }
  const root = out.subarray(offset, offset + 32);
  root.set(buf.subarray(0, 32));
  for (; level < depth; level++) hashPairInto(root, zeroHash(level), root);
}

/** Element-root scratch is reused up to this many roots (32 MiB); longer lists allocate per call. */
export const MAX_REUSED_ROOTS = 1 << 20;
