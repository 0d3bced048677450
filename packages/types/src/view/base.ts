/**
 * `TreeView`: the common part of every tree-backed view — a `Tree` handle
 * on the last committed version plus pending writes held by the subclass.
 *
 * Invariants:
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
 * @module
 */
import { type InPlaceWrite, type NodeId, type NodeStore, Tree } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import type { SszType } from '../type.js';
import { sameShape } from '../shape.js';
import { serializeNode, valueOfNode } from '../tree/write.js';
import { sharedMemory, treeMemory, type MemoryReport, type SharedReport } from '../tree/memory.js';

export abstract class TreeView<V> {
  /** @internal The committed version. */
  _tree: Tree;
  /** @internal True while this view has writes its parent has not seen committed. */
  _dirty = false;
  /** @internal Called once when the view turns dirty: its parent records it for the next commit. */
  _notify: (() => void) | null = null;
  /**
   * @internal Set by the parent for the length of one of its commits: the
   * parent owns its own root, and its link to this view's root is that
   * link's only path (core `soleNodeAtDepth`), so this view may count the
   * link among the holders it owns (`_inPlaceWrite`).
   */
  _vouched = false;
  /** @internal Set by `_flush` when the root was rewritten in place (same id, new contents); read and cleared by the parent. */
  _changedInPlace = false;

  constructor(
    readonly type: SszType<V>,
    tree: Tree,
  ) {
    this._tree = tree;
  }

  get store(): NodeStore {
    return this._tree.store;
  }

  /** @internal Applies pending writes to `_tree` (children first). */
  abstract _flush(): void;

  /**
   * @internal The claim a batch write of this view's tree makes for writing
   * in place (core inPlace.ts): its handle, plus its parent's link when the
   * parent vouched for it. Core writes in place only when the root's count
   * is exactly that: a clone, a `commit()` handle or any other holder makes
   * the write copy its paths as usual.
   */
  _inPlaceWrite(touched?: ArrayLike<boolean>): InPlaceWrite {
    return { holders: this._vouched ? 2 : 1, touched };
  }

  /** @internal Whether this view's tree could be written in place now (see `_inPlaceWrite`). */
  _ownsRoot(): boolean {
    return this._tree.rootHolders() === (this._vouched ? 2 : 1);
  }

  /** @internal A view of the same kind over another version (no pending writes). */
  abstract _respawn(tree: Tree): this;

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
    if (this._tree.disposed) {
      throw new SszError('STALE_VIEW', 'the view was disposed (child views of lists and vectors live until their parent commits; get them again)', -1, this.type.typeName);
    }
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
