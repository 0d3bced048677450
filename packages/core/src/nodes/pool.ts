/**
 * Paged storage for the nodes of one kind, with slot reuse.
 *
 * A node is a slot number; its fields live at the same slot in two kinds of
 * typed-array pages:
 * - a hash page (`Uint8Array`, 32 bytes per slot, with an `Int32Array` view
 *   for word copies) that the hasher reads and writes directly, so that
 *   siblings allocated side by side can be hashed without a copy;
 * - a meta page (`Int32Array`) with `stride` words per slot: for branches
 *   [left, right, rc, state], for every other kind [rc, state], where state
 *   = flags | dirtyHeight << 8. One node's links, count and flags share a
 *   16-byte (or 8-byte) row, so a write that touches a node touches one
 *   cache line of meta plus its hash.
 * Wide leaves add a data page holding each record's chunks back to back;
 * records (wide/records.ts) one holding each record's serialized bytes.
 *
 * Bytes per node: branch 32 + 16 = 48; leaf and opaque 32 + 8 = 40; wide
 * leaf of c chunks 32c + 40; record of s bytes s + 40.
 *
 * Reuse: a slot is recyclable when its state is exactly FLAG_FREE (free and
 * listed nowhere else). Recyclable slots sit on a LIFO stack that may hold
 * stale entries (a slot handed out by `allocRuns` or listed twice); `alloc`
 * validates every popped entry, so a slot is never handed out twice, and the
 * stack is compacted when stale entries pile up. Per-page counts of
 * recyclable slots let `allocRuns` find whole free pages, and long free
 * stretches of half-free pages, for bulk builds.
 *
 * Invariant: every recyclable slot has at least one entry on the stack, and
 * `freeInPage[p]` counts the recyclable slots of page p.
 * @module
 */
import { CoreError } from '../errors.js';
import { IdList } from './idList.js';
import { MAX_SLOTS } from './ids.js';

/** The slot holds no live node (it waits on a list or on the free stack). */
export const FLAG_FREE = 1;
/** The slot is listed in the nursery (created floating, not yet swept). */
export const FLAG_NURSERY = 2;
/** The slot is listed for hashing (an unhashed branch or wide leaf). */
export const FLAG_PENDING = 4;
/** The slot is listed among the released roots whose freeing is deferred (store/storeBase.ts, `settle`). */
export const FLAG_DEFERRED = 16;
/** Every flag of a list that names slots: a freed slot is recycled only once none of them is set. */
export const FLAG_LISTED = FLAG_NURSERY | FLAG_PENDING | FLAG_DEFERRED;
/** Shortest stretch of a partly free page that a bulk build takes. */
const MIN_RUN = 64;
/** Scratch mark used while compacting the free stack. */
const FLAG_SEEN = 8;

export interface PoolOptions {
  readonly kind: number;
  /** log2 of the slots per page. */
  readonly pageShift: number;
  /** Branches: child links. */
  readonly links?: boolean;
  /** Wide leaves: chunks per node. */
  readonly chunks?: number;
  /** Records: data bytes per node (default 32 · chunks). */
  readonly dataBytes?: number;
  /**
   * Called before the pool takes never-used slots (and before every bulk
   * request): frees what the store deferred (`StoreCore.settle`) and says
   * whether it freed anything, so the pool reuses those slots instead of
   * growing.
   */
  readonly reclaim?: () => boolean;
}

export class Pool {
  readonly kind: number;
  readonly shift: number;
  readonly mask: number;
  readonly pageSize: number;
  readonly chunks: number;
  /** Data bytes per slot: 32 · chunks for wide leaves, the record size for records, 0 otherwise. */
  readonly dataBytes: number;
  /** Meta words per slot: 4 for branches, 2 otherwise. */
  readonly stride: number;
  /** Offset of rc and of state within a slot's meta row. */
  readonly rcAt: number;
  readonly stAt: number;

  readonly h8: Uint8Array[] = [];
  readonly h32: Int32Array[] = [];
  readonly meta: Int32Array[] = [];
  readonly d8: Uint8Array[] = [];
  readonly d32: Int32Array[] = [];
  readonly freeInPage: number[] = [];
  /**
   * Per page, an upper bound on the longest stretch of recyclable slots a
   * run could take there (even-aligned): the page size until
   * `takeStretches` scans page p to its end, then the longest stretch that
   * scan left, until a slot of p is recycled (taking slots only shortens
   * stretches, so the bound stays true). Requests skip pages whose bound is
   * below what they would take: MIN_RUN for large ones, the whole request
   * for small ones. After many small commits pages are half free and
   * fragmented, and each scan walks the page's rows; small requests (a
   * composite element's few-node subtree, built from bytes one element at
   * a time) rescanned the same fragmented pages request after request.
   */
  readonly longestFree: number[] = [];
  /**
   * Per page, a lower bound on the offset of its first recyclable slot:
   * scans start there. A page filled from its start by earlier requests
   * would otherwise be walked row by row over its live slots by every scan
   * (recycling a slot lowers the bound to it; taking slots never breaks it).
   */
  readonly scanFrom: number[] = [];
  /**
   * Per page, a lower bound on the offset where a stretch of MIN_RUN or more
   * recyclable slots can start: scans for large requests start there. Short
   * stretches left early in a page (single slots recycled among live ones)
   * pin `scanFrom` at the page's start, and each large request walked the
   * page's live rows one by one to its free tail: a progressive epoch's ~20
   * requests each read a 32 768-slot page of branches (recycling slot s
   * lowers the bound to s − MIN_RUN + 1: a stretch reaching s from before
   * started at most that far back, or was long already and so not before
   * the bound; taking slots never breaks it).
   */
  readonly longFrom: number[] = [];

  /** Slots [0, top) have been handed out at least once. */
  top = 0;
  /** Slots currently holding a live node. */
  live = 0;
  /** Slots currently recyclable. */
  recyclable = 0;
  readonly free = new IdList();
  readonly #reclaim: (() => boolean) | undefined;

  constructor(options: PoolOptions) {
    this.#reclaim = options.reclaim;
    this.kind = options.kind;
    this.shift = options.pageShift;
    this.pageSize = 1 << options.pageShift;
    this.mask = this.pageSize - 1;
    this.stride = options.links === true ? 4 : 2;
    this.rcAt = this.stride - 2;
    this.stAt = this.stride - 1;
    this.chunks = options.chunks ?? 0;
    this.dataBytes = options.dataBytes ?? 32 * this.chunks;
  }

  // ------------------------------------------------------- field access

  rc(slot: number): number {
    return this.meta[slot >>> this.shift]![(slot & this.mask) * this.stride + this.rcAt]!;
  }

  setRc(slot: number, value: number): void {
    this.meta[slot >>> this.shift]![(slot & this.mask) * this.stride + this.rcAt] = value;
  }

  state(slot: number): number {
    return this.meta[slot >>> this.shift]![(slot & this.mask) * this.stride + this.stAt]!;
  }

  setState(slot: number, value: number): void {
    this.meta[slot >>> this.shift]![(slot & this.mask) * this.stride + this.stAt] = value;
  }

  // ---------------------------------------------------------- allocation

  /** A slot for a new node (its meta row is the caller's to initialise). */
  alloc(): number {
    this.live++;
    const free = this.free;
    for (;;) {
      while (free.length > 0) {
        const slot = free.pop();
        const page = slot >>> this.shift;
        if (this.meta[page]![(slot & this.mask) * this.stride + this.stAt] === FLAG_FREE) {
          this.freeInPage[page]!--;
          this.recyclable--;
          return slot;
        }
        // A stale entry: the slot was handed out in bulk or listed twice.
      }
      // Out of recyclable slots: free the deferred releases first, if any, rather than grow.
      if (this.#reclaim === undefined || !this.#reclaim()) break;
    }
    const slot = this.top;
    this.reserve(slot + 1);
    this.top = slot + 1;
    return slot;
  }

  /**
   * Slots for out[from, to), written as ids (slot << 4 | kind): the slots
   * `alloc` would hand out one by one, each claimed (state 0) as it is
   * taken, so that a slot listed twice on the stack is handed out once. The
   * caller writes the rest of each row. Throws `STORE_FULL` having given
   * every slot back.
   *
   * Why: a batch that makes thousands of nodes (a copied slab's ~7 000,
   * write/copiedWides.ts) takes them all in one tight loop whose state reads
   * are independent of one another, so their cache misses overlap.
   */
  allocIds(out: Int32Array, from: number, to: number): void {
    let i = from;
    try {
      for (;;) {
        i = this.popIds(out, i, to);
        if (i === to) return;
        // The stack ran dry: `alloc` frees the deferred releases (refilling it) or grows the pool.
        const slot = this.alloc();
        this.setState(slot, 0);
        out[i++] = (slot << 4) | this.kind;
      }
    } catch (error) {
      this.giveBack(out, from, i);
      throw error;
    }
  }

  /** Claims valid slots off the free stack into out[i, to) as ids; returns where it stopped (at `to`, or with the stack empty). */
  private popIds(out: Int32Array, i: number, to: number): number {
    const free = this.free;
    const items = free.items;
    const meta = this.meta;
    const freeInPage = this.freeInPage;
    const shift = this.shift;
    const mask = this.mask;
    const stride = this.stride;
    const stAt = this.stAt;
    const kind = this.kind;
    const first = i;
    let top = free.length;
    while (i < to && top > 0) {
      const slot = items[--top]!;
      const page = slot >>> shift;
      const m = meta[page]!;
      const at = (slot & mask) * stride + stAt;
      // A stale entry (handed out in bulk, or listed twice) is dropped, as `alloc` does.
      if (m[at] !== FLAG_FREE) continue;
      m[at] = 0;
      freeInPage[page]!--;
      out[i++] = (slot << 4) | kind;
    }
    free.length = top;
    this.recyclable -= i - first;
    this.live += i - first;
    return i;
  }

  /** Frees the slots of ids[from, to), taken by `allocIds` and linked nowhere yet. */
  giveBack(ids: Int32Array, from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const slot = ids[i]! >>> 4;
      this.setState(slot, FLAG_FREE);
      this.live--;
      this.recycle(slot);
    }
  }

  /** Makes a free slot (state exactly FLAG_FREE) available again. */
  recycle(slot: number): void {
    this.free.push(slot);
    const page = slot >>> this.shift;
    this.freeInPage[page]!++;
    this.longestFree[page] = this.pageSize;
    const off = slot & this.mask;
    if (off < this.scanFrom[page]!) this.scanFrom[page] = off;
    const longAt = off >= MIN_RUN - 1 ? off - (MIN_RUN - 1) : 0;
    if (longAt < this.longFrom[page]!) this.longFrom[page] = longAt;
    this.recyclable++;
    if (this.free.length > 2 * this.recyclable + 4096) this.compactFree();
  }

  /**
   * `count` slots as runs [start, length, start, length, …], each inside one
   * page, starting at an even slot, and of even length except the last, so
   * that siblings allocated pairwise share a run. Whole free pages are used
   * first, then fresh slots. The caller initialises every slot's state.
   */
  allocRuns(count: number): number[] {
    if (count === 1) {
      // One node has no sibling to sit beside: any free slot will do. (Small
      // builds — an element's one-chunk subtree — must reuse freed slots, or
      // a program building and dropping them grows the pool forever.)
      return [this.alloc(), 1];
    }
    // Deferred releases first: a bulk build takes whole free pages, and the last version's are among them.
    this.#reclaim?.();
    const runs: number[] = [];
    let left = count;
    let tookWholePages = false;
    // Free stretches of pages that are at least half free: whole pages, or
    // runs of at least MIN_RUN slots, so a run is worth one hashInto call.
    // A small build (fewer than MIN_RUN nodes) takes any stretch that holds
    // it whole, for the same reason as above.
    for (let p = 0; p < this.freeInPage.length && left > 0; p++) {
      const free = this.freeInPage[p]!;
      if (free === this.pageSize) {
        const len = Math.min(left, this.pageSize);
        this.take(p, 0, len, runs);
        left -= len;
        tookWholePages = true;
      } else if ((free >= this.pageSize >>> 1 && left >= MIN_RUN && this.longestFree[p]! >= MIN_RUN) || (left < MIN_RUN && free >= left && this.longestFree[p]! >= left)) {
        left -= this.takeStretches(p, left, runs);
      }
    }
    if (left > 0) {
      let start = this.top;
      if ((start & 1) === 1) {
        this.reserve(start + 1);
        this.setState(start, FLAG_FREE);
        this.top = start + 1;
        this.recycle(start);
        start++;
      }
      this.reserve(start + left);
      this.top = start + left;
      while (left > 0) {
        const len = Math.min(left, this.pageSize - (start & this.mask));
        runs.push(start, len);
        start += len;
        left -= len;
      }
    }
    this.live += count;
    // Slots taken in bulk leave their stack entries stale; a build that takes most of the free slots
    // would otherwise leave the next single allocs popping (and checking) every one of them — the
    // first block after loading a 2^20-validator state spent 17 ms so in createRecord alone.
    if (tookWholePages && this.free.length > 2 * this.recyclable + 4096) this.dropTakenPages();
    return runs;
  }

  /**
   * Drops the stack entries of pages with no recyclable slot left (all
   * stale), keeping the rest as they are: one pass over the stack reading
   * only the per-page counts, no meta row. (A full `compactFree` here read
   * every entry's meta row: 2–4.6 ms of an epoch's commit, measured.)
   */
  private dropTakenPages(): void {
    const items = this.free.items;
    const freeInPage = this.freeInPage;
    const shift = this.shift;
    let k = 0;
    for (let i = 0; i < this.free.length; i++) {
      const slot = items[i]!;
      if (freeInPage[slot >>> shift]! > 0) items[k++] = slot;
    }
    this.free.length = k;
    this.free.shrink();
  }

  /** Hands out recyclable slots [off, off+len) of page p as one run. */
  private take(p: number, off: number, len: number, runs: number[]): void {
    runs.push((p << this.shift) + off, len);
    this.freeInPage[p]! -= len;
    this.recyclable -= len;
    // Their stack entries go stale as soon as the caller writes the slots'
    // state (it must, before anything can pop the stack).
  }

  /** Takes even-aligned stretches of at least MIN_RUN recyclable slots from page p. */
  private takeStretches(p: number, want: number, runs: number[]): number {
    const m = this.meta[p]!;
    const stride = this.stride;
    const stAt = this.stAt;
    const end = Math.min(this.pageSize, this.top - (p << this.shift));
    let got = 0;
    /** Longest stretch (even-aligned) left behind so far. */
    let longest = 0;
    // A large request skips the page's front up to where a long stretch can start (`longFrom`): only
    // stretches shorter than MIN_RUN lie before it, which a large request passes over anyway.
    const skip = want >= MIN_RUN && this.longFrom[p]! > this.scanFrom[p]!;
    let off = skip ? this.longFrom[p]! : this.scanFrom[p]!;
    /** Offset of the first recyclable slot this scan leaves (end: none seen yet). */
    let firstLeft = -1;
    /** Offset of the first stretch of MIN_RUN or more slots this scan leaves (-1: none seen yet). */
    let firstLong = -1;
    while (off < end && got < want) {
      if (m[off * stride + stAt] !== FLAG_FREE) {
        off += 1;
        continue;
      }
      // Measured only as far as the request needs: a page's free tail of ~28 000 slots was read whole by
      // each of an epoch's ~20 requests, most of which take 64 to 4096 slots of it. Past `cap` the
      // stretch's rest is not known; the scan stops there (the request is met), and the bounds below
      // only count what was read.
      const cap = want - got + (off & 1);
      let len = 1;
      while (len < cap && off + len < end && m[(off + len) * stride + stAt] === FLAG_FREE) len++;
      const start = off + (off & 1);
      const aligned = len - (off & 1);
      let usable = Math.min(aligned, want - got);
      if (usable < want - got) usable &= ~1;
      if (usable >= MIN_RUN || (usable > 0 && usable === want - got)) {
        this.take(p, start, usable, runs);
        got += usable;
        if (aligned - usable > longest) longest = aligned - usable;
        // An odd first slot stays free before the run; so does the stretch's tail after it.
        if (firstLeft < 0 && start > off) firstLeft = off;
        if (firstLeft < 0 && start + usable < off + len) firstLeft = start + usable;
        if (firstLong < 0 && off + len - (start + usable) >= MIN_RUN) firstLong = start + usable;
      } else {
        if (aligned > longest) longest = aligned;
        if (firstLeft < 0) firstLeft = off;
        if (firstLong < 0 && len >= MIN_RUN) firstLong = off;
      }
      off += len;
    }
    // Past a skipped front the first recyclable slot is not known: the old bound stays.
    if (!skip) this.scanFrom[p] = firstLeft >= 0 ? firstLeft : Math.min(off, end);
    this.longFrom[p] = firstLong >= 0 ? firstLong : Math.min(off, end);
    // Scanned to the end: what is left is known (otherwise the old bound still holds: taking only shortens);
    // a skipped front holds stretches shorter than MIN_RUN only.
    if (off >= end) this.longestFree[p] = skip ? Math.max(longest, MIN_RUN - 1) : longest;
    return got;
  }

  /**
   * Drops stale and duplicate entries from the free stack. Entries of pages
   * with no recyclable slot go first, without a look at their meta rows
   * (after a bulk build took whole pages, that is nearly every entry, and
   * the per-page count is one small array instead of a cache miss each).
   */
  private compactFree(): void {
    this.dropTakenPages();
    const items = this.free.items;
    let k = 0;
    for (let i = 0; i < this.free.length; i++) {
      const slot = items[i]!;
      if (this.state(slot) === FLAG_FREE) {
        this.setState(slot, FLAG_FREE | FLAG_SEEN);
        items[k++] = slot;
      }
    }
    for (let i = 0; i < k; i++) this.setState(items[i]!, FLAG_FREE);
    this.free.length = k;
    this.free.shrink();
  }

  /**
   * `count` new unhashed nodes whose data rows (`rowBytes` each, back to back
   * from `src[from]`) are copied into this pool's data pages, one bulk copy
   * per run of slots (`allocRuns`), each listed on `pending` for the next
   * flush; `out[at + i]` gets row i's id (kind tag `kind`). Wide rows and
   * record rows share it. The caller counts the new pending entries.
   */
  placePendingRows(kind: number, src: Uint8Array, from: number, rowBytes: number, count: number, pending: IdList, out: number[], at: number): void {
    const runs = this.allocRuns(count);
    let row = 0;
    for (let r = 0; r < runs.length; r += 2) {
      const start = runs[r]!;
      const len = runs[r + 1]!;
      const page = start >>> this.shift;
      const begin = from + row * rowBytes;
      this.d8[page]!.set(src.subarray(begin, begin + len * rowBytes), (start & this.mask) * rowBytes);
      const meta = this.meta[page]!;
      for (let slot = start; slot < start + len; slot++, row++) {
        const m = (slot & this.mask) * this.stride;
        meta[m + this.rcAt] = 0;
        meta[m + this.stAt] = FLAG_PENDING;
        const id = (slot << 4) | kind;
        pending.push(id);
        out[at + row] = id;
      }
    }
  }

  /** Makes sure pages exist for slots [0, end). */
  reserve(end: number): void {
    if (end > MAX_SLOTS) throw new CoreError('STORE_FULL', `pool ${this.kind}: more than ${MAX_SLOTS} nodes`);
    while (this.h8.length << this.shift < end) this.addPage();
  }

  private addPage(): void {
    const n = this.pageSize;
    const hashes = new Uint8Array(32 * n);
    this.h8.push(hashes);
    this.h32.push(new Int32Array(hashes.buffer));
    this.meta.push(new Int32Array(n * this.stride));
    this.freeInPage.push(0);
    this.longestFree.push(this.pageSize);
    this.scanFrom.push(0);
    this.longFrom.push(0);
    if (this.dataBytes > 0) {
      // Records of odd sizes: the page stays a whole number of words (pages hold 2^k ≥ 4 slots).
      const data = new Uint8Array((this.dataBytes * n + 3) & ~3);
      this.d8.push(data);
      this.d32.push(new Int32Array(data.buffer));
    }
  }

  /** Bytes held by this pool's pages and free stack. */
  byteLength(): number {
    const perSlot = 32 + 4 * this.stride + this.dataBytes;
    return this.h8.length * this.pageSize * perSlot + this.free.byteLength;
  }
}

/**
 * A DataView of a pool page (record data, hash pages), made once per page:
 * word reads and copies with no view object per record or chunk (a view per
 * read made enough garbage to dominate on a large heap, measured).
 */
const pageViews = new WeakMap<Uint8Array, DataView>();
export function pageView(page: Uint8Array): DataView {
  let v = pageViews.get(page);
  if (v === undefined) {
    v = new DataView(page.buffer, page.byteOffset, page.byteLength);
    pageViews.set(page, v);
  }
  return v;
}
