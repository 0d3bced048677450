/**
 * Storage of the frozen-value root cache: per schema, a `WeakMap` from a
 * trusted (deeply frozen, see `trust.ts`) value to a core `Tree` holding
 * that value's subtree, plus a weak reference to the last top-level value
 * cached, which is the base the next value of that schema is diffed against.
 *
 * Invariants: an entry exists only for a trusted value, and its tree's root
 * is exactly the value's hash tree root under that schema. Entries die with
 * their value (the `WeakMap` drops the `Tree`, whose finalizer releases its
 * nodes), so caching never keeps a dropped value's tree alive.
 * @module
 */
import type { Tree } from '@ssztree/core';
import type { AnyType } from '../type.js';

interface SchemaCache {
  readonly trees: WeakMap<object, Tree>;
  /** The last top-level value cached: the likely base of the next one (immer results share its children). */
  last: WeakRef<object> | null;
}

const caches = new WeakMap<AnyType, SchemaCache>();

function cacheOf(type: AnyType): SchemaCache {
  let c = caches.get(type);
  if (c === undefined) {
    c = { trees: new WeakMap(), last: null };
    caches.set(type, c);
  }
  return c;
}

/** The cached tree of `value` under `type`, if any. */
export function cachedTree(type: AnyType, value: object): Tree | undefined {
  return caches.get(type)?.trees.get(value);
}

/** Records `tree` as the subtree of the trusted `value` (the caller has checked the trust rule). */
export function rememberTree(type: AnyType, value: object, tree: Tree): void {
  cacheOf(type).trees.set(value, tree);
}

/** Marks `value` (already remembered) as the base the next top-level value of `type` is diffed against. */
export function rememberLast(type: AnyType, value: object): void {
  cacheOf(type).last = new WeakRef(value);
}

/** The last top-level value of `type` still alive and cached, with its tree. */
export function lastBase(type: AnyType): { value: object; tree: Tree } | null {
  const c = caches.get(type);
  const value = c?.last?.deref();
  if (c === undefined || value === undefined) return null;
  const tree = c.trees.get(value);
  return tree === undefined || tree.disposed ? null : { value, tree };
}
