/**
 * Merkle proofs: single-leaf branches and multiproofs in the consensus-spec
 * ordering (`get_helper_indices`: the siblings along every path that are not
 * themselves on a path, sorted descending), and their verification
 * (`is_valid_merkle_branch`, `calculate_multi_merkle_root`).
 *
 * Proofs read hashes only; inner nodes of wide leaves are recomputed from
 * their chunks, nothing is materialised.
 * @module
 */
import { hashInto } from '@ssztree/hasher';
import { readHashRaw } from '../store/levels.js';
import { CoreError } from '../errors.js';
import { type Gindex, gindexBits } from '../gindex.js';
import { KIND_BRANCH, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import type { StoreCore } from '../store/storeCore.js';
import { wideDepth, wideInnerHash } from '../wide/wideLeaves.js';

export interface SingleProof {
  readonly gindex: Gindex;
  /** The 32 bytes at `gindex`. */
  readonly leaf: Uint8Array;
  /** Sibling hashes from the leaf's level up to the root's children. */
  readonly branch: Uint8Array[];
}

export interface Multiproof {
  readonly gindices: Gindex[];
  /** The 32 bytes at each of `gindices`, in the same order. */
  readonly leaves: Uint8Array[];
  /** Helper hashes in `helperIndices(gindices)` order. */
  readonly proof: Uint8Array[];
}

function toBig(g: Gindex): bigint {
  gindexBits(g); // validates
  return BigInt(g);
}

/** The hash of the node at `gindex` below `root` (which must be flushed). */
function hashAt(store: StoreCore, root: NodeId, gindex: bigint): Uint8Array {
  const bits = gindexBits(gindex);
  let cur = root;
  for (let k = 0; k < bits.length; k++) {
    const kind = cur & 15;
    if (kind === KIND_BRANCH || (kind === KIND_ZERO && cur !== 0)) {
      cur = bits[k] === 0 ? store.leftOf(cur) : store.rightOf(cur);
      continue;
    }
    const wd = wideDepth(cur);
    const rel = bits.length - k;
    if (wd === 0 || rel > wd) store.leftOf(cur); // throws the right CoreError
    let pos = 0;
    for (let j = k; j < bits.length; j++) pos = pos * 2 + bits[j]!;
    return wideInnerHash(store, cur, rel, pos);
  }
  const out = new Uint8Array(32);
  readHashRaw(store, cur, out, 0);
  return out;
}

/** The proof of the 32 bytes at `gindex` below `root`. */
export function createSingleProof(store: StoreCore, root: NodeId, gindex: Gindex): SingleProof {
  let g = toBig(gindex);
  store.flush();
  const leaf = hashAt(store, root, g);
  const branch: Uint8Array[] = [];
  for (; g > 1n; g >>= 1n) branch.push(hashAt(store, root, g ^ 1n));
  return { gindex, leaf, branch };
}

const pair = new Uint8Array(64);

function hashPairTo(left: Uint8Array, right: Uint8Array): Uint8Array {
  pair.set(left, 0);
  pair.set(right, 32);
  const out = new Uint8Array(32);
  hashInto(pair, out);
  return out;
}

function isChunk(x: unknown): x is Uint8Array {
  return x instanceof Uint8Array && x.length === 32;
}

/** `is_valid_merkle_branch` over a generalized index. */
export function verifySingleProof(root: Uint8Array, gindex: Gindex, leaf: Uint8Array, branch: readonly Uint8Array[]): boolean {
  let g = toBig(gindex);
  if (!isChunk(root) || !isChunk(leaf) || branch.length !== g.toString(2).length - 1) return false;
  let value = leaf;
  for (let i = 0; g > 1n; g >>= 1n, i++) {
    const sibling = branch[i];
    if (!isChunk(sibling)) return false;
    value = (g & 1n) === 1n ? hashPairTo(sibling, value) : hashPairTo(value, sibling);
  }
  return equal(value, root);
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Throws `PROOF` if an index repeats or lies below another (it would be unverified). */
function checkDisjoint(indices: readonly bigint[]): void {
  const set = new Set(indices);
  if (set.size !== indices.length) throw new CoreError('PROOF', 'multiproof indices repeat');
  for (const g of indices) {
    for (let a = g >> 1n; a >= 1n; a >>= 1n) {
      if (set.has(a)) throw new CoreError('PROOF', `multiproof index ${g} lies below index ${a}`);
    }
  }
}

/** `get_helper_indices`: the helper gindices of a multiproof, descending. */
export function helperIndices(gindices: readonly Gindex[]): bigint[] {
  const helpers = new Set<bigint>();
  const paths = new Set<bigint>();
  for (const gindex of gindices) {
    for (let g = toBig(gindex); g > 1n; g >>= 1n) {
      helpers.add(g ^ 1n);
      paths.add(g);
    }
  }
  return [...helpers].filter((g) => !paths.has(g)).sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
}

/** The multiproof of `gindices` below `root`. */
export function createMultiproof(store: StoreCore, root: NodeId, gindices: readonly Gindex[]): Multiproof {
  const big = gindices.map(toBig);
  checkDisjoint(big);
  store.flush();
  return {
    gindices: [...gindices],
    leaves: big.map((g) => hashAt(store, root, g)),
    proof: helperIndices(gindices).map((g) => hashAt(store, root, g)),
  };
}

/** `calculate_multi_merkle_root`; undefined when the inputs do not fit together. */
export function multiproofRoot(gindices: readonly Gindex[], leaves: readonly Uint8Array[], proof: readonly Uint8Array[]): Uint8Array | undefined {
  if (leaves.length !== gindices.length) return undefined;
  let big: bigint[];
  try {
    big = gindices.map(toBig);
    checkDisjoint(big);
  } catch {
    return undefined;
  }
  const helpers = helperIndices(gindices);
  if (proof.length !== helpers.length) return undefined;
  const objects = new Map<bigint, Uint8Array>();
  for (let i = 0; i < big.length; i++) {
    if (!isChunk(leaves[i])) return undefined;
    objects.set(big[i]!, leaves[i]!);
  }
  for (let i = 0; i < helpers.length; i++) {
    if (!isChunk(proof[i])) return undefined;
    objects.set(helpers[i]!, proof[i]!);
  }
  const keys = [...objects.keys()].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0));
  for (let pos = 0; pos < keys.length; pos++) {
    const k = keys[pos]!;
    const parent = k >> 1n;
    if (k > 1n && objects.has(k ^ 1n) && !objects.has(parent)) {
      objects.set(parent, hashPairTo(objects.get(k & ~1n)!, objects.get(k | 1n)!));
      keys.push(parent);
    }
  }
  return objects.get(1n);
}

/** True when the multiproof (`gindices` with their `leaves`, helpers `proof` in consensus-spec order) yields `root`. */
export function verifyMultiproof(root: Uint8Array, gindices: readonly Gindex[], leaves: readonly Uint8Array[], proof: readonly Uint8Array[]): boolean {
  const computed = multiproofRoot(gindices, leaves, proof);
  return computed !== undefined && isChunk(root) && equal(computed, root);
}
