/**
 * Views of lists and vectors of composite elements. Elements with inner
 * structure (containers, lists, vectors) read as child views, cached per
 * index; other elements (byte vectors such as roots, bitfields, unions) read
 * and write as values.
 *
 * An element held as half of a record pair (core wide/recordPairs.ts: a
 * list of Validators) reads as a half view (`SszType._halfView`): it reads
 * the pair in place and borrows this view's handle, so a `get` makes no
 * node and no handle — an epoch gets 16384 of 2^20 validators to write one
 * field each.
 *
 * `_flush` commits every cached child first, collects the indices whose node
 * changed plus the pending values, and writes them all with one sorted
 * `setNodesAtDepth`; written half views of a shared tree are committed pair
 * by pair instead (`SszType._pairWrite`: one new pair node, written one
 * level up), those of an owned tree rewrite their halves in place; new
 * element subtrees are hashed by the store's batched flush, level by level
 * across all changed elements at once.
 *
 * Invariants: a pending value differs from the committed one (equal writes
 * clear it); an element replaced wholesale whose root equals the old one
 * keeps the old node, and a pair whose halves' writes change no byte is not
 * written, so no-op writes keep the root node id; every child view this
 * view made — cached, written, or replaced by a later `set` — is disposed
 * at the next commit (or dispose), so none keeps a version alive, and no
 * half view outlives the committed tree whose pair it reads.
 * @module
 */
import { lengthChunk, type NodeId, type Tree } from '@ssztree/core';
import { indexOutside, SszError } from '../errors.js';
import { type SszType, TreeView } from '../type.js';
import { adoptView, sameRoot } from './children.js';
import { sortedPositions } from './packedPages.js';
import { ElementTable, type ElementTableHint, FILL_DIVISOR, FILL_MIN_LENGTH, FILL_MIN_WALKS } from './elementTable.js';
import { takeIds } from './tableIds.js';
import { ChildCache } from './childCache.js';
import { borrowScratch, type CommitScratch, pairDataView, pairSlab, releaseSlab, returnScratch } from './commitScratch.js';
import type { ElementView } from './types.js';

/**
 * The `_notify` of every child of a composite sequence view (called on the
 * child: `this` is the view). A child carries its list (`_link`), its index
 * (`_linkIndex`) and its base (`_linkBase`, its root when it last matched
 * the list's tree, -1: never) itself: no entry object per child.
 */
function childWritten(this: TreeView<unknown>): void {
  (this._link as CompositeSequenceView<unknown, unknown>)._childWritten(this);
}

function disposeView(view: TreeView<unknown>): void {
  view.dispose();
}

/** The record pairs a list's commit writes in one batch (`#commitPairs`): ascending pair indices, their record kind, their bytes back to back; `created` receives the pairs now there. */
interface PairBatch {
  readonly at: ArrayLike<number>;
  readonly kind: number;
  readonly bytes: Uint8Array;
  readonly created: NodeId[];
}

const EMPTY_SLAB = new Uint8Array(0);

export class CompositeSequenceView<E, ET = SszType<E>> extends TreeView<E[]> {
  readonly #elem: SszType<E>;
  readonly #limit: number;
  readonly #isList: boolean;
  /** Depth of the element level below the contents root. */
  readonly #depth: number;
  /** Level of the elements in the view's tree. */
  readonly #level: number;
  readonly #navigable: boolean;
  #length: number;
  #committedLength: number;
  /** Child views by index (each with its index and base on it: `childWritten`); a table kept from commit to commit once large (childCache.ts). */
  readonly #children = new ChildCache<TreeView<E>>();
  readonly #replaced = new Set<number>();
  /**
   * Children written since the last commit, in the order they were written
   * (kept even after the cache is cleared); for an index written more than
   * once the last wins (`#written`). An array, not a map by index: an epoch
   * writes 16384 children, each entry alive until the commit.
   */
  readonly #dirtyChildren: TreeView<E>[] = [];
  /** A commit began and did not finish: a retry may find a child listed twice in `#dirtyChildren`. */
  #unfinished = false;
  /** Children this commit lists for writing, whose bases move once the write is done (kept: no allocation per commit). */
  readonly #linked: TreeView<E>[] = [];
  readonly #pending = new Map<number, E>();
  /** Child views replaced since the last commit (a `set` over a cached child): disposed with the others at commit. */
  readonly #replacedViews: TreeView<E>[] = [];
  /** See the constructor's `first`. */
  readonly #first: number;
  /** Where each committed element's node is (elementTable.ts); null when the element level is the root or deeper than 53. */
  readonly #table: ElementTable | null;

  /**
   * `first` ≥ 0 makes the view one subtree of a progressive list
   * (view/progressive.ts) whose element 0 is the list's element `first`: it
   * has no length node, grows by `push` up to `limit` (the subtree's
   * capacity), and errors name elements by their index in the list.
   */
  constructor(type: SszType<E[]>, tree: Tree, elem: SszType<E>, limit: number, isList: boolean, depth: number, length: number, first = -1) {
    super(type, tree);
    this.#first = first;
    this.#elem = elem;
    this.#limit = limit;
    this.#isList = isList;
    this.#depth = depth;
    this.#level = depth + (isList ? 1 : 0);
    this.#navigable = elem._navigable;
    this.#length = this.#committedLength = length;
    this.#table = this.#level > 0 && this.#level <= 53 ? new ElementTable() : null;
  }

  get length(): number {
    return this.#length;
  }

  #check(i: number): void {
    this._live();
    if (!Number.isInteger(i) || i < 0 || i >= this.#length) throw new SszError('BAD_PATH', indexOutside(i, this.#length), -1, this.type.typeName);
  }

  /** The committed node of element i (floating when made from a pair's half). */
  #nodeAt(i: number): NodeId {
    const v = this.#entry(i);
    return v > 0 ? v - 1 : this._tree.store.getNodeAtDepth(-v - 1, 1, i & 1);
  }

  /**
   * Where committed element i is, as an element table entry (elementTable.ts):
   * id + 1 of its node, or -(id + 1) of the record pair one level up that
   * holds it as half i & 1. Never 0.
   */
  #entry(i: number): number {
    if (this.#level === 0) return this._tree.rootNode + 1;
    const table = this.#table;
    if (table === null || i >= this.#committedLength) return this._tree.getNodeAtDepth(this.#level, i) + 1;
    const v = table.get(i);
    return v !== 0 ? v : this.#lookup(table, i);
  }

  /**
   * Finds element i by a walk from the root (no floating, no per-level
   * checks) and records where it is (its table entry, returned); after
   * enough walks, fills the whole table in one walk of the element level
   * instead.
   */
  #lookup(table: ElementTable, i: number): number {
    const n = this.#committedLength;
    if (++table.walks >= Math.max(FILL_MIN_WALKS, n / FILL_DIVISOR) && n >= FILL_MIN_LENGTH && !table.filled) {
      const entries = takeIds(n);
      if (this._tree.store.collectElements(this._tree.rootNode, this.#level, n, entries)) {
        table.fill(entries);
        table.paired = entries[0]! < 0;
        return this.#entry(i);
      }
      table.walks = -Infinity; // wide leaves at the element level: no table fill
    }
    const tree = this._tree;
    // A record pair one level up holds elements 2k and 2k + 1 as its halves. Where pairs were found, the
    // walk goes to the pair first: a walk to the element level ends above it, and the second walk cost a
    // third of the two (1.6 against 2.4 µs at 2^20 validators, shared machine).
    if (table.paired) {
      const above = tree.recordAtDepth(this.#level - 1, i >>> 1);
      if (above >= 0 && tree.store.recordHalves(above) === 2) {
        table.put(i, -(above + 1), n);
        return -(above + 1);
      }
    }
    const node = tree.recordAtDepth(this.#level, i);
    if (node >= 0) {
      table.put(i, node + 1, n);
      return node + 1;
    }
    const above = tree.recordAtDepth(this.#level - 1, i >>> 1);
    if (above >= 0 && tree.store.recordHalves(above) === 2) {
      table.paired = true;
      table.put(i, -(above + 1), n);
      return -(above + 1);
    }
    return tree.getNodeAtDepth(this.#level, i) + 1;
  }

  /** Element i: a child view (containers, lists, vectors) or the value. */
  get(i: number): ElementView<ET> {
    this.#check(i);
    if (this.#navigable) {
      let child = this.#children.get(i);
      if (child === undefined) {
        const v = this.#entry(i);
        const store = this._tree.store;
        // Half of a record pair: a view holding the pair (no half record made per get; elem says if it can).
        const half = v < 0 ? this.#elem._halfView(this._tree, -v - 1, i & 1) : null;
        if (half !== null) child = half;
        else {
          const node = v > 0 ? v - 1 : store.getNodeAtDepth(-v - 1, 1, i & 1);
          child = this.#elem._view(store, node);
          child._linkBase = node;
        }
        // Nothing cached at i, so nothing written there either (every written child is cached until the
        // commit clears both): `#adopt` without its look-ups of what the child replaces.
        this.#children.set(i, child);
        child._link = this;
        child._linkIndex = i;
        child._notify = childWritten;
      }
      return child as ElementView<ET>;
    }
    if (this.#pending.has(i)) return this.#pending.get(i) as ElementView<ET>;
    return this.#elem._fromNode(this._tree.store, this.#nodeAt(i)) as ElementView<ET>;
  }

  /** Writes element i: a value, or (navigable elements) a view of the element type, which is cloned. */
  set(i: number, value: E | TreeView<E>): void {
    this.#check(i);
    this.#write(i, value);
  }

  /** Appends an element (lists only). */
  push(value: E | TreeView<E>): void {
    this._live();
    if (!this.#isList && this.#first < 0) throw new SszError('BAD_PATH', 'a vector has a fixed length', -1, this.type.typeName);
    if (this.#length >= this.#limit) throw new SszError('LIMIT_EXCEEDED', `the list is full (${this.#limit})`, -1, this.type.typeName);
    this.#write(this.#length, value, true);
  }

  #write(i: number, value: E | TreeView<E>, grow = false): void {
    const elem = this.#elem;
    const path = `${this.type.typeName}[${this.#first < 0 ? i : this.#first + i}]`;
    if (this.#navigable) {
      let child: TreeView<E>;
      if (value instanceof TreeView) {
        child = adoptView(elem, value, this._tree.store, path);
      } else {
        child = elem.toView(value, this._tree.store);
      }
      if (grow) this.#length++;
      this.#adopt(i, child);
      this.#replaced.add(i);
      child._linkListed = true;
      this.#dirtyChildren.push(child);
      this._markDirty();
      return;
    }
    if (value instanceof TreeView) throw new SszError('INVALID_VALUE', `expected a ${elem.typeName} value`, -1, path);
    elem._check(value); // SszError with the element type's path
    if (grow) {
      this.#length++;
      this._markDirty();
    }
    const committed = i < this.#committedLength ? elem._fromNode(this._tree.store, this.#nodeAt(i)) : elem.defaultValue();
    if (i < this.#committedLength && elem.equals(committed, value)) this.#pending.delete(i);
    else {
      this.#pending.set(i, elem.clone(value));
      this._markDirty();
    }
  }

  /**
   * Caches a child and routes its first write after each commit to
   * `#dirtyChildren`, so commits visit only written children. A child
   * written after a later `set` of the same index replaced it wins (last
   * write wins).
   */
  #adopt(i: number, view: TreeView<E>): void {
    // A cached child being replaced stays usable until the commit (as every child does), then is disposed
    // (with every view of `#dirtyChildren`): dropped from the map without that, its tree would hold its
    // version's nodes for good.
    const cached = this.#children.get(i);
    if (cached !== undefined && cached !== view) this.#replacedViews.push(cached);
    this.#children.set(i, view);
    // One shared function finds the list on the view (`_link`): no closure per child.
    view._link = this;
    view._linkIndex = i;
    view._linkBase = -1;
    view._notify = childWritten;
  }

  /**
   * @internal A child view turned dirty (`childWritten`): it goes to the next commit, listed once however
   * often it turns dirty (a child that commits itself is clean until its next write, which notifies again).
   */
  _childWritten(view: TreeView<unknown>): void {
    if (!view._linkListed) {
      view._linkListed = true;
      this.#dirtyChildren.push(view as TreeView<E>);
    }
    // A child a later `set` replaced, written again: its element wins (`#written`: the view written last),
    // so it is what `get` returns again — else a write through `get` would go to the losing view.
    if (this.#replaced.size > 0 && this.#replaced.has(view._linkIndex)) this.#recache(view as TreeView<E>);
    this._markDirty();
  }

  /** Makes `view` the cached child at its index again; the view cached there goes with the replaced ones. */
  #recache(view: TreeView<E>): void {
    const i = view._linkIndex;
    const cached = this.#children.get(i);
    if (cached === view) return;
    if (cached !== undefined) this.#replacedViews.push(cached);
    this.#children.set(i, view);
  }

  /**
   * The children to commit: each written index once, with the view written
   * last (in the order each index was first written). Only a `set` of a
   * navigable element (a second view at the index) or a retried commit can
   * list an index twice.
   */
  #written(): readonly TreeView<E>[] {
    const dirty = this.#dirtyChildren;
    if (this.#replaced.size === 0 && !this.#unfinished) return dirty;
    const last = new Map<number, TreeView<E>>();
    for (const view of dirty) last.set(view._linkIndex, view);
    return [...last.values()];
  }

  *[Symbol.iterator](): IterableIterator<ElementView<ET>> {
    for (let i = 0; i < this.#length; i++) yield this.get(i);
  }

  _flush(): void {
    const store = this._tree.store;
    this.#linked.length = 0;
    // Parallel arrays, sorted by index through a radix sort of positions: an epoch writes 16384 of 2^20
    // validators, and tuples sorted by a comparator were a visible part of its commit.
    const at: number[] = [];
    const written: NodeId[] = [];
    const replaced: boolean[] = [];
    // Written half views (a list element read in place from a record pair): committed by pairs below when
    // the list's tree is shared (a clone's first commit copies its paths anyway). A tree this view owns
    // rewrites each written half inside its pair in place instead (the element write below), which makes
    // no pair node: measured cheaper for a block on an owned state (bench/ab-views.mjs).
    // Their indices go to a scratch kept from commit to commit (commitScratch.ts): an epoch lists ~16k.
    let scratch: CommitScratch | null = null;
    let halves = 0;
    const dirty = this.#written();
    this.#unfinished = true;
    const byPairs = dirty.length > 0 && !this._ownsRoot();
    const replacedAny = this.#replaced.size > 0;
    try {
      for (let k = 0; k < dirty.length; k++) {
        const child = dirty[k]!;
        const i = child._linkIndex;
        if (byPairs && child._linkBase === -1 && child._pairOf() >= 0 && !(replacedAny && this.#replaced.has(i))) {
          if (scratch === null) {
            scratch = borrowScratch();
            scratch.reserve(dirty.length);
          }
          scratch.halfAt[halves] = i;
          scratch.halfK[halves++] = k;
          continue;
        }
        this.#commitChild(i, child, at, written, replaced);
      }
      for (const [i, value] of this.#pending) {
        at.push(i);
        written.push(this.#elem._toNode(value, store));
        replaced.push(true);
      }
      const pairs = scratch === null ? null : this.#commitPairs(scratch, halves, dirty, at, written, replaced);
      try {
        this.#writeBatches(at, written, replaced, pairs);
      } finally {
        if (pairs !== null) releaseSlab(pairs.bytes);
      }
    } finally {
      if (scratch !== null) returnScratch(scratch);
    }
    for (const child of this.#linked) child._linkBase = child._tree.rootNode;
    this.#linked.length = 0;
    this.#pending.clear();
    this.#replaced.clear();
    this.#dirtyChildren.length = 0;
    this.#unfinished = false;
    // Child views live until the next commit: keeping every one ever read would grow without bound,
    // and each holds a handle on its version. Get them again after a commit.
    this._disposeChildren();
    if (this.#length !== this.#committedLength) {
      if (this.#isList) this._tree.setChunk(3, lengthChunk(this.#length));
      this.#committedLength = this.#length;
    }
  }

  /**
   * The batch writes of a commit: elements `at` (their nodes `written`, any
   * order; `replaced` marks wholesale replacements, kept when their root is
   * the old one's) and whole pairs `pairs`; then the element table.
   */
  #writeBatches(at: number[], written: NodeId[], replaced: boolean[], pairs: PairBatch | null): void {
    if (at.length === 0 && pairs === null) return;
    const store = this._tree.store;
    const order = sortedPositions(at);
    const indices: number[] = [];
    const nodes: NodeId[] = [];
    for (let k = 0; k < order.length; k++) {
      const j = order[k]!;
      const i = at[j]!;
      const node = written[j]!;
      // Wholesale replacements equal to what is there keep the old node (one batched hash of all candidates).
      if (replaced[j] && sameRoot(store, node, this.#nodeAt(i))) continue;
      indices.push(i);
      nodes.push(node);
    }
    if (indices.length > 0 || pairs !== null) {
      if (this.#level === 0) this._tree.rootNode = nodes[0] as NodeId;
      else if (pairs === null) this._changedInPlace = this._tree.setNodesAtDepth(this.#level, indices, nodes, this._inPlaceWrite());
      else this._changedInPlace = this.#writeWithPairs(indices, nodes, pairs);
      const table = this.#table;
      if (table !== null) {
        // Written positions and their pair neighbours (a write into a pair makes a new pair) hold new nodes.
        const n = this.#length;
        for (const i of indices) {
          table.drop(i, n);
          table.drop(i ^ 1, n);
        }
        // A pair written whole is where both its halves are now.
        if (pairs !== null) {
          table.reserve(pairs.at.length, n);
          for (let k = 0; k < pairs.at.length; k++) table.putPair(pairs.at[k]!, -(pairs.created[k]! + 1), n);
        }
      }
    }
  }

  /** Commits child view `child` of element i and lists its node for writing when it changed. */
  #commitChild(i: number, child: TreeView<E>, at: number[], written: NodeId[], replaced: boolean[]): void {
    child._commitNow();
    const node = child._tree.rootNode;
    // Unchanged since it last matched this tree: an id compare, no tree walk.
    if (node === child._linkBase) return;
    // Its base moves once the write is done (`_flush`): a commit that throws before then writes it again when retried.
    this.#linked.push(child);
    at.push(i);
    written.push(node);
    replaced.push(this.#replaced.has(i));
  }

  /**
   * Commits written half views (elements `halfAt`, any order) pair by pair:
   * each changed pair's new bytes (`SszType._pairWrite`) go into one slab,
   * written one level up in one batch (`#writeWithPairs`), instead of a
   * record per view and a pair made from them in the write. Pairs whose
   * views cannot be so committed, or beside another write of element level
   * (`at`), are committed view by view into `at` instead. Returns the pairs
   * to write (ascending pair indices, their kind and bytes), or null.
   */
  #commitPairs(scratch: CommitScratch, halves: number, dirty: readonly TreeView<E>[], at: number[], written: NodeId[], replaced: boolean[]): PairBatch | null {
    let near: Set<number> | null = null;
    if (at.length > 0) {
      near = new Set();
      for (const i of at) near.add(i >>> 1);
    }
    const order = sortedPositions(scratch.halfAt, halves, scratch.sortA, scratch.sortB);
    const size = this.#elem._pairBytes();
    const bytes = size > 0 ? pairSlab(size * halves) : EMPTY_SLAB;
    const view = pairDataView(bytes);
    let count = 0;
    try {
      count = this.#pairBytes(scratch, halves, dirty, order, near, size, bytes, view, at, written, replaced);
    } catch (error) {
      releaseSlab(bytes);
      throw error;
    }
    if (count > 0) return { at: scratch.pairAt.subarray(0, count), kind: scratch.kind, bytes, created: [] };
    releaseSlab(bytes);
    return null;
  }

  /**
   * `#commitPairs`' loop over the `halves` half views listed in `scratch`:
   * each changed pair's bytes into `bytes`, its index into
   * `scratch.pairAt` and the pairs' record kind into `scratch.kind`;
   * returns how many pairs.
   */
  #pairBytes(
    scratch: CommitScratch,
    halves: number,
    dirty: readonly TreeView<E>[],
    order: ArrayLike<number>,
    near: Set<number> | null,
    size: number,
    bytes: Uint8Array,
    view: DataView,
    at: number[],
    written: NodeId[],
    replaced: boolean[],
  ): number {
    const halfAt = scratch.halfAt;
    const halfK = scratch.halfK;
    const pairAt = scratch.pairAt;
    let count = 0;
    let kind = -1;
    for (let k = 0; k < halves; ) {
      const i = halfAt[order[k]!]!;
      const p = i >>> 1;
      let left: TreeView<E> | null = null;
      let right: TreeView<E> | null = null;
      if ((i & 1) === 0) left = dirty[halfK[order[k++]!]!]!;
      if (k < halves && halfAt[order[k]!]! === 2 * p + 1) right = dirty[halfK[order[k++]!]!]!;
      const pair = (left ?? right)!._pairOf();
      // One batch holds one record kind: a pair of another (never seen: one list, one layout) goes view by view.
      const fits = size > 0 && (kind < 0 || (pair & 15) === kind) && (near === null || !near.has(p));
      const changed = fits ? this.#elem._pairWrite(left, right, bytes, view, count * size) : -1;
      if (changed === 0) continue; // no byte changed
      if (changed > 0) {
        pairAt[count++] = p;
        kind = pair & 15;
        continue;
      }
      for (const [j, v] of [[2 * p, left], [2 * p + 1, right]] as const) {
        if (v !== null) this.#commitChild(j, v, at, written, replaced);
      }
    }
    scratch.kind = kind;
    return count;
  }

  /**
   * Writes whole pairs `pairs` (one level up, from their bytes), then
   * elements `indices` (ascending, none in a written pair): two batch
   * writes, as only those reach into a pair. True when the root was
   * rewritten in place (the same root id, new contents).
   */
  #writeWithPairs(indices: readonly number[], nodes: readonly NodeId[], pairs: PairBatch): boolean {
    const tree = this._tree;
    const before = tree.rootNode;
    let inPlace = tree.setRecordsAtDepth(this.#level - 1, pairs.at, pairs.kind, pairs.bytes, 0, pairs.created, this._inPlaceWrite());
    if (indices.length > 0) inPlace = tree.setNodesAtDepth(this.#level, indices, nodes, this._inPlaceWrite()) || inPlace;
    return inPlace && tree.rootNode === before;
  }

  override _disposeChildren(): void {
    this.#children.forEach(disposeView);
    for (const child of this.#dirtyChildren) child.dispose();
    for (const view of this.#replacedViews) view.dispose();
    this.#children.clear();
    this.#replacedViews.length = 0;
  }

  /** The element table (its base frozen, shared; its overlay copied): a clone's gets walk only to elements no version before it found. */
  override _inheritance(): unknown {
    return this.#table === null || this._dirty ? undefined : this.#table.hint(this._tree.rootNode);
  }

  override _inherit(from: unknown): void {
    const hint = from as ElementTableHint;
    // Same root node, both held: the same elements (a view's root changes only through its own flush).
    if (this.#table !== null && this.#table.walks === 0 && !this.#table.filled && hint.root === this._tree.rootNode) this.#table.inherit(hint);
  }

  _respawn(tree: Tree): this {
    const view = new CompositeSequenceView<E, ET>(this.type, tree, this.#elem, this.#limit, this.#isList, this.#depth, this.#committedLength, this.#first) as this;
    const hint = this._inheritance();
    if (hint !== undefined) view._inherit(hint);
    return view;
  }
}
