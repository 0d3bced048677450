/**
 * Partial trees rebuilt from a multiproof: proven positions become leaves
 * holding their 32 bytes, helper positions become opaque nodes (a hash whose
 * contents are unknown), and the branches between them are ordinary
 * branches, hashed by the usual flush. The partial tree's root equals the
 * full tree's root, and its proven positions can be read (and even written)
 * like any other; navigating into an opaque node throws `OPAQUE`.
 * @module
 */
import { CoreError } from '../errors.js';
import type { Gindex } from '../gindex.js';
import type { NodeId } from '../nodes/ids.js';
import { helperIndices } from './proofs.js';
import type { StoreCore } from '../store/storeCore.js';

/** The root (no holder yet) of the partial tree described by a multiproof. */
export function buildPartialTree(store: StoreCore, gindices: readonly Gindex[], leaves: readonly Uint8Array[], proof: readonly Uint8Array[]): NodeId {
  const helpers = helperIndices(gindices);
  if (leaves.length !== gindices.length || proof.length !== helpers.length) {
    throw new CoreError('PROOF', `expected ${gindices.length} leaves and ${helpers.length} helpers`);
  }
  const known = new Map<bigint, { bytes: Uint8Array; proven: boolean }>();
  gindices.forEach((g, i) => known.set(BigInt(g), { bytes: leaves[i]!, proven: true }));
  helpers.forEach((g, i) => known.set(g, { bytes: proof[i]!, proven: false }));
  for (const { bytes } of known.values()) {
    if (!(bytes instanceof Uint8Array) || bytes.length !== 32) throw new CoreError('PROOF', 'proof entries must be 32 bytes');
  }
  // Every ancestor of a known position is a branch of the partial tree.
  const inner = new Set<bigint>();
  for (const g of known.keys()) for (let a = g >> 1n; a >= 1n; a >>= 1n) inner.add(a);
  if (known.size === 0) throw new CoreError('PROOF', 'empty proof');

  // Check the shape before allocating, so a bad proof leaves nothing behind.
  for (const g of known.keys()) {
    if (inner.has(g)) throw new CoreError('PROOF', `proof position ${g} lies above another`);
  }
  for (const g of inner) {
    if (!known.has(2n * g) && !inner.has(2n * g)) throw new CoreError('PROOF', `proof does not cover position ${2n * g}`);
    if (!known.has(2n * g + 1n) && !inner.has(2n * g + 1n)) throw new CoreError('PROOF', `proof does not cover position ${2n * g + 1n}`);
  }
  if (!known.has(1n) && !inner.has(1n)) throw new CoreError('PROOF', 'proof does not reach the root');

  const build = (g: bigint): NodeId => {
    const entry = known.get(g);
    if (entry !== undefined) return entry.proven ? store.newLeaf(entry.bytes, 0) : store.newOpaque(entry.bytes, 0);
    return store.newBranch(build(2n * g), build(2n * g + 1n));
  };
  return build(1n);
}
