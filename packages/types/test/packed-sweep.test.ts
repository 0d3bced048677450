/**
 * Packed writes that sweep a list in index order (an epoch rewriting every
 * balance): once the dirty pages are a dense ascending run of 64 pages the
 * rest are loaded at once from the page table (filled first when the view
 * has none), a sweep that stops early still commits only the pages it
 * changed, and a sweep's bulk commit predicts nothing for the next version
 * (a light write after it loads its few pages, not every page). Counted by
 * wrapping the store's page copies; roots against the value API, old
 * versions unchanged, every node given back.
 */
import { NodeStore } from '@ssztree/core';
import { describe, expect, it } from 'vitest';
import { container, list, toHex, uint64 } from '../src/index.js';
import { takeSlab, giveSlab } from '../src/view/packedSlabs.js';
import { expectAllReleased, expectKeptUnchanged, type Kept } from './released.js';

const Balances = list(uint64, 2 ** 40);
/** 4096 pages of 32 balances: an eighth (the dirty share that loads every page without a sweep) is 512 pages. */
const PAGES = 4096;
const n = PAGES * 32;
const value = (i: number, round: number) => BigInt(i) * 1_000_003n + BigInt(round) * 77n + 1n;

/** Counts the store's single-page copies (`recordWordsInto`), bulk page copies (`widesInto`) and level copies (`copyLevelBytes`) while `fn` runs. */
function counting(store: NodeStore, fn: () => void): { single: number; bulk: number; level: number } {
  const counts = { single: 0, bulk: 0, level: 0 };
  const s = store as unknown as Record<string, (...args: unknown[]) => unknown>;
  const wrap = (name: string, key: keyof typeof counts) => {
    const original = s[name]!;
    s[name] = (...args: unknown[]) => {
      counts[key]++;
      return original.apply(store, args);
    };
    return () => delete s[name];
  };
  const undo = [wrap('recordWordsInto', 'single'), wrap('widesInto', 'bulk'), wrap('copyLevelBytes', 'level')];
  try {
    fn();
  } finally {
    for (const u of undo) u();
  }
  return counts;
}

describe('packed sweeps in index order', () => {
  it('a full sweep after an incremental commit loads ~64 pages one by one, then the rest at once; the root is the value API’s', () => {
    const store = new NodeStore();
    const baseline = store.stats().nodes;
    const model = Array.from({ length: n }, (_, i) => value(i, 0));
    const view = Balances.toView(uint64._arrayFrom(model), store);
    const kept: Kept[] = [];
    const keep = () => {
      const tree = view.commit();
      kept.push({ tree, root: toHex(tree.root) });
      expect(toHex(tree.root)).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))));
    };
    keep();
    for (let i = 0; i < n; i += 4099) view.set(i, (model[i] = value(i, 1)));
    keep(); // incremental: nothing predicted for the next writes
    const counts = counting(store, () => {
      for (let i = 0; i < n; i++) view.set(i, (model[i] = value(i, 2)));
    });
    expect(counts.bulk).toBe(1);
    expect(counts.single).toBeLessThanOrEqual(64);
    keep();
    expectKeptUnchanged(kept);
    expectAllReleased(store, kept, [view], baseline);
  });

  it('a sweep that stops after 100 pages commits those pages only (the others keep their nodes)', () => {
    const store = new NodeStore();
    const baseline = store.stats().nodes;
    const model = Array.from({ length: n }, (_, i) => value(i, 0));
    const view = Balances.toView(uint64._arrayFrom(model), store);
    const kept: Kept[] = [{ tree: view.commit(), root: toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))) }];
    // Pages are wide leaves of 8 chunks at level 1 + 38 - 3 of the list's tree.
    const pageNodes = () => Array.from({ length: PAGES }, (_, p) => view._tree.getNodeAtDepth(36, p));
    const before = pageNodes();
    const counts = counting(store, () => {
      for (let i = 0; i < 100 * 32; i++) view.set(i, (model[i] = value(i, 1)));
    });
    expect(counts.bulk).toBe(1);
    const tree = view.commit();
    kept.push({ tree, root: toHex(tree.root) });
    expect(toHex(tree.root)).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))));
    const after = pageNodes();
    for (let p = 0; p < PAGES; p++) expect(after[p] !== before[p]).toBe(p < 100);
    // The same sweep again with values already there: nothing changes, the root node stays.
    const root = view.rootNode;
    for (let i = 0; i < 200 * 32; i++) view.set(i, model[i]!);
    expect(view.rootNode).toBe(root);
    expect(toHex(view.hashTreeRoot())).toBe(kept[1]!.root);
    expectKeptUnchanged(kept);
    expectAllReleased(store, kept, [view], baseline);
  });

  it('after a sweep’s bulk commit, a clone’s light write loads only its own pages', () => {
    const store = new NodeStore();
    const baseline = store.stats().nodes;
    const model = Array.from({ length: n }, (_, i) => value(i, 0));
    const view = Balances.toView(uint64._arrayFrom(model), store);
    view.commit().dispose();
    for (let i = 0; i < n; i += 4099) view.set(i, (model[i] = value(i, 1)));
    view.commit().dispose();
    for (let i = 0; i < n; i++) view.set(i, (model[i] = value(i, 2)));
    const swept = view.commit();
    const clone = view.clone();
    const cloneModel = model.slice();
    const counts = counting(store, () => {
      for (let k = 0; k < 20; k++) {
        const i = (k * 7919) % n;
        clone.set(i, (cloneModel[i] = value(i, 3)));
      }
    });
    expect(counts.bulk).toBe(0);
    expect(counts.single).toBeLessThanOrEqual(20);
    expect(toHex(clone.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(cloneModel))));
    expect(toHex(view.hashTreeRoot())).toBe(toHex(swept.root));
    expect(toHex(swept.root)).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))));
    expectAllReleased(store, [{ tree: swept, root: toHex(swept.root) }], [view, clone], baseline);
  });

  it('a sweep of a field its parent never read (no page table): the table is filled and the pages loaded from it, not by a copy of the level', () => {
    const State = container({ slot: uint64, balances: Balances, scores: Balances }, 'SweepState');
    const store = new NodeStore();
    const baseline = store.stats().nodes;
    const balances = Array.from({ length: n }, (_, i) => value(i, 0));
    const scores = Array.from({ length: n }, (_, i) => value(i, 5));
    const state = State.toView({ slot: 1n, balances: uint64._arrayFrom(balances), scores: uint64._arrayFrom(scores) }, store);
    const first = state.commit();
    // Both lists rewritten (bulk commits: their pages become wide leaves), then a view of that version made
    // from its tree alone, as for a field a parent never read: its lists' views start with no page table.
    state.slot = 2n;
    for (let i = 0; i < n; i++) state.balances.set(i, (balances[i] = value(i, 3)));
    for (let i = 0; i < n; i++) state.scores.set(i, (scores[i] = value(i, 4)));
    const second = state.commit();
    const next = State.viewOf(second);
    const counts = counting(store, () => {
      const b = next.balances;
      const s = next.scores;
      for (let i = 0; i < n; i++) {
        b.set(i, (balances[i] = value(i, 1)));
        if (i % 3 === 0) s.set(i, (scores[i] = value(i, 6)));
      }
    });
    expect(counts.level).toBe(0);
    expect(counts.bulk).toBe(2);
    const root = State.hashTreeRoot({ slot: 2n, balances: uint64._arrayFrom(balances), scores: uint64._arrayFrom(scores) });
    expect(toHex(next.hashTreeRoot())).toBe(toHex(root));
    const kept = [first, second].map((tree) => ({ tree, root: toHex(tree.root) }));
    expect(kept[1]!.root).not.toBe(toHex(root));
    expectKeptUnchanged(kept);
    expectAllReleased(store, kept, [state, next], baseline);
  });
});

describe('packed slab spares', () => {
  it('a growth step takes no spare larger than its bound (the large ones stay for loads of every page)', () => {
    const big = { slab: new Uint8Array(1 << 23), orig: new Int32Array(1 << 21) };
    // Whatever earlier tests left is taken out first, so only `big` is a spare.
    while (takeSlab(0) !== null);
    giveSlab(big);
    expect(takeSlab(1 << 14, 1 << 17)).toBeNull();
    expect(takeSlab(1 << 14)).toBe(big);
    expect(takeSlab(1 << 14)).toBeNull();
  });
});
