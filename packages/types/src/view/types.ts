/**
 * Type-level mapping from schemas to their views: `ViewOf<typeof T>`.
 * Containers, lists and vectors get navigable views; every other schema a
 * `ValueView`. Container fields read as `FieldView`: the child view for
 * navigable fields, the plain value for the rest.
 *
 * The mapping reads a schema's view from the schema itself — the type its
 * `_view` returns — so it names no schema class: a navigable schema's
 * `_view` returns a subclass of `TreeView` (container, packed or composite
 * view), every other schema's the `TreeView` of the base class. Imports
 * type.ts only.
 * @module
 */
import type { NodeId, NodeStore, Tree } from '@ssztree/core';
import type { SszType, TreeView, ValueView } from '../type.js';

/** The view of a navigable type (container, list, vector: its `_view` returns a subclass of `TreeView`), or `Otherwise` for the rest. */
type NavigableView<T, Otherwise> = T extends { _view(store: NodeStore, node: NodeId, tree?: Tree): infer W }
  ? TreeView<any> extends W
    ? Otherwise
    : W
  : Otherwise;

/** What an element of a composite sequence reads as: a view for navigable types, else the value. */
export type ElementView<T> = NavigableView<T, T extends SszType<infer V> ? V : never>;

/** A container field as a property: the same as an element. */
export type FieldView<T> = ElementView<T>;

/** The view `T.toView` returns: a navigable view, else a view holding one value. */
export type ViewOf<T> = NavigableView<T, T extends SszType<infer V> ? ValueView<V> : never>;
