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
 * known. A table is a `base` array plus a small
 * `overlay` map whose entries win over the base's. A base handed to a
 * clone (`hint`) is frozen: several versions read it, none writes it
 * again; each version's own changes go to its overlay, which is folded
 * into a private copy of the base once it grows past OVERLAY_MAX entries.
 * So a block's clone costs a copy of at most OVERLAY_MAX map entries, not
 * of the 2^20-entry array.
 *
 * Invariant (kept by the owning view): every nonzero entry is the node at
 * that position of the view's committed tree (or the pair above it), held
 * by that tree. Lookups of the committed tree add entries; a commit drops
 * every position it writes and its pair neighbour (writing half of a pair
 * makes a new pair).
 * @module
 */
import type { NodeId } from '@ssztree/core';

/**
 * Overlay entries before they are folded into a private base: a block
 * adds ~400 (128 validators read and dropped, and their neighbours), so a
 * clone copies at most a few thousand map entries (~0.1 ms) and the base
 * (4 MB at 2^20) is copied about once per ten blocks.
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
  /** The version's walks so far: a lineage of clones fills its table once its walks together would have paid for it. */
  readonly walks: number;
  readonly paired: boolean;
}

export class ElementTable {
  #base: Base | null = null;
  #overlay: Map<number, number> | null = null;
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
    const base = this.#base;
    return base !== null && i < base.ids.length ? base.ids[i]! : 0;
  }

  /** Records entry `v` at position i (found by a lookup of the committed tree). */
  put(i: number, v: number, length: number): void {
    this.#write(i, v, length);
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
    if (overlay.size > OVERLAY_MAX) this.#fold(length);
  }

  /** Folds the overlay into a private base of at least `length` entries. */
  #fold(length: number): void {
    const old = this.#base?.ids;
    const ids = new Int32Array(Math.max(length, old?.length ?? 0));
    if (old !== undefined) ids.set(old);
    for (const [i, v] of this.#overlay ?? []) if (i < ids.length) ids[i] = v;
    this.#base = { ids, frozen: false, complete: this.#base?.complete ?? false };
    this.#overlay = null;
  }

  /** Replaces the table by the entries of one walk of the committed tree (`store.collectElements`). */
  fill(entries: Int32Array): void {
    this.#base = { ids: entries, frozen: false, complete: true };
    this.#overlay = null;
    this.walks = 0;
  }

  /** Whether the table was filled by one walk (here or in a version it was taken over from): it is not filled again. */
  get filled(): boolean {
    return this.#base?.complete === true;
  }

  /** A snapshot for a clone of committed root `root`: the base is frozen from now on, the overlay copied. */
  hint(root: NodeId): ElementTableHint | undefined {
    if (this.#base === null && this.#overlay === null && this.walks === 0) return undefined;
    if (this.#base !== null) this.#base.frozen = true;
    return { root, base: this.#base, overlay: this.#overlay === null ? null : new Map(this.#overlay), walks: this.walks, paired: this.paired };
  }

  /** Takes a hint over (the caller checked it names its own committed root; a hint is taken once: its overlay becomes this table's). */
  inherit(hint: ElementTableHint): void {
    this.#base = hint.base;
    this.#overlay = hint.overlay;
    this.walks = hint.walks;
    this.paired = hint.paired;
  }
}
