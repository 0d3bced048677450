/**
 * Sorted batch writes: `setNodesAtDepth`, `setChunksAtDepth` and
 * `setWidesAtDepth` put many nodes (leaves from chunks, new wide leaves) at
 * strictly ascending positions of one level in one pass down the tree,
 * splitting the batch at each branch (navigate.ts has the single-position
 * reads and writes).
 *
 * Writes are persistent: new branches along the written paths only, the
 * rest shared with the old tree, which never changes. A write that stores
 * what is already there creates nothing, and a batch of no-ops returns the
 * very same root id. Below a record pair (wide/recordPairs.ts) a batch of base
 * records makes a new pair; two base records written side by side become one.
 * The one exception to copying: a caller that proves it owns the root
 * (`InPlaceWrite`) has the nodes that only its path reaches rewritten in
 * place (inPlace.ts): no other version can see them. An owned slab of wide
 * leaves hashed up front, or a large batch of records into owned record
 * pairs, skips the walk for a fused pass (ownedWides.ts, ownedPairs.ts).
 *
 * Invariant: every id returned has either a holder or no holder at all (the
 * callers float or retain it); a batch that throws part way floats what it
 * had made (`guarded`), and internal scratch nodes are freed before returning.
 * @module
 */
import { CoreError } from '../errors.js';
import { checkDepth, checkIndex } from '../gindex.js';
import { KIND_BRANCH, KIND_ZERO, MAX_WIDE_DEPTH, type NodeId } from '../nodes/ids.js';
import { belowLeaf, MAX_PATH_DEPTH } from './navigate.js';
import { fitsHalf, pairLayout, pairOfRecords, pairWithHalves, rewriteHalves } from '../wide/recordPairs.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';
import { droppedMark, releaseDropped, repairInPlace, rewriteBranch, sharedTouch, soleLink } from './inPlace.js';
import { HASH_NOW_MIN, slabWides, wideAt, type SlabWides } from './slabWides.js';
import { expandWide, isChunkNode, wideDepth, wideWithChunks } from '../wide/wideLeaves.js';
import { FUSED_CHANGED, FUSED_MIN, NOT_FUSED, writeOwnedPairs } from './ownedPairs.js';
import { writeOwnedWides } from './ownedWides.js';
import { writeCopiedWides } from './copiedWides.js';
import { writeCopiedRecords } from './copiedRecords.js';
import { layoutFor, type Layout } from '../nodes/recordLayouts.js';
import { newRecord } from '../wide/records.js';

/**
 * Returns `root` with nodes[i] at position indices[i] of level `depth`, for
 * strictly ascending `indices`, in one pass down the tree.
 */
export function setNodesAtDepth(
  store: NodeStore,
  root: NodeId,
  depth: number,
  indices: ArrayLike<number>,
  nodes: ArrayLike<NodeId>,
  inPlace?: InPlaceWrite,
): NodeId {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  changedInPlace = false;
  const n = indices.length;
  if (nodes.length !== n) throw new CoreError('BAD_INPUT', `${n} indices but ${nodes.length} nodes`);
  const touched = inPlace?.touched;
  if (touched !== undefined && touched.length !== n) throw new CoreError('BAD_INPUT', `${n} indices but ${touched.length} touched flags`);
  if (n === 0) return root;
  checkAscending(depth, indices);
  for (let i = 0; i < n; i++) store.check(nodes[i]!);
  const owned = owns(store, root, inPlace);
  if (owned && touched === undefined) {
    // A large batch of records into owned pairs (any batch, for a part of a larger commit): written and hashed in one fused pass.
    const fused = writeOwnedPairs(store, root, depth, indices, nodes, inPlace!.hashNow === true ? 1 : FUSED_MIN);
    if (fused !== NOT_FUSED) {
      changedInPlace = fused === FUSED_CHANGED;
      return root;
    }
  }
  const batch: Batch = { indices, nodes, chunks: undefined, touched };
  return guarded(store, root, depth, batch, owned);
}

/**
 * What a caller that may write in place says about the root (inPlace.ts):
 * `holders` is how many holders of the root it accounts for (its handle,
 * plus a parent link its own commit rewrites in the same synchronous pass);
 * the write goes in place only when the root's count is exactly that.
 * `touched[i]`, when given, says that nodes[i] is the node already at
 * indices[i] but changed in place below (a child's in-place commit): its
 * ancestors are listed for hashing again. Touched positions need an owned
 * path down to them.
 */
export interface InPlaceWrite {
  readonly holders: number;
  readonly touched?: ArrayLike<boolean> | undefined;
  /**
   * The batch is one part of a larger commit whose parts lie in separate
   * subtrees (a progressive list's subtrees): an owned batch takes the fused
   * pass however few its positions, since the flush would not share its
   * paths with the other parts' anyway. Without it, batches below
   * `FUSED_MIN` positions are walked and left to the flush.
   */
  readonly hashNow?: boolean | undefined;
}

/** Whether a write may go in place at `root` (its count is exactly the holders the caller accounts for). */
function owns(store: NodeStore, root: NodeId, inPlace: InPlaceWrite | undefined): boolean {
  return inPlace !== undefined && store.holders(root) === inPlace.holders;
}

/** Set by a write that changed a node in place (same id, new contents); read and cleared by its caller. */
let changedInPlace = false;

/** Whether the last batch write changed its root in place (the root id is the same, its contents are not). Reading clears it. */
export function takeChangedInPlace(): boolean {
  const changed = changedInPlace;
  changedInPlace = false;
  return changed;
}

/**
 * Like `setNodesAtDepth` with a leaf per write, but the leaves come from
 * `chunks` (32 bytes per index) and are only created where the bytes differ
 * from what is there: a no-op write allocates nothing.
 */
export function setChunksAtDepth(store: NodeStore, root: NodeId, depth: number, indices: ArrayLike<number>, chunks: Uint8Array): NodeId {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  const n = indices.length;
  if (!(chunks instanceof Uint8Array) || chunks.length !== 32 * n) {
    throw new CoreError('BAD_INPUT', `${n} indices need ${32 * n} chunk bytes`);
  }
  if (n === 0) return root;
  checkAscending(depth, indices);
  const words = chunks.byteOffset % 4 === 0 ? new Int32Array(chunks.buffer, chunks.byteOffset, chunks.length >>> 2) : undefined;
  return guarded(store, root, depth, { indices, nodes: undefined, chunks, words }, false);
}

function checkAscending(depth: number, indices: ArrayLike<number>): void {
  const n = indices.length;
  // Ascending integers: the range check is needed at the ends only.
  checkIndex(depth, indices[0]!);
  checkIndex(depth, indices[n - 1]!);
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const index = indices[i]!;
    if (!(index > prev) || !Number.isInteger(index)) {
      if (!Number.isInteger(index)) checkIndex(depth, index);
      throw new CoreError('UNSORTED', `indices must be strictly ascending (${prev} then ${index})`);
    }
    prev = index;
  }
}

/**
 * Runs a batch write; if it throws part way (a path below a leaf), the
 * branches it had already made are floated so that the next sweep frees
 * them, and the owned nodes it had rewritten in place are listed for
 * hashing again (`repairInPlace`). What in-place writes unlinked is released
 * once the batch is over, either way.
 */
function guarded(store: NodeStore, root: NodeId, depth: number, batch: Batch, owned: boolean): NodeId {
  const marks = store.pendingMarks(depth);
  const mark = droppedMark();
  changedInPlace = false;
  try {
    return writeBatch(store, root, depth, batch, 0, batch.indices.length, 0, owned);
  } catch (error) {
    changedInPlace = false;
    if (owned) repairInPlace(store, root, depth, batch.indices, 0, batch.indices.length, 0, true);
    store.floatSince(marks);
    const created = batch.wides?.created;
    if (created !== undefined) for (const id of created) store.float(id);
    throw error;
  } finally {
    releaseDropped(store, mark);
  }
}

/** The writes of one batch: nodes, chunks that become leaves, or wide leaves made from a slab. */
interface Batch {
  readonly indices: ArrayLike<number>;
  readonly nodes: ArrayLike<NodeId> | undefined;
  readonly chunks: Uint8Array | undefined;
  /** `chunks` as 32-bit words when it is 4-byte aligned (faster leaf copies). */
  readonly words?: Int32Array | undefined;
  /** See `InPlaceWrite.touched`. */
  readonly touched?: ArrayLike<boolean> | undefined;
  /** Wide leaves written from a slab, in place where owned (`setWidesAtDepth`). */
  readonly wides?: SlabWides | undefined;
  /** Records made from bytes, in place where owned (`setRecordsAtDepth`); below a wide leaf or record, it is expanded. */
  readonly records?: BytesRecords | undefined;
}

/** Where a `setRecordsAtDepth` batch's records come from and where their ids go. */
interface BytesRecords {
  readonly layout: Layout;
  /** Record i's bytes are bytes[offset + i·size, offset + (i + 1)·size). */
  readonly bytes: Uint8Array;
  readonly offset: number;
  /** created[i]: the record now at the batch's i-th position. */
  readonly created: NodeId[];
}

/**
 * The record for the batch's i-th position, whose old node is `old`:
 * rewritten in place (and listed for hashing) when `owned` and of the same
 * kind; else a new record (listed).
 */
function recordAt(store: NodeStore, src: BytesRecords, i: number, old: NodeId, owned: boolean): NodeId {
  const layout = src.layout;
  const from = src.offset + i * layout.size;
  let id = old;
  if (owned && (old & 15) === layout.kind) {
    const pool = store.pools[layout.kind]!;
    const slot = old >>> 4;
    pool.d8[slot >>> pool.shift]!.set(src.bytes.subarray(from, from + layout.size), (slot & pool.mask) * layout.size);
    store.relistChanged(old, store.recordPending[layout.kind]!);
    changedInPlace = true;
  } else {
    // Floated: two base records written side by side become one pair (`writeBatch`), which leaves them unlinked.
    id = store.float(newRecord(store, layout, src.bytes, from));
  }
  src.created[i] = id;
  return id;
}

/** The node written at batch position i, made from its chunk if needed (compared against `old` first). */
function freshAt(store: NodeStore, batch: Batch, i: number, old: NodeId, owned: boolean): NodeId {
  if (batch.records !== undefined) return recordAt(store, batch.records, i, old, owned);
  if (batch.wides !== undefined) {
    const id = wideAt(store, batch.wides, i, old, owned);
    if (id === old) changedInPlace = true;
    return id;
  }
  if (batch.chunks !== undefined) {
    if (isChunkNode(old) && store.sameBytes(old, batch.chunks, 32 * i)) return old;
    return batch.words !== undefined ? store.newLeafFromWords(batch.words, 8 * i) : store.newLeaf(batch.chunks, 32 * i);
  }
  const fresh = batch.nodes![i]!;
  if (fresh === old) {
    if (batch.touched?.[i] === true) changedInPlace = true;
    return old;
  }
  if (isChunkNode(fresh) && isChunkNode(old) && store.sameHash(fresh, old)) return old;
  return fresh;
}

/**
 * Writes batch positions [lo, hi) (all within [base, base + 2^depth)) below
 * `node`. `owned`: nothing but the caller's path reaches `node`, which may
 * then be rewritten in place (inPlace.ts); that sets `changedInPlace` and
 * returns `node` itself.
 */
function writeBatch(store: NodeStore, node: NodeId, depth: number, batch: Batch, lo: number, hi: number, base: number, owned: boolean): NodeId {
  if (depth === 0) return freshAt(store, batch, lo, node, owned);
  const kind = node & 15;
  let left: NodeId;
  let right: NodeId;
  if (kind === KIND_BRANCH) {
    // Both links from the node's one meta row.
    const branches = store.branches;
    const slot = node >>> 4;
    const m = branches.meta[slot >>> branches.shift]!;
    const b = (slot & branches.mask) << 2;
    left = m[b]!;
    right = m[b + 1]!;
  } else if (kind === KIND_ZERO && node !== 0) {
    left = right = node - 16;
  } else {
    return writeIntoWide(store, node, depth, batch, lo, hi, base, owned);
  }
  const mid = base + (depth <= 31 ? 1 << (depth - 1) : 2 ** (depth - 1));
  const split = lowerBound(batch.indices, lo, hi, mid);
  // Owned below only through an owned branch whose link is the child's only holder.
  const ownsChildren = owned && kind === KIND_BRANCH;
  let newLeft = left;
  let newRight = right;
  let touched = false;
  if (split > lo) {
    newLeft = writeBatch(store, left, depth - 1, batch, lo, split, base, ownsChildren && soleLink(store, left));
    touched = changedInPlace;
    changedInPlace = false;
  }
  if (hi > split) {
    newRight = writeBatch(store, right, depth - 1, batch, split, hi, mid, ownsChildren && soleLink(store, right));
    touched ||= changedInPlace;
    changedInPlace = false;
  }
  if (newLeft === left && newRight === right && !touched) return node;
  if (depth === 1) {
    // Two base records side by side become a pair (wide/recordPairs.ts) rather than a branch.
    const pair = pairOfRecords(store, newLeft, newRight);
    if (pair !== -1) return pair;
  }
  if (ownsChildren) {
    rewriteBranch(store, node, left, right, newLeft, newRight);
    changedInPlace = true;
    return node;
  }
  // A child changed in place under a node other versions share would have changed them too.
  if (touched) sharedTouch(batch.indices[lo]!);
  return store.newBranch(newLeft, newRight);
}

/** The first position in [lo, hi) whose index is >= `value` (binary search). */
function lowerBound(indices: ArrayLike<number>, lo: number, hi: number, value: number): number {
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (indices[m]! < value) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** Writes below a wide leaf: chunk writes make a new wide leaf, others expand it. */
function writeIntoWide(store: NodeStore, node: NodeId, depth: number, batch: Batch, lo: number, hi: number, base: number, owned: boolean): NodeId {
  const wd = wideDepth(node);
  if (wd === 0 || depth > wd) belowLeaf(node);
  // (Slab wide leaves replace a larger wide leaf's parts: through the expansion below.)
  if (depth === wd && batch.wides === undefined && batch.records === undefined && (batch.chunks !== undefined || allChunks(batch.nodes!, lo, hi))) {
    if (batch.nodes !== undefined) return wideWithChunks(store, node, batch.indices, batch.nodes, lo, hi, base);
    // Chunk writes: leaves just long enough to copy from.
    const leaves: NodeId[] = [];
    const positions: number[] = [];
    for (let i = lo; i < hi; i++) {
      leaves.push(store.newLeaf(batch.chunks!, 32 * i));
      positions.push(batch.indices[i]!);
    }
    const result = wideWithChunks(store, node, positions, leaves, 0, leaves.length, base);
    for (const leaf of leaves) store.dropIfUnheld(leaf);
    return result;
  }
  const pair = depth === 1 && batch.nodes !== undefined ? pairLayout(node) : undefined;
  if (pair !== undefined && allHalves(pair, batch.nodes!, lo, hi)) {
    // Halves of a record pair: a new pair from their bytes (wide/recordPairs.ts), not a branch over two records;
    // an owned pair takes the bytes in place.
    if (owned) {
      if (rewriteHalves(store, node, pair, batch.indices, batch.nodes!, lo, hi, base)) changedInPlace = true;
      return node;
    }
    return pairWithHalves(store, node, pair, batch.indices, batch.nodes!, lo, hi, base);
  }
  const expanded = expandWide(store, node);
  const result = writeBatch(store, expanded, depth, batch, lo, hi, base, false);
  store.dropIfUnheld(expanded);
  return result === expanded ? node : result;
}

function allHalves(pair: Parameters<typeof fitsHalf>[0], nodes: ArrayLike<NodeId>, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) if (!fitsHalf(pair, nodes[i]!)) return false;
  return true;
}

function allChunks(nodes: ArrayLike<NodeId>, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) if (!isChunkNode(nodes[i]!)) return false;
  return true;
}

/**
 * Returns `root` with new wide leaves of inner depth `innerDepth` at
 * positions indices[i] (strictly ascending) of level `depth`, the i-th made
 * from `data` at byte offset offsets[i] (slabWides.ts). The wide leaves are
 * made here, not floated: each is linked by the new branches (or freed by
 * the next sweep if the write fails part way). With `inPlace` and an owned
 * root, an owned old leaf of the same depth is rewritten instead. `created`,
 * when given, receives the leaf now at each position (created[i] at
 * indices[i], new or rewritten).
 */
export function setWidesAtDepth(
  store: NodeStore,
  root: NodeId,
  depth: number,
  indices: ArrayLike<number>,
  innerDepth: number,
  data: Uint8Array,
  offsets: ArrayLike<number>,
  created?: NodeId[],
  inPlace?: InPlaceWrite,
): NodeId {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  changedInPlace = false;
  checkDepth(innerDepth, 1, MAX_WIDE_DEPTH);
  const n = indices.length;
  if (offsets.length !== n) throw new CoreError('BAD_INPUT', `${n} indices but ${offsets.length} offsets`);
  if (n === 0) return root;
  checkAscending(depth, indices);
  const bytes = 32 << innerDepth;
  for (let i = 0; i < n; i++) {
    const o = offsets[i]!;
    if (!Number.isInteger(o) || o < 0 || o + bytes > data.length) throw new CoreError('BAD_INPUT', `no ${bytes} bytes at offset ${o}`);
  }
  const out = created ?? [];
  out.length = n;
  const owned = owns(store, root, inPlace);
  // A part of a larger commit (`InPlaceWrite.hashNow`) written in place: its slab hashed up front however small.
  const wides = slabWides(store, innerDepth, data, offsets, out, owned && inPlace!.hashNow === true ? 1 : HASH_NOW_MIN);
  // An owned slab whose roots were hashed up front: written and its paths hashed in one fused pass.
  if (owned && writeOwnedWides(store, root, depth, indices, wides)) {
    changedInPlace = true;
    return root;
  }
  // A shared root and a slab hashed up front: every path copied and hashed level by level in one fused pass.
  if (!owned) {
    const copied = writeCopiedWides(store, root, depth, indices, wides);
    if (copied !== -1) return copied;
  }
  const batch: Batch = { indices, nodes: undefined, chunks: undefined, wides };
  return guarded(store, root, depth, batch, owned);
}

/**
 * Returns `root` with records of `kind` (a registered record layout, pairs
 * included) at positions indices[i] (strictly ascending) of level `depth`,
 * the i-th made from bytes[offset + i·size ..] (back to back, the layout's
 * size each). Every position is written, as `setWidesAtDepth` writes every
 * page: positions whose bytes would not change are the caller's to leave
 * out (the old records are not read). `created[i]` receives the record now
 * at indices[i]. Under a shared root, a batch of FUSED_MIN positions or
 * more is copied by the fused pass (copiedRecords.ts: records hashed in
 * batches as made, paths hashed level by level, nothing listed); otherwise
 * the walk makes the records
 * (listed for the flush), and with an owned root rewrites an owned old
 * record of the same kind in place.
 */
export function setRecordsAtDepth(
  store: NodeStore,
  root: NodeId,
  depth: number,
  indices: ArrayLike<number>,
  kind: number,
  bytes: Uint8Array,
  offset: number,
  created?: NodeId[],
  inPlace?: InPlaceWrite,
): NodeId {
  checkDepth(depth, 0, MAX_PATH_DEPTH);
  changedInPlace = false;
  const layout = layoutFor(kind);
  const n = indices.length;
  if (!(bytes instanceof Uint8Array) || !Number.isInteger(offset) || offset < 0 || offset + n * layout.size > bytes.length) {
    throw new CoreError('BAD_INPUT', `${n} records of ${layout.size} bytes do not fit at offset ${String(offset)}`);
  }
  const out = created ?? [];
  out.length = n;
  if (n === 0) return root;
  checkAscending(depth, indices);
  const owned = owns(store, root, inPlace);
  if (!owned && n >= FUSED_MIN) {
    const copied = writeCopiedRecords(store, root, depth, indices, layout, bytes, offset, out);
    if (copied !== -1) return copied;
  }
  const records: BytesRecords = { layout, bytes, offset, created: out };
  return guarded(store, root, depth, { indices, nodes: undefined, chunks: undefined, records }, owned);
}
