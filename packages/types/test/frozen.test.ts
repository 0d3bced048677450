/**
 * The frozen-value root cache (`src/frozen/`): roots through the cache equal
 * a full root of an unfrozen copy after every step of random immer recipes
 * over consensus states of several forks; the trust rule (shallowly frozen
 * values, unfrozen values, typed arrays); errors; and that dropping a value
 * lets its cached tree be collected.
 */
import { defaultStore } from '@ssztree/core';
import fc from 'fast-check';
import { produce as immerProduce } from 'immer';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { boolean, byteVector, container, list, SszError, toHex, uint64, uint64Number, vector } from '../src/index.js';
import type { AnyType } from '../src/type.js';
import { minimal } from '../src/consensus/index.js';
import { cachedTree } from '../src/frozen/cache.js';
import { recipeOf, stepsArb } from './immerRecipes.js';

const Validator = container(
  { pubkey: byteVector(48), effective_balance: uint64, slashed: boolean, exit_epoch: uint64 },
  'Validator',
);
const State = container({ slot: uint64, validators: list(Validator, 2 ** 40), balances: list(uint64Number, 2 ** 40), roots: vector(byteVector(32), 4) }, 'State');
type StateValue = ReturnType<typeof State.defaultValue>;

function validator(i: number) {
  return { pubkey: new Uint8Array(48).fill(i & 255), effective_balance: BigInt(i), slashed: false, exit_epoch: 2n ** 64n - 1n };
}
function state(n: number): StateValue {
  return {
    slot: 1n,
    validators: Array.from({ length: n }, (_, i) => validator(i)),
    balances: Array.from({ length: n }, (_, i) => i * 3),
    roots: Array.from({ length: 4 }, (_, i) => new Uint8Array(32).fill(i)),
  };
}

/** The reference: a full root of an unfrozen, independently decoded copy. */
function reference(type: AnyType, value: unknown): string {
  const copy = type.deserialize(type.serialize(value));
  return toHex(type.hashTreeRoot(copy));
}

const FORKS = ['phase0', 'altair', 'capella', 'electra'] as const;

describe('frozen-value root cache', () => {
  for (const fork of FORKS) {
    it(`${fork}: random immer recipes, the cached root equals a full root after every step`, () => {
      const T = minimal[fork].BeaconState as unknown as AnyType;
      fc.assert(
        fc.property(stepsArb(25), (steps) => {
          let value = immerProduce(T.defaultValue() as object, () => {});
          expect(toHex(T.hashTreeRoot(value))).toBe(reference(T, value));
          for (const ops of steps) {
            value = immerProduce(value, recipeOf(T, ops) as never);
            expect(toHex(T.hashTreeRoot(value))).toBe(reference(T, value));
            // Trusted (immer freezes deeply; typed arrays count as values), so now cached.
            expect(cachedTree(T, value)).toBeDefined();
          }
        }),
        { numRuns: 12 },
      );
    });
  }

  it('diffs against a sibling (fork) just as correctly, in any interleaving', () => {
    const base = immerProduce(state(50), () => {});
    State.hashTreeRoot(base);
    const a = immerProduce(base, (d) => {
      d.validators[3]!.slashed = true;
      d.balances.push(7);
    });
    const b = immerProduce(base, (d) => {
      d.validators.length = 10;
      d.balances[40] = 1;
      d.roots[2] = new Uint8Array(32).fill(9);
    });
    for (const v of [a, b, a, base, b]) expect(toHex(State.hashTreeRoot(v))).toBe(reference(State, v));
  });

  it('is incremental: one changed validator and balance cost a path of nodes, not a rebuild', () => {
    let v = immerProduce(state(4096), () => {});
    State.hashTreeRoot(v);
    v = immerProduce(v, (d) => {
      d.slot = 2n;
    });
    State.hashTreeRoot(v); // warm: the fields' own cache entries exist now
    const before = defaultStore.stats().nodes;
    v = immerProduce(v, (d) => {
      d.validators[1234]!.slashed = true;
      d.balances[999] = 5;
    });
    expect(toHex(State.hashTreeRoot(v))).toBe(reference(State, v));
    // Two paths of ~41 branches below the state, a record and a leaf: far fewer than 4096 records.
    expect(defaultStore.stats().nodes - before).toBeLessThan(200);
  });

  it('two chains of one schema interleaved: each value is diffed against its own chain, not the other head', () => {
    const s0 = immerProduce(state(4096), () => {});
    State.hashTreeRoot(s0);
    let a = s0;
    let b = s0;
    for (let step = 0; step < 6; step++) {
      // Chain b drifts far from chain a: 100 validators replaced per step (new objects).
      b = immerProduce(b, (d) => {
        for (let k = 0; k < 100; k++) d.validators[(step * 100 + k) % 4096]!.exit_epoch = BigInt(step);
        d.balances[step] = step;
      });
      expect(toHex(State.hashTreeRoot(b))).toBe(reference(State, b));
      a = immerProduce(a, (d) => {
        d.validators[4000 - step]!.slashed = true;
        d.balances[2000 + step] = 7;
      });
      const before = defaultStore.stats().nodes;
      expect(toHex(State.hashTreeRoot(a))).toBe(reference(State, a));
      // Diffed against its own parent: two paths of nodes. Against b's head it would rebuild 100 × step validators.
      if (step > 0) expect(defaultStore.stats().nodes - before).toBeLessThan(200);
    }
    // A third chain evicts the oldest head; its values stay correct (diffed against whatever heads remain).
    let c = immerProduce(s0, (d) => {
      d.slot = 9n;
    });
    for (let step = 0; step < 3; step++) {
      c = immerProduce(c, (d) => {
        d.validators[step]!.slashed = true;
      });
      expect(toHex(State.hashTreeRoot(c))).toBe(reference(State, c));
      a = immerProduce(a, (d) => {
        d.balances[step] = 1;
      });
      expect(toHex(State.hashTreeRoot(a))).toBe(reference(State, a));
    }
  });

  it('big lists: a value reverted to its grandparent\'s is seen (the snapshot is patched, not stale)', () => {
    const v0 = immerProduce(state(5000), () => {});
    State.hashTreeRoot(v0);
    const v1 = immerProduce(v0, (d) => {
      d.validators[5]!.slashed = true;
      d.balances[7] = 1;
      d.balances.push(9);
    });
    expect(toHex(State.hashTreeRoot(v1))).toBe(reference(State, v1));
    const v2 = immerProduce(v1, (d) => {
      d.validators[5] = v0.validators[5]! as never; // the very same object as two steps back
      d.balances[7] = v0.balances[7]!;
      d.balances.pop();
    });
    expect(toHex(State.hashTreeRoot(v2))).toBe(reference(State, v2));
    expect(toHex(State.hashTreeRoot(v2))).toBe(toHex(State.hashTreeRoot(v0)));
  });

  it('big lists (read through snapshots): random sets, pushes, pops and truncations keep the cached root right', () => {
    // 4100+ elements: past SNAPSHOT_MIN, so every diff after the first reads the base's patched snapshot.
    const op = fc.oneof(
      fc.record({ k: fc.constant('set' as const), i: fc.nat(40), v: fc.nat(3) }), // few slots, few values: reverts are common
      fc.record({ k: fc.constant('push' as const), n: fc.integer({ min: 1, max: 9 }) }),
      fc.record({ k: fc.constant('pop' as const), n: fc.integer({ min: 1, max: 9 }) }),
    );
    const start = immerProduce(state(4100), () => {});
    State.hashTreeRoot(start);
    fc.assert(
      fc.property(fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }), (steps) => {
        let v = start;
        for (const ops of steps) {
          v = immerProduce(v, (d) => {
            for (const o of ops) {
              const len = d.validators.length;
              if (o.k === 'set' && len > 0) {
                d.validators[o.i % len]!.effective_balance = BigInt(o.v);
                d.balances[o.i % len] = o.v;
              } else if (o.k === 'push') {
                for (let j = 0; j < o.n; j++) {
                  d.validators.push(validator(len + j));
                  d.balances.push(len + j);
                }
              } else if (o.k === 'pop') {
                d.validators.length = Math.max(0, len - o.n);
                d.balances.length = Math.max(0, len - o.n);
              }
            }
          });
          expect(toHex(State.hashTreeRoot(v))).toBe(reference(State, v));
        }
      }),
      { numRuns: 12 },
    );
  });

  it('never caches unfrozen values: in-place mutation between roots is seen', () => {
    const v = state(20);
    const r1 = toHex(State.hashTreeRoot(v));
    v.validators[5]!.slashed = true;
    v.balances[19] = 12345;
    const r2 = toHex(State.hashTreeRoot(v));
    expect(r2).not.toBe(r1);
    expect(r2).toBe(reference(State, v));
    expect(cachedTree(State, v)).toBeUndefined();
  });

  it('shallow Object.freeze is not trusted: unfrozen elements inside a frozen array are re-read', () => {
    const v = state(20);
    const validators = Object.freeze(v.validators) as StateValue['validators']; // elements stay unfrozen
    const s1 = Object.freeze({ ...v, validators, balances: Object.freeze(v.balances) }) as StateValue;
    const r1 = toHex(State.hashTreeRoot(s1));
    expect(r1).toBe(reference(State, s1));
    expect(cachedTree(State, s1)).toBeUndefined();
    validators[4]!.exit_epoch = 5n; // allowed: the element is not frozen
    expect(toHex(State.hashTreeRoot(s1))).toBe(reference(State, s1));
    expect(toHex(State.hashTreeRoot(s1))).not.toBe(r1);
    const s2 = Object.freeze({ ...s1, slot: 2n }) as StateValue; // shares the frozen array with s1
    expect(toHex(State.hashTreeRoot(s2))).toBe(reference(State, s2));
    // Deeply frozen after all: now trusted and cached.
    const s3 = immerProduce(s2, () => {});
    expect(s3).toBe(s2);
    const deep = immerProduce(state(20), (d) => {
      d.slot = 3n;
    });
    State.hashTreeRoot(deep);
    expect(cachedTree(State, deep)).toBeDefined();
  });

  it('a frozen value that is invalid throws SszError with the type path, on the diff path too', () => {
    const base = immerProduce(state(8), () => {});
    State.hashTreeRoot(base);
    const bad = immerProduce(base, (d) => {
      (d.validators[3] as any).slashed = 2;
    });
    let err: unknown = null;
    try {
      State.hashTreeRoot(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SszError);
    expect((err as SszError).typePath).toBe('State.validators[3].slashed');
    const tooLong = immerProduce(base, (d) => {
      d.roots.push(new Uint8Array(32));
    });
    expect(() => State.hashTreeRoot(tooLong)).toThrow(SszError);
    const badBalance = immerProduce(base, (d) => {
      d.balances[2] = -1;
    });
    let err2: unknown = null;
    try {
      State.hashTreeRoot(badBalance);
    } catch (e) {
      err2 = e;
    }
    expect((err2 as SszError).typePath).toBe('State.balances[2]');
    // The base and its cache entry are untouched by the failures.
    expect(toHex(State.hashTreeRoot(base))).toBe(reference(State, base));
  });

  it('a frozen value with a cycle outside its fields is hashed, not a stack overflow', () => {
    const v = state(4) as StateValue & { self?: unknown };
    v.self = v;
    const frozen = immerProduce(v, () => {}); // immer freezes deeply, through the cycle
    expect(toHex(State.hashTreeRoot(frozen))).toBe(reference(State, frozen));
  });

  it('a value shrunk to nothing and regrown keeps the zero padding right', () => {
    let v = immerProduce(state(70), () => {});
    for (const n of [69, 3, 0, 1, 33, 32, 0]) {
      v = immerProduce(v, (d) => {
        d.validators.length = Math.min(d.validators.length, n);
        d.balances.length = Math.min(d.balances.length, n);
        while (d.validators.length < n) d.validators.push(validator(d.validators.length + 100));
        while (d.balances.length < n) d.balances.push(d.balances.length + 100);
      });
      expect(toHex(State.hashTreeRoot(v))).toBe(reference(State, v));
    }
  });

  it('dropping a value lets its cached tree be collected and its nodes freed', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
    const settle = async () => {
      for (let i = 0; i < 4; i++) {
        gc();
        await turn();
        await turn();
      }
    };
    await settle();
    const before = defaultStore.stats().nodes;
    let collected = 0;
    const registry = new FinalizationRegistry(() => collected++);
    (() => {
      let v = immerProduce(state(2000), () => {});
      State.hashTreeRoot(v);
      for (let i = 0; i < 5; i++) {
        v = immerProduce(v, (d) => {
          d.validators[i]!.slashed = true;
          d.balances[i * 100] = 1;
        });
        State.hashTreeRoot(v);
        registry.register(cachedTree(State, v)!, i);
      }
    })();
    for (let i = 0; i < 30 && collected < 5; i++) await settle();
    expect(collected).toBe(5);
    await settle();
    // Every node the values' trees held is back in the store's free lists.
    expect(defaultStore.stats().nodes - before).toBeLessThan(64);
  });
});
