/**
 * `Tree`: a handle that holds one root node of a store. It is what keeps a
 * version alive: the handle retains its root, and the root (through branch
 * reference counts) everything below it.
 *
 * A handle is released either explicitly (`dispose()`, `using`), or, when it
 * is garbage collected without that, by a `FinalizationRegistry` callback
 * (registered at the end of the synchronous run that made the handle, so a
 * handle made and disposed within one run costs no registration).
 * Those callbacks run as their own tasks, between other tasks, so a release
 * can never interleave with a write that is half done: every write here is
 * synchronous from the first new node to the retained new root.
 *
 * Writes through a handle replace its root (the old version stays intact for
 * every other handle holding it); `clone()` is how a version is kept.
 * @module
 */
import { readHashRaw } from './store/levels.js';
import { CoreError } from './errors.js';
import { checkDepth, checkIndex, type Gindex, gindexBits } from './gindex.js';
import type { NodeId } from './nodes/ids.js';
import { type InPlaceWrite, setChunksAtDepth, setNodesAtDepth, setRecordsAtDepth, setWidesAtDepth, takeChangedInPlace } from './write/batchWrite.js';
import { setNodesAtPositions, takePositionsChangedInPlace } from './write/positionBatch.js';
import { findAtDepth, getNodeAtDepth, getNodeByBits, iterateNodesAtDepth, MAX_PATH_DEPTH, setNodeByBits, soleNodeAtDepth } from './write/navigate.js';
import { defaultStore, type NodeStore } from './nodeStore.js';
import { createMultiproof, createSingleProof, type Multiproof, type SingleProof } from './read/proofs.js';

/** What the registry holds for a handle: never the handle itself. */
interface Cell {
  readonly store: NodeStore;
  root: NodeId;
  /** Registered with `registry` (false while young, `enlist`). */
  registered: boolean;
}

const registry = new FinalizationRegistry<Cell>((cell) => {
  if (cell.root < 0) return;
  const root = cell.root;
  cell.root = -1;
  cell.store.release(root);
});

/**
 * Handles made since the current synchronous run began, not yet registered.
 * Registration waits for the end of that run (a microtask): a handle cannot
 * be collected before then (this list holds it), and no finalization callback
 * could run before then anyway. Most handles a run makes are disposed in it
 * (a list view's child views, disposed at its commit: an epoch's 16384
 * `validators.get`), and those are never registered. Registering and
 * unregistering was most of a child view's cost: ~0.7 µs a handle against
 * ~0.1 µs for the push, node 20, a loop of 2M handles disposed in batches of 16384.
 */
let young: Tree[] = [];
let youngCells: Cell[] = [];

function registerYoung(): void {
  const trees = young;
  const cells = youngCells;
  young = [];
  youngCells = [];
  for (let i = 0; i < trees.length; i++) {
    const cell = cells[i]!;
    if (cell.root >= 0) {
      registry.register(trees[i]!, cell, cell);
      cell.registered = true;
    }
  }
}

function enlist(tree: Tree, cell: Cell): void {
  if (young.length === 0) queueMicrotask(registerYoung);
  young.push(tree);
  youngCells.push(cell);
}

export class Tree implements Disposable {
  /** The store holding this tree's nodes. */
  readonly store: NodeStore;
  readonly #cell: Cell;

  /** A handle on `root` (retained for as long as the handle lives). */
  constructor(root: NodeId, store: NodeStore = defaultStore) {
    store.retain(root);
    this.store = store;
    this.#cell = { store, root, registered: false };
    enlist(this, this.#cell);
  }

  /** A tree of `depth` built from packed chunks (zero-padded), hashed as it is built. */
  static fromChunks(chunks: Uint8Array, depth: number, store: NodeStore = defaultStore): Tree {
    return new Tree(store.fromChunks(chunks, depth), store);
  }

  /** The all-zero tree of `depth`. */
  static zero(depth: number, store: NodeStore = defaultStore): Tree {
    return new Tree(store.zero(depth), store);
  }

  private get live(): Cell {
    const cell = this.#cell;
    if (cell.root < 0) throw new CoreError('DISPOSED', 'tree used after dispose()');
    return cell;
  }

  /** True once `dispose()` has released this handle. */
  get disposed(): boolean {
    return this.#cell.root < 0;
  }

  /** The root node id. */
  get rootNode(): NodeId {
    return this.live.root;
  }

  /** Points the handle at another root of the same store. */
  set rootNode(node: NodeId) {
    const cell = this.live;
    if (node === cell.root) return;
    this.store.retain(node);
    const old = cell.root;
    cell.root = node;
    this.store.releaseReplaced(old);
  }

  /** The 32-byte hash tree root, hashing every pending node first. */
  get root(): Uint8Array {
    return this.store.hash(this.live.root);
  }

  /** Writes the root into `out` at `offset` without allocating. */
  rootInto(out: Uint8Array, offset = 0): void {
    this.store.hashInto(this.live.root, out, offset);
  }

  /** A second handle on the same version (costs no nodes). */
  clone(): Tree {
    return new Tree(this.live.root, this.store);
  }

  /** The node at `gindex` (floating: use it in a write or retain it within the current task and before any `dispose()`; see CORE.md "Reclamation"). */
  getNode(gindex: Gindex): NodeId {
    return this.store.float(getNodeByBits(this.store, this.live.root, gindexBits(gindex)));
  }

  /** Replaces the subtree at `gindex` with `node`; this handle moves to the new version, old versions are unchanged. */
  setNode(gindex: Gindex, node: NodeId): void {
    this.store.check(node);
    this.replace(setNodeByBits(this.store, this.live.root, gindexBits(gindex), node));
  }

  /** The node at position `index` of level `depth` (floating, like `getNode`). */
  getNodeAtDepth(depth: number, index: number): NodeId {
    return this.store.float(getNodeAtDepth(this.store, this.live.root, depth, index));
  }

  /**
   * Writes `nodes[i]` at position `indices[i]` of level `depth` in one walk (indices strictly
   * ascending); unchanged positions keep their nodes, so a batch of no-op writes keeps the root.
   */
  setNodesAtDepth(depth: number, indices: ArrayLike<number>, nodes: ArrayLike<NodeId>, inPlace?: InPlaceWrite): boolean {
    return this.write(setNodesAtDepth(this.store, this.live.root, depth, indices, nodes, inPlace));
  }

  /**
   * Writes nodes[j] at position (depths[j], indices[j]) for every j, in one
   * walk: positions of any levels (up to 53), left to right, none inside
   * another, reached through branches and zero subtrees (write/positionBatch.ts).
   * With `inPlace`, as `setNodesAtDepth`; returns true when the root itself
   * was rewritten in place.
   */
  setNodesAt(depths: ArrayLike<number>, indices: ArrayLike<number>, nodes: ArrayLike<NodeId>, inPlace?: InPlaceWrite): boolean {
    const next = setNodesAtPositions(this.store, this.live.root, depths, indices, nodes, inPlace);
    const inPlaceChanged = takePositionsChangedInPlace();
    this.replace(next);
    return inPlaceChanged && next === this.#cell.root;
  }

  /**
   * @internal How many holders the root has (this handle among them): with
   * `soleNodeAtDepth`, what a caller checks before it claims ownership for
   * an in-place write (`InPlaceWrite`, core write/inPlace.ts).
   */
  rootHolders(): number {
    return this.store.holders(this.live.root);
  }

  /** @internal The node at position `index` of level `depth` if the path to it is held by single links only, else -1 (`soleNodeAtDepth`). */
  soleNodeAtDepth(depth: number, index: number): NodeId {
    checkDepth(depth, 0, Math.min(53, MAX_PATH_DEPTH));
    checkIndex(depth, index);
    return soleNodeAtDepth(this.store, this.live.root, depth, index);
  }

  /**
   * Copies the 2^`innerDepth` chunks of the subtree at position `index` of
   * level `depth` into `out` (as 32-bit words) from word `wordOffset`, when
   * that subtree is stored as one record: a wide leaf of that inner depth,
   * a leaf (`innerDepth` 0) or a zero subtree. Makes no node and allocates
   * nothing (the hot read of packed views); returns false, copying nothing,
   * when the subtree is stored another way (the caller then reads it
   * through `getNodeAtDepth`).
   */
  chunkWordsAtDepthInto(depth: number, index: number, innerDepth: number, out: Int32Array, wordOffset: number): boolean {
    checkDepth(depth, 0, Math.min(53, MAX_PATH_DEPTH));
    checkIndex(depth, index);
    const words = 8 << innerDepth;
    if (!Number.isInteger(wordOffset) || wordOffset < 0 || wordOffset + words > out.length) {
      throw new CoreError('BAD_INPUT', `chunkWordsAtDepthInto: no room for ${words} words at ${wordOffset}`);
    }
    const node = findAtDepth(this.store, this.live.root, depth, index);
    return node >= 0 && this.store.recordWordsInto(node, innerDepth, out, wordOffset);
  }

  /**
   * The node at position `index` of level `depth` when the path to it runs
   * through branches and zero subtrees only, else -1 (a leaf or wide leaf
   * ends the path above it). Nothing is made and nothing is floated: the id
   * is held by this handle's current root, so it stays valid until the
   * handle's next write (in place or not), `rootNode =` or dispose. Packed views
   * keep these ids in a page table and read pages with
   * `store.recordWordsInto`.
   */
  recordAtDepth(depth: number, index: number): NodeId {
    checkDepth(depth, 0, Math.min(53, MAX_PATH_DEPTH));
    checkIndex(depth, index);
    return findAtDepth(this.store, this.live.root, depth, index);
  }

  /**
   * Writes new wide leaves of inner depth `innerDepth` at strictly ascending
   * `indices` of level `depth`, the i-th made from `data` at byte offset
   * offsets[i] (no floating nodes: the batch links them as it makes them).
   * `created`, when given, receives the leaf now at each position (created[i]
   * at indices[i]: new, or the old one rewritten in place), so a caller can
   * keep its page table current. With `inPlace` (core write/inPlace.ts), what the
   * claim proves unshared is rewritten instead of copied; returns true when
   * the root itself was rewritten in place (its id unchanged).
   */
  setWidesAtDepth(
    depth: number,
    indices: ArrayLike<number>,
    innerDepth: number,
    data: Uint8Array,
    offsets: ArrayLike<number>,
    created?: NodeId[],
    inPlace?: InPlaceWrite,
  ): boolean {
    return this.write(setWidesAtDepth(this.store, this.live.root, depth, indices, innerDepth, data, offsets, created, inPlace));
  }

  /**
   * Writes records of `kind` (a registered record layout or pair layout) at
   * strictly ascending `indices` of level `depth`, the i-th made from
   * `bytes` at offset + i × the layout's size (back to back). Every
   * position is written (leave out those whose bytes would not change: the
   * old records are not read, as `setWidesAtDepth` does not read old
   * pages). `created`, when given, receives the record now at each
   * position. Under a root the claim does not prove owned, a batch of 64
   * positions or more makes and hashes its records in batches and copies
   * the paths level by level (core write/copiedRecords.ts); with `inPlace`
   * and an owned root, owned records of the same kind are rewritten.
   * Returns true when the root itself was rewritten in place (its id
   * unchanged).
   */
  setRecordsAtDepth(depth: number, indices: ArrayLike<number>, kind: number, bytes: Uint8Array, offset = 0, created?: NodeId[], inPlace?: InPlaceWrite): boolean {
    return this.write(setRecordsAtDepth(this.store, this.live.root, depth, indices, kind, bytes, offset, created, inPlace));
  }

  /** Writes `chunks` (32 bytes per index) as leaves at `indices` of level `depth`, ascending. */
  setChunksAtDepth(depth: number, indices: ArrayLike<number>, chunks: Uint8Array): void {
    this.replace(setChunksAtDepth(this.store, this.live.root, depth, indices, chunks));
  }

  /** The `count` nodes of level `depth` from position `start`, left to right, in one walk (floating ids). */
  *iterateNodesAtDepth(depth: number, start: number, count: number): Generator<NodeId> {
    for (const id of iterateNodesAtDepth(this.store, this.live.root, depth, start, count)) yield this.store.float(id);
  }

  /** `iterateNodesAtDepth` as an array. */
  getNodesAtDepth(depth: number, start: number, count: number): NodeId[] {
    return [...this.iterateNodesAtDepth(depth, start, count)];
  }

  /** The 32 bytes at `gindex` (a leaf's chunk, or an inner node's hash). */
  getChunk(gindex: Gindex): Uint8Array {
    const node = getNodeByBits(this.store, this.live.root, gindexBits(gindex));
    const out = new Uint8Array(32);
    if ((node & 15) === 2 || node === 0) readHashRaw(this.store, node, out, 0);
    else this.store.hashInto(node, out, 0);
    this.store.dropIfUnheld(node);
    return out;
  }

  /** Writes a chunk as a leaf at `gindex`. */
  setChunk(gindex: Gindex, chunk: Uint8Array, offset = 0): void {
    if (!(chunk instanceof Uint8Array) || !Number.isInteger(offset) || offset < 0 || offset + 32 > chunk.length) {
      throw new CoreError('BAD_INPUT', `setChunk: need 32 bytes at offset ${offset}`);
    }
    const root = this.live.root;
    const bits = gindexBits(gindex);
    const leaf = this.store.newLeaf(chunk, offset);
    try {
      this.replace(setNodeByBits(this.store, root, bits, leaf));
    } finally {
      this.store.dropIfUnheld(leaf); // a no-op or failed write leaves it unheld
    }
  }

  /** The proof of the 32 bytes at `gindex`. */
  singleProof(gindex: Gindex): SingleProof {
    return createSingleProof(this.store, this.live.root, gindex);
  }

  /** A multiproof of `gindices`, helpers in consensus-spec order. */
  multiproof(gindices: readonly Gindex[]): Multiproof {
    return createMultiproof(this.store, this.live.root, gindices);
  }

  /** The partial tree described by a multiproof. */
  static fromProof(proof: Multiproof, store: NodeStore = defaultStore): Tree {
    return new Tree(store.partialTree(proof), store);
  }

  /** Moves to the result of a batch write; true when the root itself was rewritten in place (same id, new contents). */
  private write(next: NodeId): boolean {
    const inPlace = takeChangedInPlace();
    this.replace(next);
    return inPlace && next === this.#cell.root;
  }

  private replace(next: NodeId): void {
    const cell = this.live;
    if (next === cell.root) return;
    this.store.retainUnchecked(next);
    const old = cell.root;
    cell.root = next;
    this.store.releaseReplaced(old);
  }

  /**
   * Releases the version (idempotent). O(1) for a hashed version: what only
   * it held is freed by the store's next `settle()` — a macrotask, `collect()`,
   * `stats()`, or the next allocation that would grow a pool — so dropping
   * the previous head after a block costs the block nothing (docs/CORE.md,
   * "Deferred release"). Also a safe point: when the
   * store's nursery is large it is swept here (`sweepAtDispose`), so a
   * synchronous build → root → dispose loop recycles what it freed without
   * waiting for a task turn. Floating ids created before a dispose are not
   * valid after it (attach or retain them first).
   */
  dispose(): void {
    const cell = this.#cell;
    if (cell.root < 0) return;
    // Still young: `registerYoung` skips it (its root is -1 by then).
    if (cell.registered) registry.unregister(cell);
    const root = cell.root;
    cell.root = -1;
    this.store.releaseReplaced(root);
    this.store.sweepAtDispose();
  }

  /** `dispose()`, for `using` declarations. */
  [Symbol.dispose](): void {
    this.dispose();
  }
}
