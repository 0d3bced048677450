/**
 * Tree → bytes: helpers the schemas' `_treeSize` / `_writeTree` share, and
 * the entry point that serializes a subtree without building its value.
 *
 * Invariants: the output range is zeroed before any schema writes to it (a
 * fresh buffer, or the caller's range cleared by `serializeNodeInto`) and
 * every schema writes its bytes in order, exactly `_treeSize` of them, so
 * zero subtrees are written by writing nothing. Everything a decoder would reject (non-zero
 * chunk padding, a boolean byte above 1, set bits above a bitvector's
 * length, a length past the limit, a tree of the wrong shape) is rejected
 * here as an `SszError` (`BAD_TREE` for shape), never written out.
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import type { SszCodec } from '../codec.js';
import { readNodes, treeError } from './nodes.js';

/** The serialization of the value at `node`, read straight from the tree. */
export function serializeNode(type: SszCodec<unknown>, store: NodeStore, node: NodeId): Uint8Array {
  try {
    const out = new Uint8Array(type._treeSize(store, node));
    const end = type._writeTree(store, node, out, new DataView(out.buffer, out.byteOffset, out.byteLength), 0);
    if (end !== out.length) throw new SszError('BAD_TREE', `wrote ${end} bytes of ${out.length}`);
    return out;
  } catch (e) {
    throw withPath(treeError(e), type.typeName);
  }
}

/**
 * `serializeNode` into the caller's `out` at `offset`; returns the end
 * offset. The range is cleared first, then written. For a buffer reused
 * across calls: a fresh output the size of a whole state costs first-touch
 * page faults and, as external memory, starts a major collection
 * (docs/TYPES.md "Where the time goes"). Bytes outside the range are never
 * touched; after an error the range's contents are unspecified.
 */
export function serializeNodeInto(type: SszCodec<unknown>, store: NodeStore, node: NodeId, out: Uint8Array, offset: number): number {
  try {
    if (!(out instanceof Uint8Array)) throw new SszError('INVALID_VALUE', 'serializeInto expects a Uint8Array');
    if (!Number.isSafeInteger(offset) || offset < 0 || offset > out.length) {
      throw new SszError('BUFFER_TOO_SMALL', `offset ${offset} is outside the buffer of ${out.length} bytes`, offset);
    }
    const size = type._treeSize(store, node);
    if (offset + size > out.length) throw new SszError('BUFFER_TOO_SMALL', `${size} bytes do not fit at offset ${offset} of ${out.length}`, offset);
    out.fill(0, offset, offset + size);
    const end = type._writeTree(store, node, out, new DataView(out.buffer, out.byteOffset, out.byteLength), offset);
    if (end !== offset + size) throw new SszError('BAD_TREE', `wrote ${end - offset} bytes of ${size}`);
    return end;
  } catch (e) {
    throw withPath(treeError(e), type.typeName);
  }
}

/**
 * The value at `node`, decoded from its serialization copied out of the
 * tree: measured faster than building it node by node (`_fromNode`) for
 * lists of records (docs/VIEWS.md). The bytes are fresh and private, so
 * byte fields may view them (as `deserialize` results view their copy).
 */
export function valueOfNode<V>(type: SszCodec<V>, store: NodeStore, node: NodeId): V {
  const bytes = serializeNode(type as SszCodec<unknown>, store, node);
  try {
    return type._decode(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.length);
  } catch (e) {
    throw withPath(e, type.typeName);
  }
}

/**
 * Copies `byteLen` bytes of the chunks at level `depth` below `root` to
 * `out[offset]`, rejecting non-zero padding in the last chunk.
 */
export function copyLevel(store: NodeStore, root: NodeId, depth: number, byteLen: number, out: Uint8Array, offset: number): void {
  let clean: boolean;
  try {
    clean = store.copyLevelBytes(root, depth, byteLen, out, offset);
  } catch (e) {
    throw treeError(e);
  }
  if (!clean) throw new SszError('BAD_TREE', `non-zero padding after byte ${byteLen} of the packed chunks`);
}

/** The first `count` nodes at level `depth` (one walk, no floating ids; the checked walk where wide leaves cover the level). */
export function levelNodes(store: NodeStore, root: NodeId, depth: number, count: number): NodeId[] {
  let nodes: NodeId[] | null;
  try {
    nodes = store.collectLevel(root, depth, count);
  } catch (e) {
    throw treeError(e);
  }
  return nodes ?? readNodes(store, root, depth, count);
}

/**
 * `levelNodes` for a level of records: a record pair one level up (core
 * `collectPaired`) stands for both its positions, so serializers copy pairs
 * whole instead of making a node per element.
 */
export function recordLevelNodes(store: NodeStore, root: NodeId, depth: number, count: number): NodeId[] {
  let nodes: NodeId[] | null;
  try {
    nodes = depth <= 53 ? store.collectPaired(root, depth, count) : null;
  } catch (e) {
    throw treeError(e);
  }
  return nodes ?? readNodes(store, root, depth, count);
}

/** Rejects a byte other than 0 or 1 among `out[from, from + n)` (packed booleans). */
export function checkBooleans(out: Uint8Array, from: number, n: number): void {
  for (let i = from; i < from + n; i++) {
    if ((out[i] as number) > 1) throw new SszError('BAD_BOOLEAN', `boolean byte 0x${(out[i] as number).toString(16).padStart(2, '0')} is neither 0 nor 1`);
  }
}

/** Rejects set bits above bit `bits` of a bitfield whose last data byte is `out[last]`. */
export function checkTopBits(out: Uint8Array, last: number, bits: number): void {
  if (bits % 8 !== 0 && (out[last] as number) >> bits % 8 !== 0) throw new SszError('BAD_BITS', `padding bits above bit ${bits} are set`);
}

/** Serialized size of composite elements at `nodes` (variable ones cost 4 offset bytes each). */
export function compositesTreeSize(elem: SszCodec<unknown>, store: NodeStore, nodes: readonly NodeId[]): number {
  if (elem.fixedSize !== null) return elem.fixedSize * nodes.length;
  let size = 4 * nodes.length;
  for (let i = 0; i < nodes.length; i++) {
    try {
      size += elem._treeSize(store, nodes[i] as NodeId);
    } catch (e) {
      throw withPath(e, `[${i}]`);
    }
  }
  return size;
}

type RecordWriter = (store: NodeStore, nodes: readonly NodeId[], out: Uint8Array, dv: DataView, offset: number) => number;
type RecordElement = SszCodec<unknown> & { _recordDepth?: number; _writeRecords?: RecordWriter };

/** True for element types written by `_writeRecords` (containers stored as records). */
function writesRecords(elem: SszCodec<unknown>): boolean {
  const records = elem as RecordElement;
  return (records._recordDepth ?? 0) > 0 && records._writeRecords !== undefined;
}

/** Writes the `count` composite elements at level `depth` below `contents` (records: pairs collected whole). */
export function writeCompositeLevel(elem: SszCodec<unknown>, store: NodeStore, contents: NodeId, depth: number, count: number, out: Uint8Array, dv: DataView, offset: number): number {
  const nodes = writesRecords(elem) ? recordLevelNodes(store, contents, depth, count) : levelNodes(store, contents, depth, count);
  return writeComposites(elem, store, nodes, out, dv, offset);
}

/** Writes composite elements at `nodes` (fixed: back to back; variable: offset table, then bodies). */
export function writeComposites(elem: SszCodec<unknown>, store: NodeStore, nodes: readonly NodeId[], out: Uint8Array, dv: DataView, offset: number): number {
  // Packed records: one call for all (layout and preimage tables resolved once).
  if (writesRecords(elem)) return (elem as RecordElement)._writeRecords!(store, nodes, out, dv, offset);
  const n = nodes.length;
  const variable = elem.fixedSize === null;
  let pos = variable ? offset + 4 * n : offset;
  for (let i = 0; i < n; i++) {
    if (variable) dv.setUint32(offset + 4 * i, pos - offset, true);
    try {
      pos = elem._writeTree(store, nodes[i] as NodeId, out, dv, pos);
    } catch (e) {
      throw withPath(e, `[${i}]`);
    }
  }
  return pos;
}
