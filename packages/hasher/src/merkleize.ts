/**
 * SSZ `merkleize` with virtual padding, and `mixInLength`.
 *
 * The tree over `limit` chunks is never materialised: the chunks are folded
 * level by level (each level one `hashInto` call, in place after the first),
 * an odd level's last node pairs with the zero hash of its level, and once a
 * single node remains it climbs to the limit's depth against zero hashes. A
 * limit of 2^64 chunks costs 64 extra pair hashes, never 2^64 of memory.
 * @module
 */
import { HasherError } from './errors.js';
import { hashInto, hashPairInto } from './hash.js';
import { MAX_DEPTH, zeroHashInto } from './zeroHashes.js';

const TWO_POW_64 = 1n << 64n;
const TWO_POW_256 = 1n << 256n;

/** The depth of a tree with room for `limit` chunks: the least d with 2^d >= limit. */
export function depthForLimit(limit: number | bigint): number {
  const big = toCount(limit, 'limit', TWO_POW_64);
  if (big <= 1n) return 0;
  return (big - 1n).toString(2).length;
}

function toCount(value: number | bigint, what: string, max: bigint): bigint {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new HasherError('LENGTH_RANGE', `${what} must be a non-negative safe integer, got ${value}`);
    }
    value = BigInt(value);
  }
  if (typeof value !== 'bigint' || value < 0n || value > max) {
    throw new HasherError('LENGTH_RANGE', `${what} must be in 0..${max}, got ${String(value)}`);
  }
  return value;
}

const zeroScratch = new Uint8Array(32);

/**
 * The SSZ merkle root of `chunks` (concatenated 32-byte chunks), padded with
 * zero chunks up to `limit` chunks (default: the chunk count itself).
 */
export function merkleize(chunks: Uint8Array, limit?: number | bigint): Uint8Array {
  if (chunks.length % 32 !== 0) {
    throw new HasherError('INPUT_LENGTH', `merkleize: chunk bytes ${chunks.length} are not a multiple of 32`);
  }
  let count = chunks.length / 32;
  const depth = depthForLimit(limit ?? count);
  if (limit !== undefined && BigInt(count) > BigInt(limit)) {
    throw new HasherError('LIMIT_EXCEEDED', `merkleize: ${count} chunks exceed the limit of ${String(limit)}`);
  }
  const root = new Uint8Array(32);
  if (count === 0) {
    zeroHashInto(depth, root);
    return root;
  }
  if (depth === 0) {
    root.set(chunks.subarray(0, 32));
    return root;
  }

  // Level 0 reads the caller's chunks; every later level folds `work` in place.
  let work = chunks;
  let level = 0;
  while (count > 1) {
    const pairs = count >>> 1;
    const odd = (count & 1) === 1;
    const next = level === 0 ? new Uint8Array(32 * (pairs + (odd ? 1 : 0))) : work;
    hashInto(work.subarray(0, 64 * pairs), next.subarray(0, 32 * pairs));
    if (odd) {
      // The last node pairs with this level's zero hash. It lies past the
      // fold's output region, so it is intact; hashing it after the fold
      // keeps its result from overwriting input the fold has not read yet.
      zeroHashInto(level, zeroScratch);
      hashPairInto(work.subarray(64 * pairs, 64 * pairs + 32), zeroScratch, next.subarray(32 * pairs, 32 * pairs + 32));
    }
    work = next;
    count = pairs + (odd ? 1 : 0);
    level++;
  }
  root.set(work.subarray(0, 32));
  for (; level < depth; level++) {
    zeroHashInto(level, zeroScratch);
    hashPairInto(root, zeroScratch, root);
  }
  return root;
}

/** SHA-256(root ‖ uint256-le(length)): the root of an SSZ list or bitlist. */
export function mixInLength(root: Uint8Array, length: number | bigint): Uint8Array {
  if (root.length !== 32) {
    throw new HasherError('INPUT_LENGTH', `mixInLength: expected a 32-byte root, got ${root.length}`);
  }
  let value = toCount(length, 'mixInLength: length', TWO_POW_256 - 1n);
  const lengthChunk = new Uint8Array(32);
  for (let i = 0; value > 0n; i++, value >>= 8n) lengthChunk[i] = Number(value & 0xffn);
  const output = new Uint8Array(32);
  hashPairInto(root, lengthChunk, output);
  return output;
}

export { MAX_DEPTH };
