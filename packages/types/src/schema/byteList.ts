/**
 * `byteList(limit)` (ByteList[limit]): a `Uint8Array` of at most `limit`
 * bytes, copied in one call; the root is the bytes' chunks merkleized to the
 * limit's depth with the length mixed in.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError } from '../errors.js';
import { fromHex, toHex, type Json } from '../json.js';
import { depthForLimit, merkleizeInto, mixInLengthInto } from '../merkle.js';
import { checkPadding } from '../tree/elements.js';
import { readChunks, readMixed } from '../tree/nodes.js';
import { copyLevel } from '../tree/write.js';
import { SszType, type ByteReader } from '../type.js';
import { LENGTH_STEP, packedStep, type PathSegment, type PathStep } from '../tree/proofs.js';
import { bytesEqual, padChunks } from './byteVector.js';

/**
 * The value half every byte-list kind shares (`ByteList[N]` here,
 * `ProgressiveByteList` in progressiveByteList.ts): the codec, the byte
 * bound, the stored length read back, defaults, equality, copies and JSON.
 */
export abstract class ByteListBase extends SszType<Uint8Array> {
  readonly fixedSize = null;
  readonly minSize = 0;
  readonly isBasic = false;

  constructor(
    /** The most bytes. */
    readonly limit: number,
    /** The bound as errors name it (`the limit of N`). */
    private readonly phrase: string,
  ) {
    super();
  }

  override readonly _limitBoundsSize = true;

  _decode(data: Uint8Array, _dv: DataView, start: number, end: number): Uint8Array {
    this._checkLayout(null, start, end);
    return new Uint8Array(data.buffer, data.byteOffset + start, end - start);
  }
  override _checkLayout(_read: ByteReader | null, start: number, end: number): void {
    if (end - start > this.limit) {
      throw new SszError('LIMIT_EXCEEDED', `${end - start} bytes exceed ${this.phrase}`, start + this.limit);
    }
  }

  /** @internal Validates a value (`offset` locates the error when encoding). */
  _checkValue(value: Uint8Array, offset: number): void {
    if (!(value instanceof Uint8Array)) throw new SszError('INVALID_VALUE', `expected a Uint8Array, got ${typeof value}`, offset);
    if (value.length > this.limit) {
      throw new SszError('LIMIT_EXCEEDED', `${value.length} bytes exceed ${this.phrase}`, offset);
    }
  }

  /** @internal The length stored at `node` (checked against the bound) and the contents node. */
  _lengthOf(store: NodeStore, node: NodeId): { length: number; contents: NodeId } {
    const mixed = readMixed(store, node);
    if (mixed.length > this.limit) throw new SszError('LIMIT_EXCEEDED', `${mixed.length} bytes exceed ${this.phrase}`);
    return mixed;
  }

  _encode(value: Uint8Array, out: Uint8Array, _dv: DataView, offset: number): number {
    this._checkValue(value, offset);
    out.set(value, offset);
    return offset + value.length;
  }
  _size(value: Uint8Array): number {
    this._checkValue(value, -1);
    return value.length;
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    return this._lengthOf(store, node).length;
  }
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    return super._pathStep(segment);
  }
  defaultValue(): Uint8Array {
    return new Uint8Array(0);
  }
  equals(a: Uint8Array, b: Uint8Array): boolean {
    return bytesEqual(a, b);
  }
  clone(value: Uint8Array): Uint8Array {
    return value.slice();
  }
  _toJson(value: Uint8Array): Json {
    this._checkValue(value, -1);
    return toHex(value);
  }
  _fromJson(json: unknown): Uint8Array {
    const bytes = fromHex(json);
    if (bytes.length > this.limit) throw new SszError('INVALID_JSON', `${bytes.length} bytes exceed ${this.phrase}`);
    return bytes;
  }
}

export class ByteListType extends ByteListBase {
  readonly typeName: string;
  readonly maxSize: number;
  private readonly chunkLimit: number;

  constructor(limit: number) {
    super(limit, `the limit of ${limit}`);
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new SszError('INVALID_TYPE', `a byte list needs a limit >= 0, got ${limit}`, -1, `ByteList[${limit}]`);
    }
    this.typeName = `ByteList[${limit}]`;
    this.maxSize = limit;
    this.chunkLimit = Math.ceil(limit / 32);
  }

  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    return packedStep(segment, this.limit, 32, depthForLimit(this.chunkLimit), true);
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). ByteList[N] is List[byte, N] in the spec: the same tree. */
  _shapeKey(): string {
    return `List[uint8,${this.limit}]`;
  }

  _rootInto(value: Uint8Array, out: Uint8Array, offset: number): void {
    this._checkValue(value, -1);
    merkleizeInto(padChunks(value), this.chunkLimit, out, offset);
    mixInLengthInto(out, offset, value.length);
  }
  _toNode(value: Uint8Array, store: NodeStore): NodeId {
    this._checkValue(value, -1);
    return store.withLength(store.fromChunks(padChunks(value), depthForLimit(this.chunkLimit)), value.length);
  }
  _fromNode(store: NodeStore, node: NodeId): Uint8Array {
    const { length, contents } = this._lengthOf(store, node);
    const chunks = readChunks(store, contents, depthForLimit(this.chunkLimit), Math.ceil(length / 32));
    checkPadding(chunks, length);
    return chunks.subarray(0, length);
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    const { length, contents } = this._lengthOf(store, node);
    copyLevel(store, contents, depthForLimit(this.chunkLimit), length, out, offset);
    return offset + length;
  }
}

/** `ByteList[limit]`: up to `limit` bytes, the value a `Uint8Array`. */
export function byteList(limit: number): ByteListType {
  return new ByteListType(limit);
}
