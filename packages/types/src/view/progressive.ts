/**
 * Views of progressive lists: one child view per subtree of the spine (1,
 * 4, 16, … chunks), each the view the binary lists use — packed pages of
 * uints for basic elements (packed.ts), records, pairs and element views
 * for composites (composite.ts) — made in its "segment" form: no length
 * node of its own, growing by `push` up to the subtree's capacity, errors
 * naming elements by their index in the list. Everything those views do —
 * pages as wide leaves, the page table, fused owned passes, bulk page
 * rebuilds, record pairs — works inside each subtree unchanged.
 *
 * `get`/`set` go to the subtree an index falls in; `push` past the last
 * subtree makes the next one over the zero subtree. A commit commits the
 * dirty subtrees first (each vouched for when this view owns its root and
 * links the subtree by single links, so it may write in place), then writes
 * their new roots, the spine grown by any new subtrees, and the length leaf,
 * in ONE batch of positions of several depths (core `setNodesAt`): the
 * subtrees already there are never rebuilt.
 *
 * Invariants: subtree k's view covers elements [perChunk·(4^k − 1)/3, …) and
 * holds exactly the list's elements there; the committed tree always has the
 * spine its length needs; subtree views live as long as this view (they are
 * its state, as a container's field views are) and are disposed with it.
 * @module
 */
import { lengthChunk, type NodeId, type NodeStore, type Tree } from '@ssztree/core';
import { indexOutside, SszError } from '../errors.js';
import { spineEndPosition, subtreeCapacity, subtreeOf, subtreePosition, subtreeStart } from '../progressive.js';
import { spineOver, subtreesFor } from '../tree/progressive.js';
import { type SszType, TreeView } from '../type.js';

/** The view of one subtree (a packed or composite sequence view in its segment form). */
export interface SegmentView<E, W> extends TreeView<unknown> {
  readonly length: number;
  get(i: number): E;
  set(i: number, value: W): void;
  push(value: W): void;
  [Symbol.iterator](): IterableIterator<E>;
}

/** What a progressive list view asks of its schema: elements per chunk and the view of subtree k. */
export interface ProgressiveListSchema<A, E, W> extends SszType<A> {
  readonly _perChunk: number;
  /** The segment view of subtree k over `node` (held by a new handle), of which the list holds `used` elements. */
  _segmentView(store: NodeStore, node: NodeId, k: number, used: number): SegmentView<E, W>;
}

/** What a progressive list view hands to its clone: its segments' hints, valid for `root`. */
interface SegmentHints {
  readonly root: NodeId;
  readonly hints: unknown[];
}

/** Subtree k's root below a list's root: the contents (left), then the spine position. */
function segmentDepth(k: number): number {
  return subtreePosition(k).depth + 1;
}
function segmentIndex(k: number): number {
  return subtreePosition(k).index;
}

/** `E` is what `get` returns (a value or a child view), `W` what `set` and `push` take. */
export class ProgressiveListView<A, E, W = E> extends TreeView<A> {
  readonly #schema: ProgressiveListSchema<A, E, W>;
  readonly #perChunk: number;
  #length: number;
  #committedLength: number;
  /** Subtrees the committed tree has. */
  #committedSegments: number;
  readonly #segments: (SegmentView<E, W> | undefined)[] = [];
  /** Per subtree: its root when it last matched this view's tree (-1: not in the tree yet). */
  readonly #bases: NodeId[] = [];
  /** Subtrees written since the last commit. */
  readonly #dirty = new Set<number>();
  /** The last subtree an index fell in, and its element range (sequential reads skip the lookup). */
  #lastK = -1;
  #lastFirst = 0;
  #lastEnd = 0;
  /**
   * The last subtree's view and the end of its range below the length:
   * `get`/`set` of an index in [#lastFirst, #lastLimit) go straight to it.
   * Kept tiny so the caller's loop inlines through to the segment's own
   * `set`: with the full lookup in between, V8 stopped inlining there and
   * an epoch's 2^20 balance writes materialized twice the BigInts a binary
   * list's do (88 vs 42 MB of young garbage per epoch, measured with the
   * heap sampler), and their scavenges landed in the commits.
   */
  #lastSeg: SegmentView<E, W> | undefined = undefined;
  #lastLimit = 0;
  /**
   * Per subtree: what the segment view of the version this view was cloned
   * from handed on (a page or element table, `_inheritance`), taken when the
   * segment is made; the segment checks it is of its own root. Without it
   * every block's clone made its subtrees' views with empty tables and
   * walked the spine and the subtree to every page and element it read.
   */
  #hints: unknown[] | null = null;

  constructor(type: ProgressiveListSchema<A, E, W>, tree: Tree, length: number) {
    super(type, tree);
    this.#schema = type;
    this.#perChunk = type._perChunk;
    this.#length = this.#committedLength = length;
    this.#committedSegments = subtreesFor(length, this.#perChunk);
  }

  get length(): number {
    return this.#length;
  }

  #check(i: number): void {
    this._live();
    if (!Number.isInteger(i) || i < 0 || i >= this.#length) throw new SszError('BAD_PATH', indexOutside(i, this.#length), -1, this.type.typeName);
  }

  /** Points the lookup cache at the subtree holding element i. */
  #locate(i: number): void {
    if (i >= this.#lastFirst && i < this.#lastEnd) return;
    const k = subtreeOf(Math.floor(i / this.#perChunk));
    this.#lastSeg = undefined;
    this.#lastK = k;
    this.#lastFirst = this.#perChunk * subtreeStart(k);
    this.#lastEnd = this.#lastFirst + this.#perChunk * subtreeCapacity(k);
  }

  /** Subtree k's view, made on first use (over the zero subtree past the committed spine). */
  #segment(k: number): SegmentView<E, W> {
    let seg = this.#segments[k];
    if (seg === undefined) {
      const store = this._tree.store;
      const inTree = k < this.#committedSegments;
      const node = inTree ? this._tree.getNodeAtDepth(segmentDepth(k), segmentIndex(k)) : store.zero(2 * k);
      const first = this.#perChunk * subtreeStart(k);
      const used = Math.max(0, Math.min(this.#perChunk * subtreeCapacity(k), this.#committedLength - first));
      seg = this.#schema._segmentView(store, node, k, used);
      const hint = inTree ? this.#hints?.[k] : undefined;
      if (hint !== undefined) {
        this.#hints![k] = undefined;
        seg._inherit(hint);
      }
      seg._notify = () => {
        this.#dirty.add(k);
        this._markDirty();
      };
      this.#segments[k] = seg;
      this.#bases[k] = inTree ? node : -1;
    }
    return seg;
  }

  /** The view of the subtree holding element i (checked), remembered for the next index. */
  #segmentFor(i: number): SegmentView<E, W> {
    this.#check(i);
    this.#locate(i);
    const seg = this.#segment(this.#lastK);
    this.#lastSeg = seg;
    this.#lastLimit = Math.min(this.#lastEnd, this.#length);
    return seg;
  }

  /** Element i: a value (basic elements, byte vectors, …) or a child view (containers, lists, vectors). */
  get(i: number): E {
    const seg = this.#lastSeg;
    if (seg !== undefined && Number.isInteger(i) && i >= this.#lastFirst && i < this.#lastLimit) return seg.get(i - this.#lastFirst);
    return this.#segmentFor(i).get(i - this.#lastFirst);
  }

  /** Writes element i (navigable elements also take a view of the element type, which is cloned). */
  set(i: number, value: W): void {
    const seg = this.#lastSeg;
    if (seg !== undefined && Number.isInteger(i) && i >= this.#lastFirst && i < this.#lastLimit) seg.set(i - this.#lastFirst, value);
    else this.#segmentFor(i).set(i - this.#lastFirst, value);
  }

  /** Appends an element; past the last subtree, the next one (4× larger) is started. */
  push(value: W): void {
    this._live();
    const i = this.#length;
    this.#locate(i);
    const seg = this.#segment(this.#lastK);
    seg.push(value);
    this.#length++;
    this.#lastSeg = seg;
    this.#lastLimit = Math.min(this.#lastEnd, this.#length);
    this._markDirty();
  }

  *[Symbol.iterator](): IterableIterator<E> {
    for (let k = 0; k < subtreesFor(this.#length, this.#perChunk); k++) yield* this.#segment(k);
  }

  _flush(): void {
    if (this.#dirty.size === 0 && this.#length === this.#committedLength) return;
    const store = this._tree.store;
    const owned = this._ownsRoot();
    const depths: number[] = [];
    const indices: number[] = [];
    const nodes: NodeId[] = [];
    const touched: boolean[] = [];
    const ks = [...this.#dirty].sort((a, b) => a - b);
    for (const k of ks) {
      if (k >= this.#committedSegments) continue;
      const seg = this.#segments[k] as SegmentView<E, W>;
      // Owning its root, this view vouches for a subtree it links by single links: it may write in place.
      if (owned && seg._dirty) seg._vouched = this._tree.soleNodeAtDepth(segmentDepth(k), segmentIndex(k)) === seg._tree.rootNode;
      try {
        seg._commitNow();
      } finally {
        seg._vouched = false;
      }
      const inPlace = seg._changedInPlace;
      seg._changedInPlace = false;
      const node = seg._tree.rootNode;
      if (node === this.#bases[k] && !inPlace) continue;
      this.#bases[k] = node;
      depths.push(segmentDepth(k));
      indices.push(segmentIndex(k));
      nodes.push(node);
      touched.push(inPlace);
    }
    const needed = subtreesFor(this.#length, this.#perChunk);
    if (needed > this.#committedSegments) {
      // New subtrees: the spine's zero end becomes the spine over them (the others are not rebuilt).
      const roots: NodeId[] = [];
      for (let k = this.#committedSegments; k < needed; k++) {
        const seg = this.#segment(k);
        seg._commitNow();
        seg._changedInPlace = false;
        this.#bases[k] = seg._tree.rootNode;
        roots.push(seg._tree.rootNode);
      }
      const end = spineEndPosition(this.#committedSegments);
      depths.push(end.depth + 1);
      indices.push(end.index);
      nodes.push(spineOver(store, roots));
      touched.push(false);
    }
    if (this.#length !== this.#committedLength) {
      depths.push(1);
      indices.push(1);
      nodes.push(store.leaf(lengthChunk(this.#length)));
      touched.push(false);
    }
    if (nodes.length > 0) this._changedInPlace = this._tree.setNodesAt(depths, indices, nodes, this._inPlaceWrite(touched));
    this.#committedLength = this.#length;
    this.#committedSegments = needed;
    this.#dirty.clear();
  }

  override _disposeChildren(): void {
    for (const seg of this.#segments) seg?.dispose();
    this.#segments.length = 0;
    this.#bases.length = 0;
    this.#lastK = -1;
    this.#lastFirst = this.#lastEnd = this.#lastLimit = 0;
    this.#lastSeg = undefined;
  }

  /** The segments' own hints (page and element tables), for a clone's segments of the same roots. */
  override _inheritance(): unknown {
    if (this._dirty) return undefined;
    let hints: unknown[] | null = null;
    for (let k = 0; k < this.#segments.length; k++) {
      const seg = this.#segments[k];
      const hint = seg === undefined || seg._dirty ? undefined : seg._inheritance();
      if (hint !== undefined) (hints ??= new Array<unknown>(this.#segments.length).fill(undefined))[k] = hint;
    }
    return hints === null ? undefined : ({ root: this._tree.rootNode, hints } satisfies SegmentHints);
  }

  override _inherit(from: unknown): void {
    const hint = from as SegmentHints;
    // Same root node, both held: the same subtrees (each segment checks its own root again when it takes its hint).
    if (this.#hints === null && this.#segments.length === 0 && hint.root === this._tree.rootNode) this.#hints = hint.hints;
  }

  _respawn(tree: Tree): this {
    const view = new ProgressiveListView<A, E, W>(this.#schema, tree, this.#committedLength) as this;
    const hint = this._inheritance();
    if (hint !== undefined) view._inherit(hint);
    return view;
  }
}
