/**
 * How a container's values are stored as packed records (`ContainerType`
 * with `_recordDepth > 0`: fixed size, every field basic, one chunk, or a
 * byte vector of 33..64 bytes, 2..64 fields). Two forms, one per container:
 * - **compact records** (core `wide/records.ts`): one node of the value's
 *   serialization plus its root, used when a field is a wide byte vector (a
 *   Validator's pubkey) and the core has a record kind free for the layout;
 *   whole lists of them are built as record PAIRS where the core has a kind
 *   free for those too (core `wide/recordPairs.ts`: two values' bytes as one node
 *   at the level above them, 141 B a Validator instead of 161 + a 48 B
 *   branch; the pair kind is registered on a list's first bulk build), and
 *   serialized pair by pair;
 * - **wide leaves** of field-root chunks otherwise, the wide byte fields'
 *   bytes in the store's preimage table (`tree/preimages.ts`).
 * This module builds both (from values, from bytes, whole record trees),
 * validates serialized records as the decoder would, reads and rewrites
 * compact records' fields, and writes records back out as bytes.
 *
 * Invariants: the bytes stored in a compact record passed the decoder's
 * checks (booleans 0/1, no bits above a bitvector's length) when they came
 * in, and are checked again whenever they go out (a chunk write through the
 * generic tree API may have put any byte there); errors carry the field's
 * path, `[i]` for list elements, and the byte offset.
 * @module
 */
import { recordPairKind, registerRecordLayout, registerRecordPairs, type NodeId, type NodeStore, type RecordRuns } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import { batchSize, foldSubtrees, growScratch } from '../merkle.js';
import { preimages, registerPreimagePosition, type PreimageTable } from '../tree/preimages.js';
import { checkTopBits } from '../tree/write.js';
import type { SszType } from '../type.js';
import { BitvectorType } from './bitvector.js';
import { BooleanType } from './boolean.js';
import type { generateCodec } from './containerCodegen.js';
import type { CodegenField } from './containerGeneric.js';

/** A container field as the codecs and the record code read it. */
export interface FieldInfo extends CodegenField {
  readonly name: string;
  readonly type: SszType<unknown>;
}

/** What the record code needs of its container. */
export interface RecordOwner {
  readonly infos: readonly FieldInfo[];
  /** Serialized size of one value (records are fixed-size). */
  readonly size: number;
  /** Inner depth of a record: 2^depth field chunks. */
  readonly depth: number;
  readonly codec: ReturnType<typeof generateCodec>;
  /** Rows of field-root chunks for `values`, batch by batch (the container's batched root pass). */
  eachBatch(values: readonly unknown[], use: (buf: Uint8Array, first: number, count: number) => void): void;
  /** Re-derives a value error with its path (the batched passes keep no path bookkeeping), then rethrows nothing: the caller rethrows. */
  explainValues(values: readonly unknown[]): void;
  /** The generic tree serializer, for nodes that are not records of this container. */
  writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number;
}

/** Wide-leaf kinds by the low 4 bits of an id: 4 + inner depth - 1 (docs/CORE.md). */
const KIND_WIDE_BASE = 4;
const FIELD_COPY = 0;
const FIELD_BOOLEAN = 1;
const FIELD_BITS = 2;
const FIELD_PREIMAGE = 3;

/** A wide-leaf record's fields as `writeRecords` reads them: kind, byte size and position, bit length, preimage length. */
interface RowLayout {
  readonly row: Uint8Array;
  readonly rowView: DataView;
  readonly kind: Uint8Array;
  readonly size: Int32Array;
  readonly pos: Int32Array;
  readonly bits: Int32Array;
  /** The preimage length of wide byte fields (their table is looked up per store, never kept: schemas outlive stores). */
  readonly tables: Int32Array;
}

/** Copies `len` bytes from `src[s]` to `dst[d]`, a 32-bit word at a time, then the tail byte by byte. */
function copyBytes(src: DataView, s: number, dst: DataView, d: number, len: number): void {
  let k = 0;
  for (; k + 4 <= len; k += 4) dst.setUint32(d + k, src.getUint32(s + k, true), true);
  for (; k < len; k++) dst.setUint8(d + k, src.getUint8(s + k));
}

export class ContainerRecords {
  /** Compact record kind: -2 not looked up yet, -1 none (see `compactKind`). */
  private compact = -2;
  /** One record's bytes, for field reads and writes (decoders copy what they keep). */
  private recordScratch: Uint8Array | null = null;
  private recordScratchView: DataView | null = null;
  /** A field's bytes before a write (the no-op check of `withFields`). */
  private fieldScratch: Uint8Array | null = null;
  /** Batch scratch, reused across calls (a record never contains a record, so no re-entry). */
  private scratch: Uint8Array | null = null;
  /** How `writeRecords` reads a wide-leaf row, made once. */
  private rowLayout: RowLayout | null = null;

  constructor(private readonly owner: RecordOwner) {
    // Preimage tables keep a root only while a live record holds it at one of these positions.
    owner.infos.forEach((f, i) => f.type._preimageLength > 0 && registerPreimagePosition(f.type._preimageLength, owner.depth, i));
  }

  /**
   * The core record kind values are stored as — one node holding the
   * serialization plus the root — or -1. Records with a wide byte field get
   * one, registered on first use; without a free record kind they stay wide
   * leaves whose wide fields' bytes live in the preimage table.
   */
  compactKind(): number {
    if (this.compact === -2) {
      const { infos, size, depth } = this.owner;
      const wide = infos.some((f) => f.type._preimageLength > 0);
      this.compact = wide ? registerRecordLayout({ size, depth, fields: infos.map((f) => [f.fixedPos, f.fixedSize as number] as const) }) : -1;
    }
    return this.compact;
  }

  /**
   * The compact kind for a whole list, its pair kind registered first: only
   * containers built as lists take a second record kind (kinds are scarce;
   * without one, lists keep single records).
   */
  private listKind(): number {
    const kind = this.compactKind();
    if (kind >= 0) registerRecordPairs(kind);
    return kind;
  }

  // ------------------------------------------------------------- building

  /** Record nodes for `values`, one per value (compact records or wide leaves, unhashed until the next flush). */
  fromValues(values: readonly unknown[], store: NodeStore): NodeId[] {
    const kind = this.compactKind();
    const nodes = new Array<NodeId>(values.length);
    try {
      if (kind >= 0) this.compactFromValues(values, store, kind, nodes);
      else this.wideFromValues(values, store, nodes);
    } catch (e) {
      this.owner.explainValues(values);
      throw e;
    }
    return nodes;
  }

  /** Compact records from values: encoded back to back in batches, one bulk record build per batch. */
  private compactFromValues(values: readonly unknown[], store: NodeStore, kind: number, nodes: NodeId[]): void {
    const { size, codec } = this.owner;
    const batch = Math.min(values.length, 4096);
    const buf = (this.scratch = growScratch(this.scratch, size * batch));
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    for (let first = 0; first < values.length; first += batch) {
      const n = Math.min(batch, values.length - first);
      for (let i = 0; i < n; i++) codec.encode(values[first + i] as Record<string, unknown>, buf, dv, i * size);
      store.recordRows(kind, buf, 0, n, nodes, first);
    }
  }

  /** Wide leaves from values: rows of field roots from the container's batched pass, wide byte fields' bytes recorded as preimages. */
  private wideFromValues(values: readonly unknown[], store: NodeStore, nodes: NodeId[]): void {
    const { infos, depth } = this.owner;
    const stride = 32 << depth;
    const wideFields = infos.map((info, index) => ({ info, index })).filter(({ info }) => info.type._preimageLength > 0);
    // Reserve before any insert: a compaction may only run while every recorded root is held by a node.
    for (const { info } of wideFields) preimages(store, info.type._preimageLength).reserve(values.length);
    this.owner.eachBatch(values, (buf, first, count) => {
      for (const { info, index } of wideFields) {
        const table = preimages(store, info.type._preimageLength);
        for (let i = 0; i < count; i++) table.set(buf, i * stride + 32 * index, (values[first + i] as Record<string, Uint8Array>)[info.name] as Uint8Array, 0);
      }
      store.wideRows(buf, depth, count, nodes, first);
    });
  }

  /**
   * The subtree of `depth` whose first leaves are `values` as compact
   * records — encoded straight into the record pages and hashed as the tree
   * is built (core `recordPairTree`: pairs of records where a pair kind is
   * free) — or null without a compact record kind.
   */
  treeFromValues(values: readonly unknown[], depth: number, store: NodeStore): NodeId | null {
    const kind = this.listKind();
    if (kind < 0) return null;
    const { size, codec } = this.owner;
    try {
      // The codec writes every byte of a fixed-size container (its fields tile it).
      return store.recordPairTree(kind, values.length, depth, (out, view, first, n) => {
        for (let i = 0; i < n; i++) codec.encode(values[first + i] as Record<string, unknown>, out, view, i * size);
      });
    } catch (e) {
      this.owner.explainValues(values);
      throw e;
    }
  }

  /**
   * The subtree of `depth` whose first leaves are the `count` records
   * serialized at `data[start]`, validated and stored as compact records
   * (pairs where a pair kind is free; one copy per run of record slots,
   * hashed as built), or null without a compact record kind.
   */
  treeFromBytes(data: Uint8Array, start: number, count: number, depth: number, store: NodeStore, placed?: RecordRuns): NodeId | null {
    const kind = this.listKind();
    if (kind < 0) return null;
    this.checkBytes(data, start, count, true);
    return store.recordPairTreeFromBytes(kind, data, start, count, depth, placed);
  }

  /**
   * `count` record nodes straight from their serialization at `data[start]`
   * (back to back), validated first. Compact records: the bytes themselves,
   * one copy per run of slots. Wide leaves: field bytes copied into each
   * row's chunks (uints are little-endian in both), wide byte fields hashed
   * in one batch and their preimages recorded. No value objects are made.
   * Errors carry `[i]` when `indexed` (list elements); a lone record's path
   * is its fields'.
   */
  fromBytes(data: Uint8Array, start: number, count: number, store: NodeStore, indexed: boolean): NodeId[] {
    this.checkBytes(data, start, count, indexed);
    const nodes = new Array<NodeId>(count);
    const kind = this.compactKind();
    if (kind >= 0) {
      store.recordRows(kind, data, start, count, nodes, 0);
      return nodes;
    }
    const { infos, size, depth } = this.owner;
    const stride = 32 << depth;
    const batch = batchSize(depth);
    const rows = (this.scratch = growScratch(this.scratch, stride * Math.min(batch, count)));
    // Field bytes move through DataViews, four at a time (unaligned reads are fine there): the byte loops were the build's largest JS cost.
    const rowsView = new DataView(rows.buffer, rows.byteOffset, rows.byteLength);
    const dataView = new DataView(data.buffer, data.byteOffset, data.byteLength);
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
        if (wide === 0) {
          for (let e = 0; e < n; e++) copyBytes(dataView, start + (first + e) * size + f.fixedPos, rowsView, e * stride + 32 * i, fs);
          continue;
        }
        // Wide byte fields: pad each to 64 bytes, fold once for all rows, record the preimages.
        wideScratch = growScratch(wideScratch, 64 * n);
        wideScratch.fill(0, 0, 64 * n);
        // Byte loops, not subarray copies: a typed-array view per row was the main GC cost (measured).
        const wdv = new DataView(wideScratch.buffer, wideScratch.byteOffset, wideScratch.byteLength);
        for (let e = 0; e < n; e++) copyBytes(dataView, start + (first + e) * size + f.fixedPos, wdv, 64 * e, fs);
        foldSubtrees(wideScratch, n, 1);
        const table = preimages(store, wide);
        for (let e = 0; e < n; e++) {
          copyBytes(wdv, 32 * e, rowsView, e * stride + 32 * i, 32);
          table.setFromViews(wideScratch, wdv, 32 * e, dataView, start + (first + e) * size + f.fixedPos);
        }
      }
      store.wideRows(rows, depth, n, nodes, first);
    }
    return nodes;
  }

  /**
   * Checks `count` serialized records at `data[start]` (back to back) as the
   * decoder would: boolean bytes 0 or 1, no bits above a bitvector's length
   * (other fixed fields take any bytes). Errors carry the field's path, `[i]`
   * when `indexed`, and the byte offset.
   */
  checkBytes(data: Uint8Array, start: number, count: number, indexed: boolean): void {
    const size = this.owner.size;
    // The checked fields found once per type: serializing a list of records checks each record as it is copied,
    // and finding them again (two instanceof per field) was a third of a 2^18-validator view serialize.
    const checked = (this.checkedFields ??= this.owner.infos.flatMap((f) => {
      const isBool = f.type instanceof BooleanType;
      const bits = f.type instanceof BitvectorType ? f.type.length % 8 : 0;
      return isBool || bits !== 0 ? [{ f, isBool, bits }] : [];
    }));
    for (let c = 0; c < checked.length; c++) {
      const { f, isBool, bits } = checked[c]!;
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

  // -------------------------------------------------- compact record fields

  /** See `checkBytes`. */
  private checkedFields: { f: FieldInfo; isBool: boolean; bits: number }[] | null = null;

  private recordBuffer(): { bytes: Uint8Array; view: DataView } {
    if (this.recordScratch === null) {
      this.recordScratch = new Uint8Array(this.owner.size);
      this.recordScratchView = new DataView(this.recordScratch.buffer);
    }
    return { bytes: this.recordScratch, view: this.recordScratchView as DataView };
  }

  /**
   * The record pair kind of this container's compact records (core
   * wide/recordPairs.ts), or -1 (none registered: no list of them was built
   * as pairs).
   */
  pairKind(): number {
    const kind = this.compactKind();
    return kind < 0 ? -1 : recordPairKind(kind);
  }

  /** Field i of the compact record `node` (or of half `half` of record pair `node`), decoded from its bytes. */
  field(store: NodeStore, node: NodeId, i: number, half = -1): unknown {
    const f = this.owner.infos[i] as FieldInfo;
    const { bytes, view } = this.recordBuffer();
    const start = f.fixedPos;
    const end = start + (f.fixedSize as number);
    // Only the field's bytes, in one native copy: a field write reads the committed value first (its no-op
    // check), and copying the whole record for it was a sixth of a realistic block's writes (bench/profile-realistic.ts).
    store.copyRecordRange(node, half > 0 ? half * this.owner.size + start : start, end - start, bytes, start);
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
   * The compact record `node` with field indices[k] set to values[k]
   * (re-encoded into a copy of its bytes): a new record, or `node` itself
   * when every value encodes to the bytes already there.
   */
  withFields(store: NodeStore, node: NodeId, indices: readonly number[], values: readonly unknown[], half = -1): NodeId {
    const { bytes, view } = this.recordBuffer();
    if (half >= 0) {
      // Half of a pair: always a new record of the half's bytes (the pair is not a record of this container).
      store.copyRecordRange(node, half * this.owner.size, this.owner.size, bytes, 0);
      for (let k = 0; k < indices.length; k++) this.encodeField(indices[k] as number, values[k], bytes, view);
      return store.record(this.compactKind(), bytes, 0);
    }
    if (indices.length === 0) return node;
    store.copyRecordInto(node, bytes, 0);
    // Byte-level no-op check: the same encoding of a field's bytes leaves the record as it is.
    let same = true;
    for (let k = 0; k < indices.length; k++) {
      const f = this.owner.infos[indices[k] as number] as FieldInfo;
      const end = f.fixedPos + (f.fixedSize as number);
      const before: Uint8Array | null = same ? (this.fieldScratch = growScratch(this.fieldScratch, end - f.fixedPos)) : null;
      if (before !== null) for (let b = f.fixedPos; b < end; b++) before[b - f.fixedPos] = bytes[b] as number;
      this.encodeField(indices[k] as number, values[k], bytes, view);
      if (before !== null) for (let b = f.fixedPos; b < end && same; b++) same = bytes[b] === before[b - f.fixedPos];
    }
    return same ? node : store.record(this.compact, bytes, 0);
  }

  /** Encodes `value` as field i into a record's bytes at `at` (errors carry the field's path). */
  private encodeField(i: number, value: unknown, bytes: Uint8Array, view: DataView, at = 0): void {
    const f = this.owner.infos[i] as FieldInfo;
    try {
      f.type._encode(value, bytes, view, at + f.fixedPos);
    } catch (e) {
      throw withPath(e, f.segment);
    }
  }

  /**
   * Record pair `pair` (of this container's pair kind) with the fields of
   * each half rewritten, as bytes: `halves[h][i]` is half h's new field i,
   * or `none` (a null half is left as it is). The pair's bytes are copied
   * into `out` at `offset` (twice this container's size) and the fields
   * encoded there; returns whether any byte differs from the pair's — so a
   * list's commit writes only the pairs that changed, all in one batch
   * (core `setRecordsAtDepth`), and makes no half record.
   */
  pairWithFields(store: NodeStore, pair: NodeId, left: readonly unknown[] | null, right: readonly unknown[] | null, none: unknown, out: Uint8Array, view: DataView, offset: number): boolean {
    const size = this.owner.size;
    store.copyRecordInto(pair, out, offset);
    let same = true;
    for (let h = 0; h < 2; h++) {
      const values = h === 0 ? left : right;
      if (values === null) continue;
      for (let i = 0; i < values.length; i++) {
        if (values[i] === none) continue;
        const f = this.owner.infos[i] as FieldInfo;
        const start = offset + h * size + f.fixedPos;
        const end = start + (f.fixedSize as number);
        const before: Uint8Array | null = same ? (this.fieldScratch = growScratch(this.fieldScratch, end - start)) : null;
        if (before !== null) for (let b = start; b < end; b++) before[b - start] = out[b] as number;
        this.encodeField(i, values[i], out, view, offset + h * size);
        if (before !== null) for (let b = start; b < end && same; b++) same = out[b] === before[b - start];
      }
    }
    return !same;
  }

  // ---------------------------------------------------------------- output

  /** True when `node` is a record of this container in either form. */
  isRecord(store: NodeStore, node: NodeId): boolean {
    return (node & 15) === this.compactKind() || store.wideDepth(node) === this.owner.depth;
  }

  /**
   * Writes the records at `nodes` back to back from `offset` (elements of a
   * list or vector: errors carry `[i]` when `indexed`). Compact records copy
   * their bytes, a record pair (its id at two positions, core
   * `collectPaired`) both records' bytes at once; wide-leaf rows are copied out once, then each field's bytes
   * moved to its place (wide byte fields from the preimage table), with the
   * checks `_fromChunk` makes — zero chunk padding, boolean bytes 0/1, no
   * bits above a bitvector's length. Other nodes (a zero subtree, a record
   * expanded by a write) go through the container's generic `_writeTree`.
   */
  write(store: NodeStore, nodes: readonly NodeId[], out: Uint8Array, dv: DataView, offset: number, indexed: boolean): number {
    const layout = (this.rowLayout ??= this.makeRowLayout());
    const { row, rowView, kind, size, pos, bits } = layout;
    const infos = this.owner.infos;
    // Preimage tables are looked up per call, never kept: schemas outlive stores.
    const tables = Array.from(layout.tables, (length) => (length > 0 ? preimages(store, length) : null));
    const wideKind = KIND_WIDE_BASE + this.owner.depth - 1;
    const compact = this.compactKind();
    // Looked up, not kept: another container of the same layout may have built the pairs.
    const pair = compact >= 0 ? recordPairKind(compact) : -1;
    const stride = this.owner.size;
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
          this.checkBytes(out, base, 1, false);
          continue;
        }
        if ((node & 15) === pair && pair >= 0) {
          // Two records in one copy: the pair stands for positions e and e + 1 (an element past the end is a bad tree).
          i = -1;
          if (e + 1 >= nodes.length || nodes[e + 1] !== node) throw new SszError('BAD_TREE', 'a record pair holds an element past the end');
          store.copyRecordInto(node, out, base);
          this.checkBytes(out, base, 1, false);
          e++;
          this.checkBytes(out, base + stride, 1, false);
          continue;
        }
        if ((node & 15) !== wideKind) {
          i = -1;
          this.owner.writeTree(store, node, out, dv, base);
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
          if (dirty !== 0) throw new SszError('BAD_TREE', `a ${(infos[i] as FieldInfo).type.typeName} chunk has non-zero bytes past its value`);
          if (k === FIELD_BOOLEAN && (row[c] as number) > 1) {
            throw new SszError('BAD_BOOLEAN', `boolean byte 0x${(row[c] as number).toString(16).padStart(2, '0')} is neither 0 nor 1`);
          }
          if (k === FIELD_BITS) checkTopBits(out, at + fs - 1, bits[i] as number);
        }
      }
    } catch (err) {
      const inner = i >= 0 && i < nf ? withPath(err, (infos[i] as FieldInfo).segment) : err;
      throw indexed ? withPath(inner, `[${e}]`) : inner;
    }
    return offset + nodes.length * stride;
  }

  private makeRowLayout(): RowLayout {
    const infos = this.owner.infos;
    const n = infos.length;
    const row = new Uint8Array(32 << this.owner.depth);
    const layout: RowLayout = {
      row,
      rowView: new DataView(row.buffer),
      kind: new Uint8Array(n),
      size: new Int32Array(n),
      pos: new Int32Array(n),
      bits: new Int32Array(n),
      tables: new Int32Array(n),
    };
    infos.forEach((f, i) => {
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
}
