/**
 * Writes through half views (a list of Validators stored as record pairs:
 * `get(i)` reads half a pair in place) against a plain model: a half view's
 * only written field is held on the view (`_oneField`) until a second field
 * or the commit needs the per-field array; the list lists its written
 * children in an array, each index committed once with the view written
 * last (a `set` over a written child, a write to a child a `set` replaced).
 * Every version read back matches the model, bytes and root, also when a
 * child committed by a commit that threw is written again before the retry.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NodeStore, Tree } from '@ssztree/core';
import { byteList, container, list, toHex, uint64 } from '../src/index.js';
import { sampleValidator, Validator } from './validatorSchema.js';

const Vals = list(Validator, 64);
type V = ReturnType<typeof Validator.defaultValue>;
const N = 16;

type Op =
  | { t: 'bal' | 'exit'; i: number; v: number }
  | { t: 'slash'; i: number }
  | { t: 'read'; i: number }
  | { t: 'set'; i: number; v: number }
  | { t: 'stale'; i: number; v: number }
  | { t: 'commit' }
  | { t: 'clone' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constantFrom('bal' as const, 'exit' as const), i: fc.nat(N - 1), v: fc.nat(3) }),
  fc.record({ t: fc.constant('slash' as const), i: fc.nat(N - 1) }),
  fc.record({ t: fc.constant('read' as const), i: fc.nat(N - 1) }),
  fc.record({ t: fc.constantFrom('set' as const, 'stale' as const), i: fc.nat(N - 1), v: fc.nat(3) }),
  fc.constant({ t: 'commit' as const }),
  fc.constant({ t: 'clone' as const }),
);

describe('half view writes', () => {
  it('reads as half views of record pairs (the path these tests exercise)', () => {
    const store = new NodeStore();
    const start = Array.from({ length: N }, (_, i) => sampleValidator(i));
    const view = Vals.deserializeToView(Vals.serialize(start), store);
    expect(view.get(3)._pairOf()).toBeGreaterThanOrEqual(0);
    view.get(3).effective_balance = 7n;
    expect(view.get(3).effective_balance).toBe(7n);
    view.get(3).exit_epoch = 9n; // a second field: the per-field array takes the first
    expect(view.get(3).effective_balance).toBe(7n);
    expect(view.get(3).exit_epoch).toBe(9n);
    view.get(4).effective_balance = 32_000_000_000n; // the committed value: no change
    view.get(5).effective_balance = 1n;
    view.get(5).effective_balance = 32_000_000_000n; // written back: the root is unchanged there
    const model = start.map((v) => Validator.clone(v));
    model[3]!.effective_balance = 7n;
    model[3]!.exit_epoch = 9n;
    expect(view.hashTreeRoot()).toEqual(Vals.hashTreeRoot(model));
    expect(view.toValue()).toEqual(model);
  });

  it('a child that commits itself between two writes is committed once by the list', () => {
    // The child turns clean at its own commit and notifies the list again at its next write.
    const store = new NodeStore();
    const start = Array.from({ length: N }, (_, i) => sampleValidator(i));
    const view = Vals.deserializeToView(Vals.serialize(start), store);
    const model = start.map((v) => Validator.clone(v));
    const child = view.get(0);
    child.effective_balance = 1n;
    model[0]!.effective_balance = 1n;
    expect(child.hashTreeRoot()).toEqual(Validator.hashTreeRoot(model[0]!));
    child.effective_balance = 2n;
    model[0]!.effective_balance = 2n;
    expect(child.hashTreeRoot()).toEqual(Validator.hashTreeRoot(model[0]!));
    view.get(1).slashed = !model[1]!.slashed;
    model[1]!.slashed = !model[1]!.slashed;
    expect(view.hashTreeRoot()).toEqual(Vals.hashTreeRoot(model));
    expect(view.toValue()).toEqual(model);
  });

  it('a child a set replaced, written again, is what get returns: a write through get is not lost', () => {
    // fast-check seed -1239211219 found it: [set 13, stale write to the replaced child 13, slash 13].
    const store = new NodeStore();
    const start = Array.from({ length: N }, (_, i) => sampleValidator(i));
    const view = Vals.deserializeToView(Vals.serialize(start), store);
    const model = start.map((v) => Validator.clone(v));
    const child = view.get(13);
    const kept = Validator.clone(model[13]!);
    view.set(13, sampleValidator(0));
    child.effective_balance = 100n; // the replaced child's write wins over the set
    kept.effective_balance = 100n;
    model[13] = kept;
    expect(view.get(13)).toBe(child);
    view.get(13).slashed = !kept.slashed;
    kept.slashed = !kept.slashed;
    expect(view.toValue()).toEqual(model);
    expect(view.hashTreeRoot()).toEqual(Vals.hashTreeRoot(model));
  });

  it('match a plain model through random writes, sets, stale writes, commits and clones', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const store = new NodeStore();
        const start = Array.from({ length: N }, (_, i) => sampleValidator(i));
        let view = Vals.deserializeToView(Vals.serialize(start), store);
        let model: V[] = start.map((v) => Validator.clone(v));
        const kept: { view: typeof view; model: V[] }[] = [];
        // A child replaced by a `set` (its writes win if made after the set) and the model value it writes.
        const held = new Map<number, { child: ReturnType<typeof view.get>; value: V }>();
        for (const o of ops) {
          switch (o.t) {
            case 'bal':
              view.get(o.i).effective_balance = BigInt(o.v);
              model[o.i]!.effective_balance = BigInt(o.v);
              break;
            case 'exit':
              view.get(o.i).exit_epoch = BigInt(o.v);
              model[o.i]!.exit_epoch = BigInt(o.v);
              break;
            case 'slash':
              view.get(o.i).slashed = !model[o.i]!.slashed;
              model[o.i]!.slashed = !model[o.i]!.slashed;
              break;
            case 'read':
              expect(view.get(o.i).effective_balance).toBe(model[o.i]!.effective_balance);
              expect(view.get(o.i).exit_epoch).toBe(model[o.i]!.exit_epoch);
              break;
            case 'set': {
              // Keep the child being replaced (clean): a later 'stale' write to it wins over the set.
              const child = view.get(o.i);
              if (!held.has(o.i) && !child._dirty) held.set(o.i, { child, value: Validator.clone(model[o.i]!) });
              const value = sampleValidator(o.v);
              view.set(o.i, value);
              model[o.i] = Validator.clone(value);
              break;
            }
            case 'stale': {
              const h = held.get(o.i);
              if (h === undefined) break;
              held.delete(o.i);
              // The replaced child's first write after the set: its element (its version plus this write) wins.
              h.child.effective_balance = 100n + BigInt(o.v);
              h.value.effective_balance = 100n + BigInt(o.v);
              model[o.i] = h.value;
              break;
            }
            case 'commit':
              view.commit().dispose();
              held.clear();
              break;
            case 'clone':
              kept.push({ view, model });
              held.clear();
              view = view.clone();
              model = model.map((v) => Validator.clone(v));
              break;
          }
        }
        expect(view.toValue()).toEqual(model);
        expect(view.hashTreeRoot()).toEqual(Vals.hashTreeRoot(model));
        for (const k of kept) {
          expect(k.view.toValue()).toEqual(k.model);
          expect(k.view.hashTreeRoot()).toEqual(Vals.hashTreeRoot(k.model));
        }
        for (const k of kept) k.view.dispose();
        view.dispose();
      }),
      { numRuns: 200 },
    );
  });
});

describe('a list commit retried after a child written again', () => {
  afterEach(() => vi.restoreAllMocks());
  const Inner = container({ a: uint64, b: byteList(64) }, 'Inner');
  const Elems = list(Inner, 1024);
  const Vals2 = list(Validator, 1024);
  /** Makes the next `method` call throw (once). */
  function failNext(method: 'setNodesAtDepth' | 'setRecordsAtDepth' = 'setNodesAtDepth'): void {
    const real = Tree.prototype[method] as (...args: unknown[]) => unknown;
    const spy = vi.spyOn(Tree.prototype, method).mockImplementationOnce(() => {
      spy.mockImplementation(real as never);
      throw new Error('injected');
    });
  }
  for (const clone of [false, true]) {
    it(`element subtrees, ${clone ? 'a clone' : 'an owned view'}: each written element once, with its last value`, () => {
      const start = Array.from({ length: 100 }, (_, i) => ({ a: BigInt(i), b: new Uint8Array([i]) }));
      const base = Elems.toView(start);
      base.hashTreeRoot();
      const view = clone ? base.clone() : base;
      const model = start.map((v) => Inner.clone(v));
      for (const i of [0, 50, 99]) {
        view.get(i).a = 5n;
        model[i]!.a = 5n;
      }
      failNext();
      expect(() => view.commit()).toThrow('injected');
      // Committed by the failed commit, so clean: this write lists it again.
      view.get(50).a = 6n;
      model[50]!.a = 6n;
      expect(toHex(view.hashTreeRoot())).toBe(toHex(Elems.hashTreeRoot(model)));
      expect(view.toValue()).toEqual(model);
      if (clone) expect(toHex(base.hashTreeRoot())).toBe(toHex(Elems.hashTreeRoot(start)));
    });
    it(`record pairs, ${clone ? 'a clone' : 'an owned view'}: each written element once, with its last value`, () => {
      const start = Array.from({ length: 300 }, (_, i) => sampleValidator(i));
      const base = Vals2.deserializeToView(Vals2.serialize(start));
      base.hashTreeRoot();
      const view = clone ? base.clone() : base;
      const model = start.map((v) => Validator.clone(v));
      for (const i of [0, 1, 77, 299]) {
        view.get(i).slashed = true;
        model[i]!.slashed = true;
      }
      // A clone's list commits its written pairs from their bytes (`setRecordsAtDepth`); an owned one its halves in place.
      failNext(clone ? 'setRecordsAtDepth' : 'setNodesAtDepth');
      let threw = false;
      try {
        view.commit();
      } catch (e) {
        expect((e as Error).message).toContain('injected');
        threw = true;
      }
      view.get(77).effective_balance = 3n;
      model[77]!.effective_balance = 3n;
      view.get(1).exit_epoch = 4n;
      model[1]!.exit_epoch = 4n;
      expect(toHex(view.hashTreeRoot())).toBe(toHex(Vals2.hashTreeRoot(model)));
      expect(view.toValue()).toEqual(model);
      if (clone) expect(toHex(base.hashTreeRoot())).toBe(toHex(Vals2.hashTreeRoot(start)));
      expect(threw).toBe(true);
    });
  }
});
