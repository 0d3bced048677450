/**
 * A progressive list's commit that throws part way (after some subtrees
 * have committed, before the batch that links their new roots into the
 * list is written) leaves the view able to commit again: the retry links
 * every subtree written since the last complete commit, so the root equals
 * the value API's. The failure is injected into the batch write
 * (`Tree.setNodesAt`) once; clones and in-place commits both covered.
 */
import { Tree } from '@ssztree/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressiveList, toHex, uint64 } from '../src/index.js';
import { Validator } from './validatorSchema.js';

const Balances = progressiveList(uint64);
const Validators = progressiveList(Validator);

afterEach(() => vi.restoreAllMocks());

/** Makes the next `setNodesAt` throw (once). */
function failNextBatch(): void {
  const real = Tree.prototype.setNodesAt;
  const spy = vi.spyOn(Tree.prototype, 'setNodesAt').mockImplementationOnce(function (this: Tree) {
    spy.mockImplementation(real);
    throw new Error('injected');
  });
}

describe('progressive list commit retried after a failure', () => {
  for (const clone of [false, true]) {
    it(`balances (${clone ? 'a clone' : 'an owned view'}): writes in several subtrees, the batch fails, the retry links them all`, () => {
      const n = 4 * 341; // subtrees 0..4 full
      const model = BigUint64Array.from({ length: n }, (_, i) => BigInt(i));
      const base = Balances.toView(model);
      base.hashTreeRoot();
      const view = clone ? base.clone() : base;
      for (const i of [0, 5, 30, 200, n - 1]) {
        view.set(i, 7n + BigInt(i));
        model[i] = 7n + BigInt(i);
      }
      failNextBatch();
      expect(() => view.commit()).toThrow('injected');
      expect(toHex(view.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(model)));
      expect(view.toValue()).toEqual(model);
      if (clone) expect(toHex(base.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(BigUint64Array.from({ length: n }, (_, i) => BigInt(i)))));
    });
  }

  it('validators: element writes in two subtrees and a push, the batch fails, the retry commits all of them', () => {
    const values = Array.from({ length: 21 }, (_, i) => ({ ...Validator.defaultValue(), effective_balance: BigInt(i) }));
    const view = Validators.toView(values);
    view.hashTreeRoot();
    view.get(2).effective_balance = 100n;
    view.get(19).slashed = true;
    view.push({ ...Validator.defaultValue(), exit_epoch: 9n });
    const model = values.map((v) => ({ ...v }));
    model[2]!.effective_balance = 100n;
    model[19]!.slashed = true;
    model.push({ ...Validator.defaultValue(), exit_epoch: 9n });
    failNextBatch();
    expect(() => view.commit()).toThrow('injected');
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
    expect(view.length).toBe(22);
  });
});
