/**
 * The child views a composite sequence view caches by index (composite.ts
 * `#children`) until its next commit. A few hundred live in a `Map`; past
 * that they move to an open-addressing table (keys in a Float64Array,
 * views in an array of the same capacity) that is kept when the cache is
 * cleared and handed to the next cache that grows: an epoch caches 16384
 * of 2^20 validators, and a `Map` of 16384 entries is rebuilt in fresh
 * large objects each time (`clear` drops its tables): ~200 of the writes'
 * ~218 page faults of fresh memory, ~14 µs each on the benchmark's VM
 * (bench/realistic-epochs.ts --parts).
 *
 * Invariant: the kept table is held by at most one cache (taken, it is
 * forgotten until given back), and is given back empty — every key zero,
 * every view slot undefined — so no cache sees another's children and no
 * view outlives the cache that held it through the table.
 * @module
 */

/** Entries from which a cache moves from its `Map` to a table. */
const TABLE_MIN = 512;
/** Tables larger than this (slots) are not kept: 2^16 slots are 1 MiB of keys and views. */
const KEPT_SLOTS = 1 << 16;

interface Slots<V> {
  /** Index + 1 of each slot's entry, 0 for an empty slot. */
  keys: Float64Array;
  views: (V | undefined)[];
  /** Slots - 1 (slots a power of two). */
  mask: number;
  /** 32 - log2(slots): the hash's high bits pick the slot. */
  shift: number;
}

let kept: Slots<unknown> | null = null;

function newSlots<V>(slots: number): Slots<V> {
  const size = 2 ** Math.ceil(Math.log2(slots));
  return { keys: new Float64Array(size), views: new Array<V | undefined>(size).fill(undefined), mask: size - 1, shift: 32 - Math.log2(size) };
}

/** A table of at least `slots` slots: the kept one when it is free and large enough. */
function takeSlots<V>(slots: number): Slots<V> {
  const k = kept;
  if (k !== null && k.keys.length >= slots) {
    kept = null;
    return k as Slots<V>;
  }
  return newSlots(slots);
}

/** Empties `t` and keeps it for the next cache (the larger of it and the one kept, up to KEPT_SLOTS). */
function giveSlots(t: Slots<unknown>): void {
  t.keys.fill(0);
  t.views.fill(undefined);
  if (t.keys.length <= KEPT_SLOTS && (kept === null || kept.keys.length < t.keys.length)) kept = t;
}

/** Slot of key `key` (index + 1) in `t`: where it is, or the empty slot where it would go. */
function slotOf(t: Slots<unknown>, key: number): number {
  const keys = t.keys;
  const mask = t.mask;
  // Fibonacci hashing of the index's low 32 bits, high bits of the product (strided indices spread too; keys compared whole).
  let s = Math.imul(key | 0, 0x9e3779b1) >>> t.shift;
  for (;;) {
    const k = keys[s]!;
    if (k === key || k === 0) return s;
    s = (s + 1) & mask;
  }
}

export class ChildCache<V> {
  #map = new Map<number, V>();
  #table: Slots<V> | null = null;
  #count = 0;

  get(i: number): V | undefined {
    const t = this.#table;
    if (t === null) return this.#map.get(i);
    return t.views[slotOf(t, i + 1)];
  }

  set(i: number, view: V): void {
    let t = this.#table;
    if (t === null) {
      this.#map.set(i, view);
      if (this.#map.size < TABLE_MIN) return;
      t = this.#grow(4 * TABLE_MIN);
    }
    const s = slotOf(t, i + 1);
    if (t.keys[s] === 0) {
      t.keys[s] = i + 1;
      // At most half full: short probes.
      if (++this.#count > t.mask >>> 1) t = this.#grow(2 * (t.mask + 1));
      else {
        t.views[s] = view;
        return;
      }
    }
    t.views[slotOf(t, i + 1)] = view;
  }

  /** Moves every entry (the map's or the table's) into a table of `slots` slots or more. */
  #grow(slots: number): Slots<V> {
    const old = this.#table;
    const t = takeSlots<V>(slots);
    let count = 0;
    const put = (key: number, view: V | undefined): void => {
      const s = slotOf(t, key);
      t.keys[s] = key;
      t.views[s] = view;
      count++;
    };
    if (old === null) {
      for (const [i, view] of this.#map) put(i + 1, view);
      this.#map.clear();
    } else {
      for (let s = 0; s <= old.mask; s++) if (old.keys[s] !== 0) put(old.keys[s]!, old.views[s]);
      giveSlots(old as Slots<unknown>);
    }
    this.#table = t;
    this.#count = count;
    return t;
  }

  /** Calls `f` on every cached view. */
  forEach(f: (view: V) => void): void {
    const t = this.#table;
    if (t === null) {
      for (const view of this.#map.values()) f(view);
      return;
    }
    for (let s = 0; s <= t.mask; s++) if (t.keys[s] !== 0) f(t.views[s] as V);
  }

  clear(): void {
    this.#map.clear();
    const t = this.#table;
    if (t === null) return;
    this.#table = null;
    this.#count = 0;
    giveSlots(t as Slots<unknown>);
  }
}
