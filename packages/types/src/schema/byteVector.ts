/**
 * `byteVector(n)` (ByteVector[n], e.g. Bytes32, BLSPubkey): a `Uint8Array` of
 * exactly n bytes. Decoding copies the range in one call; roots of many byte
 * vectors (a column of pubkeys) are hashed together with one `hashInto` per
 * level.
 * @module
 */
import { SszError } from '../errors.js';
import { fromHex, toHex, type Json } from '../json.js';
import { batchSize, depthForLimit, foldSubtrees, merkleizeInto } from '../merkle.js';
import { SszType } from '../type.js';

export class ByteVectorType extends SszType<Uint8Array> {
  readonly typeName: string;
  readonly fixedSize: number;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;
  /** Chunks in the padded tree: 2^depth. */
  private readonly depth: number;

  constructor(readonly length: number) {
    super();
    if (!Number.isSafeInteger(length) || length < 1) {
      throw new SszError('INVALID_TYPE', `a byte vector needs a length >= 1, got ${length}`, -1, `ByteVector[${length}]`);
    }
    this.typeName = `ByteVector[${length}]`;
    this.fixedSize = this.minSize = this.maxSize = length;
    this.depth = depthForLimit(Math.ceil(length / 32));
  }

  _decode(data: Uint8Array, _dv: DataView, start: number, end: number): Uint8Array {
    this._checkFixed(start, end);
    return data.slice(start, end);
  }

  private check(value: Uint8Array, offset: number): void {
    if (!(value instanceof Uint8Array) || value.length !== this.length) {
      const got = value instanceof Uint8Array ? `${value.length} bytes` : typeof value;
      throw new SszError('INVALID_VALUE', `expected a Uint8Array of ${this.length} bytes, got ${got}`, offset);
    }
  }

  _encode(value: Uint8Array, out: Uint8Array, _dv: DataView, offset: number): number {
    this.check(value, offset);
    out.set(value, offset);
    return offset + this.length;
  }

  _size(value: Uint8Array): number {
    this.check(value, -1);
    return this.length;
  }

  _rootInto(value: Uint8Array, out: Uint8Array, offset: number): void {
    this.check(value, -1);
    if (this.length <= 32) {
      out.fill(0, offset, offset + 32);
      out.set(value, offset);
      return;
    }
    const padded = new Uint8Array(32 << this.depth);
    padded.set(value);
    merkleizeInto(padded, 1 << this.depth, out, offset);
  }

  override _rootsInto(values: readonly Uint8Array[], out: Uint8Array, offset: number): void {
    const stride = 32 << this.depth;
    const batch = batchSize(this.depth);
    const buf = new Uint8Array(stride * Math.min(batch, values.length));
    for (let first = 0; first < values.length; first += batch) {
      const count = Math.min(batch, values.length - first);
      if (this.length !== stride) buf.fill(0, 0, stride * count);
      for (let i = 0; i < count; i++) {
        const value = values[first + i] as Uint8Array;
        this.check(value, -1);
        buf.set(value, i * stride);
      }
      foldSubtrees(buf, count, this.depth);
      out.set(buf.subarray(0, 32 * count), offset + 32 * first);
    }
  }

  defaultValue(): Uint8Array {
    return new Uint8Array(this.length);
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
    if (bytes.length !== this.length) throw new SszError('INVALID_JSON', `expected ${this.length} bytes of hex, got ${bytes.length}`);
    return bytes;
  }
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function byteVector(length: number): ByteVectorType {
  return new ByteVectorType(length);
}
