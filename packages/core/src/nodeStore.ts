/**
 * `NodeStore`: the public, checked face of the node store. Every method
 * validates its ids and arguments (throwing `CoreError`), and every node it
 * hands out that nobody holds yet is "floating": listed in the nursery and
 * freed by the next sweep unless it has been attached to a branch, retained,
 * or wrapped in a `Tree` by then. Sweeps happen between tasks, on
 * `collect()`, and in `Tree.dispose()` once the nursery is large (see
 * `StoreCore.sweepAtDispose`), so a floating id is good for the rest of the
 * current synchronous task up to the next `dispose()` or `collect()`.
 * @module
 */
import { buildFromChunks, readHashRaw } from './store/levels.js';
import { CoreError } from './errors.js';
import { checkDepth, type Gindex } from './gindex.js';
import { KIND_BRANCH, KIND_LEAF, KIND_ZERO, kindName, MAX_ZERO_DEPTH, type NodeId, type NodeKind, zeroId } from './nodes/ids.js';
import { readLength, withLength } from './build/list.js';
import { setChunksAtDepth, setNodesAtDepth } from './write/batchWrite.js';
import { getNode, getNodeAtDepth, iterateNodesAtDepth, setNode } from './write/navigate.js';
import { buildPartialTree } from './read/partial.js';
import { createMultiproof, createSingleProof, type Multiproof, type SingleProof } from './read/proofs.js';
import { StoreCore } from './store/storeCore.js';
import { collectElements, collectLevel, copyLevelBytes, copyWide } from './read/bulk.js';
import { buildPairTree, buildRecordTree, type RecordFill, type RecordRuns } from './build/recordTrees.js';
import { layoutOf } from './nodes/recordLayouts.js';
import { copyRecordLevel } from './wide/recordLevel.js';
import { copyRecordBytes, createRecord, createRecordRows, recordOffset, recordPage } from './wide/records.js';
import { createWide, createWideRows, readWideChunks, scanLiveChunks, wideDepth } from './wide/wideLeaves.js';
import { buildFromPages, type PageSource } from './build/pages.js';

function checkChunk(chunk: Uint8Array, offset: number, what: string): void {
  if (!(chunk instanceof Uint8Array) || !Number.isInteger(offset) || offset < 0 || offset + 32 > chunk.length) {
    throw new CoreError('BAD_INPUT', `${what}: need 32 bytes at offset ${offset}`);
  }
}

export class NodeStore extends StoreCore {
  // ---------------------------------------------------------- constructors

  /** The all-zero subtree of `depth` (0..64): a shared, pre-hashed singleton. */
  zero(depth: number): NodeId {
    checkDepth(depth, 0, MAX_ZERO_DEPTH);
    return zeroId(depth);
  }

  /** A leaf holding `chunk[offset, offset+32)`. */
  leaf(chunk: Uint8Array, offset = 0): NodeId {
    checkChunk(chunk, offset, 'leaf');
    return this.float(this.newLeaf(chunk, offset));
  }

  /** A branch over two nodes (hashed lazily, with the next root computation). */
  branch(left: NodeId, right: NodeId): NodeId {
    this.check(left);
    this.check(right);
    return this.float(this.newBranch(left, right));
  }

  /** A node known only by its hash (the unknown parts of a partial tree). */
  opaque(hash: Uint8Array, offset = 0): NodeId {
    checkChunk(hash, offset, 'opaque');
    return this.float(this.newOpaque(hash, offset));
  }

  /**
   * `count` wide leaves of inner depth `depth` (1..6) from `rows`, one row of
   * 32·2^depth bytes each, back to back: `out[at + i]` gets row i's node. The
   * bulk form of `wide` for many records (no view object per row).
   */
  wideRows(rows: Uint8Array, depth: number, count: number, out: NodeId[], at = 0): void {
    if (!(rows instanceof Uint8Array)) throw new CoreError('BAD_INPUT', 'wideRows: rows must be a Uint8Array');
    createWideRows(this, depth, rows, count, out, at);
    for (let i = 0; i < count; i++) this.float(out[at + i]!);
  }

  /** A wide leaf: a subtree of 2..64 chunks (a power of two) stored as one record. */
  wide(chunks: Uint8Array): NodeId {
    if (!(chunks instanceof Uint8Array)) throw new CoreError('BAD_INPUT', 'wide: chunks must be a Uint8Array');
    return this.float(createWide(this, chunks));
  }

  /**
   * A record of `kind` (from `registerRecordLayout`) holding
   * `bytes[offset, offset + size)`: one node that stands for the subtree of
   * chunks its layout makes from those bytes (hashed at the next flush).
   */
  record(kind: number, bytes: Uint8Array, offset = 0): NodeId {
    return this.float(createRecord(this, kind, bytes, offset));
  }

  /**
   * `count` records of `kind` from `bytes` at `offset`, back to back (one
   * copy per run of slots): `out[at + i]` gets record i. The bulk form of
   * `record` for a serialized list of fixed-size records.
   */
  recordRows(kind: number, bytes: Uint8Array, offset: number, count: number, out: NodeId[], at = 0): void {
    createRecordRows(this, kind, bytes, offset, count, out, at);
    for (let i = 0; i < count; i++) this.float(out[at + i]!);
  }

  /**
   * The subtree of `depth` whose first `count` leaves are new records of
   * `kind` and the rest zero, hashed as it is built (no id per record comes
   * back): `fill(out, view, first, n)` writes records [first, first + n)
   * back to back into `out` (exactly their bytes in a record page), every
   * byte of each; if it throws, nothing is left behind. The bulk build of a
   * list or vector of records.
   */
  recordTree(kind: number, count: number, depth: number, fill: RecordFill): NodeId {
    if (typeof fill !== 'function') throw new CoreError('BAD_INPUT', 'recordTree: fill must be a function');
    return this.float(buildRecordTree(this, kind, count, depth, fill));
  }

  /** `recordTree` of `count` records serialized back to back in `bytes` from `offset`. */
  recordTreeFromBytes(kind: number, bytes: Uint8Array, offset: number, count: number, depth: number): NodeId {
    return this.recordTree(kind, count, depth, bytesFill(kind, bytes, offset, count));
  }

  /**
   * `recordTree` of base kind `kind` stored as record pairs one level up
   * (see `registerRecordPairs`; an odd last record stays single), or as
   * single records when the kind has no pairs or `depth` is 0. Reads below a
   * pair see base records; writes of base records keep it a pair. `placed`,
   * if given, receives where the pairs (or single records) were put: the
   * runs of slots, in order, and their kind (an odd last record is not in
   * them).
   */
  recordPairTree(kind: number, count: number, depth: number, fill: RecordFill, placed?: RecordRuns): NodeId {
    if (typeof fill !== 'function') throw new CoreError('BAD_INPUT', 'recordPairTree: fill must be a function');
    return this.float(buildPairTree(this, kind, count, depth, fill, placed));
  }

  /** `recordPairTree` of `count` records serialized back to back in `bytes` from `offset`. */
  recordPairTreeFromBytes(kind: number, bytes: Uint8Array, offset: number, count: number, depth: number, placed?: RecordRuns): NodeId {
    return this.recordPairTree(kind, count, depth, bytesFill(kind, bytes, offset, count), placed);
  }

  /**
   * `collectLevel`, except that a record pair one level above `depth`
   * stands for both its positions: out[2i] and out[2i + 1] are the pair's
   * id. For serializers that copy a pair's bytes whole (`copyRecordInto`
   * gives both records).
   * Null when another wide leaf covers part of the level.
   */
  collectPaired(root: NodeId, depth: number, count: number): NodeId[] | null {
    this.check(root);
    checkDepth(depth, 0, 53);
    if (!Number.isSafeInteger(count) || count < 0 || count > 2 ** depth) throw new CoreError('BAD_INPUT', `${count} nodes at depth ${depth}`);
    return collectLevel(this, root, depth, count, true);
  }

  /**
   * Copies the bytes of records [start, start + count) at level `depth`
   * below `root` — base records of kind `kind`, or their pairs one level
   * up — to `out[offset, offset + count · size)`, back to back
   * (wide/recordLevel.ts: one native copy per run of neighbouring slots).
   * Returns false, with `out` partly written, when that range holds any
   * other node.
   */
  copyRecordLevel(root: NodeId, depth: number, start: number, count: number, kind: number, out: Uint8Array, offset: number): boolean {
    this.check(root);
    checkDepth(depth, 0, 53);
    const layout = Number.isInteger(kind) ? layoutOf(kind) : undefined;
    if (layout === undefined || layout.halves !== 0) throw new CoreError('BAD_INPUT', `no base record layout has kind ${String(kind)}`);
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count) || start < 0 || count < 0 || start + count > 2 ** depth) {
      throw new CoreError('BAD_INPUT', `records ${start}..${start + count} at depth ${depth}`);
    }
    if (!(out instanceof Uint8Array) || !Number.isInteger(offset) || offset < 0 || offset + count * layout.size > out.length) {
      throw new CoreError('BAD_INPUT', `${count} records of ${layout.size} bytes do not fit at offset ${offset}`);
    }
    return copyRecordLevel(this, root, depth, start, count, kind, out, offset);
  }

  /**
   * The element table of level `depth` in one walk: out[i] = id + 1 of the
   * node at position i, or -(id + 1) of the record pair one level above
   * that holds it (read/bulk.ts `collectElements`). Ids are not floated:
   * good while `root` is held. False when another wide leaf covers part of
   * the level.
   */
  collectElements(root: NodeId, depth: number, count: number, out: Int32Array): boolean {
    this.check(root);
    checkDepth(depth, 0, 53);
    if (!Number.isSafeInteger(count) || count < 0 || count > 2 ** depth || count > out.length) throw new CoreError('BAD_INPUT', `${count} nodes at depth ${depth}`);
    return collectElements(this, root, depth, count, out);
  }

  /** How many base records `id` holds as a record pair (2), or 0 for any other node. */
  recordHalves(id: NodeId): number {
    this.check(id);
    return layoutOf(id & 15)?.halves ?? 0;
  }

  /** The record kind of `id` (see `registerRecordLayout`), or -1 when it is not a record. */
  recordKind(id: NodeId): number {
    this.check(id);
    return layoutOf(id & 15) !== undefined ? id & 15 : -1;
  }

  /** Copies a record's bytes (its layout's size) into `out` at `offset`. */
  copyRecordInto(id: NodeId, out: Uint8Array, offset = 0): void {
    this.check(id);
    const layout = layoutOf(id & 15);
    if (layout === undefined) throw new CoreError('BAD_NODE', `node ${id} is not a record`);
    if (!Number.isInteger(offset) || offset < 0 || offset + layout.size > out.length) {
      throw new CoreError('BAD_INPUT', `${layout.size} bytes do not fit at offset ${offset}`);
    }
    copyRecordBytes(this, id, out, offset);
  }

  /**
   * Copies bytes [start, start + length) of a record's bytes (a half of a
   * record pair: `start` = its base size for the second) into `out` at
   * `offset`, in one native copy.
   */
  copyRecordRange(id: NodeId, start: number, length: number, out: Uint8Array, offset: number): void {
    this.check(id);
    const layout = layoutOf(id & 15);
    if (layout === undefined) throw new CoreError('BAD_NODE', `node ${id} is not a record`);
    if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length < 0 || start + length > layout.size || !Number.isInteger(offset) || offset < 0 || offset + length > out.length) {
      throw new CoreError('BAD_INPUT', `bytes ${start}..${start + length} of a ${layout.size}-byte record do not fit at offset ${offset}`);
    }
    const o = recordOffset(this, id) + start;
    out.set(recordPage(this, id).subarray(o, o + length), offset);
  }

  /** A copy of a record's bytes. */
  recordBytes(id: NodeId): Uint8Array {
    this.check(id);
    const layout = layoutOf(id & 15);
    if (layout === undefined) throw new CoreError('BAD_NODE', `node ${id} is not a record`);
    const out = new Uint8Array(layout.size);
    copyRecordBytes(this, id, out, 0);
    return out;
  }

  /** The subtree of `depth` whose first leaves are `chunks`, the rest zero; hashed as it is built. */
  fromChunks(chunks: Uint8Array, depth: number): NodeId {
    if (!(chunks instanceof Uint8Array)) throw new CoreError('BAD_INPUT', 'fromChunks: chunks must be a Uint8Array');
    return this.float(buildFromChunks(this, chunks, depth));
  }

  /**
   * The subtree of depth `depth` + `innerDepth` whose first `count` positions
   * of level `depth` are new wide leaves of inner depth `innerDepth` ("pages")
   * made from `source` (page i at `source.offsets[i]`, or back to back with a
   * zero-padded partial last page), the rest zero; hashed as it is built, in
   * runs (see build/pages.ts). `ids`, when given, receives page i's id at
   * ids[i]: the pages are held by the subtree, valid while it is.
   */
  fromPages(source: PageSource, count: number, innerDepth: number, depth: number, ids?: Int32Array): NodeId {
    if (typeof source !== 'object' || source === null) throw new CoreError('BAD_INPUT', 'fromPages: source must be { data, offsets? }');
    return this.float(buildFromPages(this, source, count, innerDepth, depth, ids));
  }

  /** An SSZ list node: branch(contents, uint256 length leaf). */
  withLength(contents: NodeId, length: number | bigint): NodeId {
    this.check(contents);
    return this.float(withLength(this, contents, length));
  }

  // --------------------------------------------------------------- reading

  /** What a node is: zero subtree, branch, leaf, opaque or wide leaf. */
  kind(id: NodeId): NodeKind {
    this.check(id);
    return kindName(id & 15);
  }

  /** Children of a branch (or of a zero subtree of depth > 0). */
  left(id: NodeId): NodeId {
    this.check(id);
    return this.leftOf(id);
  }

  /** The right child (see `left`). */
  right(id: NodeId): NodeId {
    this.check(id);
    return this.rightOf(id);
  }

  /** The node's 32-byte hash tree root (a copy), hashing pending nodes first. */
  hash(id: NodeId): Uint8Array {
    this.check(id);
    const out = new Uint8Array(32);
    this.hashInto(id, out, 0);
    return out;
  }

  /** The chunk of a leaf (or the zero chunk). */
  chunk(id: NodeId): Uint8Array {
    this.check(id);
    if ((id & 15) !== KIND_LEAF && id !== 0) throw new CoreError('NOT_BRANCH', `node ${id} is a ${kindName(id & 15)}, not a leaf`);
    const out = new Uint8Array(32);
    readHashRaw(this, id, out, 0);
    return out;
  }

  /** A copy of a wide leaf's chunks (a record's expanded chunks). */
  wideChunks(id: NodeId): Uint8Array {
    this.check(id);
    if (wideDepth(id) === 0) throw new CoreError('BAD_NODE', `node ${id} is not a wide leaf`);
    return readWideChunks(this, id);
  }

  /** Copies a wide leaf's chunks (32·2^d bytes) to `out` at `offset`, a word at a time: a read without allocating. */
  copyWideInto(id: NodeId, out: DataView, offset: number): void {
    this.check(id);
    if (wideDepth(id) === 0) throw new CoreError('BAD_NODE', `node ${id} is not a wide leaf`);
    if (!Number.isInteger(offset) || offset < 0 || offset + (32 << wideDepth(id)) > out.byteLength) {
      throw new CoreError('BAD_INPUT', `${32 << wideDepth(id)} bytes do not fit at offset ${offset}`);
    }
    copyWide(this, id, out, offset);
  }

  /**
   * Copies the first `byteLen` bytes of the chunks at level `depth` below
   * `root` (leaves, wide leaves, zero subtrees as zeros; `out` must be zero
   * there) to `out[offset]`. Returns true when the rest of the last chunk
   * is zero (the padding a packed sequence must have).
   */
  copyLevelBytes(root: NodeId, depth: number, byteLen: number, out: Uint8Array, offset: number): boolean {
    this.check(root);
    checkDepth(depth, 0, 53);
    if (!Number.isSafeInteger(byteLen) || byteLen < 0 || byteLen > 32 * 2 ** depth || offset < 0 || offset + byteLen > out.length) {
      throw new CoreError('BAD_INPUT', `${byteLen} bytes of a level of depth ${depth} do not fit at offset ${offset}`);
    }
    return copyLevelBytes(this, root, depth, byteLen, out, offset);
  }

  /**
   * The first `count` node ids of level `depth` below `root` in one walk,
   * NOT floating: valid for the current synchronous task only, while
   * `root` is held (for readers that create no nodes). Null when a wide
   * leaf covers part of the level (use `getNodesAtDepth`).
   */
  collectLevel(root: NodeId, depth: number, count: number): NodeId[] | null {
    this.check(root);
    checkDepth(depth, 0, 53);
    if (!Number.isSafeInteger(count) || count < 0 || count > 2 ** depth) throw new CoreError('BAD_INPUT', `${count} nodes at depth ${depth}`);
    return collectLevel(this, root, depth, count);
  }

  /** The inner depth of a wide leaf or record (0 for other nodes). */
  wideDepth(id: NodeId): number {
    this.check(id);
    return wideDepth(id);
  }

  /**
   * Visits chunk `index` of every live wide leaf of inner depth `depth`
   * (1..6), or the chunk of every live leaf (`depth` 0, `index` 0), floating
   * nodes included. `bytes` is the store's own page: read it in `visit`,
   * never keep or write it. For side tables keyed by chunks that must drop
   * entries no live node refers to (types' preimage tables).
   */
  forEachLiveChunk(depth: number, index: number, visit: (bytes: Uint8Array, offset: number) => void): void {
    scanLiveChunks(this, depth, index, visit);
  }

  /** The length held by a list node's right child. */
  lengthOf(list: NodeId): number {
    this.check(list);
    if ((list & 15) !== KIND_BRANCH) throw new CoreError('NOT_BRANCH', `node ${list} is not a list node`);
    return readLength(this, list);
  }

  // ------------------------------------------------------------ navigation

  /** The node at `gindex` below `root` (floating). */
  getNode(root: NodeId, gindex: Gindex): NodeId {
    this.check(root);
    return this.float(getNode(this, root, gindex));
  }

  /** `root` with `node` at `gindex`: a new root sharing all untouched subtrees. */
  setNode(root: NodeId, gindex: Gindex, node: NodeId): NodeId {
    this.check(root);
    this.check(node);
    return this.float(setNode(this, root, gindex, node));
  }

  /** The node at position `index` of level `depth` below `root` (floating). */
  getNodeAtDepth(root: NodeId, depth: number, index: number): NodeId {
    this.check(root);
    return this.float(getNodeAtDepth(this, root, depth, index));
  }

  /** Many writes at one level, `indices` strictly ascending, in one pass down the tree. */
  setNodesAtDepth(root: NodeId, depth: number, indices: ArrayLike<number>, nodes: ArrayLike<NodeId>): NodeId {
    this.check(root);
    return this.float(setNodesAtDepth(this, root, depth, indices, nodes));
  }

  /** Many chunk writes at one level (32 bytes per index); leaves are made only where the bytes change. */
  setChunksAtDepth(root: NodeId, depth: number, indices: ArrayLike<number>, chunks: Uint8Array): NodeId {
    this.check(root);
    return this.float(setChunksAtDepth(this, root, depth, indices, chunks));
  }

  /** The `count` nodes of level `depth` from position `start`, left to right, in one walk (floating). */
  *iterateNodesAtDepth(root: NodeId, depth: number, start: number, count: number): Generator<NodeId> {
    this.check(root);
    for (const id of iterateNodesAtDepth(this, root, depth, start, count)) yield this.float(id);
  }

  /** `iterateNodesAtDepth` as an array. */
  getNodesAtDepth(root: NodeId, depth: number, start: number, count: number): NodeId[] {
    return [...this.iterateNodesAtDepth(root, depth, start, count)];
  }

  // ---------------------------------------------------------------- proofs

  /** The branch proving the 32 bytes at `gindex` below `root`. */
  singleProof(root: NodeId, gindex: Gindex): SingleProof {
    this.check(root);
    return createSingleProof(this, root, gindex);
  }

  /** A multiproof of `gindices` below `root`, helpers in consensus-spec order. */
  multiproof(root: NodeId, gindices: readonly Gindex[]): Multiproof {
    this.check(root);
    return createMultiproof(this, root, gindices);
  }

  /** The partial tree a multiproof describes (opaque nodes where contents are unknown). */
  partialTree(proof: Multiproof): NodeId {
    return this.float(buildPartialTree(this, proof.gindices, proof.leaves, proof.proof));
  }

  /** True for the zero subtrees (shared singletons). */
  isZero(id: NodeId): boolean {
    this.check(id);
    return (id & 15) === KIND_ZERO;
  }
}

/** The store used when none is given. */
export const defaultStore: NodeStore = /* @__PURE__ */ new NodeStore();

/** The fill of a record tree whose `count` records lie back to back in `bytes` from `offset` (checked to fit). */
function bytesFill(kind: number, bytes: Uint8Array, offset: number, count: number): RecordFill {
  const size = layoutOf(kind)?.size;
  if (size === undefined) throw new CoreError('BAD_INPUT', `no record layout has kind ${String(kind)}`);
  if (!(bytes instanceof Uint8Array) || !Number.isInteger(offset) || !Number.isInteger(count) || offset < 0 || count < 0 || offset + count * size > bytes.length) {
    throw new CoreError('BAD_INPUT', `record tree: ${count} records of ${size} bytes do not fit at offset ${offset}`);
  }
  return (out, _view, first, n) => out.set(bytes.subarray(offset + first * size, offset + (first + n) * size));
}
