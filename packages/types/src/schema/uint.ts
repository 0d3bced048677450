/**
 * Unsigned integers: uint8/16/32 as `number`, uint64/128/256 as `bigint`, and
 * `uint64Number`, a uint64 carried as a `number` for hot fields.
 *
 * Packed sequences (vectors and lists of uints) use typed arrays where one
 * exists — Uint8Array, Uint16Array, Uint32Array, BigUint64Array — so that on
 * a little-endian host encoding, decoding and chunk packing are single byte
 * copies. uint128/256 and uint64Number sequences are plain arrays.
 *
 * uint64Number rule: values 0..2^53 are exact; 2^64-1 (FAR_FUTURE_EPOCH)
 * decodes to `Infinity` and `Infinity` encodes to 2^64-1; every other value
 * above 2^53 is rejected with an SszError when decoding (a number would hold
 * it inexactly), and non-integers or values above 2^53 are rejected when
 * encoding. Never a silently wrong value.
 * @module
 */
import { SszError, withPath } from '../errors.js';
import { parseUint, type Json } from '../json.js';
import { BasicType, type BasicArray } from '../basicType.js';

export const LITTLE_ENDIAN = /* @__PURE__ */ new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type UintTypedArray = Uint8Array | Uint16Array | Uint32Array;
interface TypedArrayCtor<A> {
  new (n: number): A;
}

/** A view of a typed array's bytes. */
function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Packs little-endian element bytes into whole chunks, zero padded; a view when no padding is needed. */
function padToChunks(bytes: Uint8Array): Uint8Array {
  if (bytes.length % 32 === 0) return bytes;
  const out = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
  out.set(bytes);
  return out;
}

/** uint8, uint16, uint32 as numbers; sequences as Uint8Array / Uint16Array / Uint32Array. */
export class UintNumberType<A extends UintTypedArray> extends BasicType<number, A> {
  readonly typeName: string;
  readonly fixedSize: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly byteLength: number;
  private readonly max: number;

  constructor(
    byteLength: 1 | 2 | 4,
    private readonly Ctor: TypedArrayCtor<A>,
  ) {
    super();
    this.byteLength = this.fixedSize = this.minSize = this.maxSize = byteLength;
    this.typeName = `uint${8 * byteLength}`;
    this.max = 2 ** (8 * byteLength) - 1;
  }

  _read(dv: DataView, offset: number): number {
    return this.byteLength === 1 ? dv.getUint8(offset) : this.byteLength === 2 ? dv.getUint16(offset, true) : dv.getUint32(offset, true);
  }

  _write(dv: DataView, offset: number, value: number): void {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > this.max) {
      throw new SszError('INVALID_VALUE', `${String(value)} is not a ${this.typeName}`, offset);
    }
    if (this.byteLength === 1) dv.setUint8(offset, value);
    else if (this.byteLength === 2) dv.setUint16(offset, value, true);
    else dv.setUint32(offset, value, true);
  }

  /** @internal One element stored with typed-array operations (little-endian hosts; the generic form elsewhere). */
  override _put(bytes: Uint8Array, words: Int32Array, offset: number, value: number): number {
    if (!LITTLE_ENDIAN) return super._put(bytes, words, offset, value);
    const n = this.byteLength;
    if (n === 1) {
      if (typeof value !== 'number' || (value & 0xff) !== value) return -1;
      if (bytes[offset] === value) return 0;
      bytes[offset] = value;
      return 1;
    }
    if (n === 4) {
      if (typeof value !== 'number' || value >>> 0 !== value) return -1;
      const w = offset >>> 2;
      if (words[w] === (value | 0)) return 0;
      words[w] = value;
      return 1;
    }
    if (typeof value !== 'number' || (value & 0xffff) !== value) return -1;
    if (bytes[offset] === (value & 0xff) && bytes[offset + 1] === value >>> 8) return 0;
    bytes[offset] = value;
    bytes[offset + 1] = value >>> 8;
    return 1;
  }

  override _peek(bytes: Uint8Array, dv: DataView, offset: number): number {
    return this.byteLength === 1 ? bytes[offset]! : this._read(dv, offset);
  }

  _newArray(n: number): A {
    return new this.Ctor(n);
  }
  _isArray(a: unknown): a is A {
    return a instanceof this.Ctor;
  }
  _cloneArray(a: A): A {
    return a.slice() as A;
  }

  override _decodeArray(data: Uint8Array, dv: DataView, start: number, n: number): A {
    if (!LITTLE_ENDIAN) return super._decodeArray(data, dv, start, n);
    const a = new this.Ctor(n);
    bytesOf(a).set(data.subarray(start, start + n * this.byteLength));
    return a;
  }

  override _encodeArray(a: A, out: Uint8Array, dv: DataView, offset: number): number {
    if (!LITTLE_ENDIAN || !this._isArray(a)) return super._encodeArray(a, out, dv, offset);
    out.set(bytesOf(a), offset);
    return offset + a.byteLength;
  }

  /** @internal Element bytes packed into zero-padded chunks. */
  _pack(a: A): Uint8Array {
    if (LITTLE_ENDIAN && this._isArray(a)) return padToChunks(bytesOf(a));
    return packGeneric(this, a);
  }

  override _arrayEquals(a: A, b: A): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  defaultValue(): number {
    return 0;
  }
  _toJson(value: number): Json {
    return String(value);
  }
  _fromJson(json: unknown): number {
    return Number(parseUint(json, BigInt(this.max)));
  }
}

const MAX64 = (1n << 64n) - 1n;
const u64Scratch = new BigUint64Array(1);
const u64Words = new Int32Array(u64Scratch.buffer);

/** uint64 as bigint; sequences as BigUint64Array. */
export class Uint64Type extends BasicType<bigint, BigUint64Array> {
  readonly typeName = 'uint64';
  readonly fixedSize = 8;
  readonly minSize = 8;
  readonly maxSize = 8;
  readonly byteLength = 8;
  override readonly _bigWords = LITTLE_ENDIAN;

  _read(dv: DataView, offset: number): bigint {
    return dv.getBigUint64(offset, true);
  }
  _write(dv: DataView, offset: number, value: bigint): void {
    // setBigUint64 would silently wrap an out-of-range value. (BigInt.asUintN(64, v) !== v
    // measured faster in isolation but deoptimized inside the generated codecs.)
    if (typeof value !== 'bigint' || value < 0n || value > MAX64) {
      throw new SszError('INVALID_VALUE', `${String(value)} is not a uint64 bigint`, offset);
    }
    dv.setBigUint64(offset, value, true);
  }
  /**
   * @internal One element stored as two int32 words (the bigint converted once, into a scratch; no BigInt is read back).
   * The range is checked by `asUintN` (a value in range is its own residue): the two comparisons with 0n and
   * MAX64 it replaced took about a third of a packed `set` on a dirty page (balances, node 20: 2^20 sets
   * ~26 ms against ~18 ms, the machine shared; scratch loop over profile-realistic's state).
   */
  override _put(bytes: Uint8Array, words: Int32Array, offset: number, value: bigint): number {
    if (!LITTLE_ENDIAN) return super._put(bytes, words, offset, value);
    if (typeof value !== 'bigint' || BigInt.asUintN(64, value) !== value) return -1;
    u64Scratch[0] = value;
    const lo = u64Words[0]!;
    const hi = u64Words[1]!;
    const w = offset >>> 2;
    if (words[w] === lo && words[w + 1] === hi) return 0;
    words[w] = lo;
    words[w + 1] = hi;
    return 1;
  }
  _newArray(n: number): BigUint64Array {
    return new BigUint64Array(n);
  }
  _isArray(a: unknown): a is BigUint64Array {
    return a instanceof BigUint64Array;
  }
  _cloneArray(a: BigUint64Array): BigUint64Array {
    return a.slice();
  }
  override _decodeArray(data: Uint8Array, dv: DataView, start: number, n: number): BigUint64Array {
    if (!LITTLE_ENDIAN) return super._decodeArray(data, dv, start, n);
    const a = new BigUint64Array(n);
    bytesOf(a).set(data.subarray(start, start + 8 * n));
    return a;
  }
  override _encodeArray(a: BigUint64Array, out: Uint8Array, dv: DataView, offset: number): number {
    if (!LITTLE_ENDIAN || !this._isArray(a)) return super._encodeArray(a, out, dv, offset);
    out.set(bytesOf(a), offset);
    return offset + a.byteLength;
  }
  _pack(a: BigUint64Array): Uint8Array {
    if (LITTLE_ENDIAN && this._isArray(a)) return padToChunks(bytesOf(a));
    return packGeneric(this, a);
  }
  override _arrayEquals(a: BigUint64Array, b: BigUint64Array): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  defaultValue(): bigint {
    return 0n;
  }
  _toJson(value: bigint): Json {
    return value.toString(10);
  }
  _fromJson(json: unknown): bigint {
    return parseUint(json, MAX64);
  }
}

/** uint128 and uint256 as bigint; sequences as bigint[]. */
export class UintBigType extends BasicType<bigint, bigint[]> {
  readonly typeName: string;
  readonly fixedSize: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly byteLength: number;
  private readonly max: bigint;
  private readonly words: number;

  constructor(byteLength: 16 | 32) {
    super();
    this.byteLength = this.fixedSize = this.minSize = this.maxSize = byteLength;
    this.typeName = `uint${8 * byteLength}`;
    this.max = (1n << BigInt(8 * byteLength)) - 1n;
    this.words = byteLength / 8;
  }
  _read(dv: DataView, offset: number): bigint {
    let v = 0n;
    for (let w = this.words - 1; w >= 0; w--) v = (v << 64n) | dv.getBigUint64(offset + 8 * w, true);
    return v;
  }
  _write(dv: DataView, offset: number, value: bigint): void {
    if (typeof value !== 'bigint' || value < 0n || value > this.max) {
      throw new SszError('INVALID_VALUE', `${String(value)} is not a ${this.typeName} bigint`, offset);
    }
    for (let w = 0; w < this.words; w++, value >>= 64n) dv.setBigUint64(offset + 8 * w, value & MAX64, true);
  }
  _newArray(n: number): bigint[] {
    return new Array<bigint>(n).fill(0n);
  }
  _isArray(a: unknown): a is bigint[] {
    return Array.isArray(a);
  }
  _cloneArray(a: bigint[]): bigint[] {
    return a.slice();
  }
  _pack(a: bigint[]): Uint8Array {
    return packGeneric(this, a);
  }
  defaultValue(): bigint {
    return 0n;
  }
  _toJson(value: bigint): Json {
    return value.toString(10);
  }
  _fromJson(json: unknown): bigint {
    return parseUint(json, this.max);
  }
}

const TWO_POW_32 = 2 ** 32;
const TWO_POW_53 = 2 ** 53;
const MAX64_DECIMAL = MAX64.toString(10);

/** uint64 as a number: exact to 2^53, 2^64-1 <-> Infinity, anything else above 2^53 rejected. */
export class Uint64NumberType extends BasicType<number, number[]> {
  readonly typeName = 'uint64';
  readonly fixedSize = 8;
  readonly minSize = 8;
  readonly maxSize = 8;
  readonly byteLength = 8;

  _read(dv: DataView, offset: number): number {
    const lo = dv.getUint32(offset, true);
    const hi = dv.getUint32(offset + 4, true);
    if (hi <= 0x1fffff || (hi === 0x200000 && lo === 0)) return hi * TWO_POW_32 + lo;
    if (hi === 0xffffffff && lo === 0xffffffff) return Infinity;
    throw new SszError('INVALID_VALUE', 'a uint64 above 2^53 other than 2^64-1 cannot be held exactly by uint64Number', offset);
  }
  _write(dv: DataView, offset: number, value: number): void {
    // Fast path: a uint32, the common case for epochs and indices.
    if (typeof value === 'number' && (value >>> 0) === value) {
      dv.setUint32(offset, value, true);
      dv.setUint32(offset + 4, 0, true);
      return;
    }
    if (value === Infinity) {
      dv.setUint32(offset, 0xffffffff, true);
      dv.setUint32(offset + 4, 0xffffffff, true);
      return;
    }
    if (typeof value !== 'number' || !(value >= 0 && value <= TWO_POW_53) || Math.floor(value) !== value) {
      throw new SszError('INVALID_VALUE', `${String(value)} is not a uint64Number (an integer 0..2^53, or Infinity)`, offset);
    }
    // ToUint32 takes the low word exactly for integers up to 2^53; the high word fits in 22 bits.
    dv.setUint32(offset, value >>> 0, true);
    dv.setUint32(offset + 4, (value / TWO_POW_32) >>> 0, true);
  }
  /** Packs without per-element bookkeeping; on a bad element, the generic path re-finds it with its index. */
  _pack(a: number[]): Uint8Array {
    if (!LITTLE_ENDIAN || !Array.isArray(a)) return packGeneric(this, a);
    const out = new Uint8Array(Math.ceil(a.length / 4) * 32);
    // Word stores into a Uint32Array view beat DataView calls in this loop.
    const words = new Uint32Array(out.buffer);
    for (let i = 0; i < a.length; i++) {
      const v = a[i] as number;
      if (typeof v === 'number' && v >= 0 && v <= TWO_POW_53 && Math.floor(v) === v) {
        words[2 * i] = v >>> 0;
        words[2 * i + 1] = (v / TWO_POW_32) >>> 0;
      } else if (v === Infinity) {
        words[2 * i] = 0xffffffff;
        words[2 * i + 1] = 0xffffffff;
      } else {
        return packGeneric(this, a); // re-finds the bad element and names its index
      }
    }
    return out;
  }
  override _encodeArray(a: number[], out: Uint8Array, dv: DataView, offset: number): number {
    try {
      for (let i = 0; i < a.length; i++) this._write(dv, offset + 8 * i, a[i] as number);
    } catch {
      return super._encodeArray(a, out, dv, offset);
    }
    return offset + 8 * a.length;
  }
  override _decodeArray(data: Uint8Array, dv: DataView, start: number, n: number): number[] {
    const a = new Array<number>(n);
    try {
      for (let i = 0; i < n; i++) a[i] = this._read(dv, start + 8 * i);
    } catch {
      return super._decodeArray(data, dv, start, n);
    }
    return a;
  }
  _newArray(n: number): number[] {
    return new Array<number>(n).fill(0);
  }
  _isArray(a: unknown): a is number[] {
    return Array.isArray(a);
  }
  _cloneArray(a: number[]): number[] {
    return a.slice();
  }
  defaultValue(): number {
    return 0;
  }
  _toJson(value: number): Json {
    return value === Infinity ? MAX64_DECIMAL : String(value);
  }
  _fromJson(json: unknown): number {
    const v = parseUint(json, MAX64);
    if (v === MAX64) return Infinity;
    if (v > BigInt(TWO_POW_53)) throw new SszError('INVALID_JSON', `${v} is above 2^53 and not 2^64-1`);
    return Number(v);
  }
}

/** Packs any sequence element by element through `_write` (validating each). */
export function packGeneric<V, A extends BasicArray<V>>(type: BasicType<V, A>, a: A): Uint8Array {
  const out = new Uint8Array(Math.ceil((a.length * type.byteLength) / 32) * 32);
  const dv = new DataView(out.buffer);
  const bl = type.byteLength;
  for (let i = 0; i < a.length; i++) {
    try {
      type._write(dv, i * bl, a[i] as V);
    } catch (e) {
      throw withPath(e, `[${i}]`);
    }
  }
  return out;
}

/** `uint8`: a `number` value; packed lists of it are `Uint8Array`s. */
export const uint8 = /* @__PURE__ */ new UintNumberType<Uint8Array>(1, Uint8Array);
/** `uint16`: a `number` value; packed lists of it are `Uint16Array`s. */
export const uint16 = /* @__PURE__ */ new UintNumberType<Uint16Array>(2, Uint16Array);
/** `uint32`: a `number` value; packed lists of it are `Uint32Array`s. */
export const uint32 = /* @__PURE__ */ new UintNumberType<Uint32Array>(4, Uint32Array);
/** `uint64`: a `bigint` value (the consensus form); packed lists of it are `BigUint64Array`s. */
export const uint64 = /* @__PURE__ */ new Uint64Type();
/** `uint128`: a `bigint` value. */
export const uint128 = /* @__PURE__ */ new UintBigType(16);
/** `uint256`: a `bigint` value. */
export const uint256 = /* @__PURE__ */ new UintBigType(32);
/** `uint64` with `number` values: exact up to 2^53, 2^64 − 1 is `Infinity`, anything else above 2^53 is rejected (docs/TYPES.md). */
export const uint64Number = /* @__PURE__ */ new Uint64NumberType();
