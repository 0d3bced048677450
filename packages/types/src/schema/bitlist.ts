/**
 * `bitlist(limit)` (Bitlist[limit]): up to `limit` bits, serialized with one
 * delimiter bit set just above the last bit (so the last byte is never zero).
 * Value: `BitArray` without the delimiter. JSON is the serialized form
 * (delimiter included) as 0x-hex, as the consensus API writes it.
 * @module
 */
import { BitArray, checkBitArray } from '../bitArray.js';
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError } from '../errors.js';
import { fromHex, toHex, type Json } from '../json.js';
import { depthForLimit, merkleizeInto, mixInLengthInto } from '../merkle.js';
import { checkPadding } from '../tree/elements.js';
import { readChunks, readMixed } from '../tree/nodes.js';
import { checkTopBits, copyLevel } from '../tree/write.js';
import { padChunks } from './byteVector.js';
import { SszType, type ByteReader } from '../type.js';
import { LENGTH_STEP, packedStep, type PathSegment, type PathStep } from '../tree/proofs.js';

export class BitlistType extends SszType<BitArray> {
  readonly typeName: string;
  readonly fixedSize = null;
  readonly minSize = 1;
  readonly maxSize: number;
  readonly isBasic = false;
  private readonly chunkLimit: number;

  override readonly _limitBoundsSize = true;
  constructor(readonly limit: number) {
    super();
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new SszError('INVALID_TYPE', `a bitlist needs a limit >= 0, got ${limit}`, -1, `Bitlist[${limit}]`);
    }
    this.typeName = `Bitlist[${limit}]`;
    this.maxSize = Math.floor(limit / 8) + 1;
    this.chunkLimit = Math.ceil(limit / 256);
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `Bitlist[${this.limit}]`;
  }

  _decode(data: Uint8Array, _dv: DataView, start: number, end: number): BitArray {
    return this.decodeBits(data.subarray(start, end), start);
  }

  override _checkLayout(read: ByteReader, start: number, end: number): void {
    this.bitLength(end - start, end > start ? (read(end - 1, end)[0] as number) : 0, start);
  }

  /** The bit count `size` bytes ending in `last` hold, or the error their delimiter or the limit raises. */
  private bitLength(size: number, last: number, start: number): number {
    if (size === 0) throw new SszError('BAD_BITS', 'a bitlist needs at least its delimiter byte', start);
    if (last === 0) throw new SszError('BAD_BITS', 'the last byte holds no delimiter bit', start + size - 1);
    const bitLen = 8 * (size - 1) + (31 - Math.clz32(last));
    if (bitLen > this.limit) {
      throw new SszError('LIMIT_EXCEEDED', `${bitLen} bits exceed the limit of ${this.limit}`, start + size - 1);
    }
    return bitLen;
  }

  private decodeBits(bytes: Uint8Array, start: number): BitArray {
    const last = bytes.length === 0 ? 0 : (bytes[bytes.length - 1] as number);
    const bitLen = this.bitLength(bytes.length, last, start);
    const out = new Uint8Array(Math.ceil(bitLen / 8));
    out.set(bytes.subarray(0, out.length));
    if (bitLen % 8 !== 0) out[out.length - 1] = last ^ (1 << bitLen % 8);
    return new BitArray(out, bitLen);
  }

  private check(value: BitArray, offset: number): void {
    checkBitArray(value, offset);
    if (value.bitLen > this.limit) throw new SszError('LIMIT_EXCEEDED', `${value.bitLen} bits exceed the limit of ${this.limit}`, offset);
  }

  _encode(value: BitArray, out: Uint8Array, _dv: DataView, offset: number): number {
    this.check(value, offset);
    const bitLen = value.bitLen;
    out.set(value.uint8Array, offset);
    const delimiterByte = offset + (bitLen >>> 3);
    // When bitLen is a multiple of 8 the delimiter opens a byte of its own.
    out[delimiterByte] = (bitLen % 8 === 0 ? 0 : (out[delimiterByte] as number)) | (1 << bitLen % 8);
    return delimiterByte + 1;
  }
  _size(value: BitArray): number {
    this.check(value, -1);
    return (value.bitLen >>> 3) + 1;
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    const { length } = readMixed(store, node);
    if (length > this.limit) throw new SszError('LIMIT_EXCEEDED', `${length} bits exceed the limit of ${this.limit}`);
    return (length >>> 3) + 1;
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    const { length, contents } = readMixed(store, node);
    if (length > this.limit) throw new SszError('LIMIT_EXCEEDED', `${length} bits exceed the limit of ${this.limit}`);
    const bytes = Math.ceil(length / 8);
    copyLevel(store, contents, depthForLimit(this.chunkLimit), bytes, out, offset);
    if (length % 8 !== 0) checkTopBits(out, offset + bytes - 1, length);
    // The delimiter bit: in the last data byte, or a byte of its own when the length is a multiple of 8.
    const delimiter = offset + (length >>> 3);
    out[delimiter] = (out[delimiter] as number) | (1 << length % 8);
    return delimiter + 1;
  }
  _rootInto(value: BitArray, out: Uint8Array, offset: number): void {
    this.check(value, -1);
    const chunks = new Uint8Array(Math.ceil(value.uint8Array.length / 32) * 32);
    chunks.set(value.uint8Array);
    merkleizeInto(chunks, this.chunkLimit, out, offset);
    mixInLengthInto(out, offset, value.bitLen);
  }
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    // Bit i lives in chunk i / 256 of the contents.
    return packedStep(segment, this.limit, 256, depthForLimit(this.chunkLimit), true);
  }
  _toNode(value: BitArray, store: NodeStore): NodeId {
    this.check(value, -1);
    return store.withLength(store.fromChunks(padChunks(value.uint8Array), depthForLimit(this.chunkLimit)), value.bitLen);
  }
  _fromNode(store: NodeStore, node: NodeId): BitArray {
    const { length, contents } = readMixed(store, node);
    if (length > this.limit) throw new SszError('LIMIT_EXCEEDED', `${length} bits exceed the limit of ${this.limit}`);
    const bytes = Math.ceil(length / 8);
    const chunks = readChunks(store, contents, depthForLimit(this.chunkLimit), Math.ceil(bytes / 32));
    checkPadding(chunks, bytes);
    const value = new BitArray(chunks.slice(0, bytes), length);
    if (length % 8 !== 0 && (value.uint8Array[bytes - 1] as number) >> (length % 8) !== 0) {
      throw new SszError('BAD_BITS', `bits above bit ${length} are set`);
    }
    return value;
  }
  defaultValue(): BitArray {
    return BitArray.fromBitLen(0);
  }
  equals(a: BitArray, b: BitArray): boolean {
    return a.equals(b);
  }
  clone(value: BitArray): BitArray {
    return value.clone();
  }
  _toJson(value: BitArray): Json {
    const out = new Uint8Array(this._size(value));
    this._encode(value, out, new DataView(out.buffer), 0);
    return toHex(out);
  }
  _fromJson(json: unknown): BitArray {
    try {
      return this.decodeBits(fromHex(json), 0);
    } catch (e) {
      if (e instanceof SszError && e.code !== 'INVALID_JSON') throw new SszError('INVALID_JSON', e.detail);
      throw e;
    }
  }
}

/** `Bitlist[limit]`: up to `limit` bits, the value a `BitArray`; serialized with a delimiting bit. */
export function bitlist(limit: number): BitlistType {
  return new BitlistType(limit);
}
