/**
 * `vector(T, n)` (Vector[T, n], n ≥ 1). Vectors of uints/booleans are packed
 * (value: the element type's array form, a typed array where one exists);
 * vectors of composites are plain arrays of element values.
 * @module
 */
import { defaultStore, type NodeId, type NodeStore, Tree } from '@ssztree/core';
import { elementIndex, packedStep, type PathSegment, type PathStep } from '../tree/proofs.js';
import { CompositeSequenceView } from '../view/composite.js';
import { PackedSequenceView } from '../view/packed.js';
import { packedContents, packedShape, type PackedShape } from '../view/packedPages.js';
import { SszError, withPath } from '../errors.js';
import { expectArray, type Json } from '../json.js';
import { MAX_REUSED_ROOTS, depthForLimit, growScratch, merkleizeInPlace, merkleizeInto } from '../merkle.js';
import { SszType, type AnyType, type ByteReader, type ValueOf } from '../type.js';
import type { BasicArray, BasicType } from '../basicType.js';
import { readChunks, readNodes, subtreeFromNodes } from '../tree/nodes.js';
import { checkPadding, elementNodes, elementValues } from '../tree/elements.js';
import { BooleanType } from './boolean.js';
import { checkBooleans, compositesTreeSize, copyLevel, levelNodes, writeCompositeLevel } from '../tree/write.js';
import { checkCompositeVectorLayout, compositesEqual, decodeCompositeVector, encodeComposites, sizeComposites } from './sequence.js';
import { shapeKey } from '../shape.js';

function checkLength(length: number, name: string): void {
  if (!Number.isSafeInteger(length) || length < 1) {
    throw new SszError('INVALID_TYPE', `a vector needs a length >= 1, got ${length}`, -1, name);
  }
}

/** Vector of uints or booleans, packed into chunks. */
export class VectorBasicType<V, A extends BasicArray<V>> extends SszType<A> {
  readonly typeName: string;
  readonly fixedSize: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;
  private readonly chunkCount: number;
  private readonly shape: PackedShape;
  override readonly _viewsInput = false;
  override readonly _navigable = true;

  constructor(
    readonly elementType: BasicType<V, A>,
    readonly length: number,
  ) {
    super();
    this.typeName = `Vector[${elementType.typeName}, ${length}]`;
    checkLength(length, this.typeName);
    this.fixedSize = this.minSize = this.maxSize = length * elementType.byteLength;
    this.chunkCount = Math.ceil(this.fixedSize / 32);
    this.shape = packedShape(this.chunkCount, false);
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `Vector[${shapeKey(this.elementType as SszType<unknown>)},${this.length}]`;
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): A {
    this._checkFixed(start, end);
    return this.elementType._decodeArray(data, dv, start, this.length);
  }
  private check(value: A, offset: number): void {
    if (!this.elementType._isArray(value) || value.length !== this.length) {
      throw new SszError('INVALID_VALUE', `expected ${this.length} elements in the ${this.elementType.typeName} array form`, offset);
    }
  }
  _encode(value: A, out: Uint8Array, dv: DataView, offset: number): number {
    this.check(value, offset);
    return this.elementType._encodeArray(value, out, dv, offset);
  }
  _size(value: A): number {
    this.check(value, -1);
    return this.fixedSize;
  }
  _rootInto(value: A, out: Uint8Array, offset: number): void {
    this.check(value, -1);
    merkleizeInto(this.elementType._pack(value), this.chunkCount, out, offset);
  }
  _toNode(value: A, store: NodeStore): NodeId {
    this.check(value, -1);
    return store.fromChunks(this.elementType._pack(value), depthForLimit(this.chunkCount));
  }
  _fromNode(store: NodeStore, node: NodeId): A {
    const chunks = readChunks(store, node, depthForLimit(this.chunkCount), this.chunkCount);
    checkPadding(chunks, this.fixedSize);
    return this.elementType._decodeArray(chunks, new DataView(chunks.buffer), 0, this.length);
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    copyLevel(store, node, depthForLimit(this.chunkCount), this.fixedSize, out, offset);
    if (this.elementType instanceof BooleanType) checkBooleans(out, offset, this.fixedSize);
    return offset + this.fixedSize;
  }

  override _pathStep(segment: PathSegment): PathStep {
    return packedStep(segment, this.length, 32 / this.elementType.byteLength, this.shape.chunkDepth, false);
  }
  override _viewNode(value: A, store: NodeStore): NodeId {
    this.check(value, -1);
    return packedContents(store, this.elementType._pack(value), this.shape);
  }
  override _view(store: NodeStore, node: NodeId, tree?: Tree): PackedSequenceView<V, A> {
    const t = tree ?? new Tree(node, store);
    return new PackedSequenceView(this, t, this.elementType, this.length, false, this.shape, this.length);
  }
  override toView(value: A, store: NodeStore = defaultStore): PackedSequenceView<V, A> {
    return super.toView(value, store) as PackedSequenceView<V, A>;
  }
  override deserializeToView(bytes: Uint8Array, store: NodeStore = defaultStore): PackedSequenceView<V, A> {
    return super.deserializeToView(bytes, store) as PackedSequenceView<V, A>;
  }
  override viewOf(tree: Tree): PackedSequenceView<V, A> {
    return super.viewOf(tree) as PackedSequenceView<V, A>;
  }
  defaultValue(): A {
    return this.elementType._newArray(this.length);
  }
  equals(a: A, b: A): boolean {
    return this.elementType._arrayEquals(a, b);
  }
  clone(value: A): A {
    return this.elementType._cloneArray(value);
  }
  _toJson(value: A): Json {
    this.check(value, -1);
    const out: Json[] = new Array<Json>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = this.elementType._toJson(value[i] as V);
    return out;
  }
  _fromJson(json: unknown): A {
    const items = expectArray(json);
    if (items.length !== this.length) throw new SszError('INVALID_JSON', `expected ${this.length} elements, got ${items.length}`);
    return this.elementType._arrayFrom(fromJsonItems(this.elementType, items));
  }
}

/** Vector of composites: a plain array of element values. */
/** `ET` is the element schema's own type (type-level only: it types the element views). */
export class VectorCompositeType<V, ET = SszType<V>> extends SszType<V[]> {
  declare readonly _elementSchema?: ET;
  override readonly _navigable = true;
  readonly typeName: string;
  readonly fixedSize: number | null;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;

  constructor(
    readonly elementType: SszType<V>,
    readonly length: number,
  ) {
    super();
    this.typeName = `Vector[${elementType.typeName}, ${length}]`;
    checkLength(length, this.typeName);
    const fixed = elementType.fixedSize;
    this.fixedSize = fixed === null ? null : fixed * length;
    this.minSize = fixed === null ? (4 + elementType.minSize) * length : fixed * length;
    this.maxSize = fixed === null ? (4 + elementType.maxSize) * length : fixed * length;
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `Vector[${shapeKey(this.elementType as SszType<unknown>)},${this.length}]`;
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): V[] {
    return decodeCompositeVector(this.elementType, data, dv, start, end, this.length);
  }
  override _checkLayout(read: ByteReader, start: number, end: number): void {
    checkCompositeVectorLayout(this.elementType as SszType<unknown>, read, start, end, this.length);
  }
  private check(value: readonly V[], offset: number): void {
    if (!Array.isArray(value) || value.length !== this.length) {
      throw new SszError('INVALID_VALUE', `expected an array of ${this.length} elements`, offset);
    }
  }
  _encode(value: V[], out: Uint8Array, dv: DataView, offset: number): number {
    this.check(value, offset);
    return encodeComposites(this.elementType, value, out, dv, offset);
  }
  _size(value: V[]): number {
    this.check(value, -1);
    return sizeComposites(this.elementType, value);
  }
  _rootInto(value: V[], out: Uint8Array, offset: number): void {
    this.check(value, -1);
    const roots = this.rootScratch(this.length);
    this.elementType._rootsInto(value, roots, 0);
    merkleizeInPlace(roots, this.length, this.length, out, offset);
  }
  _toNode(value: V[], store: NodeStore): NodeId {
    this.check(value, -1);
    return subtreeFromNodes(store, elementNodes(this.elementType, value, store), depthForLimit(this.length));
  }
  _fromNode(store: NodeStore, node: NodeId): V[] {
    return elementValues(this.elementType, store, readNodes(store, node, depthForLimit(this.length), this.length));
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    if (this.fixedSize !== null) return this.fixedSize;
    return compositesTreeSize(this.elementType as SszType<unknown>, store, levelNodes(store, node, depthForLimit(this.length), this.length));
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    return writeCompositeLevel(this.elementType as SszType<unknown>, store, node, depthForLimit(this.length), this.length, out, dv, offset);
  }

  override _pathStep(segment: PathSegment): PathStep {
    return { depth: depthForLimit(this.length), index: elementIndex(segment, this.length), next: this.elementType as SszType<unknown> };
  }
  override _view(store: NodeStore, node: NodeId, tree?: Tree): CompositeSequenceView<V, ET> {
    const t = tree ?? new Tree(node, store);
    return new CompositeSequenceView<V, ET>(this, t, this.elementType, this.length, false, depthForLimit(this.length), this.length);
  }
  override toView(value: V[], store: NodeStore = defaultStore): CompositeSequenceView<V, ET> {
    return super.toView(value, store) as CompositeSequenceView<V, ET>;
  }
  override deserializeToView(bytes: Uint8Array, store: NodeStore = defaultStore): CompositeSequenceView<V, ET> {
    return super.deserializeToView(bytes, store) as CompositeSequenceView<V, ET>;
  }
  override viewOf(tree: Tree): CompositeSequenceView<V, ET> {
    return super.viewOf(tree) as CompositeSequenceView<V, ET>;
  }
  /** Element roots, reused across calls (a type never contains itself, so no re-entry). */
  private rootScratch(count: number): Uint8Array {
    const size = 32 * (count + 1);
    if (count > MAX_REUSED_ROOTS) return new Uint8Array(size);
    return (this.scratch = growScratch(this.scratch, size));
  }
  private scratch: Uint8Array | null = null;

  defaultValue(): V[] {
    return Array.from({ length: this.length }, () => this.elementType.defaultValue());
  }
  equals(a: V[], b: V[]): boolean {
    return compositesEqual(this.elementType, a, b);
  }
  clone(value: V[]): V[] {
    return value.map((v) => this.elementType.clone(v));
  }
  _toJson(value: V[]): Json {
    this.check(value, -1);
    return value.map((v, i) => jsonItem(() => this.elementType._toJson(v), i));
  }
  _fromJson(json: unknown): V[] {
    const items = expectArray(json);
    if (items.length !== this.length) throw new SszError('INVALID_JSON', `expected ${this.length} elements, got ${items.length}`);
    return fromJsonItems(this.elementType, items);
  }
}

export function jsonItem<T>(fn: () => T, index: number): T {
  try {
    return fn();
  } catch (e) {
    throw withPath(e, `[${index}]`);
  }
}

export function fromJsonItems<V>(elem: SszType<V>, items: readonly unknown[]): V[] {
  return items.map((item, i) => jsonItem(() => elem._fromJson(item), i));
}

/**
 * `Vector[elementType, length]`: exactly `length` elements (length ≥ 1).
 * Uints and booleans give a packed `VectorBasicType` (value: a typed array),
 * anything else a `VectorCompositeType` (value: an array).
 *
 *   const BlockRoots = vector(byteVector(32), 8192);
 */
export function vector<V, A extends BasicArray<V>>(elementType: BasicType<V, A>, length: number): VectorBasicType<V, A>;
export function vector<T extends AnyType>(elementType: T, length: number): VectorCompositeType<ValueOf<T>, T>;
export function vector<V>(elementType: SszType<V>, length: number): SszType<unknown> {
  return elementType.isBasic
    ? new VectorBasicType(elementType as unknown as BasicType<V, BasicArray<V>>, length)
    : new VectorCompositeType(elementType, length);
}
