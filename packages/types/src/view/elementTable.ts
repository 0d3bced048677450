/**
 * The element table of composite sequence views (composite.ts): for each
 * element position, the node there (or the record pair one level above
 * holding it), so `get(i)` reaches element i without walking ~41 levels
 * from the list's root — the composite counterpart of packed views' page
 * table (packedPages.ts). An epoch reads 1/64 of 2^20 validators at random;
 * each walk missed the cache on most of the lower ~20 levels.
 *
 * Entries are id + 1 of the element's node, -(id + 1) of the record pair
 * one level above holding it as a half (core `collectElements`), 0 when not
 * known. A table is a `base` array plus two small maps whose entries win
 * over the base's: `overlay` by position, and `pairs` by pair index for
 * pairs a commit wrote whole (one entry stands for both halves; an
 * overlay entry written later wins over it). A base handed to a clone
 * (`hint`) is frozen: several versions read it, none writes it again; each
 * version's own changes go to its maps, which are folded into a private
 * copy of the base once they hold more than OVERLAY_MAX entries. So a
 * block's clone costs a copy of at most OVERLAY_MAX map entries, not of the
 * 2^20-entry array, and the 4 MB copy comes once every ~32 blocks (a block
 * writes 128 pairs: one entry each).
 *
 * A list built from bytes starts with its table known (`fromRuns`): the
 * build put its records in runs of consecutive slots (core `RecordRuns`),
 * so the entry of position i is computed from the run holding it (a binary
 * search of a few hundred runs) until the first fold, which writes the
 * runs into the base (one sequential pass, no walk).
 *
 * Invariant (kept by the owning view): every nonzero entry is the node at
 * that position of the view's committed tree (or the pair above it), held
 * by that tree. Lookups of the committed tree add entries; a commit drops
 * every position it writes and its pair neighbour (writing half of a pair
 * makes a new pair).
 * @module
 */
import type { NodeId } from '@ssztree/core';
import { takeIds, tracked } from './tableIds.js';

/**
 * Map entries before they are folded into a private base: a block on a
 * clone adds one per written pair (128), so a clone copies at most a few
 * thousand map entries (~0.1 ms) and the base (4 MB at 2^20) is copied
 * about once per 32 blocks. Keyed by position, with both halves' entries,
 * the copy came every 16 blocks: ~13 ms a fold in a profile of 300
 * realistic blocks on a busy machine, the largest part of the validators'
 * commit on average.
 */
export const OVERLAY_MAX = 4096;

/**
 * Walks before the table is filled in one walk of the element level (counted
 * across a lineage of clones, each taking its version's count over) (`store.collectPaired`, ~10–20 ms at 2^20 elements on the shared
 * machine, profile-realistic): max(FILL_MIN_WALKS, length / FILL_DIVISOR),
 * about where the walks so far cost as much as the one walk. A block on a
 * clone that reads a few hundred elements never pays for it.
 */
export const FILL_MIN_WALKS = 256;
export const FILL_DIVISOR = 256;
/** Lists shorter than this are never filled (their walks are short). */
export const FILL_MIN_LENGTH = 4096;

/** Where a build put a list's records (core `RecordRuns`), searchable: record k is at slot slots[r] + k - firsts[r] of the run r holding it. */
interface Placed {
  /** First record index of each run, ascending. */
  readonly firsts: Int32Array;
  readonly slots: Int32Array;
  readonly kind: number;
  /** Records are pairs: position i is in record i >>> 1 (the entry negative). */
  readonly paired: boolean;
  /** Records placed (positions past them are not known). */
  readonly count: number;
}

/** The table of a list whose records a build placed in `runs` (core `RecordRuns`: first slot and length of each run, in order, of node kind `kind`), or null when none were. */
export function placedRecords(kind: number, runs: readonly number[], paired: boolean): Placed | null {
  if (kind < 0 || runs.length === 0) return null;
  const n = runs.length >>> 1;
  const firsts = new Int32Array(n);
  const slots = new Int32Array(n);
  let count = 0;
  for (let r = 0; r < n; r++) {
    firsts[r] = count;
    slots[r] = runs[2 * r]!;
    count += runs[2 * r + 1]!;
  }
  return { firsts, slots, kind, paired, count };
}

/** The entry of position i from the runs (0 past them). */
function placedEntry(placed: Placed, i: number): number {
  const k = placed.paired ? Math.floor(i / 2) : i;
  if (k >= placed.count) return 0;
  const firsts = placed.firsts;
  let lo = 0;
  let hi = firsts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (firsts[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  const id = ((placed.slots[lo]! + k - firsts[lo]!) << 4) | placed.kind;
  return placed.paired ? -(id + 1) : id + 1;
}

/**
 * Writes the entries of every placed position into `ids` (run by run: no
 * search; each run's span clipped to `ids` once, so the loops carry no
 * branch: the first fold of a table of 2^20 validators after a state load).
 */
function writePlaced(placed: Placed, ids: Int32Array): void {
  const n = placed.firsts.length;
  const kind = placed.kind;
  // Records of pairs stand for two positions each.
  const per = placed.paired ? 2 : 1;
  for (let r = 0; r < n; r++) {
    const first = placed.firsts[r]!;
    const end = Math.min(r + 1 < n ? placed.firsts[r + 1]! : placed.count, Math.ceil(ids.length / per));
    const slot = placed.slots[r]! - first;
    if (placed.paired) {
      writePairedRun(ids, first, Math.min(end, ids.length >>> 1), slot, kind);
      // An odd last position: the first half of the pair it starts.
      if (end > ids.length >>> 1 && end > first) ids[ids.length - 1] = -((((slot + end - 1) << 4) | kind) + 1);
    } else for (let k = first; k < end; k++) ids[k] = (((slot + k) << 4) | kind) + 1;
  }
}

/** ids[2k] = ids[2k + 1] = the pair entry of record slot + k, for k in [first, end). */
function writePairedRun(ids: Int32Array, first: number, end: number, slot: number, kind: number): void {
  for (let k = first; k < end; k++) {
    const v = -((((slot + k) << 4) | kind) + 1);
    ids[2 * k] = v;
    ids[2 * k + 1] = v;
  }
}

interface Base {
  ids: Int32Array;
  /** Set once the base is shared with a clone: never written again. */
  frozen: boolean;
  /** Filled by one walk of the level (then every position but those dropped since is known). */
  readonly complete: boolean;
}

/** What a clone's view takes over: valid only for the committed root it names. */
export interface ElementTableHint {
  readonly root: NodeId;
  readonly base: Base | null;
  readonly overlay: Map<number, number> | null;
  readonly pairs: Map<number, number> | null;
  /** The version's walks so far: a lineage of clones fills its table once its walks together would have paid for it. */
  readonly walks: number;
  readonly paired: boolean;
  readonly placed: Placed | null;
}

/** The hint a list view built from bytes takes (`_inherit`): the table of `placed`, valid for the list's root `root` as built. */
export function placedHint(root: NodeId, placed: Placed): ElementTableHint {
  return { root, base: null, overlay: null, pairs: null, walks: 0, paired: placed.paired, placed };
}

export class ElementTable {
  #base: Base | null = null;
  #overlay: Map<number, number> | null = null;
  /** Entries of pairs written whole, by pair index: the entry of both its positions unless the overlay has one. */
  #pairs: Map<number, number> | null = null;
  /** Where the build put the records (with no base yet: the base, once made, holds these entries). */
  #placed: Placed | null = null;
  /** Lookups that walked since the table was filled, in this version and the versions it was cloned from. */
  walks = 0;
  /** A lookup found a record pair above the element level: the next ones walk to the pair level first (one walk instead of two). */
  paired = false;

  /** The entry of position i (see the module comment), 0 when not known. */
  get(i: number): number {
    const overlay = this.#overlay;
    if (overlay !== null) {
      const v = overlay.get(i);
      if (v !== undefined) return v;
    }
    const pairs = this.#pairs;
    if (pairs !== null) {
      const v = pairs.get(Math.floor(i / 2));
      if (v !== undefined) return v;
    }
    const base = this.#base;
    if (base !== null) return i < base.ids.length ? base.ids[i]! : 0;
    return this.#placed !== null ? placedEntry(this.#placed, i) : 0;
  }

  /** Records entry `v` at position i (found by a lookup of the committed tree). */
  put(i: number, v: number, length: number): void {
    this.#write(i, v, length);
  }

  /** Records entry `v` at both positions of pair p (a pair a commit wrote whole: 2p and 2p + 1). */
  putPair(p: number, v: number, length: number): void {
    const base = this.#base;
    if (base !== null && !base.frozen && 2 * p + 1 < base.ids.length) {
      base.ids[2 * p] = v;
      base.ids[2 * p + 1] = v;
      return;
    }
    const pairs = (this.#pairs ??= new Map());
    pairs.set(p, v);
    // Older entries of its positions give way (an overlay entry wins over a pair's).
    this.#overlay?.delete(2 * p);
    this.#overlay?.delete(2 * p + 1);
    if (this.#size() > OVERLAY_MAX) this.#fold(length);
  }

  /** Entries in the maps. */
  #size(): number {
    return (this.#overlay?.size ?? 0) + (this.#pairs?.size ?? 0);
  }

  /**
   * Before `count` puts, pair puts or drops: when they would overflow the
   * maps, the table is folded into its private base first, so they go
   * straight into it (an epoch's commit puts ~16k written pairs: maps of
   * OVERLAY_MAX entries built only to be folded at once).
   */
  reserve(count: number, length: number): void {
    const base = this.#base;
    if (base !== null && !base.frozen) return;
    if (this.#size() + count > OVERLAY_MAX) this.#fold(length);
  }

  /** Forgets position i (written by a commit). */
  drop(i: number, length: number): void {
    if (this.get(i) !== 0) this.#write(i, 0, length);
  }

  #write(i: number, v: number, length: number): void {
    const base = this.#base;
    if (base !== null && !base.frozen && i < base.ids.length) {
      base.ids[i] = v;
      return;
    }
    const overlay = (this.#overlay ??= new Map());
    overlay.set(i, v);
    if (this.#size() > OVERLAY_MAX) this.#fold(length);
  }

  /** Folds the maps into a private base of at least `length` entries (pairs first: an overlay entry is newer than any pair's of its position). */
  #fold(length: number): void {
    const old = this.#base?.ids;
    const size = Math.max(length, old?.length ?? 0);
    // A recycled array (tableIds.ts) unless the list is short; the old base's copy writes every entry when as long.
    const ids = takeIds(size, old !== undefined && old.length === size);
    if (old !== undefined) ids.set(old);
    else if (this.#placed !== null) writePlaced(this.#placed, ids);
    for (const [p, v] of this.#pairs ?? []) {
      if (2 * p < ids.length) ids[2 * p] = v;
      if (2 * p + 1 < ids.length) ids[2 * p + 1] = v;
    }
    for (const [i, v] of this.#overlay ?? []) if (i < ids.length) ids[i] = v;
    this.#base = tracked({ ids, frozen: false, complete: this.#base?.complete ?? this.#placed !== null });
    this.#overlay = null;
    this.#pairs = null;
    this.#placed = null;
  }

  /** Replaces the table by the entries of one walk of the committed tree (`store.collectElements`); `entries` is the table's own from now on (recycled once its base is collected: tableIds.ts). */
  fill(entries: Int32Array): void {
    this.#base = tracked({ ids: entries, frozen: false, complete: true });
    this.#overlay = null;
    this.#pairs = null;
    this.#placed = null;
    this.walks = 0;
  }

  /** Starts the table of a list just built from where the build placed its records (`placedRecords`): every placed position known. */
  fromRuns(placed: Placed): void {
    this.#base = null;
    this.#overlay = null;
    this.#pairs = null;
    this.#placed = placed;
    this.walks = 0;
    this.paired = placed.paired;
  }

  /** Whether the table was filled by one walk (here or in a version it was taken over from): it is not filled again. */
  get filled(): boolean {
    return this.#base?.complete === true || this.#placed !== null;
  }

  /** A snapshot for a clone of committed root `root`: the base is frozen from now on, the maps copied. */
  hint(root: NodeId): ElementTableHint | undefined {
    if (this.#base === null && this.#overlay === null && this.#pairs === null && this.#placed === null && this.walks === 0) return undefined;
    if (this.#base !== null) this.#base.frozen = true;
    const overlay = this.#overlay === null ? null : new Map(this.#overlay);
    const pairs = this.#pairs === null ? null : new Map(this.#pairs);
    return { root, base: this.#base, overlay, pairs, walks: this.walks, paired: this.paired, placed: this.#placed };
  }

  /** Takes a hint over (the caller checked it names its own committed root; a hint is taken once: its maps become this table's). */
  inherit(hint: ElementTableHint): void {
    this.#base = hint.base;
    this.#overlay = hint.overlay;
    this.#pairs = hint.pairs;
    this.#placed = hint.placed;
    this.walks = hint.walks;
    this.paired = hint.paired;
  }
}
