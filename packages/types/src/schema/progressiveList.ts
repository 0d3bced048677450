/**
 * `progressiveList(T)` (ProgressiveList[T], EIP-7916): a list without a
 * limit whose root is `mix_in_length(merkleize_progressive(chunks), len)`.
 * Lists of uints/booleans are packed (value: the element type's array form,
 * as `list` gives it); lists of composites are plain arrays of element
 * values, whose roots are computed in batches through the element type's
 * `_rootsInto`. Serialization is a list's.
 *
 * The tree is the length mix-in over the progressive spine (progressive.ts):
 * subtree k holds chunks [(4^k − 1)/3, …) of the packed values, or elements
 * of that range for composites; containers stored as records are built
 * subtree by subtree as record trees (pairs among them).
 *
 * Invariants as for every schema: the decoder is strict (only `SszError`,
 * with path and offset), and the tree, the value root and the serialization
 * agree byte for byte; a tree read back must have the spine its length needs.
 * @module
 */
import { defaultStore, type NodeId, type NodeStore, type RecordRuns, Tree } from '@ssztree/core';
import { SszError } from '../errors.js';
import { mixInLengthInto } from '../merkle.js';
import { MAX_SERIALIZED_SIZE, merkleizeProgressiveInto, subtreeCapacity, subtreeCount, subtreeStart } from '../progressive.js';
import { SszType, type AnyType, type ValueOf } from '../type.js';
import type { BasicArray, BasicType } from '../basicType.js';
import { elementNodes, elementValues } from '../tree/elements.js';
import { readNodes } from '../tree/nodes.js';
import { chunksTree, copyProgressiveBytes, nodesTree, progressiveChunks, progressiveElementStep, progressiveNodes, readSpine, spineOver, subtreeElements } from '../tree/progressive.js';
import { LENGTH_STEP, type PathSegment, type PathStep } from '../tree/proofs.js';
import { compositesTreeSize, writeComposites } from '../tree/write.js';
import { CompositeListBase, PackedListBase, type RecordTreeBuilder } from './listBase.js';
import { ListBasicType, ListCompositeType } from './list.js';
import { convertComposite, convertPacked } from './progressiveConvert.js';
import { shapeKey } from '../shape.js';
import { collectBuilt, collectingBuilt, recordBuilt, takeBuilt, takeBuiltTable } from '../view/built.js';
import { CompositeSequenceView } from '../view/composite.js';
import { placedHint, placedRecords } from '../view/elementTable.js';
import { PackedSequenceView } from '../view/packed.js';
import { packedContents, packedShape, type PackedShape } from '../view/packedPages.js';
import { ProgressiveListView } from '../view/progressive.js';
import { SegmentHints } from '../view/passedHints.js';
import type { ElementView } from '../view/types.js';
import type { TreeView } from '../type.js';

/** How list errors name the bound of progressive lists: what a serialization can hold. */
function boundOf(maxLength: number): { count: number; phrase: string } {
  return { count: maxLength, phrase: `the ${maxLength} a serialization of at most ${MAX_SERIALIZED_SIZE} bytes can hold` };
}

/**
 * During a build from bytes (view/built.ts), records under the list's node
 * `root` the tables the build made for its subtrees (`hints[k]`: subtree
 * k's page table or element runs), which the list's view hands to its
 * segments as it makes them: the first blocks after a state load then read
 * pages and elements without walking from each subtree's root, as a binary
 * list's view does.
 */
function recordSegmentTables(root: NodeId, hints: unknown[] | null): void {
  if (hints !== null) recordBuilt(root, new SegmentHints(root, hints));
}

/**
 * Subtree `node`'s element-runs hint, marked as a build's table (read-only:
 * a list view hands it on to clones while it has not made that subtree's
 * segment, view/progressive.ts `_inheritance`) and not left in the registry
 * (the list's own entry holds it).
 */
function builtElementHint(node: NodeId, hint: object): object {
  recordBuilt(node, hint);
  takeBuilt(node);
  return hint;
}

/** ProgressiveList of uints or booleans, packed into chunks. */
export class ProgressiveListBasicType<V, A extends BasicArray<V>> extends PackedListBase<V, A> {
  readonly typeName: string;
  readonly maxSize = MAX_SERIALIZED_SIZE;
  /** The most elements a serialization can hold (2^32 − 1 bytes of them). */
  readonly maxLength: number;
  /** @internal Elements per chunk. */
  readonly _perChunk: number;
  override readonly _navigable = true;
  /** Page geometry of each subtree (subtree k: 4^k chunks, pages of up to 8). */
  private readonly shapes: PackedShape[] = [];

  constructor(elementType: BasicType<V, A>) {
    const maxLength = Math.floor(MAX_SERIALIZED_SIZE / elementType.byteLength);
    super(elementType, boundOf(maxLength));
    this.typeName = `ProgressiveList[${elementType.typeName}]`;
    this.maxLength = maxLength;
    this._perChunk = 32 / elementType.byteLength;
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `ProgressiveList[${shapeKey(this.elementType as SszType<unknown>)}]`;
  }

  _rootInto(value: A, out: Uint8Array, offset: number): void {
    this._checkValue(value, -1);
    const chunks = this.elementType._pack(value);
    merkleizeProgressiveInto(chunks, chunks.length / 32, out, offset);
    mixInLengthInto(out, offset, value.length);
  }
  _toNode(value: A, store: NodeStore): NodeId {
    this._checkValue(value, -1);
    return store.withLength(chunksTree(store, this.elementType._pack(value)), value.length);
  }
  _readContents(store: NodeStore, contents: NodeId, count: number): Uint8Array {
    return progressiveChunks(store, contents, count);
  }
  private shape(k: number): PackedShape {
    return (this.shapes[k] ??= packedShape(subtreeCapacity(k), false));
  }
  /** The view subtree: each subtree's chunks as wide-leaf pages (as a binary list's), under the spine and the length. */
  override _viewNode(value: A, store: NodeStore): NodeId {
    this._checkValue(value, -1);
    return this._viewNodeOfChunks(store, this.elementType._pack(value), value.length);
  }
  /** @internal The view subtree of `length` elements packed in `chunks`: each subtree's pages, the spine, the length. */
  _viewNodeOfChunks(store: NodeStore, chunks: Uint8Array, length: number): NodeId {
    const count = chunks.length / 32;
    const m = subtreeCount(count);
    const subtrees: NodeId[] = [];
    // During a build from bytes each subtree's page table (recorded by `packedContents` under its node) becomes a hint of the list.
    let hints: unknown[] | null = null;
    for (let k = 0; k < m; k++) {
      const start = subtreeStart(k);
      const node = packedContents(store, chunks.subarray(32 * start, 32 * Math.min(count, start + subtreeCapacity(k))), this.shape(k));
      subtrees.push(node);
      const table = collectingBuilt() ? takeBuilt(node) : undefined;
      if (table !== undefined) (hints ??= new Array<unknown>(m).fill(undefined))[k] = table;
    }
    const root = store.withLength(spineOver(store, subtrees), length);
    recordSegmentTables(root, hints);
    return root;
  }
  /**
   * A view of this type holding what `view`, a view of `List[T, N]` of the
   * same element type, holds: what a fork upgrade does to a state's list.
   * The values' chunks are copied out in one read and built into this
   * type's pages; only inner nodes are hashed (schema/progressiveConvert.ts).
   * The source view is committed first and left as it is.
   */
  fromBinaryView(view: PackedSequenceView<V, A>): ProgressiveListView<A, V> {
    return convertPacked(view, this as never, (t) => t instanceof ListBasicType) as ProgressiveListView<A, V>;
  }
  /** The other way: a view of `listType` (`List[T, N]`, N at least the length) holding what `view`, a view of this type, holds. */
  toBinaryView(view: ProgressiveListView<A, V>, listType: ListBasicType<V, A>): PackedSequenceView<V, A> {
    if (!(listType instanceof ListBasicType)) throw new SszError('INVALID_VALUE', 'toBinaryView needs a list(...) schema of basic values', -1, this.typeName);
    return convertPacked(view, listType as never, (t) => t instanceof ProgressiveListBasicType) as PackedSequenceView<V, A>;
  }
  /** @internal Subtree k's view: a packed view of its pages, in its segment form. */
  _segmentView(store: NodeStore, node: NodeId, k: number, used: number): PackedSequenceView<V, A> {
    return new PackedSequenceView(this, new Tree(node, store), this.elementType, this._perChunk * subtreeCapacity(k), false, this.shape(k), used, true);
  }
  override _view(store: NodeStore, node: NodeId, tree?: Tree): ProgressiveListView<A, V> {
    const t = tree ?? new Tree(node, store);
    return new ProgressiveListView<A, V>(this as never, t, this._lengthOf(store, t.rootNode).length);
  }
  override toView(value: A, store: NodeStore = defaultStore): ProgressiveListView<A, V> {
    return super.toView(value, store) as ProgressiveListView<A, V>;
  }
  override deserializeToView(bytes: Uint8Array, store: NodeStore = defaultStore): ProgressiveListView<A, V> {
    return collectBuilt(() => takeBuiltTable(super.deserializeToView(bytes, store) as ProgressiveListView<A, V>));
  }
  override viewOf(tree: Tree): ProgressiveListView<A, V> {
    return super.viewOf(tree) as ProgressiveListView<A, V>;
  }
  _copyContents(store: NodeStore, contents: NodeId, bytes: number, out: Uint8Array, offset: number): void {
    copyProgressiveBytes(store, contents, bytes, out, offset);
  }
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    return progressiveElementStep(segment, this.maxLength, this._perChunk, null);
  }
}

/** ProgressiveList of composites: a plain array of element values. `ET` is the element schema's own type (it types the element views). */
export class ProgressiveListCompositeType<V, ET = SszType<V>> extends CompositeListBase<V> {
  declare readonly _elementSchema?: ET;
  readonly typeName: string;
  readonly maxSize = MAX_SERIALIZED_SIZE;
  /** The most elements a serialization can hold (2^32 − 1 bytes of them). */
  readonly maxLength: number;
  /** @internal Elements per chunk: one root each. */
  readonly _perChunk = 1;
  override readonly _navigable = true;

  constructor(elementType: SszType<V>) {
    const maxLength = Math.floor(MAX_SERIALIZED_SIZE / (elementType.fixedSize ?? 4));
    super(elementType, boundOf(maxLength));
    this.typeName = `ProgressiveList[${elementType.typeName}]`;
    this.maxLength = maxLength;
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `ProgressiveList[${shapeKey(this.elementType as SszType<unknown>)}]`;
  }

  _rootInto(value: V[], out: Uint8Array, offset: number): void {
    this._checkValue(value, -1);
    const roots = this._rootScratch(value.length);
    this.elementType._rootsInto(value, roots, 0);
    merkleizeProgressiveInto(roots, value.length, out, offset);
    mixInLengthInto(out, offset, value.length);
  }
  /** @internal The element type as a builder of record trees (or nothing, when its values are not records). */
  private get records(): RecordTreeBuilder<V> | null {
    const elem = this.elementType as SszType<V> & RecordTreeBuilder<V>;
    return (elem._recordDepth ?? 0) > 0 && elem.fixedSize !== null ? elem : null;
  }
  _toNode(value: V[], store: NodeStore): NodeId {
    this._checkValue(value, -1);
    const records = this.records;
    if (records?._recordTreeFromValues !== undefined) {
      // Compact records (Validator): each subtree one bulk build, no id per element.
      const subtrees: NodeId[] = [];
      for (let k = 0; k < subtreeCount(value.length); k++) {
        const { first, count } = subtreeElements(k, value.length, 1);
        const tree = records._recordTreeFromValues(value.slice(first, first + count), 2 * k, store);
        if (tree === null) break;
        subtrees.push(tree);
      }
      if (subtrees.length === subtreeCount(value.length)) return store.withLength(spineOver(store, subtrees), value.length);
    }
    return store.withLength(nodesTree(store, elementNodes(this.elementType, value, store)), value.length);
  }
  _fromNode(store: NodeStore, node: NodeId): V[] {
    const { length, contents } = this._lengthOf(store, node);
    const elem = this.elementType;
    if (this.records !== null) {
      // Records (pairs among them): copied out as bytes, then decoded — no node made per element.
      const bytes = new Uint8Array(length * (elem.fixedSize as number));
      const dv = new DataView(bytes.buffer);
      writeComposites(elem as SszType<unknown>, store, progressiveNodes(store, contents, length, true), bytes, dv, 0);
      return this._decode(bytes, dv, 0, bytes.length);
    }
    const subtrees = readSpine(store, contents, subtreeCount(length));
    const nodes: NodeId[] = [];
    for (let k = 0; k < subtrees.length; k++) {
      const { count } = subtreeElements(k, length, 1);
      for (const id of readNodes(store, subtrees[k] as NodeId, 2 * k, count)) nodes.push(id);
    }
    return elementValues(elem, store, nodes);
  }
  /** @internal The `length` element nodes of the contents subtree (held by it: valid while it is). */
  _elementNodes(store: NodeStore, contents: NodeId, length: number): NodeId[] {
    return progressiveNodes(store, contents, length);
  }
  /**
   * @internal Copies the bytes of elements [start, start + count) of the
   * `length` in the contents subtree, records of base kind `kind` (pairs
   * among them), to `out` back to back, subtree by subtree; false when that
   * range holds anything else.
   */
  _copyRecordRange(store: NodeStore, contents: NodeId, length: number, kind: number, start: number, count: number, out: Uint8Array): boolean {
    const size = this.elementType.fixedSize as number;
    const subtrees = readSpine(store, contents, subtreeCount(length));
    for (let k = 0; k < subtrees.length; k++) {
      const { first, count: n } = subtreeElements(k, length, 1);
      const lo = Math.max(start, first);
      const hi = Math.min(start + count, first + n);
      if (lo < hi && !store.copyRecordLevel(subtrees[k] as NodeId, 2 * k, lo - first, hi - lo, kind, out, (lo - start) * size)) return false;
    }
    return true;
  }
  /**
   * @internal The list node over `length` new records of kind `kind` (pairs
   * inside each subtree), their bytes written by `read(start, count, out)`
   * run by run, hashed as built.
   */
  _treeOfRecords(store: NodeStore, kind: number, length: number, read: (start: number, count: number, out: Uint8Array) => void): NodeId {
    const subtrees: NodeId[] = [];
    for (let k = 0; k < subtreeCount(length); k++) {
      const { first, count } = subtreeElements(k, length, 1);
      subtrees.push(store.recordPairTree(kind, count, 2 * k, (out, _view, at, n) => read(first + at, n, out)));
    }
    return store.withLength(spineOver(store, subtrees), length);
  }
  /** @internal The list node over element nodes `nodes`: the progressive spine, the length mixed in. */
  _treeOfElementNodes(store: NodeStore, nodes: readonly NodeId[]): NodeId {
    return store.withLength(nodesTree(store, nodes), nodes.length);
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    const { length, contents } = this._lengthOf(store, node);
    if (this.elementType.fixedSize !== null) return length * this.elementType.fixedSize;
    return compositesTreeSize(this.elementType as SszType<unknown>, store, progressiveNodes(store, contents, length));
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    const { length, contents } = this._lengthOf(store, node);
    // One walk per subtree collects the element ids (no floating ids: nothing is created while writing).
    return writeComposites(this.elementType as SszType<unknown>, store, progressiveNodes(store, contents, length, this.records !== null), out, dv, offset);
  }
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    return progressiveElementStep(segment, this.maxLength, 1, this.elementType as SszType<unknown>);
  }
  override _nodeFromBytes(data: Uint8Array, dv: DataView, start: number, end: number, store: NodeStore): NodeId {
    const records = this.records;
    const fixed = this.elementType.fixedSize;
    if (records?._recordTreeFromBytes === undefined || fixed === null) return super._nodeFromBytes(data, dv, start, end, store);
    const size = end - start;
    if (size % fixed !== 0) throw new SszError('BAD_SIZE', `${size} bytes are not a whole number of ${fixed}-byte elements`, end);
    const length = size / fixed;
    if (length > this.maxLength) throw new SszError('LIMIT_EXCEEDED', `${length} elements exceed ${boundOf(this.maxLength).phrase}`, start + this.maxLength * fixed);
    // Each subtree straight from its records' bytes (validated as the decoder would), hashed as it is built;
    // during a build of a view (view/built.ts), where each subtree's records went: its segment's element table.
    const m = subtreeCount(length);
    const subtrees: NodeId[] = [];
    let hints: unknown[] | null = null;
    for (let k = 0; k < m; k++) {
      const { first, count } = subtreeElements(k, length, 1);
      const placed: RecordRuns | undefined = collectingBuilt() ? { kind: -1, runs: [], paired: false } : undefined;
      const tree = records._recordTreeFromBytes(data, start + first * fixed, count, 2 * k, store, placed);
      if (tree === null) return super._nodeFromBytes(data, dv, start, end, store);
      subtrees.push(tree);
      const table = placed === undefined ? null : placedRecords(placed.kind, placed.runs, placed.paired);
      if (table !== null) (hints ??= new Array<unknown>(m).fill(undefined))[k] = builtElementHint(tree, placedHint(tree, table));
    }
    const root = store.withLength(spineOver(store, subtrees), length);
    recordSegmentTables(root, hints);
    return root;
  }
  /**
   * A view of this type holding what `view`, a view of `List[T, N]` of the
   * same element type, holds: what a fork upgrade does to a state's list.
   * Element subtrees are shared and only the branches above them are new;
   * elements stored as records (Validator) are rebuilt from their bytes,
   * since record pairs cannot survive the change of shape
   * (schema/progressiveConvert.ts). The source view is committed first and
   * left as it is.
   */
  fromBinaryView(view: CompositeSequenceView<V, ET>): ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>> {
    return convertComposite(view, this as never, (t) => t instanceof ListCompositeType) as ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>>;
  }
  /** The other way: a view of `listType` (`List[T, N]`, N at least the length) holding what `view`, a view of this type, holds. */
  toBinaryView(view: ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>>, listType: ListCompositeType<V, ET>): CompositeSequenceView<V, ET> {
    if (!(listType instanceof ListCompositeType)) throw new SszError('INVALID_VALUE', 'toBinaryView needs a list(...) schema of composites', -1, this.typeName);
    return convertComposite(view, listType as never, (t) => t instanceof ProgressiveListCompositeType) as CompositeSequenceView<V, ET>;
  }
  /** @internal Subtree k's view: a composite view of its elements (records, pairs, element views), in its segment form. */
  _segmentView(store: NodeStore, node: NodeId, k: number, used: number): CompositeSequenceView<V, ET> {
    return new CompositeSequenceView<V, ET>(this, new Tree(node, store), this.elementType, subtreeCapacity(k), false, 2 * k, used, subtreeStart(k));
  }
  override _view(store: NodeStore, node: NodeId, tree?: Tree): ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>> {
    const t = tree ?? new Tree(node, store);
    return new ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>>(this as never, t, this._lengthOf(store, t.rootNode).length);
  }
  override toView(value: V[], store: NodeStore = defaultStore): ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>> {
    return super.toView(value, store) as ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>>;
  }
  override deserializeToView(bytes: Uint8Array, store: NodeStore = defaultStore): ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>> {
    return collectBuilt(() => takeBuiltTable(super.deserializeToView(bytes, store) as ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>>));
  }
  override viewOf(tree: Tree): ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>> {
    return super.viewOf(tree) as ProgressiveListView<V[], ElementView<ET>, V | TreeView<V>>;
  }
}

/**
 * `ProgressiveList[elementType]`: a list without a limit, merkleized
 * progressively (subtrees of 1, 4, 16, … chunks). Uints and booleans give a
 * packed `ProgressiveListBasicType` (value: a typed array, e.g.
 * `BigUint64Array` for uint64), anything else a
 * `ProgressiveListCompositeType` (value: an array).
 *
 *   const Balances = progressiveList(uint64);
 */
export function progressiveList<V, A extends BasicArray<V>>(elementType: BasicType<V, A>): ProgressiveListBasicType<V, A>;
export function progressiveList<T extends AnyType>(elementType: T): ProgressiveListCompositeType<ValueOf<T>, T>;
export function progressiveList<V>(elementType: SszType<V>): SszType<unknown> {
  if (!(elementType instanceof SszType)) throw new SszError('INVALID_TYPE', 'a progressive list needs an SSZ element type', -1, 'ProgressiveList');
  return elementType.isBasic
    ? new ProgressiveListBasicType(elementType as unknown as BasicType<V, BasicArray<V>>)
    : new ProgressiveListCompositeType(elementType);
}
