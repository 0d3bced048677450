/**
 * The commit scratch of composite lists (src/view/commitScratch.ts) kept
 * from one commit to the next: lists of Validators (record pairs, written
 * through half views on clones, so their commits go through the scratch)
 * committing interleaved with more and fewer writes each, a commit that
 * throws while it holds the scratch followed by other lists' commits and
 * its own retry — every version reads as its model and the versions they
 * were cloned from never change. Fails if a commit read indices another
 * commit left in the scratch, or one kept the scratch it had given back.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Tree } from '@ssztree/core';
import { container, list, toHex } from '../src/index.js';
import { borrowScratch, returnScratch } from '../src/view/commitScratch.js';
import { sampleValidator, Validator } from './validatorSchema.js';

const Vals = list(Validator, 4096);
type V = ReturnType<typeof Validator.defaultValue>;
const N = 600;

function start(seed: number): V[] {
  return Array.from({ length: N }, (_, i) => sampleValidator(i + seed));
}

/** Writes `count` validators' balances from `first`, stepping by `step`, in the view and the model. */
function write(view: ReturnType<typeof Vals.toView>, model: V[], first: number, count: number, step: number, value: bigint): void {
  for (let k = 0; k < count; k++) {
    const i = (first + k * step) % N;
    view.get(i).effective_balance = value + BigInt(k);
    model[i]!.effective_balance = value + BigInt(k);
  }
}

describe('commit scratch', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is lent to one holder at a time: a second borrow while held gets another', () => {
    const a = borrowScratch();
    const b = borrowScratch();
    expect(b).not.toBe(a);
    returnScratch(b);
    returnScratch(a);
    const c = borrowScratch();
    expect(c).toBe(a);
    returnScratch(c);
  });

  it('two lists committing interleaved, a large commit then small ones: each reads as its model', () => {
    const bases = [start(0), start(1000)];
    const heads = bases.map((s) => Vals.deserializeToView(Vals.serialize(s)));
    for (const h of heads) h.hashTreeRoot();
    const models = bases.map((s) => s.map((v) => Validator.clone(v)));
    for (let round = 0; round < 6; round++) {
      for (let j = 0; j < 2; j++) {
        const prev = heads[j]!;
        const before = toHex(prev.hashTreeRoot());
        const view = prev.clone();
        // Large and small batches alternate between the lists, so a small commit follows a large one's scratch.
        const count = (round + j) % 2 === 0 ? 500 : 7;
        write(view, models[j]!, round * 13 + j, count, 1 + 2 * j, BigInt(round * 1000 + j));
        expect(toHex(view.hashTreeRoot())).toBe(toHex(Vals.hashTreeRoot(models[j]!)));
        expect(view.toValue()).toEqual(models[j]);
        expect(toHex(prev.hashTreeRoot())).toBe(before);
        heads[j] = view;
      }
    }
  });

  it('two lists of one container committed in one flush, each with its own writes', () => {
    const State = container({ a: Vals, b: Vals }, 'TwoLists');
    const value = { a: start(0), b: start(500) };
    const base = State.deserializeToView(State.serialize(value));
    base.hashTreeRoot();
    const view = base.clone();
    const model = State.clone(value);
    write(view.a, model.a, 3, 400, 1, 11n);
    write(view.b, model.b, 100, 30, 7, 22n);
    expect(toHex(view.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(model)));
    expect(view.toValue()).toEqual(model);
    expect(toHex(base.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(value)));
  });

  it('a commit that throws holding the scratch, then another list commits, then the retry: both as their models', () => {
    const a0 = start(0);
    const b0 = start(2000);
    const a = Vals.deserializeToView(Vals.serialize(a0)).clone();
    const b = Vals.deserializeToView(Vals.serialize(b0)).clone();
    const ma = a0.map((v) => Validator.clone(v));
    const mb = b0.map((v) => Validator.clone(v));
    write(a, ma, 0, 450, 1, 5n);
    // The pairs' batch write throws: the scratch was borrowed for the commit's half views.
    const real = Tree.prototype.setRecordsAtDepth;
    const spy = vi.spyOn(Tree.prototype, 'setRecordsAtDepth').mockImplementationOnce(() => {
      spy.mockImplementation(real);
      throw new Error('injected');
    });
    expect(() => a.commit()).toThrow('injected');
    write(b, mb, 5, 300, 3, 9n);
    expect(toHex(b.hashTreeRoot())).toBe(toHex(Vals.hashTreeRoot(mb)));
    write(a, ma, 1, 20, 5, 77n);
    expect(toHex(a.hashTreeRoot())).toBe(toHex(Vals.hashTreeRoot(ma)));
    expect(a.toValue()).toEqual(ma);
    expect(b.toValue()).toEqual(mb);
  });
});
