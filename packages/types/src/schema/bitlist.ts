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

/**
 * The value half every bitlist kind shares (`Bitlist[N]` here,
 * `ProgressiveBitList` in progressiveBitlist.ts): the codec with its
 * delimiter bit, the bit bound, defaults, equality, copies and JSON.
 */
export abstract class BitlistBase extends SszType<BitArray> {
  readonly fixedSize = null;
  readonly minSize = 1;
  readonly isBasic = false;

  constructor(
    /** The most bits. */
    readonly limit: number,
    /** The bound as errors name it (`the limit of N`). */
    private readonly phrase: string,
  ) {
    super();
  }

  override readonly _limitBoundsSize = true;

  _decode(data: Uint8Array, _dv: DataView, start: number, end: number): BitArray {
    return this.decodeBits(data.subarray(start, end), start);
  }

  override _checkLayout(read: ByteReader, start: number, end: number): void {
    this.bitLength(end - start, end > start ? (read(end - 1, end)[0] as number) : 0, start);
  }

  /** The bit count `size` bytes ending in `last` hold, or the error their delimiter or the bound raises. */
  private bitLength(size: number, last: number, start: number): number {
    if (size === 0) throw new SszError('BAD_BITS', 'a bitlist needs at least its delimiter byte', start);
    if (last === 0) throw new SszError('BAD_BITS', 'the last byte holds no delimiter bit', start + size - 1);
    const bitLen = 8 * (size - 1) + (31 - Math.clz32(last));
    if (bitLen > this.limit) {
      throw new SszError('LIMIT_EXCEEDED', `${bitLen} bits exceed ${this.phrase}`, start + size - 1);
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

  /** @internal Validates a value (`offset` locates the error when encoding). */
  _checkValue(value: BitArray, offset: number): void {
    checkBitArray(value, offset);
    if (value.bitLen > this.limit) throw new SszError('LIMIT_EXCEEDED', `${value.bitLen} bits exceed ${this.phrase}`, offset);
  }

  /** @internal The length stored at `node` (checked against the bound) and the contents node. */
  _lengthOf(store: NodeStore, node: NodeId): { length: number; contents: NodeId } {
    const mixed = readMixed(store, node);
    if (mixed.length > this.limit) throw new SszError('LIMIT_EXCEEDED', `${mixed.length} bits exceed ${this.phrase}`);
    return mixed;
  }

  _encode(value: BitArray, out: Uint8Array, _dv: DataView, offset: number): number {
    this._checkValue(value, offset);
    const bitLen = value.bitLen;
    out.set(value.uint8Array, offset);
    const delimiterByte = offset + (bitLen >>> 3);
    // When bitLen is a multiple of 8 the delimiter opens a byte of its own.
    out[delimiterByte] = (bitLen % 8 === 0 ? 0 : (out[delimiterByte] as number)) | (1 << bitLen % 8);
    return delimiterByte + 1;
  }
  _size(value: BitArray): number {
    this._checkValue(value, -1);
    return (value.bitLen >>> 3) + 1;
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    return (this._lengthOf(store, node).length >>> 3) + 1;
  }
  /** @internal Writes the bits of `contents` (whose first `length` bits are the value, read by `copyBits`) and the delimiter at out[offset]. */
  protected _writeBits(length: number, copyBits: (bytes: number) => void, out: Uint8Array, offset: number): number {
    const bytes = Math.ceil(length / 8);
    copyBits(bytes);
    if (length % 8 !== 0) checkTopBits(out, offset + bytes - 1, length);
    // The delimiter bit: in the last data byte, or a byte of its own when the length is a multiple of 8.
    const delimiter = offset + (length >>> 3);
    out[delimiter] = (out[delimiter] as number) | (1 << length % 8);
    return delimiter + 1;
  }
  /** @internal The value of `length` bits read from `chunks` (zero padded past them, as the tree must be). */
  protected _bitsOf(chunks: Uint8Array, length: number): BitArray {
    const bytes = Math.ceil(length / 8);
    checkPadding(chunks, bytes);
    const value = new BitArray(chunks.slice(0, bytes), length);
    if (length % 8 !== 0 && (value.uint8Array[bytes - 1] as number) >> (length % 8) !== 0) {
      throw new SszError('BAD_BITS', `bits above bit ${length} are set`);
    }
    return value;
  }
  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    return super._pathStep(segment);
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

export class BitlistType extends BitlistBase {
  readonly typeName: string;
  readonly maxSize: number;
  private readonly chunkLimit: number;

  constructor(limit: number) {
    super(limit, `the limit of ${limit}`);
    if (!Number.isSafeInteger(limit) || limit < 0) {
      throw new SszError('INVALID_TYPE', `a bitlist needs a limit >= 0, got ${limit}`, -1, `Bitlist[${limit}]`);
    }
    this.typeName = `Bitlist[${limit}]`;
    this.maxSize = Math.floor(limit / 8) + 1;
    this.chunkLimit = Math.ceil(limit / 256);
  }

  override _pathStep(segment: PathSegment): PathStep {
    if (segment === 'length') return LENGTH_STEP;
    // Bit i lives in chunk i / 256 of the contents.
    return packedStep(segment, this.limit, 256, depthForLimit(this.chunkLimit), true);
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). */
  _shapeKey(): string {
    return `Bitlist[${this.limit}]`;
  }

  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, _dv: DataView, offset: number): number {
    const { length, contents } = this._lengthOf(store, node);
    return this._writeBits(length, (bytes) => copyLevel(store, contents, depthForLimit(this.chunkLimit), bytes, out, offset), out, offset);
  }
  _rootInto(value: BitArray, out: Uint8Array, offset: number): void {
    this._checkValue(value, -1);
    const chunks = new Uint8Array(Math.ceil(value.uint8Array.length / 32) * 32);
    chunks.set(value.uint8Array);
    merkleizeInto(chunks, this.chunkLimit, out, offset);
    mixInLengthInto(out, offset, value.bitLen);
  }
  _toNode(value: BitArray, store: NodeStore): NodeId {
    this._checkValue(value, -1);
    return store.withLength(store.fromChunks(padChunks(value.uint8Array), depthForLimit(this.chunkLimit)), value.bitLen);
  }
  _fromNode(store: NodeStore, node: NodeId): BitArray {
    const { length, contents } = this._lengthOf(store, node);
    return this._bitsOf(readChunks(store, contents, depthForLimit(this.chunkLimit), Math.ceil(length / 256)), length);
  }
}

/** `Bitlist[limit]`: up to `limit` bits, the value a `BitArray`; serialized with a delimiting bit. */
export function bitlist(limit: number): BitlistType {
  return new BitlistType(limit);
}
