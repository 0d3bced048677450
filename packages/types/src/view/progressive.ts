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
 * Segments start with the tables the view was handed (`_inherit`): those of
 * the version it was cloned from, or those a build from bytes made for each
 * subtree (schema/progressiveList.ts), so the first blocks after a state
 * load or a clone read pages and elements without walking each subtree.
 *
 * Invariants: subtree k's view covers elements [perChunk·(4^k − 1)/3, …) and
 * holds exactly the list's elements there; the committed tree always has the
 * spine its length needs; subtree views live as long as this view (they are
 * its state, as a container's field views are) and are disposed with it.
 * @module
 */
import { lengthChunk, type NodeId, type NodeStore, type Tree } from '@ssztree/core';
import { indexOutside, SszError } from '../errors.js';
import { MAX_PROGRESSIVE_CHUNKS, spineEndPosition, subtreeCapacity, subtreeCount, subtreeOf, subtreePosition, subtreeStart } from '../progressive.js';
import { spineOver, subtreesFor } from '../tree/progressive.js';
import { type SszType, TreeView } from '../type.js';
import { passOn, SegmentHints } from './passedHints.js';

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


/**
 * Indices below this find their subtree with 32-bit arithmetic: 3c + 1 of their chunk c stays below
 * 2^32 (`Math.clz32`). Larger ones (lists of composites past 2^30 elements) go through `subtreeOf`.
 */
const FAST_INDEX_END = 2 ** 30;

/** Subtrees a progressive tree has at most. */
const SUBTREES = subtreeCount(MAX_PROGRESSIVE_CHUNKS);

/** Element starts of the subtrees, by elements per chunk (few distinct values: 1, 2, 4, …, 32). */
const FIRSTS = new Map<number, Float64Array>();
function firstsFor(perChunk: number): Float64Array {
  let firsts = FIRSTS.get(perChunk);
  if (firsts === undefined) {
    firsts = new Float64Array(SUBTREES);
    for (let k = 0; k < SUBTREES; k++) firsts[k] = perChunk * subtreeStart(k);
    FIRSTS.set(perChunk, firsts);
  }
  return firsts;
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
  /** Subtrees written since the last commit: bit k for subtree k (a tree has at most 25, `SUBTREES`). */
  #dirty = 0;
  /**
   * The commit's batch of positions (subtree roots, the spine's new end, the length leaf), kept
   * between commits: a block's commit then allocates nothing of its own here. Never reentered: a
   * commit of this view commits its segments (other views) before it fills these.
   */
  readonly #depths: number[] = [];
  readonly #indices: number[] = [];
  readonly #nodes: NodeId[] = [];
  readonly #touched: boolean[] = [];
  /** The subtrees in this commit's batch, whose bases are moved once it is written. */
  readonly #linked: number[] = [];
  /** Subtrees changed in place by a commit that threw before it linked them (bit k: subtree k). */
  #unlinkedInPlace = 0;
  /** log2 of elements per chunk (elements are 1 to 32 bytes, powers of two; composites are 1 a chunk). */
  readonly #shift: number;
  /** First element of each subtree k: perChunk·(4^k − 1)/3 (shared by the views of one perChunk). */
  readonly #firsts: Float64Array;
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
    // `set`/`get` find subtrees by shifting: SSZ basic elements are 1 to 32 bytes, powers of two.
    if ((this.#perChunk & (this.#perChunk - 1)) !== 0) throw new SszError('INVALID_VALUE', `${this.#perChunk} elements per chunk`, -1, type.typeName);
    this.#shift = 31 - Math.clz32(this.#perChunk);
    this.#firsts = firstsFor(this.#perChunk);
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

  /** The subtree holding element i (0 ≤ i < 2^30 here; past that, `subtreeOf`): see `set`. */
  #subtreeOfElement(i: number): number {
    return i < FAST_INDEX_END ? (31 - Math.clz32(3 * (i >>> this.#shift) + 1)) >>> 1 : subtreeOf(Math.floor(i / this.#perChunk));
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
      const bit = 1 << k;
      seg._notify = () => {
        this.#dirty |= bit;
        this._markDirty();
      };
      this.#segments[k] = seg;
      this.#bases[k] = inTree ? node : -1;
    }
    return seg;
  }

  /** The subtree holding element i (checked), its view made on first use. */
  #subtreeFor(i: number): number {
    this.#check(i);
    const k = this.#subtreeOfElement(i);
    this.#segment(k);
    return k;
  }

  /** Element i: a value (basic elements, byte vectors, …) or a child view (containers, lists, vectors). */
  get(i: number): E {
    // See `set`: the subtree by arithmetic, then its view's own `get`.
    if (typeof i === 'number' && (i | 0) === i && i >= 0 && i < this.#length && i < FAST_INDEX_END) {
      const k = (31 - Math.clz32(3 * (i >>> this.#shift) + 1)) >>> 1;
      const seg = this.#segments[k];
      if (seg !== undefined) return seg.get(i - this.#firsts[k]!);
    }
    const k = this.#subtreeFor(i);
    return this.#segments[k]!.get(i - this.#firsts[k]!);
  }

  /**
   * Writes element i (navigable elements also take a view of the element type, which is cloned).
   *
   * The common case — an index below 2^30 in range, its subtree's view made — finds the subtree by
   * arithmetic (chunk c is in subtree k when 4^k ≤ 3c + 1 < 4^(k+1): half the bit length of 3c + 1)
   * and calls that view's `set` with no other work, so the caller's loop inlines through to the
   * segment's dirty-page store. A cache of the last subtree missed on most random indices (a state's
   * 2^20 flags span subtrees 0–8) and the miss path (check, `subtreeOf`, range arithmetic) cost a
   * uint8 `set` on a dirty page 63–65 ns against a binary list's 8 ns; this path takes 12–14 ns
   * (bench/progressive-set.ts, 2^20 elements, 2^15 random indices, load ~8).
   * A disposed view has no segment views, so it always takes the checked path.
   */
  set(i: number, value: W): void {
    if (typeof i === 'number' && (i | 0) === i && i >= 0 && i < this.#length && i < FAST_INDEX_END) {
      const k = (31 - Math.clz32(3 * (i >>> this.#shift) + 1)) >>> 1;
      const seg = this.#segments[k];
      if (seg !== undefined) {
        seg.set(i - this.#firsts[k]!, value);
        return;
      }
    }
    const k = this.#subtreeFor(i);
    this.#segments[k]!.set(i - this.#firsts[k]!, value);
  }

  /** Appends an element; past the last subtree, the next one (4× larger) is started. */
  push(value: W): void {
    this._live();
    const i = this.#length;
    this.#segment(this.#subtreeOfElement(i)).push(value);
    this.#length++;
    this._markDirty();
  }

  *[Symbol.iterator](): IterableIterator<E> {
    for (let k = 0; k < subtreesFor(this.#length, this.#perChunk); k++) yield* this.#segment(k);
  }

  _flush(): void {
    const dirty = this.#dirty;
    if (dirty === 0 && this.#length === this.#committedLength) return;
    const store = this._tree.store;
    const owned = this._ownsRoot();
    const depths = this.#depths;
    const indices = this.#indices;
    const nodes = this.#nodes;
    const touched = this.#touched;
    depths.length = indices.length = nodes.length = touched.length = 0;
    // Several dirty subtrees are separate parts of this commit whose paths share nothing in the flush:
    // each one's in-place batch is then hashed as it is written, however small (core
    // `InPlaceWrite.hashNow`). A block's 1024 balances and 128 validators otherwise left ~1 300 branches,
    // 85 pages and 52 record pairs of the smaller subtrees to the root's flush: 0.47 of its 4.6 ms commit
    // + root, against 0.06 of 4.25 ms so (profile-progressive, 6 alternated process pairs). One dirty
    // subtree commits as a binary list does: a commit of one write, repeated before one root, costs
    // 10–14 µs walked and left to the shared flush, 24–27 µs hashed at each commit (200 commits of one
    // random write to 2^20 uint64, then the root; load ~6).
    const linked = this.#linked;
    linked.length = 0;
    const inTree = dirty & ((1 << this.#committedSegments) - 1);
    const hashNow = (inTree & (inTree - 1)) !== 0;
    // Dirty subtrees in ascending order (positions run left to right down the spine), by their bits.
    for (let rest = dirty; rest !== 0; rest &= rest - 1) {
      const k = 31 - Math.clz32(rest & -rest);
      if (k >= this.#committedSegments) break;
      const seg = this.#segments[k] as SegmentView<E, W>;
      // Owning its root, this view vouches for a subtree it links by single links: it may write in place.
      if (owned && seg._dirty) seg._vouched = this._tree.soleNodeAtDepth(segmentDepth(k), segmentIndex(k)) === seg._tree.rootNode;
      seg._hashNow = hashNow;
      try {
        seg._commitNow();
      } finally {
        seg._vouched = false;
        seg._hashNow = false;
      }
      // Its base moves, and its in-place mark is dropped, only once the batch below is written: a commit
      // that throws later (another subtree's, or the batch) writes this subtree again when retried (the
      // retry's commit of the subtree itself is a no-op and reports nothing changed in place).
      const bit = 1 << k;
      const inPlace = seg._changedInPlace || (this.#unlinkedInPlace & bit) !== 0;
      seg._changedInPlace = false;
      const node = seg._tree.rootNode;
      if (node === this.#bases[k] && !inPlace) continue;
      if (inPlace) this.#unlinkedInPlace |= bit;
      linked.push(k);
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
    for (const k of linked) this.#bases[k] = (this.#segments[k] as SegmentView<E, W>)._tree.rootNode;
    this.#unlinkedInPlace = 0;
    // Ids not held here between commits (the tree holds what was written).
    nodes.length = 0;
    this.#committedLength = this.#length;
    this.#committedSegments = needed;
    this.#dirty = 0;
  }

  override _disposeChildren(): void {
    for (const seg of this.#segments) seg?.dispose();
    this.#segments.length = 0;
    this.#bases.length = 0;
  }

  /**
   * The segments' own hints (page and element tables), for a clone's segments of the same roots; for a
   * subtree with no segment, what this view was handed if it may reach several views (passedHints.ts
   * `passOn`: a build's table, or a clone's page table made shared, which each taker copies; a segment's
   * own hint is made for one view, which writes into it). A state loaded from bytes and cloned for each
   * block, whose lists each block touches in a few subtrees, so keeps the build's tables for the rest,
   * and a list no block reads (an epoch's inactivity scores) keeps the tables the last epoch left.
   */
  override _inheritance(): unknown {
    if (this._dirty) return undefined;
    const untaken = this.#hints;
    const n = Math.max(this.#segments.length, untaken?.length ?? 0);
    let hints: unknown[] | null = null;
    for (let k = 0; k < n; k++) {
      const seg = this.#segments[k];
      let hint: unknown;
      if (seg !== undefined) hint = seg._dirty ? undefined : seg._inheritance();
      else if (untaken !== null) {
        // A subtree this version never read passes on what it was handed (a build's table, or a clone's page
        // table made shared here too: the segment that takes it later copies it).
        hint = passOn(untaken, k);
      }
      if (hint !== undefined) (hints ??= new Array<unknown>(n).fill(undefined))[k] = hint;
    }
    return hints === null ? undefined : new SegmentHints(this._tree.rootNode, hints);
  }

  override _inherit(from: unknown): void {
    const hint = from as SegmentHints;
    // Same root node, both held: the same subtrees (each segment checks its own root again when it takes its hint).
    // Copied: a segment takes its hint out of this view's array, and a build's array may reach several views.
    if (this.#hints === null && this.#segments.length === 0 && hint.root === this._tree.rootNode) this.#hints = hint.hints.slice();
  }

  _respawn(tree: Tree): this {
    const view = new ProgressiveListView<A, E, W>(this.#schema, tree, this.#committedLength) as this;
    const hint = this._inheritance();
    if (hint !== undefined) view._inherit(hint);
    return view;
  }
}
