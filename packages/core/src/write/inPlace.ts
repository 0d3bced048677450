/**
 * In-place writes: a batch write (batchWrite.ts) whose caller owns the
 * root outright may rewrite the nodes below it that nothing else can reach,
 * instead of copying the path to every written position.
 *
 * Ownership is proved with reference counts, never assumed:
 * - the root is owned when its count is exactly the holders the caller
 *   accounts for (its own handle, plus the one parent link that the caller's
 *   parent rewrites or touches in the same synchronous commit);
 * - a node below an owned node is owned when its count is 1: the link from
 *   its owned parent is then its only holder, so no other version, handle or
 *   branch can see it change.
 * An owned branch gets its new links and is listed for hashing again at its
 * new dirty height (its id stays, its hash is recomputed by the next flush);
 * an owned wide leaf gets its new chunks (and root, when the batch hashed
 * them already). Children unlinked on the way are released only once the
 * batch is done (`releaseDropped`), so a node the batch still writes
 * elsewhere is never freed under it.
 *
 * Invariant: after every in-place write, each node whose contents changed is
 * either listed for hashing at a height above all its unhashed children, or
 * carries the hash of its new contents; ancestors up to the owned root are
 * listed too (the batch lists them on its way back up, `repairInPlace` when
 * the batch fails part way).
 * @module
 */
import { CoreError } from '../errors.js';
import { IdList } from '../nodes/idList.js';
import { KIND_BRANCH, KIND_WIDE_BASE, KIND_ZERO, type NodeId } from '../nodes/ids.js';
import { FLAG_PENDING } from '../nodes/pool.js';
import { MAX_DIRTY_HEIGHT } from '../store/storeBase.js';
import type { StoreCore as NodeStore } from '../store/storeCore.js';

/** Nodes unlinked by in-place writes of the current batch whose count may have fallen to zero. */
const dropped = new IdList(64);

/** True when `id`'s only holder is the one link from its (owned) parent. */
export function soleLink(store: NodeStore, id: NodeId): boolean {
  // The count read straight from the row (zero subtrees are held without bound): on every path node of a batch.
  if ((id & 15) === KIND_ZERO) return false;
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  return pool.meta[slot >>> pool.shift]![(slot & pool.mask) * pool.stride + pool.rcAt]! === 1;
}

/** Adds a link to `id` (a child of a branch being rewritten). */
function link(store: NodeStore, id: NodeId): void {
  if ((id & 15) !== KIND_ZERO) store.retainUnchecked(id);
}

/** Removes a link to `id`; at zero the node is listed for release once the batch is done. */
function unlink(store: NodeStore, id: NodeId): void {
  if ((id & 15) === KIND_ZERO) return;
  const pool = store.pools[id & 15]!;
  const slot = id >>> 4;
  const at = (slot & pool.mask) * pool.stride + pool.rcAt;
  if (--pool.meta[slot >>> pool.shift]![at]! === 0) dropped.push(id);
}

/** The dirty height of a child: a branch's own, 0 for everything else (hashed before branches). */
function dirtyHeight(store: NodeStore, id: NodeId): number {
  if ((id & 15) !== KIND_BRANCH) return 0;
  const branches = store.branches;
  const slot = id >>> 4;
  return branches.meta[slot >>> branches.shift]![((slot & branches.mask) << 2) + 3]! >>> 8;
}

/**
 * Lists an owned branch for hashing at 1 + its children's dirty height. A
 * branch already listed at that height or above stays as it is; one listed
 * lower is listed again (the lower entry hashes it early, harmlessly: the
 * higher one hashes it again once its children are done).
 */
function relist(store: NodeStore, node: NodeId): void {
  const branches = store.branches;
  const slot = node >>> 4;
  const m = branches.meta[slot >>> branches.shift]!;
  const b = (slot & branches.mask) << 2;
  let dh = Math.max(dirtyHeight(store, m[b]!), dirtyHeight(store, m[b + 1]!));
  if (dh === MAX_DIRTY_HEIGHT) {
    // As newBranch does: hash a chain this deep now rather than widen the field.
    store.flush();
    dh = 0;
  }
  dh++;
  const st = m[b + 3]!;
  if ((st & FLAG_PENDING) !== 0 && st >>> 8 >= dh) return;
  m[b + 3] = (st & 0xff) | FLAG_PENDING | (dh << 8);
  store.pendingByHeight[dh]!.push(node);
  store.pendingEntries++;
  if (dh > store.maxPendingHeight) store.maxPendingHeight = dh;
}

/** Rewrites an owned branch's links (those that changed) and lists it for hashing. */
export function rewriteBranch(store: NodeStore, node: NodeId, left: NodeId, right: NodeId, newLeft: NodeId, newRight: NodeId): void {
  const branches = store.branches;
  const slot = node >>> 4;
  const m = branches.meta[slot >>> branches.shift]!;
  const b = (slot & branches.mask) << 2;
  if (newLeft !== left) {
    link(store, newLeft);
    m[b] = newLeft;
    unlink(store, left);
  }
  if (newRight !== right) {
    link(store, newRight);
    m[b + 1] = newRight;
    unlink(store, right);
  }
  relist(store, node);
}

/**
 * Rewrites an owned wide leaf of inner depth `depth` with the 8·2^depth
 * words at words[from]; its root comes from roots[rootAt] when the caller
 * hashed the new chunks already (`roots` given), else it is listed for
 * hashing.
 */
export function rewriteWide(store: NodeStore, node: NodeId, depth: number, words: Int32Array, from: number, roots: Int32Array | null, rootAt: number): void {
  const pool = store.pools[KIND_WIDE_BASE + depth - 1]!;
  const slot = node >>> 4;
  const page = slot >>> pool.shift;
  const off = slot & pool.mask;
  const n = 8 << depth;
  const d32 = pool.d32[page]!;
  for (let w = 0, o = off * n; w < n; w++) d32[o + w] = words[from + w]!;
  const st = pool.state(slot);
  if (roots !== null && (st & FLAG_PENDING) === 0) {
    const h32 = pool.h32[page]!;
    for (let w = 0; w < 8; w++) h32[(off << 3) + w] = roots[rootAt + w]!;
    return;
  }
  // No roots: listed once for the flush (a leaf listed already hashes the new chunks there).
  store.relistChanged(node, store.widePending[depth]!);
}

/** Where the dropped list ends now (a batch's first entry). */
export function droppedMark(): number {
  return dropped.length;
}

/**
 * Releases what the batch's in-place writes unlinked from `mark` on, now
 * that no write of the batch can still need it: each node nobody has linked
 * again since is freed, a hashed branch through the store's deferred
 * release (as a replaced root is), anything else at once.
 */
export function releaseDropped(store: NodeStore, mark: number): void {
  for (let i = mark; i < dropped.length; i++) store.releaseUnlinked(dropped.items[i]!);
  dropped.length = mark;
}

/**
 * After a batch with in-place writes failed part way, lists every owned
 * branch on the batch's paths for hashing again (children first), so no
 * owned node keeps a hash older than its contents. `owned` is the root's
 * ownership; positions below a leaf (what made the batch fail) are skipped.
 */
export function repairInPlace(store: NodeStore, node: NodeId, depth: number, indices: ArrayLike<number>, lo: number, hi: number, base: number, owned: boolean): void {
  if (depth === 0 || !owned || (node & 15) !== KIND_BRANCH) return;
  const branches = store.branches;
  const slot = node >>> 4;
  const m = branches.meta[slot >>> branches.shift]!;
  const b = (slot & branches.mask) << 2;
  const mid = base + 2 ** (depth - 1);
  let split = lo;
  while (split < hi && indices[split]! < mid) split++;
  if (split > lo) repairInPlace(store, m[b]!, depth - 1, indices, lo, split, base, soleLink(store, m[b]!));
  if (hi > split) repairInPlace(store, m[b + 1]!, depth - 1, indices, split, hi, mid, soleLink(store, m[b + 1]!));
  relist(store, node);
}

/** Thrown when a position was reported changed in place under a node that other versions share: the caller's ownership claim was wrong. */
export function sharedTouch(index: number): never {
  throw new CoreError('BAD_INPUT', `position ${index} was changed in place, but the path to it is shared with another version`);
}
