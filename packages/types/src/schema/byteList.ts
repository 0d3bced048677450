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

export class ByteListType extends SszType<Uint8Array> {
  readonly typeName: string;
  readonly fixedSize = null;
  readonly minSize = 0;
  readonly maxSize: number;
  readonly isBasic = false;
  private readonly chunkLimit: number;

  override readonly _limitBoundsSize = true;
  constructor(readonly limit: number) {
    super();
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new SszError('INVALID_TYPE', `a byte list needs a limit >= 0, got ${limit}`, -1, `ByteList[${limit}]`);
    }
    this.typeName = `ByteList[${limit}]`;
    this.maxSize = limit;
    this.chunkLimit = Math.ceil(limit / 32);
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). ByteList[N] is List[byte, N] in the spec: the same tree. */
  _shapeKey(): string {
    return `List[uint8,${this.limit}]`;
  }

  _decode(data: Uint8Array, _dv: DataView, start: number, end: number): Uint8Array {
    this._checkLayout(null, start, end);
    return new Uint8Array(data.buffer, data.byteOffset + start, end - start);
  }
  override _checkLayout(_read: ByteReader | null, start: number, end: number): void {
    if (end - start > this.limit) {
      throw new SszError('LIMIT_EXCEEDED', `${end - start} bytes exceed the limit of ${this.limit}`, start + this.limit);
    }
  }

  private check(value: Uint8Array, offset: number): void {
    if (!(value instanceof Uint8Array)) throw new SszError('INVALID_VALUE', `expected a Uint8Array, got ${typeof value}`, offset);
    if (value.length > this.limit) {
      throw new SszError('LIMIT_EXCEEDED', `${value.length} bytes exceed the limit of ${this.limit}`, offset);
    }
  }

  _encode(value: Uint8Array, out: Uint8Array, _dv: DataView, offset: number): number {
    this.check(value, offset);
    out.set(value, offset);
    return offset + value.length;
  }
  _size(value: Uint8Array): number {
    this.check(value, -1);
    return value.length;
  }
  _rootInto(value: Uint8Array, out: Uint8Array, offset: number): void {
    this.check(value, -1);
    let chunks = value;
    if (value.length % 32 !== 0) {
      chunks = new Uint8Array(Math.ceil(value.length / 32) * 32);
      chunks.set(value);
    }
    merkleizeInto(chunks, this.chunkLimit, out, offset);
    mixInLengthInto(out, offset, value.length);
  }
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    return packedStep(segment, this.limit, 32, depthForLimit(this.chunkLimit), true);
  }
  _toNode(value: Uint8Array, store: NodeStore): NodeId {
    this.check(value, -1);
    return store.withLength(store.fromChunks(padChunks(value), depthForLimit(this.chunkLimit)), value.length);
  }
  _fromNode(store: NodeStore, node: NodeId): Uint8Array {
    const { length, contents } = readMixed(store, node);
    if (length > this.limit) throw new SszError('LIMIT_EXCEEDED', `${length} bytes exceed the limit of ${this.limit}`);
    const chunks = readChunks(store, contents, depthForLimit(this.chunkLimit), Math.ceil(length / 32));
    checkPadding(chunks, length);
    return chunks.subarray(0, length);
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    const { length } = readMixed(store, node);
    if (length > this.limit) throw new SszError('LIMIT_EXCEEDED', `${length} bytes exceed the limit of ${this.limit}`);
    return length;
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    const { length, contents } = readMixed(store, node);
    if (length > this.limit) throw new SszError('LIMIT_EXCEEDED', `${length} bytes exceed the limit of ${this.limit}`);
    copyLevel(store, contents, depthForLimit(this.chunkLimit), length, out, offset);
    return offset + length;
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
    this.check(value, -1);
    return toHex(value);
  }
  _fromJson(json: unknown): Uint8Array {
    const bytes = fromHex(json);
    if (bytes.length > this.limit) throw new SszError('INVALID_JSON', `${bytes.length} bytes exceed the limit of ${this.limit}`);
    return bytes;
  }
}

/** `ByteList[limit]`: up to `limit` bytes, the value a `Uint8Array`. */
export function byteList(limit: number): ByteListType {
  return new ByteListType(limit);
}
