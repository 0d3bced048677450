/**
 * `list(T, limit)` (List[T, limit]). Lists of uints/booleans are packed
 * (value: the element type's array form — Uint8Array, Uint16Array,
 * Uint32Array, BigUint64Array, or a plain array); lists of composites are
 * plain arrays of element values, whose roots are computed in batches
 * through the element type's `_rootsInto`.
 * @module
 */
import { defaultStore, type NodeId, type NodeStore, type RecordRuns, Tree } from '@ssztree/core';
import { elementIndex, LENGTH_STEP, packedStep, type PathSegment, type PathStep } from '../tree/proofs.js';
import { CompositeSequenceView } from '../view/composite.js';
import { PackedSequenceView } from '../view/packed.js';
import { packedContents, packedShape, type PackedShape } from '../view/packedPages.js';
import { collectBuilt, collectingBuilt, recordBuilt, takeBuiltTable } from '../view/built.js';
import { placedHint, placedRecords } from '../view/elementTable.js';
import { SszError } from '../errors.js';
import { depthForLimit, merkleizeInPlace, merkleizeInto, mixInLengthInto } from '../merkle.js';
import { SszType, type AnyType, type ValueOf } from '../type.js';
import type { BasicArray, BasicType } from '../basicType.js';
import { elementNodes, elementValues } from '../tree/elements.js';
import { readChunks, readNodes, subtreeFromNodes } from '../tree/nodes.js';
import { compositesTreeSize, copyLevel, levelNodes, writeCompositeLevel } from '../tree/write.js';
import { CompositeListBase, PackedListBase, type RecordTreeBuilder } from './listBase.js';
import { shapeKey } from '../shape.js';

function checkLimit(limit: number, name: string): void {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new SszError('INVALID_TYPE', `a list needs a limit >= 0, got ${limit}`, -1, name);
}

/** List of uints or booleans, packed into chunks. */
export class ListBasicType<V, A extends BasicArray<V>> extends PackedListBase<V, A> {
  readonly typeName: string;
  readonly maxSize: number;
  private readonly chunkLimit: number;
  private readonly shape: PackedShape;
  override readonly _navigable = true;

  constructor(
    elementType: BasicType<V, A>,
    readonly limit: number,
  ) {
    super(elementType, { count: limit, phrase: `the limit of ${limit}` });
    this.typeName = `List[${elementType.typeName}, ${limit}]`;
    checkLimit(limit, this.typeName);
    this.maxSize = limit * elementType.byteLength;
    this.chunkLimit = Math.ceil(this.maxSize / 32);
    this.shape = packedShape(this.chunkLimit, true);
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `List[${shapeKey(this.elementType as SszType<unknown>)},${this.limit}]`;
  }

  _rootInto(value: A, out: Uint8Array, offset: number): void {
    this._checkValue(value, -1);
    merkleizeInto(this.elementType._pack(value), this.chunkLimit, out, offset);
    mixInLengthInto(out, offset, value.length);
  }
  _toNode(value: A, store: NodeStore): NodeId {
    this._checkValue(value, -1);
    return store.withLength(store.fromChunks(this.elementType._pack(value), depthForLimit(this.chunkLimit)), value.length);
  }
  _readContents(store: NodeStore, contents: NodeId, count: number): Uint8Array {
    return readChunks(store, contents, depthForLimit(this.chunkLimit), count);
  }
  _copyContents(store: NodeStore, contents: NodeId, bytes: number, out: Uint8Array, offset: number): void {
    copyLevel(store, contents, depthForLimit(this.chunkLimit), bytes, out, offset);
  }

  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    return packedStep(segment, this.limit, 32 / this.elementType.byteLength, this.shape.chunkDepth, true);
  }
  override _viewNode(value: A, store: NodeStore): NodeId {
    this._checkValue(value, -1);
    return this._viewNodeOfChunks(store, this.elementType._pack(value), value.length);
  }
  /** @internal The view subtree of `length` elements packed in `chunks` (pages of wide leaves, the length mixed in). */
  _viewNodeOfChunks(store: NodeStore, chunks: Uint8Array, length: number): NodeId {
    return packedContents(store, chunks, this.shape, (contents) => store.withLength(contents, length));
  }
  override _view(store: NodeStore, node: NodeId, tree?: Tree): PackedSequenceView<V, A> {
    const t = tree ?? new Tree(node, store);
    const { length } = this._lengthOf(store, t.rootNode);
    return new PackedSequenceView(this, t, this.elementType, this.limit, true, this.shape, length);
  }
  override toView(value: A, store: NodeStore = defaultStore): PackedSequenceView<V, A> {
    // The build's page ids become the view's page table (view/built.ts): the first writes to a list just
    // assigned (an epoch's new participation flags, written by the next block) read no page by a walk.
    return collectBuilt(() => takeBuiltTable(super.toView(value, store) as PackedSequenceView<V, A>));
  }
  override deserializeToView(bytes: Uint8Array, store: NodeStore = defaultStore): PackedSequenceView<V, A> {
    return collectBuilt(() => takeBuiltTable(super.deserializeToView(bytes, store) as PackedSequenceView<V, A>));
  }
  override viewOf(tree: Tree): PackedSequenceView<V, A> {
    return super.viewOf(tree) as PackedSequenceView<V, A>;
  }
}

/** List of composites: a plain array of element values. */
/** `ET` is the element schema's own type (type-level only: it types the element views). */
export class ListCompositeType<V, ET = SszType<V>> extends CompositeListBase<V> {
  declare readonly _elementSchema?: ET;
  override readonly _navigable = true;
  readonly typeName: string;
  readonly maxSize: number;

  constructor(
    elementType: SszType<V>,
    readonly limit: number,
  ) {
    super(elementType, { count: limit, phrase: `the limit of ${limit}` });
    this.typeName = `List[${elementType.typeName}, ${limit}]`;
    checkLimit(limit, this.typeName);
    const fixed = elementType.fixedSize;
    this.maxSize = fixed === null ? (4 + elementType.maxSize) * limit : fixed * limit;
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `List[${shapeKey(this.elementType as SszType<unknown>)},${this.limit}]`;
  }

  _rootInto(value: V[], out: Uint8Array, offset: number): void {
    this._checkValue(value, -1);
    const roots = this._rootScratch(value.length);
    this.elementType._rootsInto(value, roots, 0);
    merkleizeInPlace(roots, value.length, this.limit, out, offset);
    mixInLengthInto(out, offset, value.length);
  }
  _toNode(value: V[], store: NodeStore): NodeId {
    this._checkValue(value, -1);
    // Compact records (Validator): one bulk build of the contents, no id per element.
    const records = (this.elementType as RecordTreeBuilder<V>)._recordTreeFromValues?.(value, depthForLimit(this.limit), store) ?? null;
    if (records !== null) return store.withLength(records, value.length);
    const nodes = elementNodes(this.elementType, value, store);
    return store.withLength(subtreeFromNodes(store, nodes, depthForLimit(this.limit)), value.length);
  }
  _fromNode(store: NodeStore, node: NodeId): V[] {
    const { length, contents } = this._lengthOf(store, node);
    const elem = this.elementType as SszType<V> & { _recordDepth?: number };
    if ((elem._recordDepth ?? 0) > 0 && elem.fixedSize !== null) {
      // Records (pairs among them): copied out as bytes in one walk, then decoded — no node made per element.
      const bytes = new Uint8Array(length * elem.fixedSize);
      const dv = new DataView(bytes.buffer);
      writeCompositeLevel(elem as SszType<unknown>, store, contents, depthForLimit(this.limit), length, bytes, dv, 0);
      return this._decode(bytes, dv, 0, bytes.length);
    }
    return elementValues(this.elementType, store, readNodes(store, contents, depthForLimit(this.limit), length));
  }
  /** @internal The `length` element nodes of the contents subtree (floating). */
  _elementNodes(store: NodeStore, contents: NodeId, length: number): NodeId[] {
    return readNodes(store, contents, depthForLimit(this.limit), length);
  }
  /**
   * @internal Copies the bytes of elements [start, start + count), records
   * of base kind `kind` (pairs among them), to `out` back to back; false
   * when that range holds anything else.
   */
  _copyRecordRange(store: NodeStore, contents: NodeId, _length: number, kind: number, start: number, count: number, out: Uint8Array): boolean {
    const depth = depthForLimit(this.limit);
    return depth <= 53 && store.copyRecordLevel(contents, depth, start, count, kind, out, 0);
  }
  /**
   * @internal The list node over `length` new records of kind `kind` (in
   * pairs), their bytes written by `read(start, count, out)` run by run,
   * hashed as built.
   */
  _treeOfRecords(store: NodeStore, kind: number, length: number, read: (start: number, count: number, out: Uint8Array) => void): NodeId {
    return store.withLength(store.recordPairTree(kind, length, depthForLimit(this.limit), (out, _view, at, n) => read(at, n, out)), length);
  }
  /** @internal The list node over element nodes `nodes`: a subtree of the limit's depth, the length mixed in. */
  _treeOfElementNodes(store: NodeStore, nodes: readonly NodeId[]): NodeId {
    return store.withLength(subtreeFromNodes(store, nodes, depthForLimit(this.limit)), nodes.length);
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    const { length, contents } = this._lengthOf(store, node);
    if (this.elementType.fixedSize !== null) return length * this.elementType.fixedSize;
    return compositesTreeSize(this.elementType as SszType<unknown>, store, levelNodes(store, contents, depthForLimit(this.limit), length));
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    const { length, contents } = this._lengthOf(store, node);
    // One walk collects the element ids (no per-index descent, no floating ids: nothing is created while writing).
    return writeCompositeLevel(this.elementType as SszType<unknown>, store, contents, depthForLimit(this.limit), length, out, dv, offset);
  }

  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    const i = elementIndex(segment, this.limit);
    return { depth: 1 + depthForLimit(this.limit), index: i, next: this.elementType as SszType<unknown>, element: i };
  }
  override _nodeFromBytes(data: Uint8Array, dv: DataView, start: number, end: number, store: NodeStore): NodeId {
    const elem = this.elementType as SszType<V> & { _recordDepth?: number; _recordsFromBytes?(d: Uint8Array, s: number, c: number, st: NodeStore): NodeId[] };
    const fixed = elem.fixedSize;
    if ((elem._recordDepth ?? 0) === 0 || fixed === null || elem._recordsFromBytes === undefined) return super._nodeFromBytes(data, dv, start, end, store);
    const size = end - start;
    if (size % fixed !== 0) throw new SszError('BAD_SIZE', `${size} bytes are not a whole number of ${fixed}-byte elements`, end);
    const count = size / fixed;
    if (count > this.limit) throw new SszError('LIMIT_EXCEEDED', `${count} elements exceed the limit of ${this.limit}`, start + this.limit * fixed);
    // During a build of a view (view/built.ts), where the records went: the list's element table, without a walk.
    const placed: RecordRuns | undefined = collectingBuilt() ? { kind: -1, runs: [], paired: false } : undefined;
    const records = (elem as RecordTreeBuilder<V>)._recordTreeFromBytes?.(data, start, count, depthForLimit(this.limit), store, placed) ?? null;
    if (records !== null) {
      const node = store.withLength(records, count);
      const table = placed === undefined ? null : placedRecords(placed.kind, placed.runs, placed.paired);
      if (table !== null) recordBuilt(node, placedHint(node, table));
      return node;
    }
    const nodes = elem._recordsFromBytes(data, start, count, store);
    return store.withLength(subtreeFromNodes(store, nodes, depthForLimit(this.limit)), count);
  }
  override _view(store: NodeStore, node: NodeId, tree?: Tree): CompositeSequenceView<V, ET> {
    const t = tree ?? new Tree(node, store);
    const { length } = this._lengthOf(store, t.rootNode);
    return new CompositeSequenceView<V, ET>(this, t, this.elementType, this.limit, true, depthForLimit(this.limit), length);
  }
  override toView(value: V[], store: NodeStore = defaultStore): CompositeSequenceView<V, ET> {
    return super.toView(value, store) as CompositeSequenceView<V, ET>;
  }
  override deserializeToView(bytes: Uint8Array, store: NodeStore = defaultStore): CompositeSequenceView<V, ET> {
    return collectBuilt(() => takeBuiltTable(super.deserializeToView(bytes, store) as CompositeSequenceView<V, ET>));
  }
  override viewOf(tree: Tree): CompositeSequenceView<V, ET> {
    return super.viewOf(tree) as CompositeSequenceView<V, ET>;
  }
}

/**
 * `List[elementType, limit]`: at most `limit` elements. Uints and booleans
 * give a packed `ListBasicType` (value: a typed array, e.g. `BigUint64Array`
 * for uint64; views: `PackedSequenceView`), anything else a
 * `ListCompositeType` (value: an array; views: `CompositeSequenceView`).
 *
 *   const Balances = list(uint64, 2 ** 40);
 */
export function list<V, A extends BasicArray<V>>(elementType: BasicType<V, A>, limit: number): ListBasicType<V, A>;
export function list<T extends AnyType>(elementType: T, limit: number): ListCompositeType<ValueOf<T>, T>;
export function list<V>(elementType: SszType<V>, limit: number): SszType<unknown> {
  return elementType.isBasic
    ? new ListBasicType(elementType as unknown as BasicType<V, BasicArray<V>>, limit)
    : new ListCompositeType(elementType, limit);
}
