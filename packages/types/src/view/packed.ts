/**
 * Views of packed sequences (lists and vectors of uints or booleans, e.g.
 * balances): elements live in pages of 8 chunks (256 bytes: 32 uint64) that
 * are core wide leaves, so a balance costs about 9 bytes of tree.
 *
 * Pending writes go straight into private copies of the touched pages (one
 * slab, one DataView); `_flush` turns each changed page into one new wide
 * leaf (pages whose bytes came back unchanged make nothing) and writes them
 * all with one sorted `setNodesAtDepth`; the store hashes the new pages
 * together, then the branches above them level by level.
 *
 * Invariants: a page is either committed (read from the tree, cached) or
 * dirty (its full copy in the slab, which reads see first); the length leaf
 * changes only at flush.
 * @module
 */
import { lengthChunk, type NodeId, type Tree } from '@ssztree/core';
import { indexOutside, SszError } from '../errors.js';
import { readChunks } from '../tree/nodes.js';
import { type SszType, TreeView } from '../type.js';
import type { BasicArray, BasicType } from '../basicType.js';
import { fillTable, type PackedShape, slabInOrder, sortedPositions, TABLE_FILL_MIN_PAGES, TABLE_FILL_MIN_WALKS, tableFromIds } from './packedPages.js';

/**
 * A commit rebuilds the contents from pages (see `#flushBulk`) when at least
 * BULK_NUMERATOR / BULK_DENOMINATOR of its pages were written and it has at
 * least BULK_MIN_PAGES pages; the unchanged rest are copied and rehashed.
 */
const BULK_MIN_PAGES = 64;
const BULK_NUMERATOR = 3;
const BULK_DENOMINATOR = 4;

/** Slabs larger than this are not kept by a view between commits (one spare is kept process-wide, below). */
const SLAB_KEEP_BYTES = 1 << 20;

/**
 * The last large slab a view let go of, with its `orig` twin, for the next
 * view that grows past SLAB_KEEP_BYTES: an epoch dirties every page of
 * the balances (8 MiB at 2^20), and growing a fresh slab and twin by
 * doubling each time allocated ~32 MiB of new ArrayBuffers per epoch, whose
 * external-memory pressure set off full GCs during the next commits. One
 * spare bounds what is retained to one epoch's pages per process, not per view.
 */
let spare: { slab: Uint8Array; orig: Int32Array } | null = null;

export class PackedSequenceView<V, A extends BasicArray<V>> extends TreeView<A> {
  readonly #elem: BasicType<V, A>;
  readonly #shape: PackedShape;
  /** Limit (lists) or length (vectors). */
  readonly #limit: number;
  readonly #isList: boolean;
  readonly #perPage: number;
  readonly #pageBytes: number;
  /** Level of the pages in the view's tree. */
  readonly #pageLevel: number;
  #length: number;
  #committedLength: number;
  /** Dirty pages: page index → byte offset of its copy in the slab. */
  readonly #dirty = new Map<number, number>();
  /** The dirty pages in the order they were first written, and their slab offsets (commit reads these, not the map). */
  readonly #order: number[] = [];
  readonly #orderAt: number[] = [];
  /** Slab byte offset of each dirty page's first write: commit looks there first for a changed byte. */
  readonly #orderFirst: number[] = [];
  /** The last dirty page written (sequential writes skip the map lookup). */
  #lastPage = -1;
  #lastAt = 0;
  /** Working copies of the dirty pages, back to back; `#orig` holds each one's committed bytes at the same offset. */
  #slab: Uint8Array;
  #dv: DataView;
  #words: Int32Array;
  #orig: Int32Array;
  #top = 0;
  /**
   * Page table: id + 1 of each committed page's node (0: not looked up
   * yet), so a page is read without walking the tree. The ids are held by
   * `_tree`'s root, which only `_flush` changes, and `_flush` writes the new
   * pages' ids in. Null when pages are not wide leaves below the root.
   */
  #pageIds: Int32Array | null = null;
  /** Pages looked up by a walk of their own since the view was made (see TABLE_FILL_MIN_PAGES). */
  #tableWalks = 0;
  readonly #useTable: boolean;
  readonly #created: NodeId[] = [];
  /** Scratch of `_flush`: the changed pages (doubles: page indices may pass 2^31) and their slab offsets. */
  #changedPages = new Float64Array(0);
  #changedAt = new Int32Array(0);
  /** One committed page cached for reads (-1: none); dropped at every flush. */
  #readPage = -1;
  readonly #read: Uint8Array;
  readonly #readDv: DataView;
  readonly #readWords: Int32Array;
  /** The element being written, encoded (validation and the no-op check read it). */
  readonly #scratch = new DataView(new ArrayBuffer(32));
  readonly #scratchBytes = new Uint8Array(this.#scratch.buffer);

  /** See the constructor's `segment`. */
  readonly #segment: boolean;

  /**
   * `segment` makes the view one subtree of a progressive list
   * (view/progressive.ts): no length node (`isList` false), and it grows by
   * `push` up to `limit`, the subtree's capacity; `length` is how many of
   * its elements the list holds.
   */
  constructor(type: SszType<A>, tree: Tree, elem: BasicType<V, A>, limit: number, isList: boolean, shape: PackedShape, length: number, segment = false) {
    super(type, tree);
    this.#segment = segment;
    this.#elem = elem;
    this.#limit = limit;
    this.#isList = isList;
    this.#shape = shape;
    this.#pageBytes = 32 << shape.pageDepth;
    this.#perPage = this.#pageBytes / elem.byteLength;
    this.#pageLevel = shape.offsetDepth + shape.chunkDepth - shape.pageDepth;
    this.#length = this.#committedLength = length;
    // Node-free page reads index levels in doubles (up to 53 deep); deeper limits walk with getNodeAtDepth.
    this.#useTable = shape.pageDepth > 0 && this.#pageLevel > 0 && this.#pageLevel <= 53;
    this.#slab = new Uint8Array(this.#pageBytes * 8);
    this.#dv = new DataView(this.#slab.buffer);
    this.#words = new Int32Array(this.#slab.buffer);
    this.#orig = new Int32Array(this.#words.length);
    this.#read = new Uint8Array(this.#pageBytes);
    this.#readDv = new DataView(this.#read.buffer);
    this.#readWords = new Int32Array(this.#read.buffer);
  }

  get length(): number {
    return this.#length;
  }

  #check(i: number): void {
    this._live();
    if (!Number.isInteger(i) || i < 0 || i >= this.#length) throw new SszError('BAD_PATH', indexOutside(i, this.#length), -1, this.type.typeName);
  }

  /** Copies committed page p into `out` from word `wordOffset` (no allocation when the page is one record, as views write them). */
  #loadCommitted(p: number, out: Int32Array, wordOffset: number): void {
    const depth = this.#shape.pageDepth;
    if (this.#useTable) {
      const table = this.#table(p);
      let id = table[p]! - 1;
      if (id < 0) {
        id = this._tree.recordAtDepth(this.#pageLevel, p);
        if (id >= 0) table[p] = id + 1;
        // Looked up one walk at a time until the walks would cost about as much as one walk of the
        // whole page level; then the rest in that one walk.
        const pages = this.#committedPages();
        if (++this.#tableWalks === Math.max(TABLE_FILL_MIN_WALKS, pages >>> 5) && pages >= TABLE_FILL_MIN_PAGES) {
          fillTable(this._tree, this.#pageLevel, table, Math.min(pages, table.length));
        }
      }
      if (id >= 0 && this._tree.store.recordWordsInto(id, depth, out, wordOffset)) return;
    }
    if (this.#pageLevel <= 53 && this._tree.chunkWordsAtDepthInto(this.#pageLevel, p, depth, out, wordOffset)) return;
    const node = this.#pageLevel === 0 ? this._tree.rootNode : this._tree.getNodeAtDepth(this.#pageLevel, p);
    const bytes = readChunks(this._tree.store, node, depth, 1 << depth);
    out.set(new Int32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2), wordOffset);
  }

  /** The page table, long enough for page p (grown by doubling: lists push). */
  #table(p: number): Int32Array {
    let table = this.#pageIds;
    if (table === null || p >= table.length) {
      const pages = Math.ceil(Math.max(this.#length, 1) / this.#perPage);
      const bigger = new Int32Array(Math.max(p + 1, pages, table === null ? 0 : 2 * table.length));
      if (table !== null) bigger.set(table);
      this.#pageIds = table = bigger;
    }
    return table;
  }

  /** Pages the committed tree holds (the table is filled from it). */
  #committedPages(): number {
    return Math.ceil(this.#committedLength / this.#perPage);
  }

  /** Byte offset of page p's working copy in the slab, or -1 when p is not dirty. */
  #dirtyAt(p: number): number {
    if (p === this.#lastPage) return this.#lastAt;
    return this.#dirty.get(p) ?? -1;
  }

  get(i: number): V {
    this.#check(i);
    const p = Math.floor(i / this.#perPage);
    const off = (i - p * this.#perPage) * this.#elem.byteLength;
    const at = this.#dirtyAt(p);
    if (at >= 0) return this.#elem._read(this.#dv, at + off);
    if (p !== this.#readPage) {
      this.#readPage = -1; // stays invalid if the load throws
      this.#loadCommitted(p, this.#readWords, 0);
      this.#readPage = p;
    }
    return this.#elem._read(this.#readDv, off);
  }

  set(i: number, value: V): void {
    this.#check(i);
    this.#write(i, value);
  }

  /** Appends an element (lists only). */
  push(value: V): void {
    this._live();
    if (!this.#isList && !this.#segment) throw new SszError('BAD_PATH', 'a vector has a fixed length', -1, this.type.typeName);
    if (this.#length >= this.#limit) throw new SszError('LIMIT_EXCEEDED', `the list is full (${this.#limit})`, -1, this.type.typeName);
    this.#encode(value);
    this.#length++;
    this._markDirty();
    this.#write(this.#length - 1, value);
  }

  /** Encodes `value` into the scratch (its validation: a typed error with the path). */
  #encode(value: V): void {
    try {
      this.#elem._write(this.#scratch, 0, value);
    } catch (e) {
      throw (e as SszError).prefixPath(this.type.typeName);
    }
  }

  #write(i: number, value: V): void {
    this.#encode(value);
    const size = this.#elem.byteLength;
    const p = Math.floor(i / this.#perPage);
    const o = (i - p * this.#perPage) * size;
    let at = this.#dirtyAt(p);
    const fresh = at < 0;
    if (fresh) {
      at = this.#allocPage();
      this.#loadCommitted(p, this.#words, at >>> 2);
    }
    // A write of the bytes already there changes nothing (and a page it would have loaded is given back).
    const slab = this.#slab;
    const enc = this.#scratchBytes;
    let k = 0;
    while (k < size && slab[at + o + k] === enc[k]) k++;
    if (k === size) {
      if (fresh) this.#top -= this.#pageBytes;
      return;
    }
    if (fresh) {
      const words = this.#words;
      const orig = this.#orig;
      for (let w = at >>> 2, end = w + (this.#pageBytes >>> 2); w < end; w++) orig[w] = words[w]!;
      this.#dirty.set(p, at);
      this.#order.push(p);
      this.#orderAt.push(at);
      this.#orderFirst.push(at + o);
      this._markDirty();
    }
    this.#lastPage = p;
    this.#lastAt = at;
    for (; k < size; k++) slab[at + o + k] = enc[k]!;
  }

  #allocPage(): number {
    if (this.#top + this.#pageBytes > this.#slab.length) {
      const size = this.#slab.length * 2;
      let bigger: Uint8Array;
      let orig: Int32Array;
      if (size > SLAB_KEEP_BYTES && spare !== null && spare.slab.length >= size) {
        // Only [0, top) is live: the spare's stale bytes past it are never read before being written.
        ({ slab: bigger, orig } = spare);
        spare = null;
        bigger.set(this.#slab.subarray(0, this.#top));
        orig.set(this.#orig.subarray(0, this.#top >>> 2));
      } else {
        bigger = new Uint8Array(size);
        bigger.set(this.#slab);
        orig = new Int32Array(size >>> 2);
        orig.set(this.#orig);
      }
      this.#slab = bigger;
      this.#dv = new DataView(bigger.buffer);
      this.#words = new Int32Array(bigger.buffer);
      this.#orig = orig;
    }
    const at = this.#top;
    this.#top += this.#pageBytes;
    return at;
  }

  *[Symbol.iterator](): IterableIterator<V> {
    for (let i = 0; i < this.#length; i++) yield this.get(i);
  }

  _flush(): void {
    const dirty = this.#dirty;
    if (dirty.size === 0 && this.#length === this.#committedLength) return;
    const order = this.#order;
    const orderAt = this.#orderAt;
    const n = order.length;
    const pages = Math.ceil(this.#length / this.#perPage);
    if (this.#useTable && pages >= BULK_MIN_PAGES && n * BULK_DENOMINATOR >= pages * BULK_NUMERATOR) {
      // Most pages dirty: rebuilt in bulk. Only whether any page changed matters here, not which (an
      // epoch's first page already differs): comparing each of 2^15 pages with its committed copy took
      // ~2 ms of cache misses per epoch (measured). Writes that all came back change nothing.
      if (this.#length !== this.#committedLength || this.#anyPageChanged()) this.#flushBulk(pages);
      this.#afterFlush();
      return;
    }
    // Pages dirtied in order (a sweep over the whole list) need no sort; otherwise sort positions by page.
    let sorted = true;
    for (let j = 1; j < n && sorted; j++) sorted = order[j - 1]! < order[j]!;
    const perm = sorted ? null : sortedPositions(order);
    // Changed pages' indices and slab offsets, in typed scratch arrays (an epoch has 2^15 of them: no array growth).
    if (this.#changedPages.length < n) {
      this.#changedPages = new Float64Array(n);
      this.#changedAt = new Int32Array(n);
    }
    const changedPages = this.#changedPages;
    const changedAt = this.#changedAt;
    let changed = 0;
    const words = this.#words;
    const orig = this.#orig;
    const nWords = this.#pageBytes >>> 2;
    const orderFirst = this.#orderFirst;
    const lastByte = this.#elem.byteLength - 1;
    for (let j = 0; j < n; j++) {
      const k = perm === null ? j : perm[j]!;
      const at = orderAt[k]!;
      // Pages whose bytes came back to the committed ones make nothing. The page's first write is
      // looked at first: it usually still differs (a scan of every page from its start took ~0.1 ms of
      // a block's 1000 pages, measured); only when it came back is the whole page compared.
      let w = orderFirst[k]! >>> 2;
      const wEnd = (orderFirst[k]! + lastByte) >>> 2;
      while (w <= wEnd && words[w] === orig[w]) w++;
      if (w > wEnd) {
        const w0 = at >>> 2;
        w = 0;
        while (w < nWords && words[w0 + w] === orig[w0 + w]) w++;
        if (w === nWords) continue;
      }
      changedPages[changed] = order[k]!;
      changedAt[changed++] = at;
    }
    const indices = changedPages.subarray(0, changed);
    const offsets = changedAt.subarray(0, changed);
    this.#readPage = -1;
    if (indices.length > 0) {
      const store = this._tree.store;
      const size = this.#pageBytes;
      if (this.#pageLevel === 0) {
        const bytes = this.#slab.subarray(offsets[0], (offsets[0] as number) + size);
        this._tree.rootNode = this.#shape.pageDepth === 0 ? store.leaf(bytes) : store.wide(bytes);
      } else if (this.#shape.pageDepth === 0) {
        this._changedInPlace = this._tree.setNodesAtDepth(this.#pageLevel, indices, Array.from(offsets, (at) => store.leaf(this.#slab, at)), this._inPlaceWrite());
      } else {
        const created = this.#created;
        this._changedInPlace = this._tree.setWidesAtDepth(this.#pageLevel, indices, this.#shape.pageDepth, this.#slab, offsets, created, this._inPlaceWrite());
        const table = this.#table(indices[indices.length - 1] as number);
        for (let k = 0; k < indices.length; k++) table[indices[k] as number] = (created[k] as number) + 1;
        created.length = 0;
      }
    }
    if (this.#length !== this.#committedLength) {
      if (this.#isList) this._tree.setChunk(3, lengthChunk(this.#length));
      this.#committedLength = this.#length;
    }
    this.#afterFlush();
  }

  /** True when some dirty page's bytes differ from its committed copy (stops at the first). */
  #anyPageChanged(): boolean {
    const words = this.#words;
    const orig = this.#orig;
    const nWords = this.#pageBytes >>> 2;
    for (const at of this.#orderAt) {
      for (let w = at >>> 2, end = w + nWords; w < end; w++) if (words[w] !== orig[w]) return true;
    }
    return false;
  }

  /**
   * Commits by rebuilding the contents from pages: every page of the list
   * becomes a new wide leaf (the few clean ones are loaded into the slab
   * first; dirty pages whose bytes came back are rebuilt as they are),
   * built and hashed in runs by `store.fromPages`, and the old contents are
   * released in one cascade. Used when most pages changed (an epoch
   * rewriting every balance): no walk down the tree per batch, no pending
   * lists, no gather of child hashes from scattered slots.
   */
  #flushBulk(pages: number): void {
    const order = this.#order;
    const orderAt = this.#orderAt;
    const size = this.#pageBytes;
    // Every page written, in order (an epoch's sweep): page p is at p·size in the slab, which is then
    // passed as plain contiguous bytes, as packedContents passes a list's — the same path through core.
    const inOrder = order.length === pages && slabInOrder(order, orderAt, size);
    let offsets: Int32Array | undefined;
    if (!inOrder) {
      offsets = new Int32Array(pages).fill(-1);
      for (let k = 0; k < order.length; k++) offsets[order[k]!] = orderAt[k]!;
      for (let p = 0; p < pages; p++) {
        if (offsets[p]! >= 0) continue;
        const at = this.#allocPage();
        this.#loadCommitted(p, this.#words, at >>> 2);
        offsets[p] = at;
      }
    }
    this.#readPage = -1;
    const store = this._tree.store;
    const ids = new Int32Array(pages);
    const { chunkDepth, pageDepth } = this.#shape;
    const data = inOrder ? this.#slab.subarray(0, pages * size) : this.#slab;
    const contents = store.fromPages({ data, offsets }, pages, pageDepth, chunkDepth - pageDepth, ids);
    this._tree.rootNode = this.#isList ? store.withLength(contents, this.#length) : contents;
    this.#committedLength = this.#length;
    const table = this.#table(pages - 1);
    tableFromIds(table, ids, pages);
  }

  /** Drops the pending pages once they are in the tree (a slab an epoch grew is trimmed, and kept as the spare). */
  #afterFlush(): void {
    this.#dirty.clear();
    this.#order.length = 0;
    this.#orderAt.length = 0;
    this.#orderFirst.length = 0;
    this.#lastPage = -1;
    this.#top = 0;
    if (this.#slab.length > SLAB_KEEP_BYTES) {
      if (spare === null || spare.slab.length <= this.#slab.length) spare = { slab: this.#slab, orig: this.#orig };
      this.#slab = new Uint8Array(this.#pageBytes * 8); // a view does not hold an epoch's worth of pages
      this.#dv = new DataView(this.#slab.buffer);
      this.#words = new Int32Array(this.#slab.buffer);
      this.#orig = new Int32Array(this.#words.length);
    }
  }

  _respawn(tree: Tree): this {
    return new PackedSequenceView(this.type, tree, this.#elem, this.#limit, this.#isList, this.#shape, this.#committedLength, this.#segment) as this;
  }
}
