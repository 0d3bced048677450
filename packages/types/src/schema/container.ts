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
 * batches, level by level for all values at once (`containerRoots.ts`).
 * @module
 */
import type { NodeId, NodeStore, RecordRuns } from '@ssztree/core';
import { describeArg, SszError, withPath } from '../errors.js';
import { expectObject, type Json } from '../json.js';
import { depthForLimit } from '../merkle.js';
import { defaultStore, Tree } from '@ssztree/core';
import { readNodes, subtreeFromNodes } from '../tree/nodes.js';
import { levelNodes } from '../tree/write.js';
import type { PathSegment, PathStep } from '../tree/proofs.js';
import { containerViewClass, type ContainerView, type ContainerViewBase, type FieldSlot, NO_VALUE } from '../view/container.js';
import { SszType, type ByteReader, type ContainerValue, type Fields, type TreeView } from '../type.js';
import { BasicType } from '../basicType.js';
import { generateCodec } from './containerCodegen.js';
import { ContainerRecords, type FieldInfo } from './containerRecords.js';
import { ContainerRoots } from './containerRoots.js';
import { shapeKey } from '../shape.js';
import { collectBuilt } from '../view/built.js';

export type { ContainerValue, Fields } from '../type.js';

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
  private readonly depth: number;
  /** Roots of values, in batches (`containerRoots.ts`). */
  private readonly roots: ContainerRoots;
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
  /** Packed-record storage (`containerRecords.ts`), for containers with `_recordDepth > 0`. */
  private readonly records: ContainerRecords | null;
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
    this.fixedPartSize = pos;
    this.fixedSize = infos.every((f) => f.fixedSize !== null) ? pos : null;
    this.minSize = min;
    this.maxSize = max;
    this.depth = depthForLimit(infos.length);
    this.codec = generateCodec(infos, this.fixedPartSize, this.fixedSize);
    this.roots = new ContainerRoots(infos, this.depth, this.codec);
    const packable = infos.every((f) => f.basic || f.rootIsChunk || f.type._preimageLength > 0);
    this._recordDepth = this.fixedSize !== null && packable && this.depth >= 1 && this.depth <= 6 ? this.depth : 0;
    this.records =
      this._recordDepth > 0
        ? new ContainerRecords({
            infos,
            size: pos,
            depth: this._recordDepth,
            codec: this.codec,
            eachBatch: (values, use) => this.roots.eachBatch(values, use),
            explainValues: (values) => this._rootsInto(values as readonly ContainerValue<F>[], new Uint8Array(32 * values.length), 0),
            writeTree: (store, node, out, dv, offset) => this._writeTree(store, node, out, dv, offset),
          })
        : null;
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

  /**
   * @internal `count` fixed-size values back to back from `start`, decoded in
   * one generated loop (sequence.ts); null for variable-size containers.
   */
  get _decodeRun(): ((data: Uint8Array, dv: DataView, start: number, count: number) => ContainerValue<F>[]) | null {
    return this.codec.decodeRun as ((data: Uint8Array, dv: DataView, start: number, count: number) => ContainerValue<F>[]) | null;
  }
  /** @internal Encodes fixed-size values back to back in one generated loop (sequence.ts); null for variable-size containers. */
  get _encodeRun(): ((values: readonly ContainerValue<F>[], out: Uint8Array, dv: DataView, offset: number) => number) | null {
    return this.codec.encodeRun;
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
    this.roots.rootInto(value, out, offset);
  }

  override _rootsInto(values: readonly ContainerValue<F>[], out: Uint8Array, offset: number, stride = 32): void {
    this.roots.rootsInto(values, out, offset, stride);
  }

  /**
   * @internal The core record kind this container's values are stored as —
   * one node holding the serialization plus the root (core wide/records.ts) —
   * or -1 (`containerRecords.ts`).
   */
  _compactKind(): number {
    return this.records === null ? -1 : this.records.compactKind();
  }

  /** @internal The subtree of `depth` whose first leaves are `values` as compact records, or null (`ContainerRecords.treeFromValues`). */
  _recordTreeFromValues(values: readonly ContainerValue<F>[], depth: number, store: NodeStore): NodeId | null {
    return this.records === null ? null : this.records.treeFromValues(values, depth, store);
  }

  /** @internal The subtree of `depth` whose first leaves are `count` serialized records, validated, or null (`ContainerRecords.treeFromBytes`). */
  _recordTreeFromBytes(data: Uint8Array, start: number, count: number, depth: number, store: NodeStore, placed?: RecordRuns): NodeId | null {
    return this.records === null ? null : this.records.treeFromBytes(data, start, count, depth, store, placed);
  }

  override _toNodes(values: readonly ContainerValue<F>[], store: NodeStore): NodeId[] {
    return this.records === null ? super._toNodes(values, store) : this.records.fromValues(values, store);
  }

  /**
   * Field byte ranges of a serialized value (offsets checked as `_decode`
   * checks them). `dv` views the input from byte `dvBase` on: the whole
   * input (0), or only the fixed part read for `checkLayout` (`start`).
   * Float64: positions in inputs past 2 GiB stay exact.
   */
  private fieldRanges(dv: DataView, start: number, end: number, dvBase = 0): Float64Array {
    const n = this.infos.length;
    const ranges = new Float64Array(2 * n);
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
      const o = dv.getUint32(start - dvBase + f.fixedPos, true);
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

  override _checkLayout(read: ByteReader, start: number, end: number): void {
    if (this.fixedSize !== null) return this._checkFixed(start, end);
    // The fixed part alone: fieldRanges checks the size against it before reading an offset.
    const head = end - start < this.fixedPartSize ? new Uint8Array(0) : read(start, start + this.fixedPartSize);
    const ranges = this.fieldRanges(new DataView(head.buffer, head.byteOffset, head.byteLength), start, end, start);
    for (let i = 0; i < this.infos.length; i++) {
      const f = this.infos[i] as FieldInfo;
      if (f.fixedSize !== null) continue;
      try {
        f.type._checkLayout(read, ranges[2 * i] as number, ranges[2 * i + 1] as number);
      } catch (e) {
        throw withPath(e, f.segment, ranges[2 * i] as number);
      }
    }
  }

  override _nodeFromBytes(data: Uint8Array, dv: DataView, start: number, end: number, store: NodeStore): NodeId {
    if (this._recordDepth > 0) {
      this._checkFixed(start, end);
      return this._recordsFromBytes(data, start, 1, store, false)[0] as NodeId;
    }
    return subtreeFromNodes(store, this._fieldNodesFromBytes(data, dv, start, end, store), this.depth);
  }

  /** @internal Each field's view subtree from the value serialized in `data[start, end)`, validated like `_decode`. */
  _fieldNodesFromBytes(data: Uint8Array, dv: DataView, start: number, end: number, store: NodeStore): NodeId[] {
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
    return nodes;
  }

  /** @internal `count` record nodes straight from their serialization at `data[start]`, validated (`ContainerRecords.fromBytes`). */
  _recordsFromBytes(data: Uint8Array, start: number, count: number, store: NodeStore, indexed = true): NodeId[] {
    return (this.records as ContainerRecords).fromBytes(data, start, count, store, indexed);
  }

  /** @internal Field i of the compact record `node` (or of half `half` of record pair `node`), decoded from its bytes. */
  _compactField(store: NodeStore, node: NodeId, i: number, half = -1): unknown {
    return (this.records as ContainerRecords).field(store, node, i, half);
  }

  /**
   * @internal The compact record `node` with fields rewritten, or `node`
   * itself when nothing changes; of half `half` of record pair `node`: always
   * a new record (`ContainerRecords.withFields`).
   */
  _compactWithFields(store: NodeStore, node: NodeId, indices: readonly number[], values: readonly unknown[], half = -1): NodeId {
    return (this.records as ContainerRecords).withFields(store, node, indices, values, half);
  }

  override _pairWrite(left: TreeView<ContainerValue<F>> | null, right: TreeView<ContainerValue<F>> | null, out: Uint8Array, view: DataView, offset: number): number {
    const records = this.records;
    const a = left as ContainerViewBase<F> | null;
    const b = right as ContainerViewBase<F> | null;
    const pair = (a ?? b)?._pair ?? -1;
    if (records === null || pair < 0 || (a !== null && a._half !== 0) || (b !== null && (b._pair !== pair || b._half !== 1))) return -1;
    const writesA = a === null ? null : a._pairWrites();
    const writesB = b === null ? null : b._pairWrites();
    if ((a !== null && writesA === null) || (b !== null && writesB === null)) return -1;
    return records.pairWithFields((a ?? b)!._tree.store, pair, writesA, writesB, NO_VALUE, out, view, offset) ? 1 : 0;
  }

  override _pairBytes(): number {
    return this.records === null ? 0 : 2 * (this.fixedSize as number);
  }

  override _halfView(list: Tree, pair: NodeId, half: number): ContainerView<F> | null {
    if (this.records === null || (pair & 15) !== this.records.pairKind() || (half !== 0 && half !== 1)) return null;
    const view = this._view(list.store, pair, list);
    view._pair = pair;
    view._half = half;
    return view;
  }

  _toNode(value: ContainerValue<F>, store: NodeStore): NodeId {
    if (this._recordDepth > 0) {
      try {
        return this._toNodes([value], store)[0] as NodeId;
      } catch (e) {
        this.roots.explainRootError(value);
        throw e;
      }
    }
    return subtreeFromNodes(store, this._fieldNodes(value, store), this.depth);
  }

  /** @internal Each field's subtree of `value` (errors carry the field's path). */
  _fieldNodes(value: ContainerValue<F>, store: NodeStore): NodeId[] {
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
    return nodes;
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
    return this._valueOfFieldNodes(store, readNodes(store, node, this.depth, infos.length));
  }

  /** @internal The value whose fields' subtrees are `nodes` (errors carry the field's path). */
  _valueOfFieldNodes(store: NodeStore, nodes: readonly NodeId[]): ContainerValue<F> {
    const infos = this.infos;
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
    return this._fieldNodesSize(store, levelNodes(store, node, this.depth, this.infos.length));
  }

  /** @internal The serialized size of the value whose fields' subtrees are `nodes`. */
  _fieldNodesSize(store: NodeStore, nodes: readonly NodeId[]): number {
    if (this.fixedSize !== null) return this.fixedSize;
    const infos = this.infos;
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
    if (this.records !== null && this.records.isRecord(store, node)) return this.records.write(store, [node], out, dv, offset, false);
    return this._writeFieldNodes(store, levelNodes(store, node, this.depth, this.infos.length), out, dv, offset);
  }

  /** @internal Writes the serialization of the value whose fields' subtrees are `nodes` at out[offset]; returns the end. */
  _writeFieldNodes(store: NodeStore, nodes: readonly NodeId[], out: Uint8Array, dv: DataView, offset: number): number {
    const infos = this.infos;
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
   * @internal Writes the records at `nodes` back to back from `offset`
   * (elements of a list or vector: errors carry `[i]` when `indexed`;
   * `ContainerRecords.write`).
   */
  _writeRecords(store: NodeStore, nodes: readonly NodeId[], out: Uint8Array, dv: DataView, offset: number, indexed = true): number {
    return (this.records as ContainerRecords).write(store, nodes, out, dv, offset, indexed);
  }

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
    // The build records the page and element tables of its lists (view/built.ts); the fields' views take them.
    return collectBuilt(() => {
      const view = super.deserializeToView(bytes, store) as ContainerView<F>;
      (view as unknown as ContainerViewBase<F>)._takeBuilt();
      return view;
    });
  }
  override viewOf(tree: Tree): ContainerView<F> {
    return super.viewOf(tree) as ContainerView<F>;
  }

  override _pathStep(segment: PathSegment): PathStep {
    const index = this.infos.findIndex((f) => f.name === segment);
    if (index < 0) throw new SszError('BAD_PATH', `no field ${describeArg(segment)}`);
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
