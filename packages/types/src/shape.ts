/**
 * Structural identity of schemas: two schema objects describe the same SSZ
 * type when their shape keys are equal — the canonical string of their
 * definition (kind, element and field shapes recursively, lengths and
 * limits, field names), never their `typeName`. Equal shapes have the same
 * serialization and the same merkle tree for every value, so a view of one
 * may stand in for a view of the other (a container field assigned a view
 * of a separately built, identical type).
 *
 * Invariant: a shape key is computed once per schema object and interned as
 * a small integer, so the check on a view assignment is one comparison of
 * cached numbers (plus the key's one-time build per schema).
 * @module
 */
import type { SszCodec } from './codec.js';

/** Interned shape keys; bounded by the number of distinct SSZ definitions a program builds. */
const ids = new Map<string, number>();
/** Per schema object: its interned id (the key is built once, recursively from children's cached keys). */
const idOf = new WeakMap<SszCodec<unknown>, number>();
const keyOf = new WeakMap<SszCodec<unknown>, string>();

/** The canonical key of `type`'s SSZ definition (cached per schema object). */
export function shapeKey(type: SszCodec<unknown>): string {
  let key = keyOf.get(type);
  if (key === undefined) {
    key = type._shapeKey();
    keyOf.set(type, key);
  }
  return key;
}

/** `shapeKey` interned as a small integer (cached per schema object). */
export function shapeId(type: SszCodec<unknown>): number {
  let id = idOf.get(type);
  if (id === undefined) {
    const key = shapeKey(type);
    id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    idOf.set(type, id);
  }
  return id;
}

/** True when `a` and `b` are the same schema object or describe the same SSZ type. */
export function sameShape(a: SszCodec<unknown>, b: SszCodec<unknown>): boolean {
  return a === b || shapeId(a) === shapeId(b);
}
