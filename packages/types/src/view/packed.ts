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
import { lengthChunk, type NodeId, type NodeStore, type Tree } from '@ssztree/core';
import { SszError } from '../errors.js';
import { depthForLimit } from '../merkle.js';
import { readChunks, subtreeFromNodes } from '../tree/nodes.js';
import type { BasicArray, BasicType, SszType } from '../type.js';
import { TreeView } from './base.js';

/** Inner depth of a page: 8 chunks, the wide-leaf size the store hashes in one batch per depth. */
export const PAGE_DEPTH = 3;

/** The geometry of a packed sequence's tree. */
export interface PackedShape {
  /** Depth of the chunk level below the contents root. */
  readonly chunkDepth: number;
  /** Inner depth of a page (min(PAGE_DEPTH, chunkDepth)). */
  readonly pageDepth: number;
  /** 1 for lists (contents under the length mix-in), 0 for vectors. */
  readonly offsetDepth: number;
}

export function packedShape(chunkLimit: number, isList: boolean): PackedShape {
  const chunkDepth = depthForLimit(chunkLimit);
  return { chunkDepth, pageDepth: Math.min(PAGE_DEPTH, chunkDepth), offsetDepth: isList ? 1 : 0 };
}

/** The contents subtree of packed `chunks` as wide-leaf pages (hashed by the store's next flush, pages together). */
export function packedContents(store: NodeStore, chunks: Uint8Array, shape: PackedShape): NodeId {
  const { chunkDepth, pageDepth } = shape;
  if (pageDepth === 0 || chunks.length === 0) return store.fromChunks(chunks, chunkDepth);
  const pageBytes = 32 << pageDepth;
  const count = Math.ceil(chunks.length / pageBytes);
  const pages = new Array<NodeId>(count);
  let last: Uint8Array | null = null;
  for (let p = 0; p < count; p++) {
    const start = p * pageBytes;
    if (start + pageBytes <= chunks.length) pages[p] = store.wide(chunks.subarray(start, start + pageBytes));
    else {
      last = new Uint8Array(pageBytes);
      last.set(chunks.subarray(start));
      pages[p] = store.wide(last);
    }
  }
  return subtreeFromNodes(store, pages, chunkDepth - pageDepth, pageDepth);
}

interface Page {
  readonly bytes: Uint8Array;
  readonly dv: DataView;
  /** The same bytes as words, for the commit-time comparison. */
  readonly words: Int32Array;
}

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
  readonly #pages = new Map<number, Page>();
  readonly #dirty = new Map<number, number>();
  #slab: Uint8Array;
  #dv: DataView;
  #words: Int32Array;
  #top = 0;
  readonly #scratch = new DataView(new ArrayBuffer(32));

  constructor(type: SszType<A>, tree: Tree, elem: BasicType<V, A>, limit: number, isList: boolean, shape: PackedShape, length: number) {
    super(type, tree);
    this.#elem = elem;
    this.#limit = limit;
    this.#isList = isList;
    this.#shape = shape;
    this.#pageBytes = 32 << shape.pageDepth;
    this.#perPage = this.#pageBytes / elem.byteLength;
    this.#pageLevel = shape.offsetDepth + shape.chunkDepth - shape.pageDepth;
    this.#length = this.#committedLength = length;
    this.#slab = new Uint8Array(this.#pageBytes * 8);
    this.#dv = new DataView(this.#slab.buffer);
    this.#words = new Int32Array(this.#slab.buffer);
  }

  get length(): number {
    return this.#length;
  }

  #check(i: number): void {
    this._live();
    if (!Number.isInteger(i) || i < 0 || i >= this.#length) throw new SszError('BAD_PATH', `index ${i} is outside 0..${this.#length - 1}`, -1, this.type.typeName);
  }

  #committedPage(p: number): Page {
    let page = this.#pages.get(p);
    if (page === undefined) {
      const node = this.#pageLevel === 0 ? this._tree.rootNode : this._tree.getNodeAtDepth(this.#pageLevel, p);
      const store = this._tree.store;
      const depth = this.#shape.pageDepth;
      // A page written by a view is one wide leaf: take its chunks in one copy.
      const bytes = depth > 0 && store.wideDepth(node) === depth ? store.wideChunks(node) : readChunks(store, node, depth, 1 << depth);
      page = { bytes, dv: new DataView(bytes.buffer), words: new Int32Array(bytes.buffer) };
      this.#pages.set(p, page);
    }
    return page;
  }

  get(i: number): V {
    this.#check(i);
    const p = Math.floor(i / this.#perPage);
    const off = (i - p * this.#perPage) * this.#elem.byteLength;
    const at = this.#dirty.get(p);
    if (at !== undefined) return this.#elem._read(this.#dv, at + off);
    return this.#elem._read(this.#committedPage(p).dv, off);
  }

  set(i: number, value: V): void {
    this.#check(i);
    this.#write(i, value);
  }

  /** Appends an element (lists only). */
  push(value: V): void {
    this._live();
    if (!this.#isList) throw new SszError('BAD_PATH', 'a vector has a fixed length', -1, this.type.typeName);
    if (this.#length >= this.#limit) throw new SszError('LIMIT_EXCEEDED', `the list is full (${this.#limit})`, -1, this.type.typeName);
    this.#validate(value);
    this.#length++;
    this._markDirty();
    this.#write(this.#length - 1, value);
  }

  #validate(value: V): void {
    try {
      this.#elem._write(this.#scratch, 0, value);
    } catch (e) {
      throw (e as SszError).prefixPath(this.type.typeName);
    }
  }

  #write(i: number, value: V): void {
    this.#validate(value);
    if (this.#elem.equals(this.get(i), value)) return;
    const p = Math.floor(i / this.#perPage);
    let at = this.#dirty.get(p);
    if (at === undefined) {
      this._markDirty();
      at = this.#allocPage();
      this.#slab.set(this.#committedPage(p).bytes, at);
      this.#dirty.set(p, at);
    }
    this.#elem._write(this.#dv, at + (i - p * this.#perPage) * this.#elem.byteLength, value);
  }

  #allocPage(): number {
    if (this.#top + this.#pageBytes > this.#slab.length) {
      const bigger = new Uint8Array(this.#slab.length * 2);
      bigger.set(this.#slab);
      this.#slab = bigger;
      this.#dv = new DataView(bigger.buffer);
      this.#words = new Int32Array(bigger.buffer);
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
    const store = this._tree.store;
    const pages = [...dirty.keys()].sort((a, b) => a - b);
    const indices: number[] = [];
    const nodes: NodeId[] = [];
    const slab = this.#slab;
    const words = this.#words;
    const size = this.#pageBytes;
    const nWords = size >>> 2;
    for (const p of pages) {
      const at = dirty.get(p) as number;
      const old = this.#committedPage(p).words;
      const w0 = at >>> 2;
      let same = true;
      for (let w = 0; w < nWords; w++) {
        if (words[w0 + w] !== old[w]) {
          same = false;
          break;
        }
      }
      if (same) continue;
      const bytes = slab.subarray(at, at + size);
      indices.push(p);
      nodes.push(this.#shape.pageDepth === 0 ? store.leaf(bytes) : store.wide(bytes));
      this.#pages.delete(p);
    }
    if (indices.length > 0) {
      if (this.#pageLevel === 0) this._tree.rootNode = nodes[0] as NodeId;
      else this._tree.setNodesAtDepth(this.#pageLevel, indices, nodes);
    }
    if (this.#length !== this.#committedLength) {
      this._tree.setChunk(3, lengthChunk(this.#length));
      this.#committedLength = this.#length;
    }
    dirty.clear();
    this.#top = 0;
    if (slab.length > 1 << 20) {
      this.#slab = new Uint8Array(this.#pageBytes * 8); // do not hold an epoch's worth of pages
      this.#dv = new DataView(this.#slab.buffer);
      this.#words = new Int32Array(this.#slab.buffer);
    }
  }

  _respawn(tree: Tree): this {
    return new PackedSequenceView(this.type, tree, this.#elem, this.#limit, this.#isList, this.#shape, this.#committedLength) as this;
  }
}
