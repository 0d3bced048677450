/**
 * `container(fields, name)`: an ordered record of named fields; the value is
 * a plain object with the declared keys.
 *
 * Layout: the fixed part holds fixed-size fields inline and a 4-byte offset
 * for each variable-size field, the variable part holds their bodies in
 * field order. Decoding checks every offset before decoding any field: the
 * first equals the fixed part's size, none decreases, none passes the end.
 *
 * Roots: a lone value merkleizes its field roots (padded to a power of two)
 * with one fold; many values (the elements of a list) are hashed in
 * batches — field roots are written column by column into one buffer of
 * `count × 2^depth` chunks, composite columns through the field type's own
 * batched `_rootsInto`, and the buffer is folded with one `hashInto` per
 * level for all values at once.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import { expectObject, type Json } from '../json.js';
import { batchSize, depthForLimit, foldSubtrees, growScratch, scatterRoots } from '../merkle.js';
import { defaultStore, registerRecordLayout, Tree } from '@ssztree/core';
import { readNodes, subtreeFromNodes } from '../tree/nodes.js';
import { checkTopBits, levelNodes } from '../tree/write.js';
import { preimages, registerPreimagePosition, type PreimageTable } from '../tree/preimages.js';
import type { PathSegment, PathStep } from '../view/proofs.js';
import { containerViewClass, type FieldSlot } from '../view/container.js';
import type { ContainerView } from '../view/types.js';
import { BasicType, SszType, type ValueOf } from '../type.js';
import { BooleanType } from './boolean.js';
import { BitvectorType } from './bitvector.js';
import { generateCodec, type CodegenField } from './containerCodegen.js';
import { shapeKey } from '../shape.js';

/** The schema of each field: any SSZ type. */
export type Fields = Record<string, SszType<unknown>>;
/** The plain-object value of a container with these fields. */
export type ContainerValue<F extends Fields> = { [K in keyof F]: ValueOf<F[K]> };

interface FieldInfo extends CodegenField {
  readonly name: string;
  readonly type: SszType<unknown>;
}

/** Copies `len` bytes from `src[s]` to `dst[d]`, a 32-bit word at a time, then the tail byte by byte. */
function copyBytes(src: DataView, s: number, dst: DataView, d: number, len: number): void {
  let k = 0;
  for (; k + 4 <= len; k += 4) dst.setUint32(d + k, src.getUint32(s + k, true), true);
  for (; k < len; k++) dst.setUint8(d + k, src.getUint8(s + k));
}

/** Wide-leaf kinds by the low 4 bits of an id: 4 + inner depth - 1 (docs/CORE.md). */
const KIND_WIDE_BASE = 4;
const FIELD_COPY = 0;
const FIELD_BOOLEAN = 1;
const FIELD_BITS = 2;
const FIELD_PREIMAGE = 3;

/** A packed record's fields as `writeRecord` reads them: kind, byte size and position, bit length, preimage table by store. */
interface RecordLayout {
  readonly row: Uint8Array;
  readonly rowView: DataView;
  readonly kind: Uint8Array;
  readonly size: Int32Array;
  readonly pos: Int32Array;
  readonly bits: Int32Array;
  /** The preimage length of wide byte fields (their table is looked up per store, never kept: schemas outlive stores). */
  readonly tables: Int32Array;
}

export class ContainerType<F extends Fields> extends SszType<ContainerValue<F>> {
  readonly typeName: string;
  readonly fixedSize: number | null;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;
  override readonly _navigable = true;
  readonly fields: F;
  /** Size of the fixed part: inline fixed fields plus 4 per variable field. */
  readonly fixedPartSize: number;
  private readonly infos: readonly FieldInfo[];
  /** Fields whose roots need hashing (composites wider than one chunk). */
  private readonly hashedFields: readonly { readonly info: FieldInfo; readonly index: number }[];
  private readonly depth: number;
  /**
   * @internal Inner depth of the packed record each value is stored as in a
   * tree (0: stored as a subtree of field nodes). Fixed-size containers of
   * basic fields, one-chunk fields and byte vectors up to 64 bytes (whose
   * roots go in the record, bytes in the preimage table) with 2..64 fields
   * are one core wide leaf of field roots: a Validator is one 296-byte
   * record instead of 18 nodes.
   */
  readonly _recordDepth: number;
  private readonly codec: ReturnType<typeof generateCodec>;
  /** Compact record kind: -2 not looked up yet, -1 none (see `_compactKind`). */
  private compact = -2;
  /** Scratch for one record's bytes (reads decode from it; writes re-encode into it). */
  private recordScratch: Uint8Array | null = null;
  private recordScratchView: DataView | null = null;
  /** A field's bytes before a write (the no-op check of `_compactWithFields`). */
  private fieldScratch: Uint8Array | null = null;

  constructor(fields: F, name = 'Container') {
    super();
    this.typeName = name;
    this.fields = fields;
    const names = Object.keys(fields);
    if (names.length === 0) throw new SszError('INVALID_TYPE', 'a container needs at least one field', -1, name);
    let pos = 0;
    let min = 0;
    let max = 0;
    const infos: FieldInfo[] = [];
    for (const fieldName of names) {
      const type = fields[fieldName] as SszType<unknown>;
      if (!(type instanceof SszType)) throw new SszError('INVALID_TYPE', `field ${fieldName} is not an SSZ type`, -1, name);
      infos.push({
        name: fieldName,
        type,
        basic: type instanceof BasicType,
        rootIsChunk: type._rootIsChunk,
        fixedPos: pos,
        fixedSize: type.fixedSize,
        segment: `.${fieldName}`,
      });
      pos += type.fixedSize ?? 4;
      min += type.fixedSize ?? (4 + type.minSize);
      max += type.fixedSize ?? (4 + type.maxSize);
    }
    this.infos = infos;
    this.hashedFields = infos.map((info, index) => ({ info, index })).filter(({ info }) => !info.basic && !info.rootIsChunk);
    this.fixedPartSize = pos;
    this.fixedSize = infos.every((f) => f.fixedSize !== null) ? pos : null;
    this.minSize = min;
    this.maxSize = max;
    this.depth = depthForLimit(infos.length);
    this.codec = generateCodec(infos, this.fixedPartSize, this.fixedSize);
    const packable = infos.every((f) => f.basic || f.rootIsChunk || f.type._preimageLength > 0);
    this._recordDepth = this.fixedSize !== null && packable && this.depth >= 1 && this.depth <= 6 ? this.depth : 0;
    // Preimage tables keep a root only while a live record holds it at one of these positions.
    if (this._recordDepth > 0) infos.forEach((f, i) => f.type._preimageLength > 0 && registerPreimagePosition(f.type._preimageLength, this._recordDepth, i));
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`). Field names and shapes in order; the container's name is not part of it. */
  _shapeKey(): string {
    return `Container{${Object.keys(this.fields).map((name) => `${JSON.stringify(name)}:${shapeKey(this.fields[name] as SszType<unknown>)}`).join(',')}}`;
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): ContainerValue<F> {
    return this.codec.decode(data, dv, start, end) as ContainerValue<F>;
  }

  _encode(value: ContainerValue<F>, out: Uint8Array, dv: DataView, offset: number): number {
    return this.codec.encode(value as Record<string, unknown>, out, dv, offset);
  }

  _size(value: ContainerValue<F>): number {
    if (typeof value !== 'object' || value === null) {
      throw new SszError('INVALID_VALUE', `expected an object, got ${value === null ? 'null' : typeof value}`);
    }
    if (this.fixedSize !== null) return this.fixedSize;
    const record = value as Record<string, unknown>;
    let size = this.fixedPartSize;
    for (const f of this.infos) {
      if (f.fixedSize !== null) continue;
      try {
        size += f.type._size(record[f.name]);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return size;
  }

  _rootInto(value: ContainerValue<F>, out: Uint8Array, offset: number): void {
    try {
      this.batchRoots([value], out, offset, 32);
    } catch (e) {
      this.explainRootError(value);
      throw e;
    }
  }

  override _rootsInto(values: readonly ContainerValue<F>[], out: Uint8Array, offset: number, stride = 32): void {
    try {
      this.batchRoots(values, out, offset, stride);
    } catch (e) {
      // The batched pass keeps no path bookkeeping; find the failing value again, one by one.
      const scratch = new Uint8Array(32);
      for (let i = 0; i < values.length; i++) {
        try {
          this._rootInto(values[i] as ContainerValue<F>, scratch, 0);
        } catch (inner) {
          throw withPath(inner, `[${i}]`);
        }
      }
      throw e;
    }
  }

  /** Re-derives a root error field by field so it carries the field's path. */
  private explainRootError(value: ContainerValue<F>): void {
    if (typeof value !== 'object' || value === null) return;
    const scratch = new Uint8Array(32);
    for (const f of this.infos) {
      try {
        f.type._rootInto((value as Record<string, unknown>)[f.name], scratch, 0);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
  }

  /**
   * Roots of `values` in batches: each value gets a row of 2^depth chunks;
   * basic and one-chunk fields are written straight into the rows, wider
   * composite fields are hashed column by column through their type's
   * batched `_rootsInto`, then all rows fold together, one `hashInto` per level.
   */
  private batchRoots(values: readonly ContainerValue<F>[], out: Uint8Array, offset: number, outStride: number): void {
    this.eachBatch(values, (buf, first, count) => {
      foldSubtrees(buf, count, this.depth);
      scatterRoots(buf, 0, out, offset + outStride * first, count, outStride);
    });
  }

  /**
   * Fills rows of 2^depth field-root chunks for `values` batch by batch and
   * hands each batch to `use(buf, first, count)`.
   */
  private eachBatch(values: readonly ContainerValue<F>[], use: (buf: Uint8Array, first: number, count: number) => void): void {
    const depth = this.depth;
    const stride = 32 << depth;
    const batch = batchSize(depth);
    const cap = Math.min(batch, values.length);
    const buf = (this.scratch = growScratch(this.scratch, stride * cap));
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const hashed = this.hashedFields;
    const column = hashed.length > 0 ? new Array<unknown>(cap) : null;
    for (let first = 0; first < values.length; first += batch) {
      const count = Math.min(batch, values.length - first);
      buf.fill(0, 0, stride * count);
      this.codec.fill(values, first, count, buf, dv, stride);
      for (const { info, index } of hashed) {
        const col = column as unknown[];
        col.length = count;
        for (let i = 0; i < count; i++) col[i] = (values[first + i] as Record<string, unknown>)[info.name];
        // Field roots land directly in their chunk of every row.
        info.type._rootsInto(col, buf, 32 * index, stride);
      }
      use(buf, first, count);
    }
  }
  /** Batch scratch, reused across calls (a container never contains itself, so no re-entry). */
  private scratch: Uint8Array | null = null;

  /**
   * @internal The core record kind this container's values are stored as —
   * one node holding the serialization plus the root (core records.ts) —
   * or -1. Packed records with a wide byte field (a Validator's pubkey) get
   * one, registered on first use; without a free record kind they stay wide
   * leaves whose wide fields' bytes live in the preimage table.
   */
  _compactKind(): number {
    if (this.compact === -2) {
      const wide = this._recordDepth > 0 && this.infos.some((f) => f.type._preimageLength > 0);
      this.compact = wide ? registerRecordLayout({ size: this.fixedSize as number, depth: this._recordDepth, fields: this.infos.map((f) => [f.fixedPos, f.fixedSize as number] as const) }) : -1;
    }
    return this.compact;
  }

  private recordBuffer(): { bytes: Uint8Array; view: DataView } {
    if (this.recordScratch === null) {
      this.recordScratch = new Uint8Array(this.fixedSize as number);
      this.recordScratchView = new DataView(this.recordScratch.buffer);
    }
    return { bytes: this.recordScratch, view: this.recordScratchView as DataView };
  }

  /** Compact records from values: encoded back to back in batches, one bulk record build per batch. */
  private compactFromValues(values: readonly ContainerValue<F>[], store: NodeStore, kind: number): NodeId[] {
    const size = this.fixedSize as number;
    const nodes = new Array<NodeId>(values.length);
    const batch = Math.min(values.length, 4096);
    const buf = (this.scratch = growScratch(this.scratch, size * batch));
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    try {
      for (let first = 0; first < values.length; first += batch) {
        const n = Math.min(batch, values.length - first);
        for (let i = 0; i < n; i++) this.codec.encode(values[first + i] as Record<string, unknown>, buf, dv, i * size);
        store.recordRows(kind, buf, 0, n, nodes, first);
      }
    } catch (e) {
      this._rootsInto(values, new Uint8Array(32 * values.length), 0); // re-derives the error with its path
      throw e;
    }
    return nodes;
  }

  /**
   * @internal The subtree of `depth` whose first leaves are `values` as
   * compact records — encoded straight into the record pages and hashed as
   * the tree is built (core `recordTree`) — or null when this container has
   * no compact record kind.
   */
  _recordTreeFromValues(values: readonly ContainerValue<F>[], depth: number, store: NodeStore): NodeId | null {
    const kind = this._compactKind();
    if (kind < 0) return null;
    const size = this.fixedSize as number;
    const codec = this.codec;
    try {
      // The codec writes every byte of a fixed-size container (its fields tile it).
      return store.recordTree(kind, values.length, depth, (out, view, first, n) => {
        for (let i = 0; i < n; i++) codec.encode(values[first + i] as Record<string, unknown>, out, view, i * size);
      });
    } catch (e) {
      this._rootsInto(values, new Uint8Array(32 * values.length), 0); // re-derives the error with its path
      throw e;
    }
  }

  /**
   * @internal The subtree of `depth` whose first leaves are the `count`
   * records serialized at `data[start]`, validated and stored as compact
   * records (one copy per run of record slots, hashed as built), or null
   * when this container has no compact record kind.
   */
  _recordTreeFromBytes(data: Uint8Array, start: number, count: number, depth: number, store: NodeStore): NodeId | null {
    const kind = this._compactKind();
    if (kind < 0) return null;
    this.checkRecordBytes(data, start, count, true);
    return store.recordTreeFromBytes(kind, data, start, count, depth);
  }

  override _toNodes(values: readonly ContainerValue<F>[], store: NodeStore): NodeId[] {
    if (this._recordDepth === 0) return super._toNodes(values, store);
    const kind = this._compactKind();
    if (kind >= 0) return this.compactFromValues(values, store, kind);
    const nodes = new Array<NodeId>(values.length);
    const stride = 32 << this.depth;
    const wideFields = this.infos.map((info, index) => ({ info, index })).filter(({ info }) => info.type._preimageLength > 0);
    // Reserve before any insert: a compaction may only run while every recorded root is held by a node.
    for (const { info } of wideFields) preimages(store, info.type._preimageLength).reserve(values.length);
    try {
      this.eachBatch(values, (buf, first, count) => {
        for (const { info, index } of wideFields) {
          const table = preimages(store, info.type._preimageLength);
          for (let i = 0; i < count; i++) table.set(buf, i * stride + 32 * index, (values[first + i] as Record<string, Uint8Array>)[info.name] as Uint8Array, 0);
        }
        store.wideRows(buf, this.depth, count, nodes, first);
      });
    } catch (e) {
      this._rootsInto(values, new Uint8Array(32 * values.length), 0); // re-derives the error with its path
      throw e;
    }
    return nodes;
  }

  /** Field byte ranges of a serialized value (offsets checked as `_decode` checks them). */
  private fieldRanges(dv: DataView, start: number, end: number): Int32Array {
    const n = this.infos.length;
    const ranges = new Int32Array(2 * n);
    const size = end - start;
    // Same codes and offsets as the generated decoder (containerCodegen.ts helpers).
    if (this.fixedSize !== null && size !== this.fixedSize) this._checkFixed(start, end);
    if (this.fixedSize === null && size < this.fixedPartSize) {
      throw new SszError('SHORT_INPUT', `${size} bytes cannot hold the fixed part of ${this.fixedPartSize}`, end);
    }
    let lastVar = -1;
    let prev = this.fixedPartSize;
    for (let i = 0; i < n; i++) {
      const f = this.infos[i] as FieldInfo;
      if (f.fixedSize !== null) {
        ranges[2 * i] = start + f.fixedPos;
        ranges[2 * i + 1] = start + f.fixedPos + f.fixedSize;
        continue;
      }
      const o = dv.getUint32(start + f.fixedPos, true);
      if (lastVar < 0 ? o !== this.fixedPartSize : o < prev || o > size) {
        const why = lastVar < 0 ? `is not the fixed part's end ${prev}` : o < prev ? `is below the previous offset ${prev}` : `is past the end ${size}`;
        throw withPath(new SszError('BAD_OFFSET', `offset ${o} ${why}`, start + f.fixedPos), f.segment);
      }
      if (lastVar >= 0) ranges[2 * lastVar + 1] = start + o;
      ranges[2 * i] = start + o;
      ranges[2 * i + 1] = end;
      lastVar = i;
      prev = o;
    }
    return ranges;
  }

  override _nodeFromBytes(data: Uint8Array, dv: DataView, start: number, end: number, store: NodeStore): NodeId {
    if (this._recordDepth > 0) {
      this._checkFixed(start, end);
      return this._recordsFromBytes(data, start, 1, store, false)[0] as NodeId;
    }
    const ranges = this.fieldRanges(dv, start, end);
    const nodes = new Array<NodeId>(this.infos.length);
    for (let i = 0; i < this.infos.length; i++) {
      const f = this.infos[i] as FieldInfo;
      try {
        nodes[i] = f.type._nodeFromBytes(data, dv, ranges[2 * i] as number, ranges[2 * i + 1] as number, store);
      } catch (e) {
        throw withPath(e, f.segment, ranges[2 * i] as number);
      }
    }
    return subtreeFromNodes(store, nodes, this.depth);
  }

  /**
   * @internal `count` packed records straight from their serialization at
   * `data[start]` (back to back): field bytes are copied into each row's
   * chunks (uints are little-endian in both), booleans and bitvector padding
   * validated, wide byte fields hashed in one batch and their preimages
   * recorded; one wide leaf per row. No value objects are made.
   */
  _recordsFromBytes(data: Uint8Array, start: number, count: number, store: NodeStore, indexed = true): NodeId[] {
    const kind = this._compactKind();
    if (kind >= 0) {
      // Compact records: validate, then the bytes themselves become the records (one copy per run of slots).
      this.checkRecordBytes(data, start, count, indexed);
      const nodes = new Array<NodeId>(count);
      store.recordRows(kind, data, start, count, nodes, 0);
      return nodes;
    }
    // Errors carry `[i]` for list elements only; a lone record's path is its fields'.
    const size = this.fixedSize as number;
    const stride = 32 << this.depth;
    const batch = batchSize(this.depth);
    const cap = Math.min(batch, count);
    const rows = (this.scratch = growScratch(this.scratch, stride * cap));
    // Field bytes move through DataViews, four at a time (unaligned reads are fine there): the byte loops were the build's largest JS cost.
    const rowsView = new DataView(rows.buffer, rows.byteOffset, rows.byteLength);
    const dataView = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const nodes = new Array<NodeId>(count);
    const infos = this.infos;
    let wideScratch: Uint8Array | null = null;
    // Reserve before any insert: a compaction may only run while every recorded root is held by a node.
    for (const f of infos) if (f.type._preimageLength > 0) preimages(store, f.type._preimageLength).reserve(count);
    for (let first = 0; first < count; first += batch) {
      const n = Math.min(batch, count - first);
      rows.fill(0, 0, stride * n);
      for (let i = 0; i < infos.length; i++) {
        const f = infos[i] as FieldInfo;
        const fs = f.fixedSize as number;
        const wide = f.type._preimageLength;
        if (wide > 0) {
          // Wide byte fields: pad each to 64 bytes, fold once for all rows, record the preimages.
          wideScratch = growScratch(wideScratch, 64 * n);
          wideScratch.fill(0, 0, 64 * n);
          // Byte loops, not subarray copies: a typed-array view per row was the main GC cost (measured).
          const wdv = new DataView(wideScratch.buffer, wideScratch.byteOffset, wideScratch.byteLength);
          for (let e = 0; e < n; e++) copyBytes(dataView, start + (first + e) * size + f.fixedPos, wdv, 64 * e, fs);
          foldSubtrees(wideScratch, n, 1);
          const table = preimages(store, wide);
          for (let e = 0; e < n; e++) {
            const dst = e * stride + 32 * i;
            copyBytes(wdv, 32 * e, rowsView, dst, 32);
            table.setFromViews(wideScratch, wdv, 32 * e, dataView, start + (first + e) * size + f.fixedPos);
          }
          continue;
        }
        const isBool = f.type instanceof BooleanType;
        const bits = f.type instanceof BitvectorType ? f.type.length % 8 : 0;
        for (let e = 0; e < n; e++) {
          const src = start + (first + e) * size + f.fixedPos;
          if (isBool && (data[src] as number) > 1) {
            const err = withPath(new SszError('BAD_BOOLEAN', `boolean byte 0x${(data[src] as number).toString(16).padStart(2, '0')} is neither 0 nor 1`, src), f.segment, src);
            throw indexed ? withPath(err, `[${first + e}]`, src) : err;
          }
          if (bits !== 0 && (data[src + fs - 1] as number) >> bits !== 0) {
            const err = withPath(new SszError('BAD_BITS', `padding bits above bit ${(f.type as BitvectorType).length} are set`, src + fs - 1), f.segment, src);
            throw indexed ? withPath(err, `[${first + e}]`, src) : err;
          }
          copyBytes(dataView, src, rowsView, e * stride + 32 * i, fs);
        }
      }
      store.wideRows(rows, this.depth, n, nodes, first);
    }
    return nodes;
  }

  /**
   * Checks `count` serialized records at `data[start]` (back to back) as the
   * decoder would: boolean bytes 0 or 1, no bits above a bitvector's length
   * (other fixed fields take any bytes). Errors carry the field's path, `[i]`
   * when `indexed`, and the byte offset.
   */
  private checkRecordBytes(data: Uint8Array, start: number, count: number, indexed: boolean): void {
    const size = this.fixedSize as number;
    for (const f of this.infos) {
      const isBool = f.type instanceof BooleanType;
      const bits = f.type instanceof BitvectorType ? f.type.length % 8 : 0;
      if (!isBool && bits === 0) continue;
      const fs = f.fixedSize as number;
      for (let e = 0; e < count; e++) {
        const src = start + e * size + f.fixedPos;
        if (isBool && (data[src] as number) > 1) {
          const err = withPath(new SszError('BAD_BOOLEAN', `boolean byte 0x${(data[src] as number).toString(16).padStart(2, '0')} is neither 0 nor 1`, src), f.segment, src);
          throw indexed ? withPath(err, `[${e}]`, src) : err;
        }
        if (bits !== 0 && (data[src + fs - 1] as number) >> bits !== 0) {
          const err = withPath(new SszError('BAD_BITS', `padding bits above bit ${(f.type as BitvectorType).length} are set`, src + fs - 1), f.segment, src);
          throw indexed ? withPath(err, `[${e}]`, src) : err;
        }
      }
    }
  }

  /** @internal Field i of the compact record `node`, decoded from its bytes. */
  _compactField(store: NodeStore, node: NodeId, i: number): unknown {
    const f = this.infos[i] as FieldInfo;
    const { bytes, view } = this.recordBuffer();
    store.copyRecordInto(node, bytes, 0);
    const start = f.fixedPos;
    const end = start + (f.fixedSize as number);
    try {
      // Basic values are decoded from the shared scratch (numbers, bigints, booleans: nothing aliases it); byte
      // vectors and bitvectors come back as views of the buffer decoded, so they get a private copy of their bytes.
      if (f.basic) return f.type._decode(bytes, view, start, end);
      const own = bytes.slice(start, end);
      return f.type._decode(own, new DataView(own.buffer), 0, own.length);
    } catch (e) {
      throw withPath(e, f.segment);
    }
  }

  /**
   * @internal The compact record `node` with field indices[k] set to
   * values[k] (re-encoded into a copy of its bytes): a new record, or `node`
   * itself when every value encodes to the bytes already there.
   */
  _compactWithFields(store: NodeStore, node: NodeId, indices: readonly number[], values: readonly unknown[]): NodeId {
    if (indices.length === 0) return node;
    const { bytes, view } = this.recordBuffer();
    store.copyRecordInto(node, bytes, 0);
    // Byte-level no-op check: the same encoding of a field's bytes leaves the record as it is.
    let same = true;
    for (let k = 0; k < indices.length; k++) {
      const f = this.infos[indices[k] as number] as FieldInfo;
      const end = f.fixedPos + (f.fixedSize as number);
      const before: Uint8Array | null = same ? (this.fieldScratch = growScratch(this.fieldScratch, end - f.fixedPos)) : null;
      if (before !== null) for (let b = f.fixedPos; b < end; b++) before[b - f.fixedPos] = bytes[b] as number;
      try {
        f.type._encode(values[k], bytes, view, f.fixedPos);
      } catch (e) {
        throw withPath(e, f.segment);
      }
      if (before !== null) for (let b = f.fixedPos; b < end && same; b++) same = bytes[b] === before[b - f.fixedPos];
    }
    return same ? node : store.record(this.compact, bytes, 0);
  }

  _toNode(value: ContainerValue<F>, store: NodeStore): NodeId {
    if (this._recordDepth > 0) {
      try {
        return this._toNodes([value], store)[0] as NodeId;
      } catch (e) {
        this.explainRootError(value);
        throw e;
      }
    }
    if (typeof value !== 'object' || value === null) {
      throw new SszError('INVALID_VALUE', `expected an object, got ${value === null ? 'null' : typeof value}`);
    }
    const record = value as Record<string, unknown>;
    const infos = this.infos;
    const nodes = new Array<NodeId>(infos.length);
    for (let i = 0; i < infos.length; i++) {
      const f = infos[i] as FieldInfo;
      try {
        nodes[i] = f.type._toNode(record[f.name], store);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return subtreeFromNodes(store, nodes, this.depth);
  }

  _fromNode(store: NodeStore, node: NodeId): ContainerValue<F> {
    const infos = this.infos;
    if (this._recordDepth > 0 && (node & 15) === this._compactKind()) {
      // A compact record: its bytes are the serialization (checked when they came in); decode a private
      // copy (byte-vector fields come back as views of the buffer decoded, so never a shared scratch).
      const bytes = store.recordBytes(node);
      return this.codec.decode(bytes, new DataView(bytes.buffer), 0, bytes.length) as ContainerValue<F>;
    }
    if (this._recordDepth > 0 && store.wideDepth(node) === this._recordDepth) {
      // A packed record: every field from its chunk.
      const chunks = store.wideChunks(node);
      const dv = new DataView(chunks.buffer);
      const out: Record<string, unknown> = {};
      for (let i = 0; i < infos.length; i++) {
        const f = infos[i] as FieldInfo;
        try {
          out[f.name] = f.type._fromChunk(chunks, dv, 32 * i, store);
        } catch (e) {
          throw withPath(e, f.segment);
        }
      }
      return out as ContainerValue<F>;
    }
    const nodes = readNodes(store, node, this.depth, infos.length);
    const out: Record<string, unknown> = {};
    for (let i = 0; i < infos.length; i++) {
      const f = infos[i] as FieldInfo;
      try {
        out[f.name] = f.type._fromNode(store, nodes[i] as NodeId);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return out as ContainerValue<F>;
  }

  override _treeSize(store: NodeStore, node: NodeId): number {
    if (this.fixedSize !== null) return this.fixedSize;
    const infos = this.infos;
    const nodes = levelNodes(store, node, this.depth, infos.length);
    let size = this.fixedPartSize;
    for (let i = 0; i < infos.length; i++) {
      const f = infos[i] as FieldInfo;
      if (f.fixedSize !== null) continue;
      try {
        size += f.type._treeSize(store, nodes[i] as NodeId);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return size;
  }

  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    if (this._recordDepth > 0 && (node & 15) === this._compactKind()) {
      store.copyRecordInto(node, out, offset);
      // A chunk write through the generic tree API may have put any byte in a boolean or bitvector: check as a decoder would.
      this.checkRecordBytes(out, offset, 1, false);
      return offset + this.fixedPartSize;
    }
    if (this._recordDepth > 0 && store.wideDepth(node) === this._recordDepth) return this.writeRecord(store, node, out, dv, offset);
    const infos = this.infos;
    const nodes = levelNodes(store, node, this.depth, infos.length);
    // Fixed fields in place, variable ones appended in field order behind their offsets.
    let pos = offset + this.fixedPartSize;
    for (let i = 0; i < infos.length; i++) {
      const f = infos[i] as FieldInfo;
      try {
        if (f.fixedSize !== null) f.type._writeTree(store, nodes[i] as NodeId, out, dv, offset + f.fixedPos);
        else {
          dv.setUint32(offset + f.fixedPos, pos - offset, true);
          pos = f.type._writeTree(store, nodes[i] as NodeId, out, dv, pos);
        }
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return pos;
  }

  /**
   * A packed record's serialization: its row of field chunks is copied out
   * once, then each field's bytes moved to its place (wide byte fields from
   * the preimage table), with the checks `_fromChunk` makes — zero chunk
   * padding, boolean bytes 0/1, no bits above a bitvector's length.
   */
  private writeRecord(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    this._writeRecords(store, [node], out, dv, offset, false);
    return offset + this.fixedPartSize;
  }

  /**
   * @internal Writes the records at `nodes` back to back from `offset`
   * (elements of a list or vector: errors carry `[i]` when `indexed`).
   * Nodes that are not packed records of this type (a zero subtree, a
   * record expanded by a write) go through `_writeTree`.
   */
  _writeRecords(store: NodeStore, nodes: readonly NodeId[], out: Uint8Array, dv: DataView, offset: number, indexed = true): number {
    const layout = (this.recordLayout ??= this.makeRecordLayout());
    const { row, rowView, kind, size, pos, bits } = layout;
    // Preimage tables are looked up per call, never kept: schemas outlive stores.
    const tables = Array.from(layout.tables, (length) => (length > 0 ? preimages(store, length) : null));
    const recordKind = KIND_WIDE_BASE + this._recordDepth - 1;
    const compact = this._compactKind();
    const stride = this.fixedPartSize;
    const nf = kind.length;
    let e = 0;
    let i = -1;
    try {
      for (; e < nodes.length; e++) {
        const node = nodes[e] as NodeId;
        const base = offset + e * stride;
        if ((node & 15) === compact) {
          // Compact records hold their serialization: one copy, then the decoder's checks.
          i = -1;
          store.copyRecordInto(node, out, base);
          this.checkRecordBytes(out, base, 1, false);
          continue;
        }
        if ((node & 15) !== recordKind) {
          i = -1;
          this._writeTree(store, node, out, dv, base);
          continue;
        }
        store.copyWideInto(node, rowView, 0);
        // Plain typed-array layout: no per-field property loads on the field types (they are polymorphic).
        for (i = 0; i < nf; i++) {
          const c = 32 * i;
          const at = base + (pos[i] as number);
          const k = kind[i] as number;
          if (k === FIELD_PREIMAGE) {
            if (!(tables[i] as PreimageTable).copyInto(row, c, dv, at)) throw new SszError('BAD_TREE', `no known ${size[i]}-byte preimage of a record's field root`);
            continue;
          }
          const fs = size[i] as number;
          // Words where they fit (unaligned DataView access is fine), then the tail bytes.
          let b = 0;
          for (; b + 4 <= fs; b += 4) dv.setUint32(at + b, rowView.getUint32(c + b, true), true);
          for (; b < fs; b++) out[at + b] = row[c + b] as number;
          let dirty = 0;
          for (; b < 32 && (b & 3) !== 0; b++) dirty |= row[c + b] as number;
          for (; b < 32; b += 4) dirty |= rowView.getUint32(c + b, true);
          if (dirty !== 0) throw new SszError('BAD_TREE', `a ${(this.infos[i] as FieldInfo).type.typeName} chunk has non-zero bytes past its value`);
          if (k === FIELD_BOOLEAN && (row[c] as number) > 1) {
            throw new SszError('BAD_BOOLEAN', `boolean byte 0x${(row[c] as number).toString(16).padStart(2, '0')} is neither 0 nor 1`);
          }
          if (k === FIELD_BITS) checkTopBits(out, at + fs - 1, bits[i] as number);
        }
      }
    } catch (err) {
      const inner = i >= 0 && i < nf ? withPath(err, (this.infos[i] as FieldInfo).segment) : err;
      throw indexed ? withPath(inner, `[${e}]`) : inner;
    }
    return offset + nodes.length * stride;
  }

  private makeRecordLayout(): RecordLayout {
    const n = this.infos.length;
    const row = new Uint8Array(32 << this._recordDepth);
    const layout: RecordLayout = {
      row,
      rowView: new DataView(row.buffer),
      kind: new Uint8Array(n),
      size: new Int32Array(n),
      pos: new Int32Array(n),
      bits: new Int32Array(n),
      tables: new Int32Array(n),
    };
    this.infos.forEach((f, i) => {
      layout.size[i] = f.fixedSize as number;
      layout.pos[i] = f.fixedPos;
      if (f.type._preimageLength > 0) {
        layout.kind[i] = FIELD_PREIMAGE;
        layout.tables[i] = f.type._preimageLength;
      } else if (f.type instanceof BooleanType) layout.kind[i] = FIELD_BOOLEAN;
      else if (f.type instanceof BitvectorType) {
        layout.kind[i] = FIELD_BITS;
        layout.bits[i] = f.type.length;
      } else layout.kind[i] = FIELD_COPY;
    });
    return layout;
  }
  /** How `writeRecord` reads a row, made once (record fields are one chunk each: no nested record write can re-enter the row). */
  private recordLayout: RecordLayout | null = null;

  override _view(store: NodeStore, node: NodeId, tree?: Tree): ContainerView<F> {
    if (this.viewClass === null) {
      const record = this._recordDepth > 0;
      this.slots = this.infos.map((f) => ({
        name: f.name,
        type: f.type,
        navigable: f.type._navigable,
        // Inside a record a wide byte field is a leaf of its root (preimage recorded), keeping the record one wide leaf.
        toNode:
          record && f.type._preimageLength > 0
            ? (v: unknown, s: NodeStore) => (f.type as unknown as { _chunkNode(v: unknown, s: NodeStore): NodeId })._chunkNode(v, s)
            : (v: unknown, s: NodeStore) => f.type._toNode(v, s),
      }));
      this.viewClass = containerViewClass<F>(this.slots, this.typeName);
    }
    return new this.viewClass(this, tree ?? new Tree(node, store), this.slots, this.depth) as ContainerView<F>;
  }
  private viewClass: ReturnType<typeof containerViewClass<F>> | null = null;
  private slots: readonly FieldSlot[] = [];

  override toView(value: ContainerValue<F>, store: NodeStore = defaultStore): ContainerView<F> {
    return super.toView(value, store) as ContainerView<F>;
  }
  override deserializeToView(bytes: Uint8Array, store: NodeStore = defaultStore): ContainerView<F> {
    return super.deserializeToView(bytes, store) as ContainerView<F>;
  }
  override viewOf(tree: Tree): ContainerView<F> {
    return super.viewOf(tree) as ContainerView<F>;
  }

  override _pathStep(segment: PathSegment): PathStep {
    const index = this.infos.findIndex((f) => f.name === segment);
    if (index < 0) throw new SszError('BAD_PATH', `no field ${String(segment)}`);
    return { depth: this.depth, index, next: (this.infos[index] as FieldInfo).type };
  }

  /** Field names in order. */
  get fieldNames(): readonly string[] {
    return this.infos.map((f) => f.name);
  }

  defaultValue(): ContainerValue<F> {
    const out: Record<string, unknown> = {};
    for (const f of this.infos) out[f.name] = f.type.defaultValue();
    return out as ContainerValue<F>;
  }

  equals(a: ContainerValue<F>, b: ContainerValue<F>): boolean {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const f of this.infos) if (!f.type.equals(ra[f.name], rb[f.name])) return false;
    return true;
  }

  clone(value: ContainerValue<F>): ContainerValue<F> {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const f of this.infos) out[f.name] = f.type.clone(record[f.name]);
    return out as ContainerValue<F>;
  }

  _toJson(value: ContainerValue<F>): Json {
    if (typeof value !== 'object' || value === null) throw new SszError('INVALID_VALUE', 'expected an object');
    const record = value as Record<string, unknown>;
    const out: { [key: string]: Json } = {};
    for (const f of this.infos) {
      try {
        out[f.name] = f.type._toJson(record[f.name]);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return out;
  }

  _fromJson(json: unknown): ContainerValue<F> {
    const record = expectObject(json);
    for (const key of Object.keys(record)) {
      if (!Object.hasOwn(this.fields, key)) throw new SszError('INVALID_JSON', `unknown field ${key}`);
    }
    const out: Record<string, unknown> = {};
    for (const f of this.infos) {
      if (!Object.hasOwn(record, f.name)) throw new SszError('INVALID_JSON', `missing field ${f.name}`);
      try {
        out[f.name] = f.type._fromJson(record[f.name]);
      } catch (e) {
        throw withPath(e, f.segment);
      }
    }
    return out as ContainerValue<F>;
  }
}

/**
 * A container of named fields in declaration order; its value is a plain
 * object with those keys. `name` is the type name used in errors and
 * `typeName` (defaults to a description of the fields).
 *
 *   const Checkpoint = container({ epoch: uint64, root: byteVector(32) }, 'Checkpoint');
 */
export function container<F extends Fields>(fields: F, name?: string): ContainerType<F> {
  return new ContainerType(fields, name);
}
