/**
 * The codec half of every schema: `SszCodec<V>` turns four internal
 * primitives — decode a byte range, encode at an offset, size a value,
 * write a root — into the byte and JSON entry points, and declares the
 * primitives that convert a value to and from its subtree. `Type<V>` is the
 * public interface of every schema; `SszType` (type.ts) extends this class
 * with trees, views, proofs and the frozen-value root cache.
 *
 * Invariants every subclass keeps:
 * - `_decode(data, dv, start, end)` reads exactly `[start, end)` of `data`
 *   (`dv` views the same bytes at the same offsets), rejects anything else
 *   with an `SszError` whose `offset` is absolute in `data`, and never reads
 *   outside the range, so no `RangeError` can come out of a `DataView`.
 * - `_encode(value, out, dv, offset)` writes exactly `_size(value)` bytes and
 *   returns the end offset; callers have checked the room beforehand.
 * - Inner types throw with an empty type path; composite types prepend
 *   `.field` / `[i]`, and the public entry points prepend the type name.
 *
 * Tree conversion is one more pair of primitives, implemented per schema
 * next to its codec: `_toNode(value, store)` builds the value's subtree in
 * the SSZ merkleization layout (its hash equals `hashTreeRoot(value)`) and
 * `_fromNode(store, node)` reads it back, validating like the decoder.
 *
 * Imports only errors.ts and json.ts: what works on schemas from below the
 * base class (tree/, frozen/) takes an `SszCodec`.
 * @module
 */
import type { NodeId, NodeStore, Tree } from '@ssztree/core';
import { describeArg, SszError, withPath } from './errors.js';
import type { Json } from './json.js';

/** The public interface of every schema. */
export interface Type<V> {
  /** A readable name, e.g. `uint64`, `List[Validator, 1099511627776]`, or a container's name. */
  readonly typeName: string;
  /** The serialized size when it is the same for every value, else null. */
  readonly fixedSize: number | null;
  /** Smallest serialized size. */
  readonly minSize: number;
  /** Largest serialized size (may exceed 2^53 for huge limits; then it is an upper bound). */
  readonly maxSize: number;
  /** True for uints and boolean, which pack several to a chunk. */
  readonly isBasic: boolean;
  /** The longest input `deserialize` accepts (`maxSize`, or the spec's type-specific bound when one is set). */
  readonly byteBound: number;
  /** The SSZ serialization of `value`; a value of the wrong shape throws `SszError`. */
  serialize(value: V): Uint8Array;
  /** Writes the serialization into `buffer` at `offset`; returns the end offset. */
  serializeInto(value: V, buffer: Uint8Array, offset: number): number;
  /**
   * Strict decode: malformed bytes throw `SszError` with a code, the type
   * path and the byte offset. `{ copy: false }` decodes without copying the
   * input (see `DeserializeOptions`).
   */
  deserialize(bytes: Uint8Array, options?: DeserializeOptions): V;
  /**
   * Checks the layout of a serialization of `size` bytes while reading only
   * the few bytes that takes, through `read` (see `SszCodec.checkLayout`).
   */
  checkLayout(size: number, read: ByteReader): void;
  /** The 32-byte `hash_tree_root` of `value`, computed from the value (no tree is kept). */
  hashTreeRoot(value: V): Uint8Array;
  /** The type's default (all-zero) value: zeros, empty lists, default fields. */
  defaultValue(): V;
  /** Deep equality of two values of this type. */
  equals(a: V, b: V): boolean;
  /** A deep copy sharing no mutable parts with `value`. */
  clone(value: V): V;
  /** The consensus API JSON form: uint64 as decimal strings, bytes as 0x-hex, containers as objects. */
  toJson(value: V): Json;
  /** Parses the consensus API JSON form; bad input throws `SszError` `INVALID_JSON`. */
  fromJson(json: unknown): V;
  /** The serialized size of `value`. */
  sizeOf(value: V): number;
  /** The value as a persistent tree of `store`; its root equals `hashTreeRoot(value)`. */
  toTree(value: V, store?: NodeStore): Tree;
  /** The value held by a tree (or by a node of `store`). */
  fromTree(tree: Tree | NodeId, store?: NodeStore): V;
}

/** The value type a schema describes: `ValueOf<typeof Validator>`. */
export type ValueOf<T extends { defaultValue(): unknown }> = ReturnType<T['defaultValue']>;

/** How `deserialize` treats its input. */
export interface DeserializeOptions {
  /**
   * `true` (the default): the value shares nothing with the input. `false`:
   * no copy of the input is made, and byte fields of the value (byte
   * vectors, byte lists) view the input's memory — for callers that own the
   * bytes and leave them unchanged while the value lives (a file read for
   * this decode only), saving one copy of the whole input.
   */
  readonly copy?: boolean;
}

/** Bytes `[start, end)` of a serialization, for `checkLayout` (a file read at an offset, or a subarray). */
export type ByteReader = (start: number, end: number) => Uint8Array;

/** The codec half of every schema (see the module comment); every schema is an `SszType`, which extends it. */
export abstract class SszCodec<V> {
  abstract readonly typeName: string;
  abstract readonly fixedSize: number | null;
  abstract readonly minSize: number;
  abstract readonly maxSize: number;
  abstract readonly isBasic: boolean;
  /** @internal True for schemas whose views have inner structure (containers, lists, vectors): they read as child views. */
  readonly _navigable: boolean = false;
  /**
   * @internal For byte vectors of 33..64 bytes: their length. Inside a packed
   * record such a field is stored as its root, and its bytes are found again
   * through the preimage table (`tree/preimages.ts`).
   */
  readonly _preimageLength: number = 0;
  /** @internal True when the root is the value itself padded to one chunk (no hashing needed). */
  readonly _rootIsChunk: boolean = false;
  /**
   * @internal True when decoded values may view the decoder's input (byte
   * fields do). `deserialize` then decodes from a private copy of the input,
   * made with one bulk copy, so values never alias the caller's bytes.
   */
  readonly _viewsInput: boolean = true;

  /** @internal A byte bound set by `withByteBound` (null: the bound is `maxSize`). */
  _byteBound: number | null = null;
  /**
   * @internal True for lists, bitlists and byte lists: their decoder derives
   * the length from the input's size and checks it against the limit before
   * allocating (reporting `LIMIT_EXCEEDED`), so the derived bound needs no
   * separate check; a bound set with `withByteBound` is still checked.
   */
  readonly _limitBoundsSize: boolean = false;

  /**
   * The longest input `deserialize` and `deserializeToView` accept: a bound
   * set with `withByteBound` (the spec's type-specific SSZ bounds), else
   * `maxSize`. Longer input is refused with `BOUND_EXCEEDED` before anything
   * is copied or allocated.
   */
  get byteBound(): number {
    return this._byteBound === null ? this.maxSize : Math.min(this._byteBound, this.maxSize);
  }

  /** @internal Refuses input past the byte bound (variable-size types; fixed ones check their exact size). */
  protected _checkBound(bytes: Uint8Array): void {
    this._checkBoundSize(bytes.length);
  }
  /** @internal `_checkBound` by size alone (what `checkLayout` knows of its input). */
  protected _checkBoundSize(size: number): void {
    if (this.fixedSize === null && (this._byteBound !== null || !this._limitBoundsSize) && size > this.byteBound) {
      throw new SszError('BOUND_EXCEEDED', `${size} bytes exceed the bound of ${this.byteBound}`, this.byteBound);
    }
  }

  /** @internal Decodes exactly `data[start, end)`; `data` is private to the decoder when `_viewsInput`. */
  abstract _decode(data: Uint8Array, dv: DataView, start: number, end: number): V;
  /** @internal Encodes at `offset`; returns the end offset. */
  abstract _encode(value: V, out: Uint8Array, dv: DataView, offset: number): number;
  /** @internal The serialized size; validates the value's shape as far as sizing needs. */
  abstract _size(value: V): number;
  /** @internal Writes the 32-byte root at `out[offset]`. */
  abstract _rootInto(value: V, out: Uint8Array, offset: number): void;
  /**
   * @internal The canonical key of this schema's SSZ definition (`shape.ts`):
   * kind, lengths/limits, element and field shapes (through `shapeKey`, so
   * nested keys are built once), field names; never the type name.
   */
  abstract _shapeKey(): string;
  /** @internal The value's subtree in `store` (floating); validates the value like `_encode`. */
  abstract _toNode(value: V, store: NodeStore): NodeId;
  /** @internal The value of the subtree at `node`; rejects wrong shapes with `BAD_TREE` and bad contents like `_decode`. */
  abstract _fromNode(store: NodeStore, node: NodeId): V;

  /**
   * @internal The serialized size of the value at `node`, read from the
   * tree (list lengths, union selectors) without building the value. Fixed-
   * size types answer without reading; variable-size schemas override.
   */
  _treeSize(store: NodeStore, node: NodeId): number {
    if (this.fixedSize !== null) return this.fixedSize;
    return this._size(this._fromNode(store, node));
  }
  /**
   * @internal Writes the serialization of the value at `node` to `out[offset]`
   * (zeroed by the caller) and returns the end offset, rejecting trees
   * `_fromNode` rejects. Schemas override this to copy chunk bytes; the
   * default goes through the value.
   */
  _writeTree(store: NodeStore, node: NodeId, out: Uint8Array, dv: DataView, offset: number): number {
    return this._encode(this._fromNode(store, node), out, dv, offset);
  }

  abstract defaultValue(): V;
  abstract equals(a: V, b: V): boolean;
  abstract clone(value: V): V;
  /** @internal toJson without the path bookkeeping. */
  abstract _toJson(value: V): Json;
  /** @internal fromJson without the path bookkeeping. */
  abstract _fromJson(json: unknown): V;

  /**
   * @internal For `_rootIsChunk` types: writes the root into a chunk the
   * caller has zeroed (so padding needs no writes).
   */
  _chunkInto(value: V, out: Uint8Array, offset: number): void {
    this._rootInto(value, out, offset);
  }

  /**
   * @internal Roots of many values: root i goes to `out[offset + i*stride]`.
   * Schemas whose roots share one shape override this to hash all values'
   * level-k nodes in one `hashInto` call. Errors carry the `[i]` segment.
   */
  _rootsInto(values: readonly V[], out: Uint8Array, offset: number, stride = 32): void {
    for (let i = 0; i < values.length; i++) {
      try {
        this._rootInto(values[i] as V, out, offset + stride * i);
      } catch (e) {
        throw withPath(e, `[${i}]`);
      }
    }
  }

  serialize(value: V): Uint8Array {
    try {
      const out = new Uint8Array(this._size(value));
      this._encode(value, out, new DataView(out.buffer, out.byteOffset, out.byteLength), 0);
      return out;
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  serializeInto(value: V, buffer: Uint8Array, offset: number): number {
    try {
      if (!Number.isSafeInteger(offset) || offset < 0 || offset > buffer.length) {
        throw new SszError('BUFFER_TOO_SMALL', `offset ${offset} is outside the buffer of ${buffer.length} bytes`, offset);
      }
      const size = this._size(value);
      if (offset + size > buffer.length) {
        throw new SszError('BUFFER_TOO_SMALL', `${size} bytes do not fit at offset ${offset} of ${buffer.length}`, offset);
      }
      return this._encode(value, buffer, new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength), offset);
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  deserialize(bytes: Uint8Array, options?: DeserializeOptions): V {
    try {
      if (!(bytes instanceof Uint8Array)) throw new SszError('INVALID_VALUE', 'deserialize expects a Uint8Array');
      this._checkBound(bytes);
      const data = this._viewsInput && options?.copy !== false ? bytes.slice() : bytes;
      return this._decode(data, new DataView(data.buffer, data.byteOffset, data.byteLength), 0, data.length);
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  /**
   * @internal Validates a value without building anything (what a view
   * checks before recording a write). Throws `SszError` with the type's path.
   */
  _check(value: V): void {
    try {
      this._size(value);
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  /**
   * @internal The value whose root is the chunk at `chunks[offset]` (types
   * whose root is one chunk, and preimage-backed byte vectors): how packed
   * records decode a field. Others throw `BAD_TREE`. `store` is the store
   * the chunk was read from (preimage-backed fields look their bytes up in
   * that store's table).
   */
  _fromChunk(_chunks: Uint8Array, _dv: DataView, _offset: number, _store?: NodeStore): V {
    throw new SszError('BAD_TREE', `a ${this.typeName} cannot be read from one chunk`);
  }

  /** @internal The subtrees of many values (containers of packed records build theirs in batches). */
  _toNodes(values: readonly V[], store: NodeStore): NodeId[] {
    const nodes = new Array<NodeId>(values.length);
    for (let i = 0; i < values.length; i++) {
      try {
        nodes[i] = this._toNode(values[i] as V, store);
      } catch (e) {
        throw withPath(e, `[${i}]`);
      }
    }
    return nodes;
  }
  sizeOf(value: V): number {
    try {
      return this._size(value);
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  toJson(value: V): Json {
    try {
      return this._toJson(value);
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  fromJson(json: unknown): V {
    try {
      return this._fromJson(json);
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  /**
   * Checks what a serialization of `size` bytes can be checked for without
   * its bulk, reading only the bytes that takes through `read`: a fixed
   * size; each variable-size container's offset table (read from its fixed
   * part); the element counts lists imply (against their limits, and whole
   * elements); a bitlist's delimiter byte; a union's selector. It throws the
   * `SszError` `deserialize` would for such a fault — same code, type path
   * and byte offset — though where an input has several faults the two may
   * name different ones first. Bytes that pass can still hold bad values
   * (a boolean of 2, set padding bits): `deserialize` checks those.
   *
   * For inputs too large to read whole just to be told they are wrong: a
   * file of zeros given as a BeaconState fails here on its first offset,
   * after reading the state's fixed part, not the file.
   */
  checkLayout(size: number, read: ByteReader): void {
    try {
      if (!Number.isSafeInteger(size) || size < 0) throw new SszError('INVALID_VALUE', `checkLayout expects a size in bytes, got ${describeArg(size)}`);
      // The same first check as `deserialize`, so both name the same fault.
      this._checkBoundSize(size);
      this._checkLayout(read, 0, size);
    } catch (e) {
      throw withPath(e, this.typeName);
    }
  }

  /** @internal The layout checks of `[start, end)` (`checkLayout`); fixed-size types check their size, variable ones override. */
  _checkLayout(_read: ByteReader, start: number, end: number): void {
    if (this.fixedSize !== null) this._checkFixed(start, end);
  }

  /** @internal Rejects a range whose length is not the fixed size. */
  protected _checkFixed(start: number, end: number): void {
    const size = this.fixedSize as number;
    if (end - start !== size) {
      const code = end - start < size ? 'SHORT_INPUT' : 'TRAILING_BYTES';
      throw new SszError(code, `expected ${size} bytes, got ${end - start}`, end - start < size ? end : start + size);
    }
  }
}

/** Any schema, seen from below the base class (tree/, frozen/). */
export type AnyCodec = SszCodec<unknown>;

/**
 * Sets the byte bound of a type just built (the spec's type-specific SSZ
 * bounds, for types whose limits no longer bound their size): `deserialize`
 * then refuses longer input up front. Returns the type. A type's bound is
 * set once, before the type is shared; a bound below the smallest valid
 * size is an `INVALID_TYPE`.
 */
export function withByteBound<T extends SszCodec<unknown>>(type: T, bound: number): T {
  if (!Number.isSafeInteger(bound) || bound < type.minSize) {
    throw new SszError('INVALID_TYPE', `byte bound ${bound} is below the smallest size ${type.minSize}`, -1, type.typeName);
  }
  if (type._byteBound !== null) throw new SszError('INVALID_TYPE', `byte bound already set to ${type._byteBound}`, -1, type.typeName);
  type._byteBound = bound;
  return type;
}
