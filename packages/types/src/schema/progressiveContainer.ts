/**
 * `progressiveContainer(fields, activeFields, name)` (ProgressiveContainer,
 * EIP-7495): a container whose merkleization is stable as fields come and
 * go. `activeFields` is a pattern of at most 256 bits ending in 1, with one
 * 1 per field: field i's root is chunk j, the position of the i-th 1; the
 * chunks at 0 positions are zero. The root is
 * `mix_in_active_fields(merkleize_progressive(chunks), active_fields)`:
 * H(progressive root, pack_bits(active_fields)).
 *
 * Serialization, values (plain objects), JSON, defaults and equality are a
 * container's: they come from a `ContainerType` of the same fields, which
 * this schema holds as its codec; only roots, trees and positions differ.
 * Fields are never stored as packed records (the spine holds them).
 *
 * Invariants: a definition the spec calls illegal throws `INVALID_TYPE` at
 * construction; a tree read back must carry this type's active-fields
 * chunk and zero chunks at the inactive positions, so its root is always
 * the value's.
 * @module
 */
import { defaultStore, type NodeId, type NodeStore, Tree } from '@ssztree/core';
import { hashPairInto } from '@ssztree/hasher';
import { SszError, withPath } from '../errors.js';
import type { Json } from '../json.js';
import { activeFieldsChunk, belowLeft, chunkPosition, merkleizeProgressiveInto, type TreePosition } from '../progressive.js';
import { treeError } from '../tree/nodes.js';
import { nodesTree, progressiveNodes } from '../tree/progressive.js';
import type { PathSegment, PathStep } from '../tree/proofs.js';
import { SszType, type ContainerValue, type Fields } from '../type.js';
import { collectBuilt } from '../view/built.js';
import { containerViewClass, type ContainerView, type ContainerViewBase, type FieldSlot } from '../view/container.js';
import { ProgressiveContainerViewBase } from '../view/progressiveContainer.js';
import { ContainerType } from './container.js';
import { shapeKey } from '../shape.js';

/** The most entries an active-fields pattern may have (its bits fill one chunk). */
const MAX_ACTIVE_FIELDS = 256;

/** Values whose field roots are hashed together, column by column (bounds the rows' scratch). */
const ROOT_BATCH = 4096;

/** The pattern as booleans, checked against the spec's rules for `fieldCount` fields. */
function checkActiveFields(active: unknown, fieldCount: number, name: string): boolean[] {
  const fail = (detail: string): never => {
    throw new SszError('INVALID_TYPE', detail, -1, name);
  };
  if (!Array.isArray(active)) return fail('active fields must be an array of 0/1 (or booleans)');
  if (active.length === 0 || active.length > MAX_ACTIVE_FIELDS) fail(`active fields need 1..${MAX_ACTIVE_FIELDS} entries, got ${active.length}`);
  const bits = active.map((b, i) => {
    if (b === 1 || b === true) return true;
    if (b === 0 || b === false) return false;
    return fail(`active fields entry ${i} is ${String(b)}, not 0/1 or a boolean`);
  });
  if (!bits[bits.length - 1]) fail('the last active fields entry must be 1');
  const ones = bits.filter((b) => b).length;
  if (ones !== fieldCount) fail(`active fields have ${ones} entries set for ${fieldCount} fields`);
  return bits;
}

export class ProgressiveContainerType<F extends Fields> extends SszType<ContainerValue<F>> {
  readonly typeName: string;
  readonly fixedSize: number | null;
  readonly minSize: number;
  readonly maxSize: number;
  readonly isBasic = false;
  override readonly _navigable = true;
  readonly fields: F;
  /** The active-fields pattern, one boolean per chunk position. */
  readonly activeFields: readonly boolean[];
  /** @internal The codec: a plain container of the same fields (serialization is a container's). */
  readonly _codec: ContainerType<F>;
  /** @internal Chunk position of each field, in field order. */
  readonly _chunks: readonly number[];
  /** @internal The `pack_bits(active_fields)` chunk mixed into the root. */
  readonly _activeChunk: Uint8Array;
  /** @internal Each field's position below the root (its chunk under the contents, on the left). */
  readonly _positions: readonly TreePosition[];
  private readonly names: readonly string[];
  private readonly types: readonly SszType<unknown>[];

  constructor(fields: F, activeFields: readonly (number | boolean)[], name = 'ProgressiveContainer') {
    super();
    this.typeName = name;
    if (typeof fields !== 'object' || fields === null || Object.keys(fields).length === 0) {
      throw new SszError('INVALID_TYPE', 'a progressive container needs at least one field', -1, name);
    }
    this.names = Object.keys(fields);
    this.activeFields = checkActiveFields(activeFields, this.names.length, name);
    this._codec = new ContainerType(fields, name);
    this.fields = fields;
    this.types = this.names.map((n) => fields[n] as SszType<unknown>);
    this.fixedSize = this._codec.fixedSize;
    this.minSize = this._codec.minSize;
    this.maxSize = this._codec.maxSize;
    const chunks: number[] = [];
    this.activeFields.forEach((on, j) => on && chunks.push(j));
    this._chunks = chunks;
    this._positions = chunks.map((c) => belowLeft(chunkPosition(c)));
    this._activeChunk = activeFieldsChunk(this.activeFields);
  }

  /** Field names in order. */
  get fieldNames(): readonly string[] {
    return this.names;
  }

  /** @internal The SSZ definition as a canonical key (`shape.ts`): the pattern, then names and shapes in order. */
  _shapeKey(): string {
    const pattern = this.activeFields.map((b) => (b ? '1' : '0')).join('');
    return `ProgressiveContainer[${pattern}]{${this.names.map((n, i) => `${JSON.stringify(n)}:${shapeKey(this.types[i] as SszType<unknown>)}`).join(',')}}`;
  }

  _decode(data: Uint8Array, dv: DataView, start: number, end: number): ContainerValue<F> {
    return this._codec._decode(data, dv, start, end);
  }
  _encode(value: ContainerValue<F>, out: Uint8Array, dv: DataView, offset: number): number {
    return this._codec._encode(value, out, dv, offset);
  }
  _size(value: ContainerValue<F>): number {
    return this._codec._size(value);
  }

  _rootInto(value: ContainerValue<F>, out: Uint8Array, offset: number): void {
    this.rootRows([value], out, offset, 32, false);
  }

  /**
   * Roots of many values: a row of chunks per value, each field's roots
   * written into its chunk of every row by the field type's batched
   * `_rootsInto` (one column at a time), then each row merkleized
   * progressively and its pattern mixed in.
   */
  override _rootsInto(values: readonly ContainerValue<F>[], out: Uint8Array, offset: number, stride = 32): void {
    this.rootRows(values, out, offset, stride, true);
  }

  /** The roots of `values` (see `_rootsInto`); errors carry the value's `[i]` when `indexed`. */
  private rootRows(values: readonly ContainerValue<F>[], out: Uint8Array, offset: number, stride: number, indexed: boolean): void {
    const width = this.activeFields.length;
    const rowBytes = 32 * width;
    const column = new Array<unknown>(Math.min(ROOT_BATCH, values.length));
    for (let first = 0; first < values.length; first += ROOT_BATCH) {
      const count = Math.min(ROOT_BATCH, values.length - first);
      const rows = new Uint8Array(rowBytes * count);
      for (let i = 0; i < count; i++) {
        const v = values[first + i];
        if (typeof v !== 'object' || v === null) {
          const e = new SszError('INVALID_VALUE', `expected an object, got ${v === null ? 'null' : typeof v}`);
          throw indexed ? withPath(e, `[${first + i}]`) : e;
        }
      }
      for (let f = 0; f < this.names.length; f++) {
        const fieldName = this.names[f] as string;
        column.length = count;
        for (let i = 0; i < count; i++) column[i] = (values[first + i] as Record<string, unknown>)[fieldName];
        try {
          (this.types[f] as SszType<unknown>)._rootsInto(column, rows, 32 * (this._chunks[f] as number), rowBytes);
        } catch (e) {
          throw this.explain(e, values, first, count, f, indexed);
        }
      }
      for (let i = 0; i < count; i++) {
        const at = offset + stride * (first + i);
        merkleizeProgressiveInto(rows.subarray(rowBytes * i, rowBytes * (i + 1)), width, out, at);
        const root = out.subarray(at, at + 32);
        hashPairInto(root, this._activeChunk, root);
      }
    }
  }

  /**
   * The error of field `f` for one of values[first, first + count), found
   * again one value at a time (the batched pass keeps no path bookkeeping):
   * with the field's name, and the value's index when `indexed` (lists).
   */
  private explain(e: unknown, values: readonly ContainerValue<F>[], first: number, count: number, f: number, indexed: boolean): unknown {
    const name = `.${this.names[f] as string}`;
    const scratch = new Uint8Array(32);
    for (let i = 0; i < count; i++) {
      try {
        (this.types[f] as SszType<unknown>)._rootInto((values[first + i] as Record<string, unknown>)[this.names[f] as string], scratch, 0);
      } catch (inner) {
        const named = withPath(inner, name);
        return indexed ? withPath(named, `[${first + i}]`) : named;
      }
    }
    return e;
  }

  /** The contents' chunk nodes of field nodes `nodes`: zero chunks at the inactive positions. */
  private chunkNodes(store: NodeStore, nodes: readonly NodeId[]): NodeId[] {
    const out = new Array<NodeId>(this.activeFields.length).fill(store.zero(0));
    for (let i = 0; i < nodes.length; i++) out[this._chunks[i] as number] = nodes[i] as NodeId;
    return out;
  }

  /** @internal The tree over field nodes `nodes`: the progressive contents on the left, the active-fields chunk on the right. */
  _treeOf(store: NodeStore, nodes: readonly NodeId[]): NodeId {
    return store.branch(nodesTree(store, this.chunkNodes(store, nodes)), store.leaf(this._activeChunk));
  }

  _toNode(value: ContainerValue<F>, store: NodeStore): NodeId {
    return this._treeOf(store, this._codec._fieldNodes(value, store));
  }

  override _nodeFromBytes(data: Uint8Array, dv: DataView, start: number, end: number, store: NodeStore): NodeId {
    return this._treeOf(store, this._codec._fieldNodesFromBytes(data, dv, start, end, store));
  }

  /**
   * @internal The field nodes of the tree at `node` (not floating: valid
   * while `node` is held), its shape checked: the active-fields chunk on the
   * right, the spine of the pattern's length, zero chunks where it has 0s.
   */
  _fieldNodesOf(store: NodeStore, node: NodeId): NodeId[] {
    let contents: NodeId;
    try {
      if (store.kind(node) !== 'branch') throw new SszError('BAD_TREE', `a progressive container's root is a branch, found a ${store.kind(node)}`);
      contents = store.left(node);
      const right = store.right(node);
      const active = store.kind(right) === 'leaf' || right === store.zero(0) ? store.chunk(right) : null;
      if (active === null || active.some((b, i) => b !== this._activeChunk[i])) throw new SszError('BAD_TREE', "the active fields chunk is not this type's pattern");
    } catch (e) {
      throw treeError(e);
    }
    const chunks = progressiveNodes(store, contents, this.activeFields.length);
    const zero = store.zero(0);
    for (let j = 0; j < chunks.length; j++) {
      const c = chunks[j] as NodeId;
      if (!this.activeFields[j] && c !== zero && !(store.kind(c) === 'leaf' && store.chunk(c).every((x) => x === 0))) {
        throw new SszError('BAD_TREE', `chunk ${j} is inactive but not the zero chunk`);
      }
    }
    return this._chunks.map((j) => chunks[j] as NodeId);
  }

  _fromNode(store: NodeStore, node: NodeId): ContainerValue<F> {
    return this._codec._valueOfFieldNodes(store, this._fieldNodesOf(store, node));
  }
  override _treeSize(store: NodeStore, node: NodeId): number {
    if (this.fixedSize !== null) return this.fixedSize;
    return this._codec._fieldNodesSize(store, this._fieldNodesOf(store, node));
  }
  override _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    return this._codec._writeFieldNodes(store, this._fieldNodesOf(store, node), out, dv, offset);
  }

  override _pathStep(segment: PathSegment): PathStep {
    const i = this.names.indexOf(segment as string);
    if (typeof segment !== 'string' || i < 0) throw new SszError('BAD_PATH', `no field ${String(segment)}`);
    return { ...(this._positions[i] as TreePosition), next: this.types[i] as SszType<unknown> };
  }

  override _view(store: NodeStore, node: NodeId, tree?: Tree): ContainerView<F> {
    if (this.viewClass === null) {
      this.slots = this.names.map((name, i) => {
        const type = this.types[i] as SszType<unknown>;
        return { name, type, navigable: type._navigable, toNode: (v: unknown, s: NodeStore) => type._toNode(v, s) };
      });
      this.viewClass = containerViewClass<F>(this.slots, this.typeName, ProgressiveContainerViewBase<F>);
    }
    // Depth 1 tells the base this is not a one-field container whose field is its root; positions come from `_positions`.
    return new this.viewClass(this, tree ?? new Tree(node, store), this.slots, 1) as ContainerView<F>;
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
  /** @internal Never stored as a compact record (container views ask). */
  _compactKind(): number {
    return -1;
  }
  /** @internal Unreachable: no compact records (`_compactKind` is -1). */
  _compactField(): unknown {
    throw new SszError('BAD_TREE', 'a progressive container is never a compact record');
  }
  /** @internal Unreachable: no compact records (`_compactKind` is -1). */
  _compactWithFields(): NodeId {
    throw new SszError('BAD_TREE', 'a progressive container is never a compact record');
  }

  defaultValue(): ContainerValue<F> {
    return this._codec.defaultValue();
  }
  equals(a: ContainerValue<F>, b: ContainerValue<F>): boolean {
    return this._codec.equals(a, b);
  }
  clone(value: ContainerValue<F>): ContainerValue<F> {
    return this._codec.clone(value);
  }
  _toJson(value: ContainerValue<F>): Json {
    return this._codec._toJson(value);
  }
  _fromJson(json: unknown): ContainerValue<F> {
    return this._codec._fromJson(json);
  }
}

/**
 * A progressive container: fields in declaration order, merkleized at the
 * positions of the 1s of `activeFields` (0/1 or booleans, at most 256,
 * ending in 1, one 1 per field). Its value is a plain object, as a
 * container's. `name` is the type name (errors, `typeName`).
 *
 *   const Square = progressiveContainer({ side: uint16, color: uint8 }, [1, 0, 1], 'Square');
 */
export function progressiveContainer<F extends Fields>(fields: F, activeFields: readonly (number | boolean)[], name?: string): ProgressiveContainerType<F> {
  return new ProgressiveContainerType(fields, activeFields, name);
}
