/**
 * What every list kind shares at the value level — `List[T, N]` (list.ts)
 * and `ProgressiveList[T]` (progressiveList.ts) differ only in their trees:
 * the codec, the count bound, the length read back from a tree, defaults,
 * equality, copies and JSON. `PackedListBase` is the half of lists of uints
 * and booleans (value: the element type's array form), `CompositeListBase`
 * the half of lists of composites (value: an array).
 *
 * Invariant: no value, byte string, tree or JSON array with more elements
 * than the bound gets past these methods; the error says which bound
 * (`the limit of N` for lists, what a serialization can hold for
 * progressive lists).
 * @module
 */
import type { NodeId, NodeStore, RecordRuns } from '@ssztree/core';
import { SszError } from '../errors.js';
import { expectArray, type Json } from '../json.js';
import { MAX_REUSED_ROOTS, growScratch } from '../merkle.js';
import { SszType, type ByteReader } from '../type.js';
import type { BasicArray, BasicType } from '../basicType.js';
import { checkPadding } from '../tree/elements.js';
import { readMixed } from '../tree/nodes.js';
import { checkBooleans } from '../tree/write.js';
import { BooleanType } from './boolean.js';
import { checkCompositeListLayout, compositesEqual, decodeCompositeList, encodeComposites, fixedElementCount, sizeComposites } from './sequence.js';
import { fromJsonItems, jsonItem } from './vector.js';

/** Element types that can build a list's contents (or a run of them) as compact records (ContainerType; null when they cannot). */
export interface RecordTreeBuilder<V> {
  readonly _recordDepth?: number;
  _recordTreeFromValues?(values: readonly V[], depth: number, store: NodeStore): NodeId | null;
  _recordTreeFromBytes?(data: Uint8Array, start: number, count: number, depth: number, store: NodeStore, placed?: RecordRuns): NodeId | null;
  _compactKind?(): number;
}

/** A list's element bound and how errors name it. */
interface Bound {
  /** The most elements. */
  readonly count: number;
  /** The bound as error messages name it: `the limit of 1024`. */
  readonly phrase: string;
}

function tooMany(bound: Bound, count: number, offset: number): SszError {
  return new SszError('LIMIT_EXCEEDED', `${count} elements exceed ${bound.phrase}`, offset);
}

function jsonTooMany(bound: Bound, count: number): SszError {
  return new SszError('INVALID_JSON', `${count} elements exceed ${bound.phrase}`);
}

/** The length a list node stores and its contents, the length checked against the bound. */
function boundedLength(bound: Bound, store: NodeStore, node: NodeId): { length: number; contents: NodeId } {
  const mixed = readMixed(store, node);
  if (mixed.length > bound.count) throw tooMany(bound, mixed.length, -1);
  return mixed;
}

/** The value half of packed lists (uints, booleans); the tree half is the subclass's. */
export abstract class PackedListBase<V, A extends BasicArray<V>> extends SszType<A> {
  readonly fixedSize = null;
  readonly minSize = 0;
  readonly isBasic = false;
  override readonly _viewsInput = false;
  override readonly _limitBoundsSize = true;
  readonly #bound: Bound;

  constructor(
    readonly elementType: BasicType<V, A>,
    bound: Bound,
  ) {
    super();
    this.#bound = bound;
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): A {
    const count = fixedElementCount(end - start, this.elementType.byteLength, start, end, this.#bound.count, this.#bound.phrase);
    return this.elementType._decodeArray(data, dv, start, count);
  }
  override _checkLayout(_read: ByteReader, start: number, end: number): void {
    fixedElementCount(end - start, this.elementType.byteLength, start, end, this.#bound.count, this.#bound.phrase);
  }
  /** @internal Validates the array form (`offset` locates the error when encoding). */
  _checkValue(value: A, offset: number): void {
    if (!this.elementType._isArray(value)) throw new SszError('INVALID_VALUE', `expected the ${this.elementType.typeName} array form`, offset);
    this._checkLength(value.length, offset);
  }
  /** @internal Rejects more elements than the bound. */
  _checkLength(length: number, offset: number): void {
    if (length > this.#bound.count) throw tooMany(this.#bound, length, offset);
  }
  /** @internal The length stored at `node` (checked against the bound) and the contents node. */
  _lengthOf(store: NodeStore, node: NodeId): { length: number; contents: NodeId } {
    return boundedLength(this.#bound, store, node);
  }
  /** @internal The first `count` chunks of the contents subtree `contents`, in one fresh buffer (the subclass's tree shape). */
  abstract _readContents(store: NodeStore, contents: NodeId, count: number): Uint8Array;
  /** @internal Copies the first `bytes` bytes of the contents subtree to out[offset], rejecting non-zero padding after them. */
  abstract _copyContents(store: NodeStore, contents: NodeId, bytes: number, out: Uint8Array, offset: number): void;

  _fromNode(store: NodeStore, node: NodeId): A {
    const { length, contents } = this._lengthOf(store, node);
    const bytes = length * this.elementType.byteLength;
    const chunks = this._readContents(store, contents, Math.ceil(bytes / 32));
    checkPadding(chunks, bytes);
    return this.elementType._decodeArray(chunks, new DataView(chunks.buffer), 0, length);
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    return this._lengthOf(store, node).length * this.elementType.byteLength;
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    const { length, contents } = this._lengthOf(store, node);
    const bytes = length * this.elementType.byteLength;
    // Leaves and wide-leaf pages are copied as they are: uints are little-endian in chunks and in the serialization.
    this._copyContents(store, contents, bytes, out, offset);
    if (this.elementType instanceof BooleanType) checkBooleans(out, offset, bytes);
    return offset + bytes;
  }
  _encode(value: A, out: Uint8Array, dv: DataView, offset: number): number {
    this._checkValue(value, offset);
    return this.elementType._encodeArray(value, out, dv, offset);
  }
  _size(value: A): number {
    this._checkValue(value, -1);
    return value.length * this.elementType.byteLength;
  }
  defaultValue(): A {
    return this.elementType._newArray(0);
  }
  equals(a: A, b: A): boolean {
    return this.elementType._arrayEquals(a, b);
  }
  clone(value: A): A {
    return this.elementType._cloneArray(value);
  }
  _toJson(value: A): Json {
    this._checkValue(value, -1);
    const out: Json[] = new Array<Json>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = this.elementType._toJson(value[i] as V);
    return out;
  }
  _fromJson(json: unknown): A {
    const items = expectArray(json);
    if (items.length > this.#bound.count) throw jsonTooMany(this.#bound, items.length);
    return this.elementType._arrayFrom(fromJsonItems(this.elementType, items));
  }
}

/** The value half of lists of composites; the tree half is the subclass's. */
export abstract class CompositeListBase<V> extends SszType<V[]> {
  readonly fixedSize = null;
  readonly minSize = 0;
  readonly isBasic = false;
  override readonly _limitBoundsSize: boolean;
  readonly #bound: Bound;

  constructor(
    readonly elementType: SszType<V>,
    bound: Bound,
  ) {
    super();
    this.#bound = bound;
    // Fixed-size elements: the count comes from the size and is checked against the bound first.
    this._limitBoundsSize = elementType.fixedSize !== null;
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): V[] {
    return decodeCompositeList(this.elementType, data, dv, start, end, this.#bound.count, this.#bound.phrase);
  }
  override _checkLayout(read: ByteReader, start: number, end: number): void {
    checkCompositeListLayout(this.elementType as SszType<unknown>, read, start, end, this.#bound.count, this.#bound.phrase);
  }
  /** @internal Validates the array (`offset` locates the error when encoding). */
  _checkValue(value: readonly V[], offset: number): void {
    if (!Array.isArray(value)) throw new SszError('INVALID_VALUE', 'expected an array', offset);
    this._checkLength(value.length, offset);
  }
  /** @internal Rejects more elements than the bound. */
  _checkLength(length: number, offset: number): void {
    if (length > this.#bound.count) throw tooMany(this.#bound, length, offset);
  }
  /** @internal The length stored at `node` (checked against the bound) and the contents node. */
  _lengthOf(store: NodeStore, node: NodeId): { length: number; contents: NodeId } {
    return boundedLength(this.#bound, store, node);
  }
  _encode(value: V[], out: Uint8Array, dv: DataView, offset: number): number {
    this._checkValue(value, offset);
    return encodeComposites(this.elementType, value, out, dv, offset);
  }
  _size(value: V[]): number {
    this._checkValue(value, -1);
    return sizeComposites(this.elementType, value);
  }
  /** @internal Scratch for `count` element roots plus one chunk, reused across calls (a type never contains itself, so no re-entry). */
  _rootScratch(count: number): Uint8Array {
    const size = 32 * (count + 1);
    if (count > MAX_REUSED_ROOTS) return new Uint8Array(size);
    return (this.#scratch = growScratch(this.#scratch, size));
  }
  #scratch: Uint8Array | null = null;

  defaultValue(): V[] {
    return [];
  }
  equals(a: V[], b: V[]): boolean {
    return compositesEqual(this.elementType, a, b);
  }
  clone(value: V[]): V[] {
    return value.map((v) => this.elementType.clone(v));
  }
  _toJson(value: V[]): Json {
    this._checkValue(value, -1);
    return value.map((v, i) => jsonItem(() => this.elementType._toJson(v), i));
  }
  _fromJson(json: unknown): V[] {
    const items = expectArray(json);
    if (items.length > this.#bound.count) throw jsonTooMany(this.#bound, items.length);
    return fromJsonItems(this.elementType, items);
  }
}
