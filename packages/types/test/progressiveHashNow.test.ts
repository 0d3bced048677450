/**
 * The dirty subtrees of a progressive list's commit are separate parts of
 * it, so when there are several, each one's in-place batch is hashed as it
 * is written however few its positions (core `InPlaceWrite.hashNow`, set on
 * the subtree views): after a commit of a few writes in large subtrees only
 * the spine and the list's root wait for the flush — not the subtrees'
 * pages, record pairs and paths. A commit of one subtree, like a binary
 * list's small commit, still leaves its paths to the flush (several small
 * commits before one root share it). Roots are checked against the value
 * API after every commit.
 */
import { NodeStore } from '@ssztree/core';
import { describe, expect, it } from 'vitest';
import { list, progressiveList, toHex, uint64, type ValueOf } from '../src/index.js';
import { Validator } from './validatorSchema.js';

const Balances = progressiveList(uint64);
const Validators = progressiveList(Validator);

/** Elements of subtrees 0..k−1 at `perChunk` to a chunk: (4^k − 1)/3 chunks. */
const filling = (k: number, perChunk: number) => (perChunk * (4 ** k - 1)) / 3;

function validator(i: number): ValueOf<typeof Validator> {
  const v = Validator.defaultValue();
  v.pubkey = new Uint8Array(48).fill(i & 0xff);
  v.effective_balance = 32_000_000_000n + BigInt(i);
  return v;
}

describe('progressive subtrees hash small in-place commits at the write', () => {
  it('balances: a few writes in several subtrees leave only the spine and the list root pending, in one subtree its paths too', () => {
    const store = new NodeStore();
    const n = filling(7, 4); // subtrees 0..6 full: subtree 6 holds 512 pages
    const model = BigUint64Array.from({ length: n }, (_, i) => BigInt(i));
    const view = Balances.toView(model, store);
    view.hashTreeRoot();
    const rounds: [number[], boolean][] = [
      [[filling(6, 4) + 5, filling(6, 4) + 2000, n - 1, filling(5, 4) + 7], true],
      [[3, 100, 400], true], // subtrees 0, 3 and 4
      [[filling(6, 4) + 9000, filling(6, 4) + 9001], false], // one subtree: committed as a binary list's contents
    ];
    for (const [round, [indices, several]] of rounds.entries()) {
      for (const i of indices) {
        model[i] = BigInt(round * 1000 + i) + 1n;
        view.set(i, model[i]!);
      }
      void view.rootNode;
      // Several subtrees: at most the list's root and the 7 spine nodes above them (walked, a subtree-6
      // page alone adds itself and ~9 branches). One subtree: its small batch waits for the flush.
      if (several) expect(store.stats().pending).toBeLessThanOrEqual(8);
      else expect(store.stats().pending).toBeGreaterThan(8);
      expect(toHex(view.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(model)));
      expect(store.stats().pending).toBe(0);
    }
    view.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('validators: a few record writes in subtrees 3 and 4 leave only the spine and the list root pending', () => {
    const store = new NodeStore();
    const n = filling(5, 1); // 341 validators: subtree 4 holds 256
    const model = Array.from({ length: n }, (_, i) => validator(i));
    const view = Validators.toView(model, store);
    view.hashTreeRoot();
    for (const i of [filling(4, 1) + 3, filling(4, 1) + 200, filling(3, 1) + 1]) {
      model[i]!.slashed = true;
      model[i]!.effective_balance = 7n;
      const v = view.get(i);
      v.slashed = true;
      v.effective_balance = 7n;
    }
    void view.rootNode;
    expect(store.stats().pending).toBeLessThanOrEqual(6);
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
    view.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('a binary list keeps a small commit for the flush', () => {
    const store = new NodeStore();
    const B = list(uint64, 2 ** 20);
    const model = BigUint64Array.from({ length: 20_000 }, (_, i) => BigInt(i));
    const view = B.toView(model, store);
    view.hashTreeRoot();
    for (const i of [5, 9000, 19_999]) {
      model[i] = 1n;
      view.set(i, 1n);
    }
    void view.rootNode;
    expect(store.stats().pending).toBeGreaterThan(20);
    expect(toHex(view.hashTreeRoot())).toBe(toHex(B.hashTreeRoot(model)));
    view.dispose();
  });
});
