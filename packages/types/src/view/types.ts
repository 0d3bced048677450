/**
 * Type-level mapping from schemas to their views: `ViewOf<typeof T>`.
 * Containers, lists and vectors get navigable views; every other schema a
 * `ValueView`. Container fields read as `FieldView`: the child view for
 * navigable fields, the plain value for the rest.
 * @module
 */
import type { ContainerType, ContainerValue, Fields } from '../schema/container.js';
import type { ListBasicType, ListCompositeType } from '../schema/list.js';
import type { VectorBasicType, VectorCompositeType } from '../schema/vector.js';
import type { SszType } from '../type.js';
import type { BasicArray } from '../basicType.js';
import type { CompositeSequenceView } from './composite.js';
import type { ContainerViewBase } from './container.js';
import type { PackedSequenceView } from './packed.js';
import type { ValueView } from './value.js';

/** A container view: the base API plus one typed property per field. */
export type ContainerView<F extends Fields> = ContainerViewBase<F> & { -readonly [K in keyof F]: FieldView<F[K]> };

/** The view of a navigable type (container, list, vector), or `Otherwise` for the rest. */
type NavigableView<T, Otherwise> =
  T extends ContainerType<infer G>
    ? ContainerView<G>
    : T extends ListBasicType<infer V, infer A>
      ? PackedSequenceView<V, A>
      : T extends VectorBasicType<infer V, infer A>
        ? PackedSequenceView<V, A>
        : T extends ListCompositeType<infer E, infer ET>
          ? CompositeSequenceView<E, ET>
          : T extends VectorCompositeType<infer E, infer ET>
            ? CompositeSequenceView<E, ET>
            : Otherwise;

/** What an element of a composite sequence reads as: a view for navigable types, else the value. */
export type ElementView<T> = NavigableView<T, T extends SszType<infer V> ? V : never>;

/** A container field as a property: the same as an element. */
export type FieldView<T> = ElementView<T>;

/** The view `T.toView` returns: a navigable view, else a view holding one value. */
export type ViewOf<T> = NavigableView<T, T extends SszType<infer V> ? ValueView<V> : never>;

export type { ContainerValue, BasicArray };
