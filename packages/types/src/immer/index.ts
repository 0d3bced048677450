/**
 * `@ssztree/types/immer`: immutable plain values with tree-backed views.
 * `produce(T, base, recipe)` runs an immer recipe and returns the next value
 * together with its view, made by applying immer's patches to the base's
 * tree (so only the patched paths are rehashed); `applyPatches(T, view,
 * patches)` does the second half for callers who already hold patches.
 *
 * `immer` (>= 10) is an optional peer dependency: only this subpath needs it.
 * Invariants: the base value and base view are never changed; the value and
 * view returned always have the same root; the next value's tree is put in
 * the frozen-value root cache (so `T.hashTreeRoot(next)` is a lookup) only
 * when the base was cached and every patched part of `next` is frozen.
 * @module @ssztree/types/immer
 */
import { enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';
import { SszError } from '../errors.js';
import { frozenTree, isCacheable, rememberDerived } from '../frozen/root.js';
import { type SszType, TreeView } from '../type.js';
import type { ViewOf } from '../view/types.js';
import { applyPatchesToView } from './patches.js';

export type { Patch } from 'immer';

/** What `produce` returns: the next value, its view, and immer's patches (and their inverse). */
export interface Produced<V, VW = TreeView<V>> {
  readonly value: V;
  readonly view: VW;
  readonly patches: Patch[];
  readonly inversePatches: Patch[];
}

let patchesEnabled = false;

/** A view of `value`: from the frozen cache's tree when there is one (no build), else built. */
function viewOfValue<V>(type: SszType<V>, value: V): TreeView<V> {
  if (typeof value === 'object' && value !== null && Object.isFrozen(value) && isCacheable(type)) {
    const { tree, cached } = frozenTree(type, value);
    const view = type.viewOf(tree);
    if (!cached) tree.dispose();
    return view;
  }
  return type.toView(value);
}

function isProduced<V>(base: unknown): base is Produced<V> {
  return typeof base === 'object' && base !== null && 'view' in base && 'value' in base && (base as Produced<V>).view instanceof TreeView;
}

/**
 * Runs `recipe` over a draft of `base` (a plain value, or an earlier
 * `produce` result whose view is then reused) and returns the next value,
 * its tree-backed view, and the patches. The view is `base`'s view with the
 * patches applied as writes: its root costs only the patched paths.
 */
export function produce<T extends SszType<any>>(
  type: T,
  base: ReturnType<T['defaultValue']> | Produced<ReturnType<T['defaultValue']>, ViewOf<T>>,
  recipe: (draft: Draft<ReturnType<T['defaultValue']>>) => ReturnType<T['defaultValue']> | void | undefined,
): Produced<ReturnType<T['defaultValue']>, ViewOf<T>> {
  type V = ReturnType<T['defaultValue']>;
  if (!patchesEnabled) {
    enablePatches();
    patchesEnabled = true;
  }
  const produced = isProduced<V>(base);
  const baseValue = produced ? base.value : (base as V);
  const baseView: TreeView<V> = produced ? base.view : viewOfValue(type as SszType<V>, baseValue);
  try {
    if (typeof baseValue !== 'object' || baseValue === null) {
      throw new SszError('INVALID_VALUE', `produce needs an object or array value (immer drafts those), got ${typeof baseValue}`, -1, type.typeName);
    }
    const [value, patches, inversePatches] = produceWithPatches(baseValue, recipe as never) as unknown as [V, Patch[], Patch[]];
    const view = applyPatchesToView(type, baseView, patches);
    if (typeof value === 'object' && value !== null && isCacheable(type)) {
      const tree = view.commit();
      rememberDerived(type, value, tree, baseValue, patches.map((p) => p.path));
      tree.dispose();
    }
    return { value, view: view as ViewOf<T>, patches, inversePatches };
  } finally {
    if (!produced) baseView.dispose();
  }
}

/**
 * A new view: `view` with immer `patches` applied (the tree counterpart of
 * immer's `applyPatches`). `view` is never changed; a bad patch (unknown
 * field, index past a length or a list's limit, a value of the wrong type)
 * throws `SszError` and nothing is applied.
 */
export function applyPatches<T extends SszType<any>>(type: T, view: ViewOf<T> | TreeView<ReturnType<T['defaultValue']>>, patches: readonly Patch[]): ViewOf<T> {
  return applyPatchesToView(type, view as TreeView<unknown>, patches) as ViewOf<T>;
}
