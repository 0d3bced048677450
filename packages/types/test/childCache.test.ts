/**
 * The child cache of composite views (src/view/childCache.ts) against a
 * `Map` model: random sets and gets over small, strided and large indices
 * on two caches at once, cleared at random — a cleared large cache hands
 * its table to the next one that grows. Fails if a table were shared by
 * two caches or handed on with entries left in it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChildCache } from '../src/view/childCache.js';

type Op = { t: 'set'; c: number; i: number; v: number } | { t: 'get'; c: number; i: number } | { t: 'clear'; c: number } | { t: 'fill'; c: number; n: number; stride: number; from: number };

const index = fc.oneof(fc.nat(5000), fc.nat(1 << 20), fc.constant(2 ** 40 - 1), fc.integer({ min: 2 ** 31, max: 2 ** 33 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('set' as const), c: fc.nat(1), i: index, v: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('get' as const), c: fc.nat(1), i: index }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('clear' as const), c: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('fill' as const), c: fc.nat(1), n: fc.integer({ min: 100, max: 3000 }), stride: fc.constantFrom(1, 2, 1024, 4096, 65536), from: fc.nat(1000) }) },
);

describe('child cache', () => {
  it('two caches read as their Map models through sets, clears and tables handed on', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const caches = [new ChildCache<number>(), new ChildCache<number>()];
        const models = [new Map<number, number>(), new Map<number, number>()];
        const check = (c: number): void => {
          const seen: number[] = [];
          caches[c]!.forEach((v) => seen.push(v));
          expect(seen.sort()).toEqual([...models[c]!.values()].sort());
          for (const [i, v] of models[c]!) expect(caches[c]!.get(i)).toBe(v);
        };
        for (const o of ops) {
          const cache = caches[o.c]!;
          const model = models[o.c]!;
          if (o.t === 'set') {
            cache.set(o.i, o.v);
            model.set(o.i, o.v);
          } else if (o.t === 'get') expect(cache.get(o.i)).toBe(model.get(o.i));
          else if (o.t === 'clear') {
            cache.clear();
            model.clear();
            check(o.c);
          } else {
            for (let k = 0; k < o.n; k++) {
              cache.set(o.from + k * o.stride, k);
              model.set(o.from + k * o.stride, k);
            }
            check(o.c);
          }
        }
        check(0);
        check(1);
        // The indices never set read as absent in either.
        for (const c of [0, 1]) for (const i of [3, 4097, 2 ** 32 + 1]) if (!models[c]!.has(i)) expect(caches[c]!.get(i)).toBeUndefined();
      }),
      { numRuns: 150 },
    );
  });

  it('a cleared large cache leaves nothing behind for the next one that grows', () => {
    const a = new ChildCache<string>();
    for (let i = 0; i < 20000; i++) a.set(i * 3, `a${i}`);
    expect(a.get(300)).toBe('a100');
    a.clear();
    expect(a.get(300)).toBeUndefined();
    const b = new ChildCache<string>();
    for (let i = 0; i < 20000; i++) b.set(i * 5 + 1, `b${i}`);
    for (let i = 0; i < 20000; i++) expect(b.get(i * 3)).toBe((i * 3) % 5 === 1 ? `b${(i * 3 - 1) / 5}` : undefined);
    let n = 0;
    b.forEach(() => n++);
    expect(n).toBe(20000);
    // a, grown again while b holds the kept table, gets another: both read as their own.
    for (let i = 0; i < 20000; i++) a.set(i * 3, `a${i}`);
    expect(a.get(300)).toBe('a100');
    expect(b.get(501)).toBe('b100');
  });
});
