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
import { DirtyOrder } from './packedOrder.js';
import { BULK_DENOMINATOR, BULK_MIN_PAGES, BULK_NUMERATOR, growSpareBound, isSweep, LOAD_ALL_DENOMINATOR, LOAD_ALL_MIN_DIRTY, LOAD_ALL_MIN_PAGES, PREDICT_SAMPLE_STRIDE, PREDICT_SAMPLES } from './packedPolicy.js';
import { rememberBulk, rememberedBulk } from './packedHistory.js';
import { clearOffsets, fillInOrderOffsets, idsFromTable, pageIdScratch } from './packedLoad.js';
import { giveSlab, SLAB_DONATE_BYTES, type Slab, takeSlab } from './packedSlabs.js';
import { fillTable, type PackedShape, PageTableHint, slabInOrder, sortedPositions, TABLE_FILL_MIN_PAGES, TABLE_FILL_MIN_WALKS, tableFromIds } from './packedPages.js';

/** The dirty-page table of a view not written yet. */
const NO_PAGES = new Int32Array(0);

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
  /**
   * Dirty pages: slab byte offset + 1 of each dirty page's copy, by page
   * index (0: clean). Allocated at the first write, for the pages of the
   * length then (grown as a list pushes); cleared entry by entry at flush.
   * A typed array, so `set` finds a dirty page with one load (a Map lookup
   * cost ~20 ns of a participation flag's ~100 ns, measured).
   */
  #dirtyAt1: Int32Array = NO_PAGES;
  /** Dirty pages counted. */
  #dirtyCount = 0;
  /** log2 of elements per page, of bytes per element; elements per page - 1 (both sizes are powers of two). */
  readonly #pageShift: number;
  readonly #elemShift: number;
  readonly #pageMask: number;
  /** The dirty pages in the order they were first written, their slab offsets and those of their first writes (commit reads these, not the table). */
  readonly #dirty = new DirtyOrder();
  /**
   * Working copies of the dirty pages, back to back; `#orig` holds each one's committed bytes at the same
   * offset, except pages below `#lazyPages` (see `#loadAllPages`), whose committed bytes are read from
   * the pool (page table) when a commit compares them.
   */
  #slab: Uint8Array;
  #dv: DataView;
  #words: Int32Array;
  #orig: Int32Array;
  #top = 0;
  /**
   * Elements [0, flat) lie at byte i << elemShift of the slab, every page of them dirty: set when
   * `#loadAllPages` puts page p at p·pageBytes, 0 again at flush. `get` and `set` then skip the page
   * lookup (a block's 2^15 participation flags OR-ed in after the load at its first write).
   */
  #flat = 0;
  /** Pages [0, lazyPages) were all loaded from the page table without a copy into `#orig` (`#loadAllPages`). */
  #lazyPages = 0;
  /** One committed page's words, for comparing a lazily loaded page (`#committedSource`). */
  readonly #cmp: Int32Array;
  /**
   * Page table: id + 1 of each committed page's node (0: not looked up
   * yet), so a page is read without walking the tree. The ids are held by
   * `_tree`'s root, which only `_flush` changes, and `_flush` writes the new
   * pages' ids in. Null when pages are not wide leaves below the root.
   */
  #pageIds: Int32Array | null = null;
  /**
   * Pages looked up by a walk of their own since the table was last filled,
   * counted across the versions this view was cloned from (see
   * TABLE_FILL_MIN_PAGES): a fill serves every later clone, so a chain of
   * blocks, each walking to ~1000 of 2^15 balance pages, fills the table once
   * instead of walking for most pages of every block.
   */
  #tableWalks = 0;
  /** The last commit of this view (or of the version it was cloned from) was a bulk rebuild (see `#write`). */
  #lastBulk = false;
  /** All pages were loaded at the first write because of `#lastBulk`, not because many were dirty: the commit counts the changed ones. */
  #predictedAll = false;
  /** The pages loaded at once (if they were) because the writes swept in page order: a bulk commit then does not predict the next version's writes (`#lastBulk` stays false). */
  #sweptAll = false;
  /** The highest page dirtied so far (-1: none), and whether every page was dirtied above the ones before it (`SWEEP_MIN_PAGES`). */
  #lastDirtied = -1;
  #ascending = true;
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
  readonly #encoded = new Uint8Array(this.#scratch.buffer);

  /** See the constructor's `segment`. */
  readonly #segment: boolean;
  /**
   * Elements are plain uint8 (participation flags): `get` and `set` on a dirty page read and store the
   * byte themselves instead of calling the element type (whose call sites see every packed element type).
   */
  readonly #bytes: boolean;
  /**
   * Elements are uint64 bigints (balances, inactivity scores; `BasicType._bigWords`): `set` with every page
   * loaded stores the value through `#big`, the slab as a `BigUint64Array`, instead of the element type's
   * `_put` (its conversion through a scratch into two words and their compare). An epoch's 2^21 balance
   * and score sets on a clone of the fulu state of 2^20 validators: 18.4–19.7 → 12.7–14.4 ms CPU steady
   * (docs/VIEWS.md "Packed sequences").
   */
  readonly #u64: boolean;
  /** The slab as uint64 words (kept with `#slab`, used where `#u64`). */
  #big: BigUint64Array;

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
    // Basic types' shape keys are canonical (basicType.ts): `uint8` is a number stored as its one byte.
    this.#bytes = elem._shapeKey() === 'uint8' && elem.byteLength === 1;
    this.#u64 = elem._bigWords;
    this.#limit = limit;
    this.#isList = isList;
    this.#shape = shape;
    this.#pageBytes = 32 << shape.pageDepth;
    this.#perPage = this.#pageBytes / elem.byteLength;
    this.#pageShift = Math.log2(this.#perPage);
    this.#elemShift = Math.log2(elem.byteLength);
    this.#pageMask = this.#perPage - 1;
    this.#pageLevel = shape.offsetDepth + shape.chunkDepth - shape.pageDepth;
    this.#length = this.#committedLength = length;
    // Node-free page reads index levels in doubles (up to 53 deep); deeper limits walk with getNodeAtDepth.
    this.#useTable = shape.pageDepth > 0 && this.#pageLevel > 0 && this.#pageLevel <= 53;
    this.#slab = new Uint8Array(this.#pageBytes * 8);
    this.#dv = new DataView(this.#slab.buffer);
    this.#words = new Int32Array(this.#slab.buffer);
    this.#big = new BigUint64Array(this.#slab.buffer);
    this.#orig = new Int32Array(this.#words.length);
    this.#read = new Uint8Array(this.#pageBytes);
    this.#readDv = new DataView(this.#read.buffer);
    this.#readWords = new Int32Array(this.#read.buffer);
    this.#cmp = new Int32Array(this.#pageBytes >>> 2);
    // No history of its own yet: what the last commit of a view of this schema did (packedHistory.ts).
    this.#lastBulk = rememberedBulk(type);
  }

  /**
   * The words committed page p (dirty, its copy at slab offset `at`) is compared with, and the word
   * where they start: `#orig` at at/4, or a lazily loaded page read again from the pool into `#cmp`.
   */
  #committedSource(p: number, at: number): Int32Array {
    if (p >= this.#lazyPages) {
      this.#cmpAt = at >>> 2;
      return this.#orig;
    }
    this.#cmpAt = 0;
    this.#loadCommitted(p, this.#cmp, 0);
    return this.#cmp;
  }
  /** The start word `#committedSource` returned. */
  #cmpAt = 0;

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
        if (++this.#tableWalks >= Math.max(TABLE_FILL_MIN_WALKS, pages >>> 5) && pages >= TABLE_FILL_MIN_PAGES) {
          this.#tableWalks = 0;
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
    const table = this.#dirtyAt1;
    return p < table.length ? table[p]! - 1 : -1;
  }

  get(i: number): V {
    // Every page loaded in order (`#flat`): element i at byte i << elemShift of the slab — a bounds check and a read.
    if (typeof i === 'number' && i >>> 0 === i && i < this.#flat && !this._tree.disposed) {
      return this.#bytes ? (this.#slab[i] as V) : this.#elem._peek(this.#slab, this.#dv, i << this.#elemShift);
    }
    return this.#getPaged(i);
  }

  /** `get` through the dirty-page table and the read cache (pages not all loaded, or an index to check). */
  #getPaged(i: number): V {
    // The common case (an index below 2^31 of a live view) in a few typed-array operations; the rest checks first.
    if (!(typeof i === 'number' && (i | 0) === i && i >= 0 && i < this.#length) || this._tree.disposed) this.#check(i);
    const p = i < 2 ** 31 ? i >>> this.#pageShift : Math.floor(i / this.#perPage);
    const off = (i - p * this.#perPage) << this.#elemShift;
    const at = this.#dirtyAt(p);
    if (at >= 0) return this.#bytes ? (this.#slab[at + off] as V) : this.#elem._peek(this.#slab, this.#dv, at + off);
    if (p !== this.#readPage) {
      this.#readPage = -1; // stays invalid if the load throws
      this.#loadCommitted(p, this.#readWords, 0);
      this.#readPage = p;
    }
    return this.#elem._peek(this.#read, this.#readDv, off);
  }

  set(i: number, value: V): void {
    // Every page loaded in order (`#flat`): the element stored (or found equal) at byte i << elemShift.
    if (typeof i === 'number' && i >>> 0 === i && i < this.#flat && !this._tree.disposed) {
      if (this.#bytes) {
        if (typeof value === 'number' && (value & 0xff) === value) {
          this.#slab[i] = value;
          return;
        }
      } else if (this.#u64) {
        // In range when it is its own residue (the typed-array store would wrap it silently).
        if (typeof value === 'bigint' && BigInt.asUintN(64, value) === value) {
          this.#big[i] = value;
          return;
        }
      } else if (this.#elem._put(this.#slab, this.#words, i << this.#elemShift, value) >= 0) return;
    }
    this.#setPaged(i, value);
  }

  /** `set` through the dirty-page table (pages not all loaded, or an index or value to check). */
  #setPaged(i: number, value: V): void {
    // The common case: a live view, an index below 2^31 in range, its page already dirty — the element
    // stored (or found equal) by the element type's `_put` in a few typed-array operations.
    if (typeof i === 'number' && (i | 0) === i && i >= 0 && i < this.#length && !this._tree.disposed) {
      const p = i >>> this.#pageShift;
      const table = this.#dirtyAt1;
      if (p < table.length) {
        const at1 = table[p]!;
        if (at1 > 0) {
          if (this.#bytes) {
            if (typeof value === 'number' && (value & 0xff) === value) {
              this.#slab[at1 - 1 + (i & this.#pageMask)] = value;
              return;
            }
          } else if (this.#elem._put(this.#slab, this.#words, at1 - 1 + ((i & this.#pageMask) << this.#elemShift), value) >= 0) return;
        }
      }
    } else this.#check(i);
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

  /** A write the fast path of `set` did not take: a clean page (loaded first), an invalid value, a large index. */
  #write(i: number, value: V): void {
    const p = Math.floor(i / this.#perPage);
    const o = (i - p * this.#perPage) * this.#elem.byteLength;
    let at = this.#dirtyAt(p);
    if (at >= 0) {
      if (this.#elem._put(this.#slab, this.#words, at + o, value) < 0) this.#encode(value); // throws the typed error
      return;
    }
    const dirty = this.#dirtyCount;
    const sweep = isSweep(this.#ascending, dirty, p, this.#lastDirtied);
    if ((dirty >= LOAD_ALL_MIN_DIRTY || (this.#lastBulk && dirty === 0)) && this.#useTable && this.#length === this.#committedLength) {
      const pages = Math.ceil(this.#length / this.#perPage);
      // After a bulk commit (a block's participation flags dirty every page, and the next block's will
      // too) all pages are loaded at the first write, not one by one until an eighth are dirty.
      const predicted = dirty === 0;
      if (pages >= LOAD_ALL_MIN_PAGES && (predicted || sweep || dirty * LOAD_ALL_DENOMINATOR >= pages)) {
        // A sweep may stop early (the first pages rewritten, the rest left): its commit, like a
        // predicted one's, samples how many pages changed before rebuilding them all.
        this.#predictedAll = predicted || sweep;
        this.#sweptAll = sweep && !predicted;
        this.#loadAllPages(pages);
        if (this.#elem._put(this.#slab, this.#words, p * this.#pageBytes + o, value) < 0) this.#encode(value);
        return;
      }
    }
    // A clean page in the read cache (a `get` before the `set`, as attestations' flags are OR-ed in, or
    // an earlier write of the value there) is compared there: a write of the bytes already there changes
    // nothing and loads nothing. An epoch's inactivity scores are mostly rewritten as they were (0 stays
    // 0), and no-op writes never make a page dirty, so nothing loads all pages at once: loading the page
    // again for each such write made a loop of 2^20 balance writes and 2^20 unchanged score writes on a
    // clone 290 ms CPU, 60 ms with the read cache (measured on the shared machine, scratch loop over
    // profile-realistic's state).
    if (p === this.#readPage) {
      this.#encode(value); // throws the typed error
      const read = this.#read;
      const encoded = this.#encoded;
      let same = true;
      for (let b = 0, len = this.#elem.byteLength; b < len && same; b++) same = read[o + b] === encoded[b];
      if (same) return;
    }
    at = this.#allocPage();
    let put: number;
    const w0 = at >>> 2;
    const nWords = this.#pageBytes >>> 2;
    try {
      // The committed bytes go to `orig` (what commit compares with), and from there into the working
      // copy: word loops, not set(subarray()), so no view object per page (a block loads ~1500 pages).
      const words = this.#words;
      const orig = this.#orig;
      if (p === this.#readPage) {
        const from = this.#readWords;
        for (let w = 0; w < nWords; w++) words[w0 + w] = orig[w0 + w] = from[w]!;
      } else {
        this.#loadCommitted(p, orig, w0);
        for (let w = w0, end = w0 + nWords; w < end; w++) words[w] = orig[w]!;
      }
      put = this.#elem._put(this.#slab, this.#words, at + o, value);
      if (put < 0) this.#encode(value); // throws the typed error
    } catch (e) {
      this.#top -= this.#pageBytes;
      throw e;
    }
    // A write of the bytes already there changes nothing: the page it loaded is given back, kept as the read cache.
    if (put === 0) {
      this.#top -= this.#pageBytes;
      if (p !== this.#readPage) {
        const orig = this.#orig;
        const to = this.#readWords;
        for (let w = 0; w < nWords; w++) to[w] = orig[w0 + w]!;
        this.#readPage = p;
      }
      return;
    }
    this.#markPage(p, at, at + o);
  }

  /**
   * Makes every page dirty at once, in page order (page p at p·pageBytes):
   * the committed contents copied out of the pool by the page table's ids
   * (`widesInto`), or out of the tree in one bulk read (`copyLevelBytes`)
   * when the table lacks some, the pages already written copied over them.
   * Taken once a write finds an eighth of the pages dirty, or at the first
   * write after a bulk commit (`#lastBulk`): by then the commit would most
   * likely rebuild all pages anyway (`#flushBulk`), and loading the rest one
   * by one cost ~0.3 µs a page (a block's participation flags touch all
   * 4096 pages of 2^20); every later write finds its page dirty.
   */
  #loadAllPages(pages: number): void {
    const size = this.#pageBytes;
    const total = pages * size;
    const old: Slab = { slab: this.#slab, orig: this.#orig };
    const dirty = this.#dirty;
    const spare = takeSlab(total);
    const slab = spare?.slab ?? new Uint8Array(total);
    const orig = spare?.orig ?? new Int32Array(total >>> 2);
    // The pages straight from the pool when the table names every one (after a bulk commit they lie in
    // a few runs of slots: a few native copies), else one walk of the level (measured: the walk cost
    // ~0.5 ms of 4096 participation pages, profile of clone-and-write blocks).
    // Pages copied by the table's ids are not copied again into `orig`: a commit that compares them reads
    // them from the pool by the same ids (`#committedSource`; the committed tree holds them until the
    // commit). The copy was ~1/3 of the load (8 MiB a list at 2^20 validators); a bulk commit compares
    // only until the first changed page, and a sample of pages (`#mostPagesChanged`).
    const lazy = this.#copyTablePages(slab, pages);
    if (!lazy) {
      slab.fill(0, 0, total);
      this._tree.store.copyLevelBytes(this._tree.rootNode, this.#shape.offsetDepth + this.#shape.chunkDepth, this.#committedLength * this.#elem.byteLength, slab, 0);
    }
    const words = new Int32Array(slab.buffer, slab.byteOffset, slab.byteLength >>> 2);
    if (!lazy) orig.set(words.subarray(0, total >>> 2));
    // Pages written before the load keep their committed bytes in the old twin: with a lazy load they are
    // compared with the pool's like the rest. Their copies move to their places over the loaded bytes.
    this.#lazyPages = lazy ? pages : 0;
    dirty.fillInOrder(pages, size, this.#words, words);
    let table = this.#dirtyAt1;
    if (table.length < pages) this.#dirtyAt1 = table = new Int32Array(pages);
    fillInOrderOffsets(table, pages, size);
    this.#dirtyCount = pages;
    this.#slab = slab;
    this.#dv = new DataView(slab.buffer, slab.byteOffset, slab.byteLength);
    this.#words = words;
    this.#big = new BigUint64Array(slab.buffer, slab.byteOffset, slab.byteLength >>> 3);
    this.#orig = orig;
    this.#top = total;
    // Page p at p·size for every page of the length (the load needs the committed length): flat.
    this.#flat = this.#length;
    if (old.slab.length >= SLAB_DONATE_BYTES) giveSlab(old);
    // A load at the first write (after a bulk commit) has marked no page yet: the parent must still hear of it.
    this._markDirty();
  }

  /** Copies committed pages [0, pages) into `slab` by their ids in the page table; false (nothing copied) when the table lacks one or a page is not a wide leaf. */
  #copyTablePages(slab: Uint8Array, pages: number): boolean {
    let ids = idsFromTable(this.#pageIds, pages);
    if (ids === null && pages >= TABLE_FILL_MIN_PAGES) {
      // A view made for a field its parent never read (an epoch's inactivity scores) has no table:
      // one walk fills it (~1.3 ms for 2^15 pages), cheaper than the bulk walk-and-copy of the level
      // and the copy of its committed twin it replaces (~2.5 ms more, measured), and later reads use it.
      this.#tableWalks = 0;
      fillTable(this._tree, this.#pageLevel, this.#table(pages - 1), pages);
      ids = idsFromTable(this.#pageIds, pages);
    }
    if (ids === null) return false;
    return this._tree.store.widesInto(ids, pages, this.#shape.pageDepth, slab, 0);
  }

  /** Records page p as dirty, its copy at slab offset `at`, its first write at `first`. */
  #markPage(p: number, at: number, first: number): void {
    let table = this.#dirtyAt1;
    if (p >= table.length) {
      const pages = Math.ceil(Math.max(this.#length, this.#committedLength, 1) / this.#perPage);
      const bigger = new Int32Array(Math.max(p + 1, pages, 2 * table.length));
      bigger.set(table);
      this.#dirtyAt1 = table = bigger;
    }
    table[p] = at + 1;
    this.#dirtyCount++;
    if (p <= this.#lastDirtied) this.#ascending = false;
    else this.#lastDirtied = p;
    this.#dirty.push(p, at, first);
    this._markDirty();
  }

  #allocPage(): number {
    if (this.#top + this.#pageBytes > this.#slab.length) this.#growSlab(this.#slab.length * 2);
    const at = this.#top;
    this.#top += this.#pageBytes;
    return at;
  }

  /** A slab (and twin) of at least `size` bytes, [0, top) carried over: a spare one when past SLAB_DONATE_BYTES. */
  #growSlab(size: number): void {
    let bigger: Uint8Array;
    let orig: Int32Array;
    const pages = Math.ceil(this.#length / this.#perPage);
    const loadAll = this.#useTable && pages >= LOAD_ALL_MIN_PAGES ? pages * this.#pageBytes : 0;
    const spare = size >= SLAB_DONATE_BYTES ? takeSlab(size, growSpareBound(size, loadAll)) : null;
    if (spare !== null) {
      // Only [0, top) is live: the spare's stale bytes past it are never read before being written.
      ({ slab: bigger, orig } = spare);
      bigger.set(this.#slab.subarray(0, this.#top));
      orig.set(this.#orig.subarray(0, this.#top >>> 2));
    } else {
      bigger = new Uint8Array(size);
      bigger.set(this.#slab.subarray(0, this.#top));
      orig = new Int32Array(size >>> 2);
      orig.set(this.#orig.subarray(0, this.#top >>> 2));
    }
    this.#slab = bigger;
    this.#dv = new DataView(bigger.buffer, bigger.byteOffset, bigger.byteLength);
    this.#words = new Int32Array(bigger.buffer, bigger.byteOffset, bigger.byteLength >>> 2);
    this.#big = new BigUint64Array(bigger.buffer, bigger.byteOffset, bigger.byteLength >>> 3);
    this.#orig = orig;
  }

  *[Symbol.iterator](): IterableIterator<V> {
    for (let i = 0; i < this.#length; i++) yield this.get(i);
  }

  _flush(): void {
    if (this.#dirtyCount === 0 && this.#length === this.#committedLength) return;
    const dirty = this.#dirty;
    const order = dirty.pages;
    const orderAt = dirty.at;
    const n = dirty.length;
    const pages = Math.ceil(this.#length / this.#perPage);
    if (this.#useTable && pages >= BULK_MIN_PAGES && n * BULK_DENOMINATOR >= pages * BULK_NUMERATOR && (!this.#predictedAll || this.#mostPagesChanged(pages))) {
      // Most pages dirty: rebuilt in bulk. Only whether any page changed matters here, not which (an
      // epoch's first page already differs): comparing each of 2^15 pages with its committed copy took
      // ~2 ms of cache misses per epoch (measured). Writes that all came back change nothing.
      if (this.#length !== this.#committedLength || this.#anyPageChanged()) this.#flushBulk(pages);
      // An in-order sweep (an epoch's balances) says nothing of the next version's writes (a block's
      // 1024 balances): loading all its pages at its first write, then comparing every page at its
      // commit, cost the first block after an epoch ~8 ms (measured, scratch loop of profile-realistic's state).
      this.#lastBulk = !this.#sweptAll;
      rememberBulk(this.type, this.#lastBulk);
      this.#afterFlush();
      return;
    }
    this.#lastBulk = false;
    rememberBulk(this.type, false);
    // Pages dirtied in order (a sweep over the whole list) need no sort; otherwise sort positions by page.
    let sorted = true;
    for (let j = 1; j < n && sorted; j++) sorted = order[j - 1]! < order[j]!;
    const perm = sorted ? null : sortedPositions(order, n);
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
    const orderFirst = dirty.first;
    const lastByte = this.#elem.byteLength - 1;
    for (let j = 0; j < n; j++) {
      const k = perm === null ? j : perm[j]!;
      const at = orderAt[k]!;
      // Pages whose bytes came back to the committed ones make nothing. The page's first write is
      // looked at first: it usually still differs (a scan of every page from its start took ~0.1 ms of
      // a block's 1000 pages, measured); only when it came back is the whole page compared.
      const w0 = at >>> 2;
      const src = order[k]! < this.#lazyPages ? this.#committedSource(order[k]!, at) : orig;
      const s0 = src === orig ? w0 : 0;
      let w = (orderFirst[k]! - at) >>> 2;
      const wEnd = (orderFirst[k]! - at + lastByte) >>> 2;
      while (w <= wEnd && words[w0 + w] === src[s0 + w]) w++;
      if (w > wEnd) {
        w = 0;
        while (w < nWords && words[w0 + w] === src[s0 + w]) w++;
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
    const nWords = this.#pageBytes >>> 2;
    const { pages: order, at: orderAt, length: n } = this.#dirty;
    for (let k = 0; k < n; k++) {
      const w0 = orderAt[k]! >>> 2;
      const src = this.#committedSource(order[k]!, orderAt[k]!);
      const s0 = this.#cmpAt;
      for (let w = 0; w < nWords; w++) if (words[w0 + w] !== src[s0 + w]) return true;
    }
    return false;
  }

  /**
   * Whether about BULK_NUMERATOR / BULK_DENOMINATOR of the `pages` pages
   * (all dirty, page p at p·pageBytes: `#loadAllPages`) or more differ from
   * their committed bytes, judged from PREDICT_SAMPLES pages spread evenly
   * (packedPolicy.ts), each compared up to its first difference. Only the speed of the commit
   * depends on the answer (both paths give the same root; `#anyPageChanged`
   * still keeps the root of all-unchanged writes): a block's flags differ
   * early in nearly every page, and a light block after a bulk one commits
   * its few changed pages incrementally. Comparing every page cost ~0.2 ms
   * of a block's participation commit (4096 pages, profile-realistic).
   */
  #mostPagesChanged(pages: number): boolean {
    const words = this.#words;
    const nWords = this.#pageBytes >>> 2;
    let sampled = 0;
    let changed = 0;
    const stride = Math.max(PREDICT_SAMPLE_STRIDE, Math.floor(pages / PREDICT_SAMPLES));
    for (let p = 0; p < pages; p += stride, sampled++) {
      const w0 = p * nWords;
      const src = this.#committedSource(p, p * this.#pageBytes);
      const s0 = this.#cmpAt;
      let w = 0;
      while (w < nWords && words[w0 + w] === src[s0 + w]) w++;
      if (w < nWords) changed++;
    }
    return changed * BULK_DENOMINATOR >= sampled * BULK_NUMERATOR;
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
    const { pages: order, at: orderAt, length: n } = this.#dirty;
    const size = this.#pageBytes;
    // Every page written, in order (an epoch's sweep): page p is at p·size in the slab, which is then
    // passed as plain contiguous bytes, as packedContents passes a list's — the same path through core.
    const inOrder = n === pages && slabInOrder(order, orderAt, n, size);
    let offsets: Int32Array | undefined;
    if (!inOrder) {
      offsets = new Int32Array(pages).fill(-1);
      for (let k = 0; k < n; k++) offsets[order[k]!] = orderAt[k]!;
      for (let p = 0; p < pages; p++) {
        if (offsets[p]! >= 0) continue;
        const at = this.#allocPage();
        this.#loadCommitted(p, this.#words, at >>> 2);
        offsets[p] = at;
      }
    }
    this.#readPage = -1;
    const store = this._tree.store;
    const ids = pageIdScratch(pages);
    const { chunkDepth, pageDepth } = this.#shape;
    const data = inOrder ? this.#slab.subarray(0, pages * size) : this.#slab;
    const contents = store.fromPages({ data, offsets }, pages, pageDepth, chunkDepth - pageDepth, ids);
    this._tree.rootNode = this.#isList ? store.withLength(contents, this.#length) : contents;
    this.#committedLength = this.#length;
    const table = this.#table(pages - 1);
    tableFromIds(table, ids, pages);
  }

  /** Drops the pending pages once they are in the tree (a slab grown past SLAB_DONATE_BYTES is given up as a spare for the next view that grows, packedSlabs.ts). */
  #afterFlush(): void {
    const dirty = this.#dirty;
    clearOffsets(this.#dirtyAt1, dirty.pages, dirty.length);
    this.#dirtyCount = 0;
    this.#flat = 0;
    this.#predictedAll = false;
    this.#sweptAll = false;
    this.#lastDirtied = -1;
    this.#ascending = true;
    this.#lazyPages = 0;
    dirty.clear();
    this.#top = 0;
    if (this.#slab.length >= SLAB_DONATE_BYTES) {
      giveSlab({ slab: this.#slab, orig: this.#orig });
      this.#slab = new Uint8Array(this.#pageBytes * 8); // a view does not hold an epoch's worth of pages
      this.#dv = new DataView(this.#slab.buffer);
      this.#words = new Int32Array(this.#slab.buffer);
      this.#big = new BigUint64Array(this.#slab.buffer);
      this.#orig = new Int32Array(this.#words.length);
    }
  }

  /** The page table, copied: ids of the committed pages found so far (a block's clone then walks only to pages no block read before). */
  override _inheritance(): unknown {
    const table = this.#pageIds;
    return table === null || this._dirty ? undefined : new PageTableHint(this._tree.rootNode, table.slice(), this.#tableWalks, this.#lastBulk, false, false);
  }

  override _inherit(from: unknown): void {
    const hint = from as PageTableHint;
    // Same root node, both held: the same pages (a view's root changes only through its own flush).
    if (this.#pageIds === null && hint.root === this._tree.rootNode) {
      this.#pageIds = hint.shared ? hint.table.slice() : hint.table;
      this.#tableWalks = hint.walks;
      // A build's table says nothing of the writes to come: the view keeps what its schema's history says.
      if (!hint.build) this.#lastBulk = hint.bulk;
    }
  }

  _respawn(tree: Tree): this {
    const view = new PackedSequenceView(this.type, tree, this.#elem, this.#limit, this.#isList, this.#shape, this.#committedLength, this.#segment) as this;
    const hint = this._inheritance();
    if (hint !== undefined) view._inherit(hint);
    return view;
  }
}
