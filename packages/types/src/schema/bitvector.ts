/**
 * `bitvector(n)` (Bitvector[n]): exactly n bits in ceil(n/8) bytes; padding
 * bits in the last byte must be zero. Value: `BitArray`.
 * @module
 */
import { BitArray, checkBitArray } from '../bitArray.js';
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError } from '../errors.js';
import { fromHex, toHex, type Json } from '../json.js';
import { depthForLimit, merkleizeInto } from '../merkle.js';
import { checkPadding } from '../tree/elements.js';
import { readChunks } from '../tree/nodes.js';
import { checkTopBits, copyLevel } from '../tree/write.js';
import { padChunks } from './byteVector.js';
import { SszType } from '../type.js';

export class BitvectorType extends SszType<BitArray> {
  readonly typeName: string;
  readonly fixedSize: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;
  private readonly chunkCount: number;

  constructor(readonly length: number) {
    super();
    if (!Number.isSafeInteger(length) || length < 1) {
      throw new SszError('INVALID_TYPE', `a bitvector needs a length >= 1, got ${length}`, -1, `Bitvector[${length}]`);
    }
    this.typeName = `Bitvector[${length}]`;
    this.fixedSize = this.minSize = this.maxSize = Math.ceil(length / 8);
    this.chunkCount = Math.ceil(length / 256);
    this._rootIsChunk = length <= 256;
  }
  override readonly _rootIsChunk: boolean;

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `Bitvector[${this.length}]`;
  }

  _decode(data: Uint8Array, _dv: DataView, start: number, end: number): BitArray {
    this._checkFixed(start, end);
    const bytes = new Uint8Array(data.buffer, data.byteOffset + start, end - start);
    if (this.length % 8 !== 0 && (bytes[bytes.length - 1] as number) >> (this.length % 8) !== 0) {
      throw new SszError('BAD_BITS', `padding bits above bit ${this.length} are set`, end - 1);
    }
    return new BitArray(bytes, this.length);
  }

  private check(value: BitArray, offset: number): void {
    checkBitArray(value, offset);
    if (value.bitLen !== this.length) throw new SszError('INVALID_VALUE', `expected ${this.length} bits, got ${value.bitLen}`, offset);
  }

  _encode(value: BitArray, out: Uint8Array, _dv: DataView, offset: number): number {
    this.check(value, offset);
    out.set(value.uint8Array, offset);
    return offset + this.fixedSize;
  }
  _size(value: BitArray): number {
    this.check(value, -1);
    return this.fixedSize;
  }
  _rootInto(value: BitArray, out: Uint8Array, offset: number): void {
    this.check(value, -1);
    const chunks = new Uint8Array(32 * this.chunkCount);
    chunks.set(value.uint8Array);
    merkleizeInto(chunks, this.chunkCount, out, offset);
  }
  _toNode(value: BitArray, store: NodeStore): NodeId {
    this.check(value, -1);
    return store.fromChunks(padChunks(value.uint8Array), depthForLimit(this.chunkCount));
  }
  _fromNode(store: NodeStore, node: NodeId): BitArray {
    const chunks = readChunks(store, node, depthForLimit(this.chunkCount), this.chunkCount);
    checkPadding(chunks, this.fixedSize);
    const value = new BitArray(chunks.slice(0, this.fixedSize), this.length);
    if (this.length % 8 !== 0 && (value.uint8Array[this.fixedSize - 1] as number) >> (this.length % 8) !== 0) {
      throw new SszError('BAD_BITS', `padding bits above bit ${this.length} are set`);
    }
    return value;
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    copyLevel(store, node, depthForLimit(this.chunkCount), this.fixedSize, out, offset);
    checkTopBits(out, offset + this.fixedSize - 1, this.length);
    return offset + this.fixedSize;
  }
  override _fromChunk(chunks: Uint8Array, dv: DataView, offset: number): BitArray {
    if (!this._rootIsChunk) return super._fromChunk(chunks, dv, offset);
    checkPadding(chunks.subarray(offset, offset + 32), this.fixedSize);
    const value = new BitArray(chunks.slice(offset, offset + this.fixedSize), this.length);
    if (this.length % 8 !== 0 && (value.uint8Array[this.fixedSize - 1] as number) >> (this.length % 8) !== 0) {
      throw new SszError('BAD_BITS', `padding bits above bit ${this.length} are set`);
    }
    return value;
  }
  override _chunkInto(value: BitArray, out: Uint8Array, offset: number): void {
    this.check(value, -1);
    out.set(value.uint8Array, offset);
  }
  defaultValue(): BitArray {
    return BitArray.fromBitLen(this.length);
  }
  equals(a: BitArray, b: BitArray): boolean {
    return a.equals(b);
  }
  clone(value: BitArray): BitArray {
    return value.clone();
  }
  _toJson(value: BitArray): Json {
    this.check(value, -1);
    return toHex(value.uint8Array);
  }
  _fromJson(json: unknown): BitArray {
    const bytes = fromHex(json);
    if (bytes.length !== this.fixedSize) throw new SszError('INVALID_JSON', `expected ${this.fixedSize} bytes of hex, got ${bytes.length}`);
    const value = new BitArray(bytes, this.length);
    try {
      checkBitArray(value, -1);
    } catch {
      throw new SszError('INVALID_JSON', `padding bits above bit ${this.length} are set`);
    }
    return value;
  }
}

/** `Bitvector[length]`: exactly `length` bits, the value a `BitArray`; padding bits must be zero. */
export function bitvector(length: number): BitvectorType {
  return new BitvectorType(length);
}
