/**
 * A schema and its view, the two halves of one contract:
 * - `SszType<V>`, the base class of every schema: the codec of `SszCodec`
 *   (codec.ts) plus trees (`toTree`, `fromTree`, `serializeTree`), roots
 *   that reuse the tree of a frozen value (frozen/), proofs by path
 *   (tree/proofs.ts) and views (`toView`, `deserializeToView`, `viewOf`);
 * - `TreeView<V>`, the common part of every tree-backed view — a `Tree`
 *   handle on the last committed version plus pending writes held by the
 *   subclass — and `ValueView<V>`, the view of a schema with no inner
 *   structure worth navigating (uints, booleans, byte vectors and lists,
 *   bitfields, unions), read and written as a whole value.
 * They share a module because each names the other in its public API (a
 * schema makes views; a view has its schema): everything they build on
 * lies below (codec.ts, tree/, frozen/), everything built on them above
 * (view/, schema/), and neither imports upward.
 *
 * View invariants:
 * - `_tree` always holds a complete, valid version of the value; pending
 *   writes live only in the subclass's maps until `_flush()` applies them in
 *   one batched pass (one sorted `setNodesAtDepth` per collection).
 * - Pending writes hold values or retained views, never floating node ids,
 *   so a view may be written, then awaited or another view disposed (both
 *   safe points of the store's nursery sweep), then committed: nothing it
 *   needs can be swept in between. A commit holds dispose-time sweeps off
 *   itself: it disposes child views while nodes it just made are unlinked.
 * - A view never changes a version another holder can see: writes replace
 *   the handle's root, the old root stays intact for every other handle.
 *   Only what no other holder can reach — the view's root when its handle
 *   (and the vouching parent's link) are its only holders, and below it
 *   what single links reach — is rewritten in place (`_inPlaceWrite`).
 * - A `ValueView`'s pending value is held until the next commit; writing a
 *   value equal to the current one records nothing.
 * @module
 */
import { defaultStore, type InPlaceWrite, type NodeId, type NodeStore, Tree } from '@ssztree/core';
import { SszCodec, type Type, type ValueOf } from './codec.js';
import { describeArg, SszError, withPath } from './errors.js';
import { frozenRootInto, isCacheable } from './frozen/root.js';
import { sameShape } from './shape.js';
import { sharedMemory, treeMemory, type MemoryReport, type SharedReport } from './tree/memory.js';
import { treeError } from './tree/nodes.js';
import { createProof, gindexOfPath, type Path, type PathSegment, type PathStep, type ViewProof } from './tree/proofs.js';
import { serializeNode, serializeNodeInto, valueOfNode } from './tree/write.js';

export { withByteBound, type ByteReader, type DeserializeOptions, type Type, type ValueOf } from './codec.js';

/** The schema of each field of a container: any SSZ type. */
export type Fields = Record<string, SszType<unknown>>;
/** The plain-object value of a container with these fields. */
export type ContainerValue<F extends Fields> = { [K in keyof F]: ValueOf<F[K]> };

/** The base class of every schema (see the module comment; the codec and the primitives are `SszCodec`'s). */
export abstract class SszType<V> extends SszCodec<V> implements Type<V> {
  hashTreeRoot(value: V): Uint8Array {
    try {
      const out = new Uint8Array(32);
      // Frozen values (immer results) reuse the tree remembered for their base: docs/IMMER.md.
      if (this._navigable && typeof value === 'object' && value !== null && Object.isFrozen(value) && isCacheable(this)) {
        frozenRootInto(this, value, out, 0);
      } else this._rootInto(value, out, 0);
      return out;
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  toTree(value: V, store: NodeStore = defaultStore): Tree {
    try {
      return new Tree(this._toNode(value, store), store);
    } catch (e) {
      throw withPath(treeError(e), this.typeName);
    }
  }

  /** @internal One step of a proof path below this type; types without inner positions have none. */
  _pathStep(segment: PathSegment): PathStep {
    throw new SszError('BAD_PATH', `${this.typeName} has no position ${describeArg(segment)}`);
  }

  /** The generalized index of a path of field names and indices below this type. */
  gindexOf(path: Path): bigint {
    return gindexOfPath(this, path);
  }

  /** A proof of the values at `paths` (`['validators', 5, 'effective_balance']`) in a view or a tree. */
  createProof(source: TreeView<V> | Tree, paths: readonly Path[]): ViewProof {
    // The view is committed only once every path is known to exist (tree/proofs.ts).
    return createProof(this, () => {
      if (source instanceof TreeView) {
        if (source.type !== this && !sameShape(source.type, this)) {
          throw new SszError('INVALID_VALUE', `createProof needs a view of ${this.typeName}, got a view of ${source.type.typeName}`, -1, this.typeName);
        }
        source._commitNow();
        return source._tree;
      }
      if (source instanceof Tree) return source;
      throw new SszError('INVALID_VALUE', `createProof needs a view of ${this.typeName} or a Tree, got ${describeArg(source)}`, -1, this.typeName);
    }, paths);
  }

  /** @internal The view over `node` (retained by a new handle, or by `tree` when given). */
  _view(store: NodeStore, node: NodeId, tree?: Tree): TreeView<V> {
    return new ValueView(this, tree ?? new Tree(node, store));
  }

  /**
   * @internal A view of half `half` (0 or 1) of record pair `pair` (core
   * wide/recordPairs.ts) that `list`, a list's tree, holds: the view borrows
   * that handle instead of making one, and reads the half's bytes in place
   * (no half record is made per `get`). Valid only while `list` holds the
   * pair, which the list view guarantees by disposing its child views at its
   * next commit; committed on its own, the view makes its own record and
   * handle. Null when this schema's views cannot do that (all but containers
   * stored as compact records).
   */
  _halfView(_list: Tree, _pair: NodeId, _half: number): TreeView<V> | null {
    return null;
  }

  /**
   * @internal The commit of half views (`_halfView`) of one record pair
   * that were written, done by their list in one step: the bytes of the
   * new pair with both views' writes (`left`, `right`: the views of halves
   * 0 and 1, null for a half not written) go into `out` at `offset`
   * (`view` is a DataView of `out`), and the answer is 1 when they differ
   * from the pair's, 0 when no byte changes, or -1 when a view cannot be
   * committed so (it committed on its own since, or holds more than field
   * values); the list then commits each view alone. The list writes all
   * its changed pairs in one batch (core `setRecordsAtDepth`). The views
   * are left as they were: the list disposes them right after.
   */
  _pairWrite(_left: TreeView<V> | null, _right: TreeView<V> | null, _out: Uint8Array, _view: DataView, _offset: number): number {
    return -1;
  }

  /** @internal The record size of this schema's record pairs (twice its compact record's), or 0 when it has none. */
  _pairBytes(): number {
    return 0;
  }

  /** @internal The subtree a view starts from (packed sequences use wide-leaf pages here). */
  _viewNode(value: V, store: NodeStore): NodeId {
    return this._toNode(value, store);
  }

  /** A tree-backed view of `value`: typed reads and writes, pending until commit, O(1) clones. */
  toView(value: V, store: NodeStore = defaultStore): TreeView<V> {
    let node: NodeId;
    try {
      node = this._viewNode(value, store);
    } catch (e) {
      throw withPath(treeError(e), this.typeName);
    }
    return this._view(store, node);
  }

  /**
   * @internal The view subtree of the value serialized in `data[start, end)`,
   * validated like `_decode`. Containers and lists of packed records build it
   * straight from the bytes; the rest decode, then build.
   */
  _nodeFromBytes(data: Uint8Array, dv: DataView, start: number, end: number, store: NodeStore): NodeId {
    return this._viewNode(this._decode(data, dv, start, end), store);
  }

  /** A view of the value serialized in `bytes` (validated like `deserialize`), built from the bytes. */
  deserializeToView(bytes: Uint8Array, store: NodeStore = defaultStore): TreeView<V> {
    let node: NodeId;
    try {
      if (!(bytes instanceof Uint8Array)) throw new SszError('INVALID_VALUE', 'deserializeToView expects a Uint8Array');
      this._checkBound(bytes);
      this._checkBound(bytes);
      // No copy of the input: every byte that reaches the tree is copied into the store (or the preimage table).
      node = this._nodeFromBytes(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.length, store);
    } catch (e) {
      throw withPath(treeError(e), this.typeName);
    }
    return this._view(store, node);
  }

  /** A view over an existing version (the view takes its own handle). */
  viewOf(tree: Tree): TreeView<V> {
    try {
      return this._view(tree.store, tree.rootNode, tree.clone());
    } catch (e) {
      throw withPath(treeError(e), this.typeName);
    }
  }

  fromTree(tree: Tree | NodeId, store: NodeStore = defaultStore): V {
    try {
      if (tree instanceof Tree) return this._fromNode(tree.store, tree.rootNode);
      if (typeof tree !== 'number') throw new SszError('INVALID_VALUE', 'fromTree expects a Tree or a node id');
      store.check(tree);
      return this._fromNode(store, tree);
    } catch (e) {
      throw withPath(treeError(e), this.typeName);
    }
  }

  /** The serialization of the value a tree (or a node of `store`) holds, copied out of the tree: no value is built. */
  serializeTree(tree: Tree | NodeId, store: NodeStore = defaultStore): Uint8Array {
    if (tree instanceof Tree) return serializeNode(this as SszType<unknown>, tree.store, tree.rootNode);
    try {
      if (typeof tree !== 'number') throw new SszError('INVALID_VALUE', 'serializeTree expects a Tree or a node id');
      store.check(tree);
    } catch (e) {
      throw withPath(treeError(e), this.typeName);
    }
    return serializeNode(this as SszType<unknown>, store, tree);
  }

  /**
   * `serializeTree` into `buffer` at `offset`, for a buffer reused across
   * calls (see `serializeInto`); returns the end offset. Only the
   * serialization's range is written.
   */
  serializeTreeInto(tree: Tree | NodeId, buffer: Uint8Array, offset: number, store: NodeStore = defaultStore): number {
    if (tree instanceof Tree) return serializeNodeInto(this as SszType<unknown>, tree.store, tree.rootNode, buffer, offset);
    try {
      if (typeof tree !== 'number') throw new SszError('INVALID_VALUE', 'serializeTreeInto expects a Tree or a node id');
      store.check(tree);
    } catch (e) {
      throw withPath(treeError(e), this.typeName);
    }
    return serializeNodeInto(this as SszType<unknown>, store, tree, buffer, offset);
  }
}

/** Any schema, for constraints; its value type is recovered with `ValueOf`. */
// biome-ignore lint: the bivariant method signatures make every Type<V> assignable here.
export type AnyType = SszType<unknown>;

/** @internal The error of a view used after its handle was released. */
export function staleView(typeName: string): SszError {
  return new SszError('STALE_VIEW', 'the view was disposed (child views of lists and vectors live until their parent commits; get them again)', -1, typeName);
}

/** The common part of every tree-backed view: a handle on the committed version, pending writes in the subclass (see the module comment). */
export abstract class TreeView<V> {
  // Fields are `declare`d and assigned in the constructor: an epoch makes a view per `validators.get(i)`,
  // and the class-field initializers (define semantics of ES2022) were a visible part of making one.
  /** The view's schema. */
  declare readonly type: SszType<V>;
  /** @internal The committed version. */
  declare _tree: Tree;
  /** @internal True while this view has writes its parent has not seen committed. */
  declare _dirty: boolean;
  /** @internal Called once when the view turns dirty: its parent records it for the next commit. */
  declare _notify: (() => void) | null;
  /**
   * @internal Set by the parent for the length of one of its commits: the
   * parent owns its own root, and its link to this view's root is that
   * link's only path (core `soleNodeAtDepth`), so this view may count the
   * link among the holders it owns (`_inPlaceWrite`).
   */
  declare _vouched: boolean;
  /** @internal Set by `_flush` when the root was rewritten in place (same id, new contents); read and cleared by the parent. */
  declare _changedInPlace: boolean;
  /**
   * @internal Set by a parent whose commit writes this view as one of several
   * separate parts (a progressive list's subtree views): its in-place batch
   * writes are hashed as they are made however small (core `InPlaceWrite.hashNow`).
   */
  declare _hashNow: boolean;
  /** @internal The parent whose `_notify` this view calls (a composite list: view/composite.ts), or null. */
  declare _link: unknown;
  /**
   * @internal A list's child view: its element index (-1: none). Kept on the view, with `_linkBase`, rather
   * than in an entry object per child: an epoch gets 16384 validators, each view alive until the commit.
   */
  declare _linkIndex: number;
  /** @internal A list's child view: its root node when it last matched the list's tree (-1: never). */
  declare _linkBase: NodeId;
  /**
   * @internal A list's child view: already listed among the list's written children. A child that commits
   * itself turns clean and notifies again at its next write; listed once, the list commits it once.
   */
  declare _linkListed: boolean;

  constructor(type: SszType<V>, tree: Tree) {
    this.type = type;
    this._tree = tree;
    this._dirty = false;
    this._notify = null;
    this._vouched = false;
    this._changedInPlace = false;
    this._hashNow = false;
    this._link = null;
    this._linkIndex = -1;
    this._linkBase = -1;
    this._linkListed = false;
  }

  get store(): NodeStore {
    return this._tree.store;
  }

  /** @internal Applies pending writes to `_tree` (children first). */
  abstract _flush(): void;

  /**
   * @internal The claim a batch write of this view's tree makes for writing
   * in place (core write/inPlace.ts): its handle, plus its parent's link when the
   * parent vouched for it. Core writes in place only when the root's count
   * is exactly that: a clone, a `commit()` handle or any other holder makes
   * the write copy its paths as usual.
   */
  _inPlaceWrite(touched?: ArrayLike<boolean>): InPlaceWrite {
    return { holders: this._vouched ? 2 : 1, touched, hashNow: this._hashNow };
  }

  /** @internal Whether this view's tree could be written in place now (see `_inPlaceWrite`). */
  _ownsRoot(): boolean {
    return this._tree.rootHolders() === (this._vouched ? 2 : 1);
  }

  /** @internal A view of the same kind over another version (no pending writes). */
  abstract _respawn(tree: Tree): this;

  /**
   * @internal What a view of the same committed root may reuse instead of
   * finding it again (a packed view's page table), taken by a parent's
   * `clone()` for the clone's child view; undefined when nothing is worth
   * handing on. A snapshot: later writes of this view do not change it.
   */
  _inheritance(): unknown {
    return undefined;
  }

  /** @internal Takes another view's `_inheritance()`, which it checks is of this view's root. */
  _inherit(_from: unknown): void {}

  /** @internal The record pair a half view (`SszType._halfView`) reads, or -1 for every other view. */
  _pairOf(): NodeId {
    return -1;
  }

  /** Applies every pending write in one batched pass and returns the new version (a new handle; the view keeps its own). */
  commit(): Tree {
    this._commitNow();
    return this._tree.clone();
  }

  /**
   * The root node of the committed version, after applying pending writes.
   * Held by this view, not by the caller: the next commit of a view that
   * nothing else holds rewrites it in place. Keep a version with `commit()`
   * or `clone()`.
   */
  get rootNode(): NodeId {
    this._commitNow();
    return this._tree.rootNode;
  }

  /** Commit, then the root: only dirty paths are hashed, level by level across the whole store. */
  hashTreeRoot(): Uint8Array {
    this._commitNow();
    return this._tree.root;
  }

  /** The plain value (commits first). */
  toValue(): V {
    this._commitNow();
    // Bytes out of the tree, then one strict decode: faster than building the value node by node (docs/VIEWS.md).
    return valueOfNode(this.type, this.store, this._tree.rootNode);
  }

  /** The serialization of the value (commits first). */
  serialize(): Uint8Array {
    this._commitNow();
    // Copied straight out of the tree: chunk bytes, wide-leaf pages, record rows; no value is built.
    return serializeNode(this.type as SszType<unknown>, this.store, this._tree.rootNode);
  }

  /** `serialize()` into `buffer` at `offset` (commits first); returns the end offset. For a buffer reused across calls. */
  serializeInto(buffer: Uint8Array, offset: number): number {
    this._commitNow();
    return serializeNodeInto(this.type as SszType<unknown>, this.store, this._tree.rootNode, buffer, offset);
  }

  /** An independent view on the same version: O(1) once pending writes are committed. */
  clone(): this {
    this._commitNow();
    return this._respawn(this._tree.clone());
  }

  /** Bytes of node storage the committed tree holds (each node once). */
  memory(): MemoryReport {
    this._commitNow();
    return treeMemory(this.store, this._tree.rootNode);
  }

  /** `memory()` plus how much of it is shared with another view or tree of the same store. */
  sharedWith(other: TreeView<unknown> | Tree): SharedReport {
    this._commitNow();
    let root: NodeId;
    if (other instanceof TreeView) {
      other._commitNow();
      root = other._tree.rootNode;
    } else root = other.rootNode;
    return sharedMemory(this.store, this._tree.rootNode, root);
  }

  /** Releases the view's version now, and its child views' (all are unusable afterwards). */
  dispose(): void {
    this._disposeChildren();
    this._tree.dispose();
  }

  /** @internal Disposes cached child views (their handles would otherwise keep old versions alive until GC). */
  _disposeChildren(): void {}

  /** @internal Throws `STALE_VIEW` once the view's handle is released (never a core error). */
  _live(): void {
    if (this._tree.disposed) throw staleView(this.type.typeName);
  }

  /** @internal Marks the view dirty and tells its parent (once per commit). */
  _markDirty(): void {
    if (this._dirty) return;
    this._dirty = true;
    this._notify?.();
  }

  /**
   * @internal `_flush` with the type name prepended to errors. Dispose-time
   * sweeps are held off meanwhile: a commit keeps field and element nodes it
   * made (floating) in locals while it commits, and disposes, child views.
   */
  _commitNow(): void {
    this._live();
    const store = this._tree.store;
    store.holdSweeps();
    try {
      // Reports this commit only: a flag left from an earlier commit would make the parent list a path for nothing.
      this._changedInPlace = false;
      this._flush();
      this._dirty = false;
    } catch (e) {
      throw withPath(e, this.type.typeName);
    } finally {
      store.resumeSweeps();
    }
  }
}

/** The view of a schema without inner structure: its whole value, read and written at once. */
export class ValueView<V> extends TreeView<V> {
  #pending: { value: V } | null = null;
  #cached: { value: V } | null = null;

  constructor(type: SszType<V>, tree: Tree) {
    super(type, tree);
  }

  get value(): V {
    this._live();
    if (this.#pending !== null) return this.#pending.value;
    if (this.#cached === null) this.#cached = { value: this.type.fromTree(this._tree) };
    return this.#cached.value;
  }

  set value(value: V) {
    this._live();
    this.type._check(value);
    if (this.#cached === null) this.#cached = { value: this.type.fromTree(this._tree) };
    // Equal to the committed value: drop any pending write, so the tree keeps its node.
    if (this.type.equals(this.#cached.value, value)) this.#pending = null;
    else {
      this.#pending = { value: this.type.clone(value) };
      this._markDirty();
    }
  }

  _flush(): void {
    const pending = this.#pending;
    if (pending === null) return;
    const next = this.type._toNode(pending.value, this.store);
    this._tree.rootNode = next;
    this.#cached = pending;
    this.#pending = null;
  }

  _respawn(tree: Tree): this {
    return new ValueView(this.type, tree) as this;
  }
}
