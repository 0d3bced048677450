/**
 * `Pool.allocRuns` on fragmented pages: a page scanned to the end keeps the
 * longest stretch left there as a bound, and requests larger than it (large
 * ones: MIN_RUN; small ones: the whole request) skip it until a slot of it
 * is recycled; runs never hand out a live slot. `Pool.allocIds` (many slots
 * off the free stack in one loop) hands out each free slot once, however
 * often it is listed, and gives every slot back when it throws.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError } from '../src/errors.js';
import { FLAG_FREE, Pool } from '../src/nodes/pool.js';

function freeSlot(pool: Pool, slot: number): void {
  pool.setState(slot, FLAG_FREE);
  pool.live--;
  pool.recycle(slot);
}

/**
 * The per-page bounds the scans rely on, against the slots themselves: `scanFrom` at or before the first
 * recyclable slot, `longFrom` at or before the start of every stretch of 64 (MIN_RUN) or more, and
 * `longestFree` at least the longest even-aligned stretch.
 */
function checkBounds(pool: Pool): void {
  for (let p = 0; p < pool.freeInPage.length; p++) {
    const base = p * pool.pageSize;
    const end = Math.min(pool.pageSize, pool.top - base);
    let first = -1;
    let longest = 0;
    for (let off = 0; off < end; ) {
      if (pool.state(base + off) !== FLAG_FREE) {
        off++;
        continue;
      }
      let len = 1;
      while (off + len < end && pool.state(base + off + len) === FLAG_FREE) len++;
      if (first < 0) first = off;
      if (len >= 64) expect(pool.longFrom[p]!).toBeLessThanOrEqual(off);
      longest = Math.max(longest, len - (off & 1));
      off += len;
    }
    if (first >= 0) expect(pool.scanFrom[p]!).toBeLessThanOrEqual(first);
    expect(pool.longestFree[p]!).toBeGreaterThanOrEqual(longest);
  }
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
    expect(pool.longestFree.slice(0, 3)).toEqual([256, 256, 256]);
    const first = slotsOf(pool.allocRuns(100));
    for (const s of first) pool.setState(s, 0);
    // No stretch to take: fresh slots past the top, and the three pages are known to hold no even-aligned stretch.
    expect(Math.min(...first)).toBeGreaterThanOrEqual(3 * 256);
    expect(pool.longestFree.slice(0, 3)).toEqual([0, 0, 0]);
    for (const s of first) {
      expect(live.has(s)).toBe(false);
      live.add(s);
    }
    // Free slots 0..127 of page 1 (their odd neighbours are free already): a stretch of 128, and page 1 unmarked.
    for (let s = 256; s < 384; s += 2) {
      freeSlot(pool, s);
      live.delete(s);
    }
    expect(pool.longestFree.slice(0, 3)).toEqual([0, 256, 0]);
    const second = slotsOf(pool.allocRuns(100));
    expect(second.every((s) => s >= 256 && s < 384)).toBe(true);
    for (const s of second) {
      expect(live.has(s)).toBe(false);
      live.add(s);
      pool.setState(s, 0);
    }
    // Any recycled slot makes its page's bound unknown again.
    freeSlot(pool, 4);
    expect(pool.longestFree[0]).toBe(256);
  });

  it('small requests skip pages whose longest stretch is too short for them, and take one that fits whole', () => {
    const pool = new Pool({ kind: 1, pageShift: 8, links: true });
    const live = new Set<number>();
    for (let i = 0; i < 4 * 256; i++) {
      const slot = pool.alloc();
      pool.setState(slot, 0);
      live.add(slot);
    }
    // Pages 0–2: stretches of 2 free slots (aligned) every 4 slots; page 3: one stretch of 8 at slots 800..807.
    for (let s = 0; s < 3 * 256; s += 4) {
      for (const t of [s, s + 1]) {
        freeSlot(pool, t);
        live.delete(t);
      }
    }
    for (let t = 800; t < 808; t++) {
      freeSlot(pool, t);
      live.delete(t);
    }
    // A request for 6: no page 0–2 stretch holds it whole; page 3's does.
    const six = pool.allocRuns(6);
    expect(six).toEqual([800, 6]);
    for (const s of slotsOf(six)) {
      expect(live.has(s)).toBe(false);
      live.add(s);
      pool.setState(s, 0);
    }
    // Pages 0–2 were scanned to the end once: their bound is the stretch of 2 they hold.
    expect(pool.longestFree.slice(0, 3)).toEqual([2, 2, 2]);
    // A request for 2 fits there (bound 2 ≥ 2), one for 4 skips them for page 3's last two and fresh slots.
    const two = pool.allocRuns(2);
    expect(two).toEqual([0, 2]);
    for (const s of slotsOf(two)) {
      live.add(s);
      pool.setState(s, 0);
    }
    const four = slotsOf(pool.allocRuns(4));
    for (const s of four) {
      expect(live.has(s)).toBe(false);
      expect(s >= 3 * 256).toBe(true);
      live.add(s);
      pool.setState(s, 0);
    }
  });
});

describe('Pool.allocRuns past a fragmented front', () => {
  it('large requests start where a long stretch can start; the short stretches they pass stay known to small ones', () => {
    const pool = new Pool({ kind: 1, pageShift: 8, links: true });
    for (let i = 0; i < 256; i++) pool.setState(pool.alloc(), 0);
    // Stretches of three free slots at 0, 8, …, 56 among live ones, and a free tail [64, 256): the page stays half free.
    const front: number[] = [];
    for (let s = 0; s < 64; s += 8) front.push(s, s + 1, s + 2);
    for (const s of [...front, ...Array.from({ length: 192 }, (_, i) => 64 + i)]) freeSlot(pool, s);
    // The first large request walks the front to the tail and takes its first 64 slots; the tail's rest is where the next starts.
    expect(pool.allocRuns(64)).toEqual([64, 64]);
    for (let s = 64; s < 128; s++) pool.setState(s, 0);
    expect(pool.longFrom[0]).toBe(128);
    expect(pool.scanFrom[0]).toBe(0);
    expect(pool.allocRuns(128)).toEqual([128, 128]);
    for (let s = 128; s < 256; s++) pool.setState(s, 0);
    // That scan skipped the front: a small request still finds its stretches there, not fresh slots past the top.
    expect(pool.allocRuns(2)).toEqual([0, 2]);
    expect(pool.top).toBe(256);
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

describe('Pool runs and single slots, random sequences', () => {
  it('never hands out a live slot or one outside its run rules; the counts match the slots', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant('one' as const) }),
            fc.record({ kind: fc.constant('runs' as const), count: fc.integer({ min: 2, max: 700 }) }),
            fc.record({ kind: fc.constant('free' as const), seed: fc.nat(), count: fc.integer({ min: 1, max: 400 }) }),
            fc.record({ kind: fc.constant('ids' as const), count: fc.integer({ min: 1, max: 700 }), back: fc.nat({ max: 50 }) }),
          ),
          { minLength: 1, maxLength: 60 },
        ),
        (ops) => {
          const pool = new Pool({ kind: 1, pageShift: 8, links: true });
          const live: number[] = [];
          const isLive = new Set<number>();
          const hand = (s: number) => {
            expect(isLive.has(s)).toBe(false);
            expect(pool.state(s) === FLAG_FREE || s >= pool.top - 1 || pool.state(s) === 0).toBe(true);
            pool.setState(s, 0);
            isLive.add(s);
            live.push(s);
          };
          for (const op of ops) {
            if (op.kind === 'one') hand(pool.alloc());
            else if (op.kind === 'runs') {
              const runs = pool.allocRuns(op.count);
              let total = 0;
              for (let r = 0; r < runs.length; r += 2) {
                const start = runs[r]!;
                const len = runs[r + 1]!;
                expect(start % 2).toBe(0);
                if (r + 2 < runs.length) expect(len % 2).toBe(0);
                expect(start >>> 8).toBe((start + len - 1) >>> 8);
                total += len;
              }
              expect(total).toBe(op.count);
              for (const s of slotsOf(runs)) hand(s);
            } else if (op.kind === 'ids') {
              // Claimed as taken (state 0); the last `back` of them given back at once.
              const out = new Int32Array(op.count + 2).fill(-1);
              pool.allocIds(out, 1, op.count + 1);
              expect(out[0]).toBe(-1);
              expect(out[op.count + 1]).toBe(-1);
              const keep = Math.max(0, op.count - op.back);
              pool.giveBack(out, 1 + keep, op.count + 1);
              for (let i = 1; i <= keep; i++) {
                expect(out[i]! & 15).toBe(1);
                expect(pool.state(out[i]! >>> 4)).toBe(0);
                hand(out[i]! >>> 4);
              }
            } else {
              let x = op.seed | 1;
              for (let k = 0; k < op.count && live.length > 0; k++) {
                x = (x * 1103515245 + 12345) >>> 0;
                const j = x % live.length;
                const s = live[j]!;
                live[j] = live[live.length - 1]!;
                live.pop();
                isLive.delete(s);
                freeSlot(pool, s);
              }
            }
            expect(pool.live).toBe(isLive.size);
            let free = 0;
            for (let s = 0; s < pool.top; s++) if (pool.state(s) === FLAG_FREE) free++;
            expect(pool.recyclable).toBe(free);
            checkBounds(pool);
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('Pool.allocIds', () => {
  it('hands out each free slot once when it is listed twice, the most recently freed first, then grows', () => {
    const pool = new Pool({ kind: 1, pageShift: 8, links: true });
    for (let i = 0; i < 512; i++) pool.setState(pool.alloc(), 0);
    for (let s = 0; s < 256; s++) freeSlot(pool, s);
    // A bulk request takes page 0 whole (its stack entries go stale), which is freed again: every slot listed twice.
    for (const s of slotsOf(pool.allocRuns(256))) pool.setState(s, 0);
    for (let s = 255; s >= 0; s--) freeSlot(pool, s);
    expect(pool.free.length).toBeGreaterThan(pool.recyclable);
    const out = new Int32Array(300);
    pool.allocIds(out, 0, 300);
    const slots = Array.from(out, (id) => id >>> 4);
    expect(slots.slice(0, 256)).toEqual(Array.from({ length: 256 }, (_, i) => i));
    expect(slots.slice(256)).toEqual(Array.from({ length: 44 }, (_, i) => 512 + i));
    expect(new Set(slots).size).toBe(300);
    expect(pool.recyclable).toBe(0);
    expect(pool.live).toBe(556);
  });

  it('gives every slot back when the pool cannot grow', () => {
    const pool = new Pool({ kind: 1, pageShift: 8, links: true });
    for (let i = 0; i < 256; i++) pool.setState(pool.alloc(), 0);
    for (let s = 0; s < 256; s += 2) freeSlot(pool, s);
    pool.alloc = () => {
      throw new CoreError('STORE_FULL', 'test');
    };
    const out = new Int32Array(200);
    expect(() => pool.allocIds(out, 0, 200)).toThrow(CoreError);
    expect(pool.live).toBe(128);
    expect(pool.recyclable).toBe(128);
    for (let s = 0; s < 256; s++) expect(pool.state(s)).toBe(s % 2 === 0 ? FLAG_FREE : 0);
    // All 128 can be taken again.
    pool.allocIds(out, 0, 128);
    expect(new Set(Array.from(out.subarray(0, 128), (id) => id >>> 4)).size).toBe(128);
  });
});
