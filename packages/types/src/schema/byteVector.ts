/**
 * `byteVector(n)` (ByteVector[n], e.g. Bytes32, BLSPubkey): a `Uint8Array` of
 * exactly n bytes. Decoding copies the range in one call; roots of many byte
 * vectors (a column of pubkeys) are hashed together with one `hashInto` per
 * level.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import { fromHex, toHex, type Json } from '../json.js';
import { batchSize, depthForLimit, foldSubtrees, growScratch, merkleizeInto, scatterRoots } from '../merkle.js';
import { checkPadding } from '../tree/elements.js';
import { preimages } from '../tree/preimages.js';
import { readChunk, readChunks } from '../tree/nodes.js';
import { copyLevel } from '../tree/write.js';
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
    this._rootIsChunk = length <= 32;
    this._preimageLength = length > 32 && length <= 64 ? length : 0;
  }
  override readonly _rootIsChunk: boolean;
  override readonly _preimageLength: number;

  /** @internal The SSZ definition as a canonical key (`shape.ts`). ByteVector[N] is Vector[byte, N] in the spec: the same tree. */
  _shapeKey(): string {
    return `Vector[uint8,${this.length}]`;
  }

  _decode(data: Uint8Array, _dv: DataView, start: number, end: number): Uint8Array {
    this._checkFixed(start, end);
    // A view of the decoder's private copy: one bulk copy instead of one allocation per field.
    return new Uint8Array(data.buffer, data.byteOffset + start, end - start);
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

  _toNode(value: Uint8Array, store: NodeStore): NodeId {
    this.check(value, -1);
    return store.fromChunks(padChunks(value), this.depth);
  }
  _fromNode(store: NodeStore, node: NodeId): Uint8Array {
    // Inside a packed record the field is a leaf holding its root.
    if (this._preimageLength > 0 && store.kind(node) === 'leaf') return this._fromChunk(readChunk(store, node), NO_DV, 0, store);
    const chunks = readChunks(store, node, this.depth, Math.ceil(this.length / 32));
    checkPadding(chunks, this.length);
    return chunks.subarray(0, this.length);
  }

  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    if (this._preimageLength > 0 && store.kind(node) === 'leaf') {
      // Inside a packed record the field is a leaf holding its root: the bytes come from the preimage table.
      if (!preimages(store, this.length).copyInto(readChunk(store, node), 0, dv, offset)) {
        throw new SszError('BAD_TREE', `no known ${this.length}-byte preimage of a record's field root`);
      }
      return offset + this.length;
    }
    copyLevel(store, node, this.depth, this.length, out, offset);
    return offset + this.length;
  }

  override _fromChunk(chunks: Uint8Array, _dv: DataView, offset: number, store?: NodeStore): Uint8Array {
    if (this._preimageLength > 0) {
      if (store === undefined) throw new SszError('BAD_TREE', `a ${this.length}-byte field's root needs its store to be read back`);
      const bytes = preimages(store, this.length).get(chunks, offset);
      if (bytes === null) throw new SszError('BAD_TREE', `no known ${this.length}-byte preimage of a record's field root`);
      return bytes;
    }
    if (!this._rootIsChunk) return super._fromChunk(chunks, _dv, offset);
    checkPadding(chunks.subarray(offset, offset + 32), this.length);
    return chunks.slice(offset, offset + this.length);
  }

  /** @internal The field as one leaf holding its root, the preimage recorded (packed records). */
  _chunkNode(value: Uint8Array, store: NodeStore): NodeId {
    const chunk = new Uint8Array(32);
    this._rootInto(value, chunk, 0);
    if (this._preimageLength > 0) {
      // Reserve before the insert: a compaction may only run while every recorded root is held by a node.
      const table = preimages(store, this.length);
      table.reserve(1);
      table.set(chunk, 0, value, 0);
    }
    return store.leaf(chunk);
  }

  override _chunkInto(value: Uint8Array, out: Uint8Array, offset: number): void {
    this.check(value, -1);
    out.set(value, offset);
  }

  override _rootsInto(values: readonly Uint8Array[], out: Uint8Array, offset: number, stride = 32): void {
    const width = 32 << this.depth;
    const batch = batchSize(this.depth);
    const buf = (this.scratch = growScratch(this.scratch, width * Math.min(batch, values.length)));
    for (let first = 0; first < values.length; first += batch) {
      const count = Math.min(batch, values.length - first);
      if (this.length !== width) buf.fill(0, 0, width * count);
      for (let i = 0; i < count; i++) {
        const value = values[first + i] as Uint8Array;
        if (!(value instanceof Uint8Array) || value.length !== this.length) {
          throw withPath(new SszError('INVALID_VALUE', `expected a Uint8Array of ${this.length} bytes`), `[${first + i}]`);
        }
        buf.set(value, i * width);
      }
      foldSubtrees(buf, count, this.depth);
      scatterRoots(buf, 0, out, offset + stride * first, count, stride);
    }
  }
  /** Batch scratch, reused across calls (a byte vector never contains itself, so no re-entry). */
  private scratch: Uint8Array | null = null;

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

const NO_DV = new DataView(new ArrayBuffer(0));

/** `bytes` zero-padded to whole chunks (the input itself when already whole). */
export function padChunks(bytes: Uint8Array): Uint8Array {
  if (bytes.length % 32 === 0) return bytes;
  const out = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
  out.set(bytes);
  return out;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `ByteVector[length]` (`Bytes32`, `BLSPubkey`, …): exactly `length` bytes, the value a `Uint8Array`. */
export function byteVector(length: number): ByteVectorType {
  return new ByteVectorType(length);
}
