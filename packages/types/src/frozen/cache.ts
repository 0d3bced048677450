/**
 * Storage of the frozen-value root cache: per schema, a `WeakMap` from a
 * trusted (deeply frozen, see `trust.ts`) value to a core `Tree` holding
 * that value's subtree, plus weak references to the heads of the last
 * chains of values cached (at most `HEADS`, most recent first): the bases
 * the next value of that schema is diffed against. A value that was
 * derived from a head replaces it, so one chain of immer results keeps one
 * head, and two chains interleaved (two immer histories of one schema)
 * keep one each instead of each diffing against the other's latest value.
 *
 * Invariants: an entry exists only for a trusted value, and its tree's root
 * is exactly the value's hash tree root under that schema. Entries die with
 * their value (the `WeakMap` drops the `Tree`, whose finalizer releases its
 * nodes), so caching never keeps a dropped value's tree alive.
 * @module
 */
import type { Tree } from '@ssztree/core';
import type { AnyCodec } from '../codec.js';

/** How many chain heads a schema keeps: each one is probed on a miss, and scanned when the probe cannot tell (scan.ts). */
export const HEADS = 2;

interface SchemaCache {
  readonly trees: WeakMap<object, Tree>;
  /** Heads of the last chains of top-level values cached, most recent first: the likely bases of the next value. */
  heads: WeakRef<object>[];
}

const caches = new WeakMap<AnyCodec, SchemaCache>();

function cacheOf(type: AnyCodec): SchemaCache {
  let c = caches.get(type);
  if (c === undefined) {
    c = { trees: new WeakMap(), heads: [] };
    caches.set(type, c);
  }
  return c;
}

/** The cached tree of `value` under `type`, if any. */
export function cachedTree(type: AnyCodec, value: object): Tree | undefined {
  return caches.get(type)?.trees.get(value);
}

/** Records `tree` as the subtree of the trusted `value` (the caller has checked the trust rule). */
export function rememberTree(type: AnyCodec, value: object, tree: Tree): void {
  cacheOf(type).trees.set(value, tree);
}

/**
 * Makes `value` (already remembered) the most recent chain head of `type`,
 * replacing `parent` (the head it was derived from, if known) and any dead
 * head; the oldest head beyond `HEADS` is dropped.
 */
export function rememberLast(type: AnyCodec, value: object, parent: object | null = null): void {
  const c = cacheOf(type);
  const kept: WeakRef<object>[] = [new WeakRef(value)];
  for (const ref of c.heads) {
    const head = ref.deref();
    if (head !== undefined && head !== value && head !== parent && kept.length < HEADS) kept.push(ref);
  }
  c.heads = kept;
}

/** The chain heads of `type` still alive and cached, with their trees, most recent first. */
export function lastBases(type: AnyCodec): { value: object; tree: Tree }[] {
  const c = caches.get(type);
  const out: { value: object; tree: Tree }[] = [];
  if (c === undefined) return out;
  for (const ref of c.heads) {
    const value = ref.deref();
    const tree = value === undefined ? undefined : c.trees.get(value);
    if (value !== undefined && tree !== undefined && !tree.disposed) out.push({ value, tree });
  }
  return out;
}
