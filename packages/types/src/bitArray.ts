/**
 * `BitArray`: the value of bitvectors and bitlists — the bits packed
 * little-endian in bytes (bit i is bit i%8 of byte i/8, as SSZ lays them
 * out), plus the bit count.
 *
 * Invariant: `uint8Array.length === ceil(bitLen / 8)` and the bits at and
 * above `bitLen` in the last byte are zero; the codecs reject values that
 * break it rather than serialize padding bits.
 * @module
 */
import { SszError } from './errors.js';

export class BitArray {
  constructor(
    /** The packed bits; owned by this BitArray. */
    readonly uint8Array: Uint8Array,
    /** The number of bits. */
    readonly bitLen: number,
  ) {}

  /** All-false bits of the given length. */
  static fromBitLen(bitLen: number): BitArray {
    return new BitArray(new Uint8Array(Math.ceil(bitLen / 8)), bitLen);
  }

  /** Bits from booleans, index 0 first. */
  static fromBoolArray(bits: readonly boolean[]): BitArray {
    const array = BitArray.fromBitLen(bits.length);
    for (let i = 0; i < bits.length; i++) if (bits[i]) array.set(i, true);
    return array;
  }

  /** Bit `index` (outside 0..bitLen − 1 throws `SszError` `INVALID_VALUE`). */
  get(index: number): boolean {
    this.checkIndex(index);
    return ((this.uint8Array[index >>> 3] as number) & (1 << (index & 7))) !== 0;
  }

  /** Sets bit `index` (out of range throws like `get`). */
  set(index: number, value: boolean): void {
    this.checkIndex(index);
    const byte = index >>> 3;
    const mask = 1 << (index & 7);
    const old = this.uint8Array[byte] as number;
    this.uint8Array[byte] = value ? old | mask : old & ~mask;
  }

  /** The bits as booleans, index 0 first. */
  toBoolArray(): boolean[] {
    const out = new Array<boolean>(this.bitLen);
    for (let i = 0; i < this.bitLen; i++) out[i] = ((this.uint8Array[i >>> 3] as number) & (1 << (i & 7))) !== 0;
    return out;
  }

  /** Indices of the set bits, ascending. */
  getTrueBitIndexes(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.bitLen; i++) if (((this.uint8Array[i >>> 3] as number) & (1 << (i & 7))) !== 0) out.push(i);
    return out;
  }

  /** A copy with its own bytes. */
  clone(): BitArray {
    return new BitArray(this.uint8Array.slice(), this.bitLen);
  }

  /** Same length and same bits. */
  equals(other: BitArray): boolean {
    if (this.bitLen !== other.bitLen || this.uint8Array.length !== other.uint8Array.length) return false;
    for (let i = 0; i < this.uint8Array.length; i++) if (this.uint8Array[i] !== other.uint8Array[i]) return false;
    return true;
  }

  private checkIndex(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.bitLen) {
      throw new SszError('INVALID_VALUE', `bit index ${index} is outside 0..${this.bitLen - 1}`);
    }
  }
}

/** Validates the BitArray invariant; `offset` locates the error when encoding. */
export function checkBitArray(value: BitArray, offset: number): void {
  if (!(value instanceof BitArray)) throw new SszError('INVALID_VALUE', 'expected a BitArray', offset);
  const { uint8Array, bitLen } = value;
  if (!Number.isSafeInteger(bitLen) || bitLen < 0 || uint8Array.length !== Math.ceil(bitLen / 8)) {
    throw new SszError('INVALID_VALUE', `a BitArray of ${bitLen} bits must hold ${Math.ceil(bitLen / 8)} bytes, got ${uint8Array.length}`, offset);
  }
  if (bitLen % 8 !== 0 && (uint8Array[uint8Array.length - 1] as number) >> (bitLen % 8) !== 0) {
    throw new SszError('INVALID_VALUE', `bits at and above bitLen ${bitLen} are set`, offset);
  }
}
