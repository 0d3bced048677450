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
 * Storage: open addressing in typed arrays (32-byte key + value per slot,
 * load ≤ 0.7): about 115 bytes per 48-byte pubkey.
 *
 * Invariant: `get(root)` returns bytes whose merkle root is `root`, or null;
 * every root held at a registered position of a live node has its entry.
 * @module
 */
import type { NodeStore } from '@ssztree/core';

const MAX_LOAD = 0.7;
const MIN_CAP = 1024;
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
  #cap = MIN_CAP;
  #count = 0;
  #keys = new Uint8Array(32 * MIN_CAP);
  #vals: Uint8Array;
  #used = new Uint8Array(MIN_CAP);
  /** Entries kept by the last compaction (the next one waits until the table holds twice as many). */
  #kept = 0;

  constructor(
    readonly valueLength: number,
    private readonly store: NodeStore,
  ) {
    this.#vals = new Uint8Array(valueLength * MIN_CAP);
  }

  get size(): number {
    return this.#count;
  }

  /** Bytes of typed-array storage held. */
  get byteLength(): number {
    return this.#keys.byteLength + this.#vals.byteLength + this.#used.byteLength;
  }

  #slot(root: Uint8Array, off: number): number {
    const mask = this.#cap - 1;
    // SHA-256 output: the first four bytes are as good a hash as any.
    let i = (root[off]! | (root[off + 1]! << 8) | (root[off + 2]! << 16) | (root[off + 3]! << 24)) & mask;
    const keys = this.#keys;
    for (;;) {
      if (this.#used[i] === 0) return i;
      let same = true;
      const k = 32 * i;
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
   * Room for `n` more entries without growing mid-batch; compacts first when
   * growing is due and the table has doubled since its last compaction.
   * Callers insert right after, and make the nodes holding the roots before
   * their next `reserve`.
   */
  reserve(n: number): void {
    if ((this.#count + n) / this.#cap <= MAX_LOAD) return;
    if (this.#count >= MIN_COMPACT && this.#count >= 2 * this.#kept) this.compact(n);
    let cap = this.#cap;
    while ((this.#count + n) / cap > MAX_LOAD) cap *= 2;
    if (cap !== this.#cap) this.#rehash(cap, null);
  }

  /** Records `value[valueOff, +valueLength)` as the preimage of `root[rootOff, +32)`. */
  set(root: Uint8Array, rootOff: number, value: Uint8Array, valueOff: number): void {
    if ((this.#count + 1) / this.#cap > MAX_LOAD) this.#rehash(this.#cap * 2, null);
    const i = this.#slot(root, rootOff);
    if (this.#used[i] === 1) return;
    this.#used[i] = 1;
    this.#count++;
    // Byte loops, not subarray copies: no view object per entry (bulk builds insert 2^18 at a time).
    const keys = this.#keys;
    for (let b = 0, k = 32 * i; b < 32; b++) keys[k + b] = root[rootOff + b]!;
    const n = this.valueLength;
    const vals = this.#vals;
    for (let b = 0, v = n * i; b < n; b++) vals[v + b] = value[valueOff + b]!;
  }

  /** A copy of the preimage of `root[rootOff, +32)`, or null if unknown. */
  get(root: Uint8Array, rootOff: number): Uint8Array | null {
    const i = this.#slot(root, rootOff);
    if (this.#used[i] === 0) return null;
    const n = this.valueLength;
    return this.#vals.slice(n * i, n * i + n);
  }

  /**
   * Keeps only the entries whose root some live node of the store holds (at
   * a registered record position, or as a leaf), in a table sized for them
   * plus `room` more.
   */
  compact(room = 0): void {
    const live = new Uint8Array(this.#cap);
    const mark = (bytes: Uint8Array, offset: number): void => {
      const i = this.#slot(bytes, offset);
      if (this.#used[i] === 1) live[i] = 1;
    };
    this.store.forEachLiveChunk(0, 0, mark);
    for (const [depth, index] of positions.get(this.valueLength)?.values() ?? []) this.store.forEachLiveChunk(depth, index, mark);
    let kept = 0;
    for (let i = 0; i < this.#cap; i++) kept += live[i]!;
    let cap = MIN_CAP;
    while ((kept + room) / cap > MAX_LOAD) cap *= 2;
    this.#rehash(cap, live);
    this.#kept = kept;
  }

  /** Moves the entries (all, or those marked in `keep`) into fresh storage of `cap` slots. */
  #rehash(cap: number, keep: Uint8Array | null): void {
    const oldKeys = this.#keys;
    const oldVals = this.#vals;
    const oldUsed = this.#used;
    const oldCap = this.#cap;
    const n = this.valueLength;
    this.#cap = cap;
    this.#keys = new Uint8Array(32 * cap);
    this.#vals = new Uint8Array(n * cap);
    this.#used = new Uint8Array(cap);
    this.#count = 0;
    for (let j = 0; j < oldCap; j++) {
      if (oldUsed[j] === 0 || (keep !== null && keep[j] === 0)) continue;
      const i = this.#slot(oldKeys, 32 * j);
      this.#used[i] = 1;
      this.#count++;
      this.#keys.set(oldKeys.subarray(32 * j, 32 * j + 32), 32 * i);
      this.#vals.set(oldVals.subarray(n * j, n * j + n), n * i);
    }
  }
}

/** Each store's tables by value length; a table goes when its store does. */
const byStore = new WeakMap<NodeStore, Map<number, PreimageTable>>();
/** Every table made, for `preimageBytes` (weak: a dropped store's tables are not kept alive here). */
let all: WeakRef<PreimageTable>[] = [];

/** The table of `store` for byte fields of `length` bytes. */
export function preimages(store: NodeStore, length: number): PreimageTable {
  let m = byStore.get(store);
  if (m === undefined) byStore.set(store, (m = new Map()));
  let t = m.get(length);
  if (t === undefined) {
    t = new PreimageTable(length, store);
    m.set(length, t);
    all.push(new WeakRef(t));
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
  for (const r of all) n += r.deref()?.byteLength ?? 0;
  return n;
}
