/**
 * Preimages of the wide byte fields of packed records. A record (a small
 * fixed container stored as one core wide leaf, e.g. a Validator) holds one
 * chunk per field; a field wider than a chunk (a 48-byte pubkey) is there
 * only as its root. This table maps such roots back to their bytes, so a
 * record's value can be read back from the tree alone.
 *
 * Ownership: one table per (store, byte length), dropped with its store. An
 * entry lives as long as some live node of that store holds its root: a
 * record's wide leaf (at a position registered by its schema) or a leaf (a
 * record field cut out of its record). Entries nobody refers to are dropped
 * by `compact`, which runs before the table would grow once it holds twice
 * the entries it kept at its last compaction (amortised: a full scan per
 * doubling), so the table tracks the live records, not every root ever seen.
 * Compaction runs only in `reserve`, before a caller inserts, never between
 * an insert and the node that holds the root being made.
 *
 * Storage: entries back to back in two typed arrays (32-byte key, then the
 * value), sized exactly by bulk `reserve`s, found through an open-addressing
 * index of 4-byte entry numbers (load ≤ 0.5): 80 bytes per 48-byte pubkey
 * plus 8–16 bytes of index, against ~160 for the slot-per-entry table this
 * replaced.
 *
 * Invariant: `get(root)` returns bytes whose merkle root is `root`, or null;
 * every root held at a registered position of a live node has its entry.
 * @module
 */
import type { NodeStore } from '@ssztree/core';

const MAX_LOAD = 0.5;
/** Smallest index (slots) and smallest dense storage (entries). */
const MIN_CAP = 1024;
const MIN_ROOM = 256;
/** Below this many entries a table is never compacted (a scan would cost more than it saves). */
const MIN_COMPACT = 1024;

/** Record positions (inner depth, chunk index) holding roots of `length`-byte fields, by length. */
const positions = new Map<number, Map<string, readonly [number, number]>>();

/** Registers that records of inner depth `depth` hold a `length`-byte field's root at chunk `index` (schemas call this once). */
export function registerPreimagePosition(length: number, depth: number, index: number): void {
  let m = positions.get(length);
  if (m === undefined) positions.set(length, (m = new Map()));
  m.set(`${depth}:${index}`, [depth, index]);
}

export class PreimageTable {
  /** Open-addressing index: entry number + 1 per slot (0 = empty), load ≤ MAX_LOAD. */
  #index = new Int32Array(MIN_CAP);
  /** Entries back to back: key (a root) and value (its preimage) of entry e at 32e and valueLength·e. */
  #keys: Uint8Array;
  #vals: Uint8Array;
  #count = 0;
  /** Entries kept by the last compaction (the next one waits until the table holds twice as many). */
  #kept = 0;

  constructor(
    readonly valueLength: number,
    private readonly store: NodeStore,
  ) {
    this.#keys = new Uint8Array(32 * MIN_ROOM);
    this.#vals = new Uint8Array(valueLength * MIN_ROOM);
  }

  get size(): number {
    return this.#count;
  }

  /** Bytes of typed-array storage held. */
  get byteLength(): number {
    return this.#index.byteLength + this.#keys.byteLength + this.#vals.byteLength;
  }

  /** The index slot holding `root[off, +32)`, or the empty slot where it would go. */
  #slot(root: Uint8Array, off: number): number {
    const index = this.#index;
    const mask = index.length - 1;
    // SHA-256 output: the first four bytes are as good a hash as any.
    let i = (root[off]! | (root[off + 1]! << 8) | (root[off + 2]! << 16) | (root[off + 3]! << 24)) & mask;
    const keys = this.#keys;
    for (;;) {
      const e = index[i]!;
      if (e === 0) return i;
      let same = true;
      const k = 32 * (e - 1);
      for (let b = 0; b < 32; b++) {
        if (keys[k + b] !== root[off + b]) {
          same = false;
          break;
        }
      }
      if (same) return i;
      i = (i + 1) & mask;
    }
  }

  /**
   * Room for `n` more entries without growing mid-batch (sized exactly, so a
   * bulk build leaves no slack); compacts first when growing is due and the
   * table has doubled since its last compaction. Callers insert right after,
   * and make the nodes holding the roots before their next `reserve`.
   */
  reserve(n: number): void {
    const need = this.#count + n;
    if (need <= this.#keys.length / 32 && need <= MAX_LOAD * this.#index.length) return;
    if (this.#count >= MIN_COMPACT && this.#count >= 2 * this.#kept) this.compact(n);
    this.#ensure(this.#count + n, this.#count + n);
  }

  /** Records `value[valueOff, +valueLength)` as the preimage of `root[rootOff, +32)`. */
  set(root: Uint8Array, rootOff: number, value: Uint8Array, valueOff: number): void {
    const i = this.#slot(root, rootOff);
    if (this.#index[i] !== 0) return;
    const e = this.#count;
    if (e + 1 > this.#keys.length / 32 || e + 1 > MAX_LOAD * this.#index.length) {
      // An insert nobody reserved for: grow by half, re-find the slot in the new index.
      this.#ensure(e + 1, Math.ceil(1.5 * (e + 1)));
      this.set(root, rootOff, value, valueOff);
      return;
    }
    this.#index[i] = e + 1;
    this.#count = e + 1;
    // Byte loops, not subarray copies: no view object per entry (bulk builds insert 2^18 at a time).
    const keys = this.#keys;
    for (let b = 0, k = 32 * e; b < 32; b++) keys[k + b] = root[rootOff + b]!;
    const n = this.valueLength;
    const vals = this.#vals;
    for (let b = 0, v = n * e; b < n; b++) vals[v + b] = value[valueOff + b]!;
  }

  /**
   * `set` for bulk inserts from DataViews the caller keeps across calls
   * (`root` over `rootBytes`, `value` over its bytes): word moves instead of
   * byte loops, no view made per entry (measured in a 2^18 Validator build
   * from bytes: the inserts took 69 ms instead of 90 ms).
   */
  setFromViews(rootBytes: Uint8Array, root: DataView, rootOff: number, value: DataView, valueOff: number): void {
    const i = this.#slot(rootBytes, rootOff);
    if (this.#index[i] !== 0) return;
    const e = this.#count;
    if (e + 1 > this.#keys.length / 32 || e + 1 > MAX_LOAD * this.#index.length) {
      this.#ensure(e + 1, Math.ceil(1.5 * (e + 1)));
      this.setFromViews(rootBytes, root, rootOff, value, valueOff);
      return;
    }
    this.#index[i] = e + 1;
    this.#count = e + 1;
    const kv = this.#keysView();
    for (let b = 0, k = 32 * e; b < 32; b += 4) kv.setUint32(k + b, root.getUint32(rootOff + b, true), true);
    const n = this.valueLength;
    const vv = this.#valuesView();
    const v = n * e;
    let b = 0;
    for (; b + 4 <= n; b += 4) vv.setUint32(v + b, value.getUint32(valueOff + b, true), true);
    for (; b < n; b++) vv.setUint8(v + b, value.getUint8(valueOff + b));
  }

  /** A DataView of the key storage, remade when the storage is replaced. */
  #keysView(): DataView {
    const keys = this.#keys;
    let v = this.#kView;
    if (v === null || v.buffer !== keys.buffer) v = this.#kView = new DataView(keys.buffer, keys.byteOffset, keys.byteLength);
    return v;
  }
  #kView: DataView | null = null;

  /** A DataView of the value storage, remade when the storage is replaced. */
  #valuesView(): DataView {
    const vals = this.#vals;
    let v = this.#valsView;
    if (v === null || v.buffer !== vals.buffer) v = this.#valsView = new DataView(vals.buffer, vals.byteOffset, vals.byteLength);
    return v;
  }

  /** A copy of the preimage of `root[rootOff, +32)`, or null if unknown. */
  get(root: Uint8Array, rootOff: number): Uint8Array | null {
    const e = this.#index[this.#slot(root, rootOff)]!;
    if (e === 0) return null;
    const n = this.valueLength;
    return this.#vals.slice(n * (e - 1), n * e);
  }

  /** Copies the preimage of `root[rootOff, +32)` to `out` at `offset` a word at a time; false if unknown (no allocation). */
  copyInto(root: Uint8Array, rootOff: number, out: DataView, offset: number): boolean {
    const e = this.#index[this.#slot(root, rootOff)]!;
    if (e === 0) return false;
    const n = this.valueLength;
    const v = this.#valuesView();
    const s = n * (e - 1);
    let b = 0;
    for (; b + 4 <= n; b += 4) out.setUint32(offset + b, v.getUint32(s + b, true), true);
    for (; b < n; b++) out.setUint8(offset + b, v.getUint8(s + b));
    return true;
  }
  /** A DataView of the value storage, remade when the storage is replaced. */
  #valsView: DataView | null = null;

  /**
   * Keeps only the entries whose root some live node of the store holds (at
   * a registered record position, or as a leaf), in storage sized for them
   * plus `room` more.
   */
  compact(room = 0): void {
    const live = new Uint8Array(this.#count);
    const mark = (bytes: Uint8Array, offset: number): void => {
      const e = this.#index[this.#slot(bytes, offset)]!;
      if (e !== 0) live[e - 1] = 1;
    };
    this.store.forEachLiveChunk(0, 0, mark);
    for (const [depth, index] of positions.get(this.valueLength)?.values() ?? []) this.store.forEachLiveChunk(depth, index, mark);
    const n = this.valueLength;
    const keys = this.#keys;
    const vals = this.#vals;
    let kept = 0;
    for (let e = 0; e < this.#count; e++) {
      if (live[e] === 0) continue;
      // Entries move down in place (kept ≤ e): the dense arrays stay in order.
      if (kept !== e) {
        keys.copyWithin(32 * kept, 32 * e, 32 * e + 32);
        vals.copyWithin(n * kept, n * e, n * e + n);
      }
      kept++;
    }
    this.#count = kept;
    this.#kept = kept;
    this.#resize(Math.max(MIN_ROOM, kept + room));
  }

  /** Storage for at least `need` entries (dense arrays of `room` ≥ need when they must grow). */
  #ensure(need: number, room: number): void {
    if (need > this.#keys.length / 32) this.#resize(room);
    else if (need > MAX_LOAD * this.#index.length) this.#reindex(need);
  }

  /**
   * Dense arrays of `room` entries (≥ count), and an index to match. Arrays
   * big enough and less than 4× too big are kept: a build that drops and
   * remakes the same number of records reuses them instead of allocating
   * (large buffers trigger full GCs).
   */
  #resize(room: number): void {
    const have = this.#keys.length / 32;
    if (room <= have && 4 * room > have) {
      this.#reindex(Math.max(room, this.#count));
      return;
    }
    const n = this.valueLength;
    const keys = new Uint8Array(32 * room);
    keys.set(this.#keys.subarray(0, 32 * this.#count));
    const vals = new Uint8Array(n * room);
    vals.set(this.#vals.subarray(0, n * this.#count));
    this.#keys = keys;
    this.#vals = vals;
    this.#reindex(room);
  }

  /** A fresh index with room for `need` entries at load ≤ MAX_LOAD (and no larger than that needs). */
  #reindex(need: number): void {
    let cap = MIN_CAP;
    while (need > MAX_LOAD * cap) cap *= 2;
    if (cap === this.#index.length) this.#index.fill(0);
    else this.#index = new Int32Array(cap);
    for (let e = 0; e < this.#count; e++) this.#index[this.#slot(this.#keys, 32 * e)] = e + 1;
  }
}

/** Each store's tables by value length; a table goes when its store does. */
const byStore = new WeakMap<NodeStore, Map<number, PreimageTable>>();
/** Every table made, for `preimageBytes` (weak: a dropped store's tables are not kept alive here). */
let all: WeakRef<PreimageTable>[] = [];
/** Length of `all` after its last pruning. */
let pruned = 0;

/** The table of `store` for byte fields of `length` bytes. */
export function preimages(store: NodeStore, length: number): PreimageTable {
  let m = byStore.get(store);
  if (m === undefined) byStore.set(store, (m = new Map()));
  let t = m.get(length);
  if (t === undefined) {
    t = new PreimageTable(length, store);
    m.set(length, t);
    all.push(new WeakRef(t));
    // Drop the refs of collected tables now and then, so a program making many stores keeps this list short.
    if (all.length > 2 * pruned + 64) pruned = (all = all.filter((r) => r.deref() !== undefined)).length;
  }
  return t;
}

/** Drops the preimages of `store` that no live node refers to (normally automatic; for tests and memory reports). */
export function compactPreimages(store: NodeStore): void {
  for (const t of byStore.get(store)?.values() ?? []) t.compact();
}

/** Bytes held by the preimage tables of `store`, or of every store still alive. */
export function preimageBytes(store?: NodeStore): number {
  let n = 0;
  if (store !== undefined) {
    for (const t of byStore.get(store)?.values() ?? []) n += t.byteLength;
    return n;
  }
  all = all.filter((r) => r.deref() !== undefined);
  pruned = all.length;
  for (const r of all) n += r.deref()?.byteLength ?? 0;
  return n;
}
