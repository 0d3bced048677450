/**
 * Container views make their per-field state (decoded values, pending
 * writes, child views) on first use, and list child views' tree handles are
 * registered for finalization only when they outlive the synchronous run
 * that made them. Random sequences of reads, writes, child-view writes,
 * wholesale replacements, clones, commits and disposes against a plain
 * model: every live view reads its own version, every kept version keeps
 * its value and root, and nothing leaks (the store empties at the end).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collectUntil } from './gc.js';
import { NodeStore } from '@ssztree/core';
import { byteVector, container, list, toHex, uint64 } from '../src/index.js';
import { sampleValidator, Validator } from './validatorSchema.js';

/** Every node of `store` is freed once what was dropped is collected: nothing leaked. */
async function expectStoreEmpties(store: NodeStore): Promise<void> {
  const empty = await collectUntil(() => {
    store.collect();
    return store.stats().nodes === 0;
  });
  expect(empty).toBe(true);
}

const Inner = container({ x: uint64, y: byteVector(32) }, 'Inner');
const Outer = container({ a: uint64, inner: Inner, root: byteVector(32), nums: list(uint64, 16), b: uint64 }, 'Outer');
const Vals = list(Validator, 64);

type OuterValue = ReturnType<typeof Outer.defaultValue>;
type ValsValue = ReturnType<typeof Vals.defaultValue>;

const validator = sampleValidator;

type OuterOp =
  | { t: 'a' | 'b' | 'x'; v: number }
  | { t: 'root'; v: number }
  | { t: 'inner'; v: number }
  | { t: 'push'; v: number }
  | { t: 'read' }
  | { t: 'commit' }
  | { t: 'clone' }
  | { t: 'switch'; k: number }
  | { t: 'dispose'; k: number };

const outerOp: fc.Arbitrary<OuterOp> = fc.oneof(
  fc.record({ t: fc.constantFrom('a' as const, 'b' as const, 'x' as const), v: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ t: fc.constantFrom('root' as const, 'inner' as const, 'push' as const), v: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ t: fc.constantFrom('read' as const, 'commit' as const, 'clone' as const) }),
  fc.record({ t: fc.constantFrom('switch' as const, 'dispose' as const), k: fc.nat() }),
);

function copyOuter(m: OuterValue): OuterValue {
  return Outer.clone(m);
}

function checkOuter(view: ReturnType<typeof Outer.toView>, m: OuterValue): void {
  expect(view.a).toBe(m.a);
  expect(view.b).toBe(m.b);
  expect(view.inner.x).toBe(m.inner.x);
  expect(toHex(view.inner.y)).toBe(toHex(m.inner.y));
  expect(toHex(view.root)).toBe(toHex(m.root));
  expect(view.nums.length).toBe(m.nums.length);
  expect(toHex(view.hashTreeRoot())).toBe(toHex(Outer.hashTreeRoot(m)));
}

type ValsOp = { t: 'bal' | 'slash' | 'exit'; i: number; v: number } | { t: 'read'; i: number } | { t: 'commit' } | { t: 'clone' } | { t: 'switch'; k: number } | { t: 'dispose'; k: number };

const valsOp: fc.Arbitrary<ValsOp> = fc.oneof(
  fc.record({ t: fc.constantFrom('bal' as const, 'slash' as const, 'exit' as const), i: fc.nat(), v: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ t: fc.constant('read' as const), i: fc.nat() }),
  fc.record({ t: fc.constantFrom('commit' as const, 'clone' as const) }),
  fc.record({ t: fc.constantFrom('switch' as const, 'dispose' as const), k: fc.nat() }),
);

describe('container views with lazily made field state', () => {
  it('random field, child and replacement writes, clones, commits and disposes match a plain model', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(outerOp, { minLength: 1, maxLength: 40 }), fc.boolean(), async (ops, yieldBetween) => {
        const store = new NodeStore();
        const start = Outer.defaultValue();
        const versions = [{ view: Outer.toView(start, store), model: copyOuter(start) }];
        let cur = 0;
        for (const op of ops) {
          const { view, model } = versions[cur]!;
          switch (op.t) {
            case 'a':
            case 'b':
              view[op.t] = BigInt(op.v);
              model[op.t] = BigInt(op.v);
              break;
            case 'x':
              view.inner.x = BigInt(op.v);
              model.inner.x = BigInt(op.v);
              break;
            case 'root':
              view.root = new Uint8Array(32).fill(op.v);
              model.root = new Uint8Array(32).fill(op.v);
              break;
            case 'inner': {
              const value = { x: BigInt(op.v + 10), y: new Uint8Array(32).fill(op.v + 1) };
              view.setField('inner', value);
              model.inner = Inner.clone(value);
              break;
            }
            case 'push':
              if (model.nums.length < 16) {
                view.nums.push(BigInt(op.v));
                model.nums = BigUint64Array.from([...model.nums, BigInt(op.v)]) as typeof model.nums;
              }
              break;
            case 'read':
              checkOuter(view, model);
              break;
            case 'commit':
              view.commit().dispose();
              break;
            case 'clone':
              versions.push({ view: view.clone(), model: copyOuter(model) });
              break;
            case 'switch':
              cur = op.k % versions.length;
              break;
            case 'dispose':
              if (versions.length > 1) {
                const k = op.k % versions.length;
                versions.splice(k, 1)[0]!.view.dispose();
                cur = Math.min(cur, versions.length - 1);
              }
              break;
          }
          if (yieldBetween) await new Promise((resolve) => setImmediate(resolve));
        }
        for (const { view, model } of versions) checkOuter(view, model);
        for (const { view } of versions) view.dispose();
        await expectStoreEmpties(store);
      }),
      { numRuns: 60 },
    );
  });

  it('validator views (record pair halves) written one field at a time match a plain model across versions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.array(valsOp, { minLength: 1, maxLength: 40 }), async (n, ops) => {
        const store = new NodeStore();
        const start: ValsValue = Array.from({ length: n }, (_, i) => validator(i));
        const versions = [{ view: Vals.toView(start, store), model: Vals.clone(start) }];
        let cur = 0;
        for (const op of ops) {
          const { view, model } = versions[cur]!;
          switch (op.t) {
            case 'bal':
              view.get(op.i % n).effective_balance = BigInt(op.v);
              model[op.i % n]!.effective_balance = BigInt(op.v);
              break;
            case 'slash':
              view.get(op.i % n).slashed = op.v % 2 === 1;
              model[op.i % n]!.slashed = op.v % 2 === 1;
              break;
            case 'exit': {
              const v = view.get(op.i % n);
              v.exit_epoch = BigInt(op.v);
              v.withdrawable_epoch = BigInt(op.v + 256);
              model[op.i % n]!.exit_epoch = BigInt(op.v);
              model[op.i % n]!.withdrawable_epoch = BigInt(op.v + 256);
              break;
            }
            case 'read': {
              const v = view.get(op.i % n);
              const m = model[op.i % n]!;
              expect(v.effective_balance).toBe(m.effective_balance);
              expect(v.slashed).toBe(m.slashed);
              expect(v.exit_epoch).toBe(m.exit_epoch);
              expect(toHex(v.pubkey)).toBe(toHex(m.pubkey));
              break;
            }
            case 'commit':
              view.commit().dispose();
              break;
            case 'clone':
              versions.push({ view: view.clone(), model: Vals.clone(model) });
              break;
            case 'switch':
              cur = op.k % versions.length;
              break;
            case 'dispose':
              if (versions.length > 1) {
                versions.splice(op.k % versions.length, 1)[0]!.view.dispose();
                cur = Math.min(cur, versions.length - 1);
              }
              break;
          }
        }
        for (const { view, model } of versions) {
          expect(toHex(view.hashTreeRoot())).toBe(toHex(Vals.hashTreeRoot(model)));
          expect(Vals.equals(view.toValue(), model)).toBe(true);
        }
        for (const { view } of versions) view.dispose();
        await expectStoreEmpties(store);
      }),
      { numRuns: 60 },
    );
  });

  it('child views dropped without dispose or commit are released once collected', async () => {
    const store = new NodeStore();
    const drop = (): void => {
      const view = Vals.toView(Array.from({ length: 8 }, (_, i) => validator(i)), store);
      for (let i = 0; i < 8; i++) view.get(i).effective_balance = BigInt(i);
      // Neither committed nor disposed: the list, its child views and their handles are left to the collector.
    };
    drop();
    await expectStoreEmpties(store);
  });
});
