/**
 * `Pool.allocRuns` on fragmented pages: pages scanned to the end without a
 * stretch worth a run are skipped by later large requests, until a slot of
 * theirs is recycled; runs never hand out a live slot.
 */
import { describe, expect, it } from 'vitest';
import { FLAG_FREE, Pool } from '../src/nodes/pool.js';

function freeSlot(pool: Pool, slot: number): void {
  pool.setState(slot, FLAG_FREE);
  pool.live--;
  pool.recycle(slot);
}

function slotsOf(runs: number[]): number[] {
  const out: number[] = [];
  for (let r = 0; r < runs.length; r += 2) for (let i = 0; i < runs[r + 1]!; i++) out.push(runs[r]! + i);
  return out;
}

describe('Pool.allocRuns on fragmented pages', () => {
  it('skips pages already scanned out, rescans them once a slot is recycled, never hands out a live slot', () => {
    const pool = new Pool({ kind: 1, pageShift: 8, links: true });
    const live = new Set<number>();
    for (let i = 0; i < 3 * 256; i++) {
      const slot = pool.alloc();
      pool.setState(slot, 0);
      live.add(slot);
    }
    // Every other slot free: pages half free, no stretch longer than one slot.
    for (let s = 1; s < 3 * 256; s += 2) {
      freeSlot(pool, s);
      live.delete(s);
    }
    expect(pool.scannedOut.slice(0, 3)).toEqual([0, 0, 0]);
    const first = slotsOf(pool.allocRuns(100));
    for (const s of first) pool.setState(s, 0);
    // No stretch to take: fresh slots past the top, and the three pages are marked scanned out.
    expect(Math.min(...first)).toBeGreaterThanOrEqual(3 * 256);
    expect(pool.scannedOut.slice(0, 3)).toEqual([1, 1, 1]);
    for (const s of first) {
      expect(live.has(s)).toBe(false);
      live.add(s);
    }
    // Free slots 0..127 of page 1 (their odd neighbours are free already): a stretch of 128, and page 1 unmarked.
    for (let s = 256; s < 384; s += 2) {
      freeSlot(pool, s);
      live.delete(s);
    }
    expect(pool.scannedOut.slice(0, 3)).toEqual([1, 0, 1]);
    const second = slotsOf(pool.allocRuns(100));
    expect(second.every((s) => s >= 256 && s < 384)).toBe(true);
    for (const s of second) {
      expect(live.has(s)).toBe(false);
      live.add(s);
      pool.setState(s, 0);
    }
    // Any recycled slot clears its page's mark.
    freeSlot(pool, 4);
    expect(pool.scannedOut[0]).toBe(0);
  });
});

describe('Pool free stack after bulk runs', () => {
  it('drops the entries of pages a bulk request took whole, keeps every recyclable slot listed, never hands out a live slot', () => {
    // 2^13 slots in 32 pages, freed in a scattered order (as a free cascade leaves them), then a build takes 31 pages whole.
    const pool = new Pool({ kind: 1, pageShift: 8, links: true });
    const total = 32 * 256;
    for (let i = 0; i < total; i++) pool.setState(pool.alloc(), 0);
    const order = Array.from({ length: total }, (_, i) => (i * 4099) % total);
    for (const s of order) freeSlot(pool, s);
    expect(pool.free.length).toBe(total);
    const taken = slotsOf(pool.allocRuns(31 * 256));
    for (const s of taken) pool.setState(s, 0);
    // Only the untouched page's 256 entries are left: nothing stale for single allocs to pop.
    expect(pool.recyclable).toBe(256);
    expect(pool.free.length).toBe(256);
    const live = new Set(taken);
    for (let i = 0; i < 256; i++) {
      const s = pool.alloc();
      expect(live.has(s)).toBe(false);
      live.add(s);
      pool.setState(s, 0);
    }
    // The recyclable slots are used up before any fresh slot.
    expect(pool.top).toBe(total);
    expect(pool.alloc()).toBe(total);
  });
});
