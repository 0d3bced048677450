/**
 * What container and sequence views share about their children: adopting
 * a view assigned to a field or element (`adoptView`: a view of the same or
 * an identical schema, copied, never shared) and comparing two nodes' roots
 * without allocating (`sameRoot`).
 *
 * Invariant: a parent only ever holds child views of its own field or
 * element types, in its own store.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError } from '../errors.js';
import { sameShape } from '../shape.js';
import type { SszType, TreeView } from '../type.js';

/**
 * The child view a container field or sequence element of type `type`
 * takes when assigned `value`: an independent copy of `value`'s committed
 * version. `value` may be a view of `type` itself or of a separately built
 * schema with the same SSZ definition (`shape.ts`; e.g. a state's
 * `previous_epoch_participation` assigned its `current_epoch_participation`):
 * the copy is then a view of `type` over the same root, so the parent only
 * ever holds views of its own field types. Anything else, or a view of
 * another store, is an `SszError` at `path`.
 */
export function adoptView<T>(type: SszType<T>, value: TreeView<unknown>, store: NodeStore, path: string): TreeView<T> {
  if (value.type !== type && !sameShape(value.type, type as SszType<unknown>)) {
    const got = value.type.typeName === type.typeName ? 'another definition of that name' : `a view of ${value.type.typeName}`;
    throw new SszError('INVALID_VALUE', `expected a view of ${type.typeName} or of an identical SSZ definition, got ${got}`, -1, path);
  }
  if (value.store !== store) throw new SszError('INVALID_VALUE', `expected a view in the same store as its parent (${type.typeName})`, -1, path);
  if (value.type === type) return value.clone() as TreeView<T>;
  return type._view(store, value.rootNode);
}

/** Scratch for comparing two hashes without allocating. */
const hashA = new Uint8Array(32);
const hashB = new Uint8Array(32);

/** True when two nodes have the same root (hashes pending nodes first: one batched flush for all candidates). */
export function sameRoot(store: NodeStore, a: NodeId, b: NodeId): boolean {
  if (a === b) return true;
  store.hashInto(a, hashA, 0);
  store.hashInto(b, hashB, 0);
  for (let i = 0; i < 32; i++) if (hashA[i] !== hashB[i]) return false;
  return true;
}
