/**
 * `BasicType<V, A>`: the base of the basic schemas (uints and boolean),
 * whose values pack several to a chunk, and `BasicArray`, the array forms
 * their packed sequences use, on the base of every schema (type.ts).
 *
 * Invariant: a basic value's tree is its chunk, the value little-endian at
 * offset 0 and zeros after it (`_toNode`/`_fromNode`/`_fromChunk` agree,
 * and `_fromChunk` rejects non-zero padding), so packed lists and vectors
 * can read and write values straight in their chunks.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError, withPath } from './errors.js';
import { readChunk } from './tree/nodes.js';
import { copyLevel } from './tree/write.js';
import { SszType } from './type.js';

const checkScratch = new Uint8Array(32);
const checkView = new DataView(checkScratch.buffer);
/** Scratch of the generic `_put`: one element encoded, then compared with the bytes in place. */
const putScratch = new Uint8Array(32);
const putView = new DataView(putScratch.buffer);

/** A schema of uints or boolean: several values pack into one chunk. */
export abstract class BasicType<V, A extends BasicArray<V>> extends SszType<V> {
  readonly isBasic = true as const;
  override readonly _rootIsChunk = true;
  override readonly _viewsInput = false;
  abstract readonly byteLength: number;

  /** @internal Basic types' names are canonical (`uint8` … `uint256`, `boolean`; uint64 as bigint or number alike). */
  _shapeKey(): string {
    return this.typeName;
  }

  /** @internal Reads one value at `offset` (bounds already checked). */
  abstract _read(dv: DataView, offset: number): V;
  /** @internal Validates and writes one value at `offset`. */
  abstract _write(dv: DataView, offset: number, value: V): void;

  /**
   * @internal A packed view's store of one element at byte `offset` of
   * `bytes` (`words`: the same memory as int32, `offset` aligned to the
   * element size): 1 when the bytes changed, 0 when they were already
   * these (nothing written), -1 when `value` is not valid (nothing written;
   * the caller then reports the error through `_write`). The common uint
   * types override it with a few typed-array operations; this generic form
   * encodes into a scratch first.
   */
  _put(bytes: Uint8Array, _words: Int32Array, offset: number, value: V): number {
    try {
      this._write(putView, 0, value);
    } catch {
      return -1;
    }
    const n = this.byteLength;
    let k = 0;
    while (k < n && bytes[offset + k] === putScratch[k]) k++;
    if (k === n) return 0;
    for (; k < n; k++) bytes[offset + k] = putScratch[k]!;
    return 1;
  }

  /**
   * @internal True when a value is a bigint whose 8 bytes are its little-endian uint64 (uint64 as bigint on a
   * little-endian platform): a `BigUint64Array` over the bytes then stores it (after a range check, as the
   * store itself wraps) with no conversion through words.
   */
  readonly _bigWords: boolean = false;

  /** @internal Reads one element at `offset` as `_read` does (`bytes` and `dv` over the same memory); overridden where a typed-array load is faster. */
  _peek(_bytes: Uint8Array, dv: DataView, offset: number): V {
    return this._read(dv, offset);
  }

  /** @internal A packed sequence of `n` default values. */
  abstract _newArray(n: number): A;
  /** @internal Decodes `n` packed values at `start` (bounds already checked). */
  _decodeArray(_data: Uint8Array, dv: DataView, start: number, n: number): A {
    const a = this._newArray(n);
    const bl = this.byteLength;
    for (let i = 0; i < n; i++) {
      try {
        a[i] = this._read(dv, start + i * bl);
      } catch (e) {
        throw withPath(e, `[${i}]`);
      }
    }
    return a;
  }
  /** @internal Encodes a packed sequence at `offset`; returns the end offset. */
  _encodeArray(a: A, _out: Uint8Array, dv: DataView, offset: number): number {
    const bl = this.byteLength;
    for (let i = 0; i < a.length; i++) {
      try {
        this._write(dv, offset + i * bl, a[i] as V);
      } catch (e) {
        throw withPath(e, `[${i}]`);
      }
    }
    return offset + a.length * bl;
  }
  /** @internal The elements' bytes packed into zero-padded 32-byte chunks (validating each). */
  abstract _pack(a: A): Uint8Array;
  /** @internal True when `a` has the array form this type uses (checked before fast paths). */
  abstract _isArray(a: unknown): a is A;
  /** @internal A copy of the array form. */
  abstract _cloneArray(a: A): A;
  /** @internal Element-wise equality. */
  _arrayEquals(a: A, b: A): boolean {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!this.equals(a[i] as V, b[i] as V)) return false;
    return true;
  }
  /** @internal Converts any array-like of values (e.g. from JSON) to the array form. */
  _arrayFrom(values: readonly V[]): A {
    const a = this._newArray(values.length);
    for (let i = 0; i < values.length; i++) a[i] = values[i] as V;
    return a;
  }

  _rootInto(value: V, out: Uint8Array, offset: number): void {
    out.fill(0, offset, offset + 32);
    this._write(new DataView(out.buffer, out.byteOffset, out.byteLength), offset, value);
  }
  _size(): number {
    return this.byteLength;
  }
  override _check(value: V): void {
    try {
      this._write(checkView, 0, value);
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }
  _toNode(value: V, store: NodeStore): NodeId {
    const chunk = new Uint8Array(32);
    this._rootInto(value, chunk, 0);
    return store.leaf(chunk);
  }
  _fromNode(store: NodeStore, node: NodeId): V {
    const chunk = readChunk(store, node);
    return this._fromChunk(chunk, new DataView(chunk.buffer), 0);
  }
  override _fromChunk(chunks: Uint8Array, dv: DataView, offset: number): V {
    for (let i = this.byteLength; i < 32; i++) {
      if (chunks[offset + i] !== 0) throw new SszError('BAD_TREE', `a ${this.typeName} chunk has non-zero bytes past its value`);
    }
    return this._read(dv, offset);
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    copyLevel(store, node, 0, this.byteLength, out, offset);
    this._read(dv, offset); // booleans reject bytes above 1, as the decoder does
    return offset + this.byteLength;
  }
  _decode(_data: Uint8Array, dv: DataView, start: number, end: number): V {
    this._checkFixed(start, end);
    return this._read(dv, start);
  }
  _encode(value: V, _out: Uint8Array, dv: DataView, offset: number): number {
    this._write(dv, offset, value);
    return offset + this.byteLength;
  }
  clone(value: V): V {
    return value;
  }
  equals(a: V, b: V): boolean {
    return a === b;
  }
}

/** The indexable, fixed-length array forms packed sequences use (typed arrays or plain arrays). */
export interface BasicArray<V> {
  readonly length: number;
  [index: number]: V;
}
