/**
 * The frozen-value root cache's entry points: `hashTreeRoot` of a frozen
 * value goes through `frozenRootInto`, and the immer subpath gets trees of
 * frozen values through `frozenTree`.
 *
 * A frozen value is looked up by identity; on a miss it is built against
 * the heads of the last chains of values of the same schema that were
 * cached (an immer result shares every untouched object with its base, so
 * only the changed paths are rebuilt and rehashed), and remembered if it is
 * deeply frozen, replacing the head it shared most with. Unfrozen
 * values never come here (`type.ts` checks `Object.isFrozen` first).
 *
 * Invariant: the root returned is always the value's hash tree root; the
 * cache only decides how much of it is recomputed. All cached trees live in
 * `defaultStore`.
 * @module
 */
import { defaultStore, Tree } from '@ssztree/core';
import type { AnyCodec } from '../codec.js';
import { build, kindOf } from './build.js';
import { cachedTree, lastBases, rememberLast, rememberTree } from './cache.js';
import { isDeepFrozen } from './trust.js';

/** True for schemas whose frozen values the cache handles (containers not stored as records, lists, vectors). */
export function isCacheable(type: AnyCodec): boolean {
  return kindOf(type) !== null;
}

/**
 * A tree of `value` (in `defaultStore`), and whether it is the cache's own
 * (then the caller must not dispose it; it lives as long as the value).
 */
export function frozenTree(type: AnyCodec, value: object): { tree: Tree; cached: boolean } {
  const hit = cachedTree(type, value);
  if (hit !== undefined && !hit.disposed) {
    rememberLast(type, value);
    return { tree: hit, cached: true };
  }
  const heads = lastBases(type);
  const bases = heads.map((h) => ({ value: h.value, node: h.tree.rootNode }));
  const votes = new Array<number>(bases.length).fill(0);
  const built = build(type, value, bases, defaultStore, votes);
  const tree = cachedTree(type, value);
  if (built.trusted && tree !== undefined) {
    // The head that most of the value was diffed against is its parent: the value replaces it.
    let parent = -1;
    for (let j = 0; j < votes.length; j++) if (parent < 0 ? (votes[j] as number) > 0 : (votes[j] as number) > (votes[parent] as number)) parent = j;
    rememberLast(type, value, parent < 0 ? null : (heads[parent] as { value: object }).value);
    return { tree, cached: true };
  }
  return { tree: new Tree(built.node, defaultStore), cached: false };
}

/** Writes the root of the frozen `value` at `out[offset]`, reusing and extending the cache. */
export function frozenRootInto(type: AnyCodec, value: object, out: Uint8Array, offset: number): void {
  const { tree, cached } = frozenTree(type, value);
  tree.rootInto(out, offset);
  if (!cached) tree.dispose();
}

/**
 * Records `tree` (whose root the caller guarantees is `value`'s, e.g. a
 * view committed from the patches that made `value`) as the tree of
 * `value`, if `value` is deeply frozen along `changedPaths` and
 * `unchangedFrom` (the value it was derived from) is itself cached: the
 * untouched parts are then shared with a trusted value.
 */
export function rememberDerived(type: AnyCodec, value: object, tree: Tree, unchangedFrom: object, changedPaths: readonly (readonly unknown[])[]): boolean {
  if (tree.store !== defaultStore || cachedTree(type, unchangedFrom) === undefined) return false;
  for (const path of changedPaths) {
    let cur: unknown = value;
    for (const key of path) {
      if (typeof cur !== 'object' || cur === null) break;
      if (!Object.isFrozen(cur)) return false;
      cur = (cur as Record<string, unknown>)[key as string];
    }
    if (!isDeepFrozen(cur)) return false;
  }
  if (!Object.isFrozen(value)) return false;
  rememberTree(type, value, tree.clone());
  rememberLast(type, value, unchangedFrom);
  return true;
}
