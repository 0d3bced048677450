/**
 * The length-mixed roots of SSZ lists: a list's tree is a branch whose left
 * child is the contents' tree and whose right child is a leaf holding the
 * length as a little-endian uint256, so its hash is
 * `mixInLength(contentsRoot, length)`.
 * @module
 */
import { CoreError } from '../errors.js';
import { KIND_LEAF, type NodeId } from '../nodes/ids.js';
import { readHashRaw } from '../store/levels.js';
import type { StoreCore } from '../store/storeCore.js';

const TWO_POW_256 = 1n << 256n;

/** The 32-byte chunk of a uint256 length, little-endian. */
export function lengthChunk(length: number | bigint): Uint8Array {
  if (typeof length === 'number' && (!Number.isSafeInteger(length) || length < 0)) {
    throw new CoreError('INDEX_RANGE', `length must be a non-negative safe integer, got ${length}`);
  }
  let value = BigInt(length);
  if (value < 0n || value >= TWO_POW_256) throw new CoreError('INDEX_RANGE', `length out of uint256 range: ${String(length)}`);
  const chunk = new Uint8Array(32);
  for (let i = 0; value > 0n; i++, value >>= 8n) chunk[i] = Number(value & 0xffn);
  return chunk;
}

/** The list node over `contents` with `length`: branch(contents, lengthLeaf). No holder yet. */
export function withLength(store: StoreCore, contents: NodeId, length: number | bigint): NodeId {
  const leaf = store.newLeaf(lengthChunk(length), 0);
  return store.newBranch(contents, leaf);
}

/** The length stored in a list node's right child (must fit a safe integer). */
export function readLength(store: StoreCore, list: NodeId): number {
  const leaf = store.rightOf(list);
  if ((leaf & 15) !== KIND_LEAF && leaf !== 0) throw new CoreError('NOT_BRANCH', `node ${list} has no length leaf`);
  const chunk = new Uint8Array(32);
  readHashRaw(store, leaf, chunk, 0);
  let value = 0;
  for (let i = 31; i >= 0; i--) {
    if (i >= 7 && chunk[i] !== 0) throw new CoreError('INDEX_RANGE', 'list length exceeds 2^53');
    value = value * 256 + chunk[i]!;
  }
  if (!Number.isSafeInteger(value)) throw new CoreError('INDEX_RANGE', 'list length exceeds 2^53');
  return value;
}
