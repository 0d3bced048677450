/**
 * Element-wise tree conversion for sequences of composites (each element its
 * own subtree), and the padding check for packed sequences read back from a
 * tree. Errors carry the element's `[i]` path segment.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import type { SszCodec } from '../codec.js';

/** Rejects a packed tree whose bytes past the last element are not zero (a leaf the codec could not have made). */
export function checkPadding(chunks: Uint8Array, used: number): void {
  for (let i = used; i < chunks.length; i++) {
    if (chunks[i] !== 0) throw new SszError('BAD_TREE', `non-zero padding at byte ${i} of the packed chunks`);
  }
}

/** The subtree of each element (errors carry the element's index). */
export function elementNodes<V>(elem: SszCodec<V>, values: readonly V[], store: NodeStore): NodeId[] {
  return elem._toNodes(values, store);
}

/** The value of each element node (errors carry the element's index). */
export function elementValues<V>(elem: SszCodec<V>, store: NodeStore, nodes: readonly NodeId[]): V[] {
  const out = new Array<V>(nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    try {
      out[i] = elem._fromNode(store, nodes[i] as NodeId);
    } catch (e) {
      throw withPath(e, `[${i}]`);
    }
  }
  return out;
}

