/**
 * Container views: typed property access (`state.slot`, `state.validators`)
 * through getters and setters generated once per container type on a
 * prototype (not per instance, not a Proxy). Fields whose type has inner
 * structure (containers, lists, vectors) read as cached child views; the
 * others read and write values.
 *
 * Invariants: a value field's pending write is always different from the
 * committed value (an equal write clears it), except in a half view (a
 * list element read in place from a record pair, `_pair`) whose field was
 * not read: its list's commit drops writes of the bytes already there; a
 * child view's changes reach this container only at `_flush`, children
 * first, then one sorted `setNodesAtDepth` over all changed fields; a
 * child view replaced by a field write is disposed at the next commit (or
 * dispose); a half view never writes or disposes the list handle it
 * borrows; a half view's only written field may be held in `_oneField`
 * instead of `_pending` (never both), and its commit reads `_pending` only.
 * @module
 */
import { type NodeId, type NodeStore, Tree } from '@ssztree/core';
import { describeArg, SszError } from '../errors.js';
import { type ContainerValue, type Fields, type SszType, staleView, TreeView } from '../type.js';
import { adoptView, sameRoot } from './children.js';
import { anyBuilt, takeBuilt } from './built.js';
import { passOn } from './passedHints.js';
import type { FieldView } from './types.js';

/** Scratch for a packed record's chunks (up to 64), shared by all container views: read, decoded, done. */
const recordBytes = new Uint8Array(32 << 6);
const recordWords = new Int32Array(recordBytes.buffer);
const recordView = new DataView(recordBytes.buffer);

/** Marks "nothing pending / nothing cached" in the per-field arrays (values may be anything else, even undefined never occurs). */
const NONE: unique symbol = Symbol('none');

/** @internal What `NONE` is to code outside this module (schema/container.ts `_pairWrite`). */
export const NO_VALUE: unknown = NONE;
/** No pending values. */
const EMPTY: readonly unknown[] = [];

/**
 * Per field count, two arrays (one per half of a pair) that hand a half
 * view's single pending value (`_oneField`) to its list's pair write
 * (`_pairWrites`), which reads both halves' before either is asked again.
 */
const pairScratch: unknown[][][] = [];
function pairWritesScratch(n: number, half: number): unknown[] {
  const both = (pairScratch[n] ??= [new Array<unknown>(n).fill(NONE), new Array<unknown>(n).fill(NONE)]);
  return (both[half & 1] as unknown[]).fill(NONE);
}

/** A container view: the base API plus one typed property per field. */
export type ContainerView<F extends Fields> = ContainerViewBase<F> & { -readonly [K in keyof F]: FieldView<F[K]> };

/**
 * What a container view asks of its schema beyond `SszType` (schema/container.ts
 * has it): compact records and the view class. Owned here, so that this
 * module imports no schema.
 */
interface ContainerSchema<F extends Fields> extends SszType<ContainerValue<F>> {
  _compactKind(): number;
  _compactField(store: NodeStore, root: NodeId, i: number, half?: number): unknown;
  _compactWithFields(store: NodeStore, root: NodeId, indices: readonly number[], values: readonly unknown[], half?: number): NodeId;
  _view(store: NodeStore, node: NodeId, tree?: Tree): ContainerView<F>;
}

interface FieldSlot {
  readonly name: string;
  readonly type: SszType<unknown>;
  readonly navigable: boolean;
  /** The node a pending value becomes (a leaf of its root for wide byte fields of packed records). */
  readonly toNode: (value: unknown, store: NodeStore) => NodeId;
}

export class ContainerViewBase<F extends Fields> extends TreeView<ContainerValue<F>> {
  // Declared, assigned in the constructor (see TreeView). The per-field arrays are made on first use
  // (`_valueSlots`, `_childSlots`): an epoch makes a view per `validators.get(i)` to write one field,
  // and five arrays per view were most of what making one cost.
  /** @internal */ declare readonly _fields: readonly FieldSlot[];
  /** @internal */ declare readonly _depth: number;
  /**
   * @internal ≥ 0: this is a half view (`SszType._halfView`): the value is
   * half `_half` of record pair `_pair`, read in place, and `_tree` is the
   * LIST's handle, borrowed (never written or disposed here) until the view
   * commits, which makes its own record and handle (`_unpair`). -1: `_tree`
   * is the view's own; -2: a half view disposed.
   */
  declare _pair: NodeId;
  /** @internal The half of `_pair` (0 or 1) of a half view, -1 otherwise. */
  declare _half: number;
  /** @internal Decoded committed values of value fields (NONE: not decoded); null until a value field is read or written. */ declare _values: unknown[] | null;
  /** @internal Pending values of value fields (NONE: none); null until a value field is written (or while `_oneField` holds the only one). */ declare _pending: unknown[] | null;
  /**
   * @internal A half view's only pending value, of field `_oneField` (-1: none; always -1 while `_pending`
   * is set): an epoch writes one field of each of 16384 validators, and an array per view (one slot per
   * field) was a third of what a get + write left alive until the commit.
   */
  declare _oneField: number;
  /** @internal The value of `_oneField`. */ declare _oneValue: unknown;
  /** @internal Child views of navigable fields; null until a navigable field is read or written (with `_replaced`, `_bases`). */ declare _children: (TreeView<unknown> | undefined)[] | null;
  /** @internal Fields replaced wholesale (their new node may equal the old one). */ declare _replaced: boolean[] | null;
  /** @internal Per child: its root node when it last matched this container's tree (-1: never). */ declare _bases: NodeId[] | null;
  /** @internal Child views replaced by a field write since the last commit: disposed at the commit (nothing else would). */ declare _retired: TreeView<unknown>[] | null;
  /** @internal Per child: changed in place by a commit that threw before linking it (written again by the retry); null: none. */ declare _unlinked: boolean[] | null;
  /** @internal Per navigable field: what the child view of the version this view was cloned from hands on (`_inheritance`), taken when the child is made. */ declare _hints: unknown[] | null;

  constructor(type: SszType<ContainerValue<F>>, tree: Tree, fields: readonly FieldSlot[], depth: number) {
    super(type, tree);
    this._fields = fields;
    this._depth = depth;
    this._pair = -1;
    this._half = -1;
    this._values = null;
    this._pending = null;
    this._oneField = -1;
    this._oneValue = undefined;
    this._children = null;
    this._replaced = null;
    this._bases = null;
    this._retired = null;
    this._unlinked = null;
    this._hints = null;
  }

  /** @internal `_values`, made on first use. */
  private _valueSlots(): unknown[] {
    return (this._values ??= new Array<unknown>(this._fields.length).fill(NONE));
  }

  /** @internal `_pending`, made on first use (taking `_oneField`'s value). */
  private _pendingSlots(): unknown[] {
    let pending = this._pending;
    if (pending === null) {
      pending = this._pending = new Array<unknown>(this._fields.length).fill(NONE);
      if (this._oneField >= 0) {
        pending[this._oneField] = this._oneValue;
        this._oneField = -1;
        this._oneValue = undefined;
      }
    }
    return pending;
  }

  /** @internal `_children` (and `_replaced`, `_bases` with it), made on first use. */
  private _childSlots(): (TreeView<unknown> | undefined)[] {
    if (this._children === null) {
      const n = this._fields.length;
      this._replaced = new Array<boolean>(n).fill(false);
      this._bases = new Array<NodeId>(n).fill(-1);
      this._children = new Array<TreeView<unknown> | undefined>(n).fill(undefined);
    }
    return this._children;
  }

  /** @internal The committed node of field i. */
  _nodeAt(i: number): NodeId {
    return this._depth === 0 ? this._tree.rootNode : this._tree.getNodeAtDepth(this._depth, i);
  }

  /** @internal Field i's committed node if the path to it is held by single links only, else -1 (core `soleNodeAtDepth`). */
  _soleNodeAt(i: number): NodeId {
    return this._tree.soleNodeAtDepth(this._depth, i);
  }

  /** @internal Writes the fields `indices` (ascending) in one batch; true when the root was rewritten in place. */
  _writeFields(indices: readonly number[], nodes: readonly NodeId[], touched: readonly boolean[]): boolean {
    return this._tree.setNodesAtDepth(this._depth, indices, nodes, this._inPlaceWrite(touched));
  }

  /** @internal Reads field i: a child view for navigable fields, else the value. */
  _get(i: number): unknown {
    this._live();
    const f = this._fields[i] as FieldSlot;
    if (f.navigable) {
      const children = this._childSlots();
      let child = children[i];
      if (child === undefined) {
        const node = this._nodeAt(i);
        child = f.type._view(this._tree.store, node);
        const hint = this._hints?.[i];
        if (hint !== undefined) {
          this._hints![i] = undefined;
          child._inherit(hint);
        }
        child._notify = () => this._markDirty();
        children[i] = child;
        this._bases![i] = node;
      }
      return child;
    }
    const pending = this._pending;
    if (pending !== null) {
      const p = pending[i];
      if (p !== NONE) return p;
    } else if (this._oneField === i) return this._oneValue;
    return this._committed(i);
  }

  private _committed(i: number): unknown {
    const values = this._valueSlots();
    let v = values[i];
    if (v === NONE) {
      const f = this._fields[i] as FieldSlot;
      const store = this._tree.store;
      const type = this.type as ContainerSchema<F>;
      const pair = this._pair;
      if (pair >= 0) v = type._compactField(store, pair, i, this._half);
      else if (this._depth > 0 && (this._tree.rootNode & 15) === type._compactKind()) {
        // A compact record: decode the field from the record's bytes.
        v = type._compactField(store, this._tree.rootNode, i);
      } else if (this._depth > 0 && store.wideDepth(this._tree.rootNode) === this._depth && store.recordWordsInto(this._tree.rootNode, this._depth, recordWords, 0)) {
        // A packed record: decode the field from its chunk (cutting the wide leaf would make a leaf per read).
        // The chunks land in a shared scratch (decoders copy what they return), so a read allocates no record.
        v = f.type._fromChunk(recordBytes, recordView, 32 * i, store);
      } else v = f.type._fromNode(store, this._nodeAt(i));
      values[i] = v;
    }
    return v;
  }

  /** @internal Writes field i: a value, or (navigable fields) a view of the field's type. */
  _set(i: number, value: unknown): void {
    this._live();
    const f = this._fields[i] as FieldSlot;
    if (f.navigable) {
      let child: TreeView<unknown>;
      if (value instanceof TreeView) {
        child = adoptView(f.type, value, this._tree.store, `.${f.name}`);
      } else {
        child = f.type.toView(value, this._tree.store);
      }
      child._notify = () => this._markDirty();
      if (this._hints !== null) this._hints[i] = undefined;
      const children = this._childSlots();
      const old = children[i];
      if (old !== undefined && old !== child) (this._retired ??= []).push(old);
      children[i] = child;
      this._replaced![i] = true;
      this._bases![i] = -1;
      this._markDirty();
      return;
    }
    f.type._check(value);
    // A half view whose field was not read leaves the no-op check to its list's commit, which compares the
    // pair's bytes there anyway: reading them here too cost a cache miss per write of an epoch's 16384.
    const values = this._values;
    if ((this._pair < 0 || (values !== null && values[i] !== NONE)) && f.type.equals(this._committed(i), value)) {
      if (this._pending !== null) this._pending[i] = NONE;
      else if (this._oneField === i) {
        this._oneField = -1;
        this._oneValue = undefined;
      }
      return;
    }
    const v = f.type.clone(value);
    const pending = this._pending;
    if (pending !== null) pending[i] = v;
    else if (this._pair >= 0 && (this._oneField < 0 || this._oneField === i)) {
      // A half view's first written field: no array (`_oneField`).
      this._oneField = i;
      this._oneValue = v;
    } else this._pendingSlots()[i] = v;
    this._markDirty();
  }

  /** Writes a field by name (values for every field, views too for navigable ones). */
  setField<K extends keyof F & string>(name: K, value: ContainerValue<F>[K] | FieldView<F[K]>): void {
    const i = this._fields.findIndex((f) => f.name === name);
    if (i < 0) throw new SszError('BAD_PATH', `no field ${describeArg(name)}`, -1, this.type.typeName);
    this._set(i, value);
  }

  _flush(): void {
    // A half view commits to a record of its own even unwritten: its root is then the value's (`_unpair`).
    if (!this._dirty && this._pair < 0) return;
    // The commit reads pending values from `_pending` only.
    if (this._oneField >= 0) this._pendingSlots();
    const fields = this._fields;
    const store = this._tree.store;
    let indices: number[] | null = null;
    let nodes: NodeId[] | null = null;
    let replaced: boolean[] | null = null;
    const retired = this._retired;
    if (retired !== null) {
      // Replaced field views stay usable until this commit, as list children do; then their versions go.
      this._retired = null;
      for (const view of retired) view.dispose();
    }
    if (this._flushCompact()) return;
    // Owning its root, this view vouches for each dirty child whose root it links through single links
    // only: the child may then rewrite that root in place, and this commit lists the path above it.
    const owned = this._depth > 0 && this._ownsRoot();
    let touched: boolean[] | null = null;
    const pending = this._pending;
    const children = this._children;
    const bases = this._bases;
    // Children's new roots, recorded as their bases only once the write below is done: a commit that
    // throws later (another child's, or the write) links them again when it is retried, though their own
    // commits are then no-ops that report nothing changed in place (`_unlinked` keeps that).
    let linked: number[] | null = null;
    for (let i = 0; i < fields.length; i++) {
      let node: NodeId;
      let inPlace = false;
      const p = pending === null ? NONE : pending[i];
      const child = children === null ? undefined : children[i];
      if (p !== NONE) {
        node = (fields[i] as FieldSlot).toNode(p, store);
      } else if (child !== undefined) {
        if (!child._dirty && bases![i] === child._tree.rootNode && this._unlinked?.[i] !== true) continue;
        if (owned && child._dirty) child._vouched = this._soleNodeAt(i) === child._tree.rootNode;
        try {
          child._commitNow();
        } finally {
          child._vouched = false;
        }
        inPlace = child._changedInPlace || this._unlinked?.[i] === true;
        child._changedInPlace = false;
        node = child._tree.rootNode;
        // Unchanged since it last matched this tree: nothing to write (an id compare, no tree walk).
        if (node === bases![i] && !inPlace) continue;
        if (inPlace) (this._unlinked ??= new Array<boolean>(fields.length).fill(false))[i] = true;
        (linked ??= []).push(i, node);
      } else continue;
      (indices ??= []).push(i);
      (nodes ??= []).push(node);
      (replaced ??= []).push(this._replaced?.[i] === true);
      (touched ??= []).push(inPlace);
    }
    if (indices !== null && nodes !== null && replaced !== null && touched !== null) {
      // A wholesale replacement may hold what was there: keep the old node then (no-op writes change nothing).
      let k = 0;
      for (let j = 0; j < indices.length; j++) {
        const i = indices[j] as number;
        if (replaced[j] === true && sameRoot(store, nodes[j] as NodeId, this._nodeAt(i))) continue;
        indices[k] = i;
        touched[k] = touched[j] as boolean;
        nodes[k++] = nodes[j] as NodeId;
      }
      indices.length = k;
      nodes.length = k;
      touched.length = k;
      if (k > 0) {
        if (this._depth === 0) {
          // The one field is the root: rewritten in place, it is still this view's root, with new contents.
          this._changedInPlace = nodes[0] === this._tree.rootNode && touched[0] === true;
          this._tree.rootNode = nodes[0] as NodeId;
        } else this._changedInPlace = this._writeFields(indices, nodes, touched);
      }
      if (linked !== null) for (let j = 0; j < linked.length; j += 2) bases![linked[j]!] = linked[j + 1]!;
      this._unlinked = null;
      if (pending !== null) {
        const values = this._valueSlots();
        for (let i = 0; i < fields.length; i++) {
          const p = pending[i];
          if (p !== NONE) {
            values[i] = p;
            pending[i] = NONE;
          }
        }
      }
      this._replaced?.fill(false);
    }
  }

  /**
   * A compact record (core wide/records.ts) whose changes are all pending values:
   * one new record with those fields re-encoded (no write of equal bytes).
   * Returns false, doing nothing, when the root is not a compact record or a
   * child view changed (the generic path handles those).
   */
  private _flushCompact(): boolean {
    const type = this.type as ContainerSchema<F>;
    const half = this._half;
    const root = half >= 0 ? this._pair : this._tree.rootNode;
    if (half < 0 && (this._depth === 0 || (root & 15) !== type._compactKind())) return false;
    const children = this._children;
    if (children !== null) {
      for (let i = 0; i < children.length; i++) {
        const child = children[i];
        if (child !== undefined && (child._dirty || this._replaced![i] === true || this._bases![i] !== child._tree.rootNode)) {
          // The generic path writes into the view's own record: make it first.
          if (half >= 0) this._unpair([], []);
          return false;
        }
      }
    }
    const pending = this._pending;
    if (pending === null) {
      // Nothing pending: the record stays as it is (a half of a pair becomes a record of its own: the view's root).
      if (half >= 0) this._unpair([], []);
      return true;
    }
    const indices: number[] = [];
    const values: unknown[] = [];
    for (let i = 0; i < pending.length; i++) {
      const p = pending[i];
      if (p !== NONE) {
        indices.push(i);
        values.push(p);
      }
    }
    if (half >= 0) this._unpair(indices, values);
    else {
      const next = type._compactWithFields(this._tree.store, root, indices, values);
      if (next !== root) this._tree.rootNode = next;
    }
    const committed = this._valueSlots();
    for (const i of indices) {
      committed[i] = pending[i];
      pending[i] = NONE;
    }
    return true;
  }

  /**
   * @internal A half view's own record — its half's bytes, fields `indices`
   * set to `values` — and a handle on it become its tree (the borrowed list
   * handle is left to the list).
   */
  private _unpair(indices: readonly number[], values: readonly unknown[]): void {
    const type = this.type as ContainerSchema<F>;
    const store = this._tree.store;
    this._tree = new Tree(type._compactWithFields(store, this._pair, indices, values, this._half), store);
    this._pair = -1;
    this._half = -1;
  }

  override _pairOf(): NodeId {
    return this._pair;
  }

  /** @internal A half view's pending field values for its list's pair write (`SszType._pairWrite`), or null when it holds anything else. */
  _pairWrites(): readonly unknown[] | null {
    if (this._pair < 0 || this._children !== null || this._retired !== null) return null;
    if (this._pending !== null) return this._pending;
    if (this._oneField < 0) return EMPTY;
    const writes = pairWritesScratch(this._fields.length, this._half);
    writes[this._oneField] = this._oneValue;
    return writes;
  }

  override _live(): void {
    if (this._pair === -1 ? this._tree.disposed : this._pair < 0) throw staleView(this.type.typeName);
  }

  override dispose(): void {
    if (this._pair === -1) return super.dispose();
    // A half view: its handle is the list's. Still a safe point for the store's nursery sweep, as every dispose is.
    this._disposeChildren();
    this._pair = -2;
    this._half = -1;
    this._tree.store.sweepAtDispose();
  }

  override _disposeChildren(): void {
    if (this._children !== null) for (const child of this._children) child?.dispose();
    const retired = this._retired;
    this._retired = null;
    if (retired !== null) for (const view of retired) view.dispose();
  }

  /**
   * @internal Right after a build from bytes (view/built.ts): the tables the build recorded for the
   * nodes of navigable fields become those fields' hints, taken when their views are made.
   */
  _takeBuilt(): void {
    if (!anyBuilt()) return;
    for (let i = 0; i < this._fields.length; i++) {
      if (!this._fields[i]!.navigable) continue;
      const table = takeBuilt(this._nodeAt(i));
      if (table !== undefined) (this._hints ??= new Array<unknown>(this._fields.length).fill(undefined))[i] = table;
    }
  }

  _respawn(tree: Tree): this {
    const view = (this.type as ContainerSchema<F>)._view(tree.store, tree.rootNode, tree) as unknown as this;
    // A clone's child views start from what this view's children found (a packed list's page table):
    // valid while the clone's field keeps the same root, which the child checks when it takes it.
    // A field whose view was never made passes its hint on (a state loaded from bytes and cloned for each
    // block: the tables its build recorded reach the clones; an epoch's inactivity scores, which no block
    // reads: the page table the last epoch left reaches the next; a progressive list's subtree tables
    // too). Only a read-only one: a build's or a page table made shared, here and in this view, which then
    // copies it too (passedHints.ts `passOn`); any other clone's hint is taken by one view (an element
    // table's overlay becomes the view's).
    const children = this._children;
    const hints = this._hints;
    const n = this._fields.length;
    for (let i = 0; i < n; i++) {
      const child = children?.[i];
      let hint: unknown;
      if (child === undefined) {
        hint = hints === null ? undefined : passOn(hints, i);
      } else hint = child._dirty ? undefined : child._inheritance();
      if (hint !== undefined) (view._hints ??= new Array<unknown>(n).fill(undefined))[i] = hint;
    }
    return view;
  }
}

/** Names a view already uses; a field with one of these names would shadow it. */
const RESERVED = new Set(['type', 'store', 'commit', 'rootNode', 'hashTreeRoot', 'toValue', 'serialize', 'clone', 'dispose', 'setField', 'memory', 'sharedWith', 'constructor']);

/** A container view class: `ContainerViewBase` or a subclass of it that places fields elsewhere in the tree. */
type ContainerViewClass<F extends Fields> = new (type: SszType<ContainerValue<F>>, tree: Tree, fields: readonly FieldSlot[], depth: number) => ContainerViewBase<F>;

/**
 * The view class of one container type: a subclass of `base` (default
 * `ContainerViewBase`) with one getter/setter per field on its prototype
 * (made once per type).
 */
export function containerViewClass<F extends Fields>(fields: readonly FieldSlot[], typeName: string, base: ContainerViewClass<F> = ContainerViewBase<F>): ContainerViewClass<F> {
  class View extends base {}
  fields.forEach((f, i) => {
    if (RESERVED.has(f.name) || f.name.startsWith('_')) {
      throw new SszError('INVALID_TYPE', `field name ${f.name} collides with a view member`, -1, typeName);
    }
    Object.defineProperty(View.prototype, f.name, {
      get(this: ContainerViewBase<F>) {
        return this._get(i);
      },
      set(this: ContainerViewBase<F>, value: unknown) {
        this._set(i, value);
      },
      enumerable: true,
      configurable: false,
    });
  });
  return View;
}

export type { FieldSlot };
