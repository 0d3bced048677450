/**
 * Packed views' bulk commit (most pages changed: the contents are rebuilt
 * from pages by `store.fromPages`) against the value API's roots and the
 * incremental commit: full and partial rewrites, a partial last page, pushes
 * that add pages, vectors, trees whose pages are not wide leaves, no-op
 * rewrites that keep the root node, old versions unchanged, and every node
 * given back once the views and trees are dropped.
 */
import { NodeStore } from '@ssztree/core';
import { configureThreads } from '@ssztree/hasher';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { list, toHex, uint16, uint64, vector } from '../src/index.js';
import { expectAllReleased, expectKeptUnchanged } from './released.js';

const Balances = list(uint64, 2 ** 40);
const value = (i: number, round: number) => BigInt(i) * 1_000_003n + BigInt(round) * 77n;

describe('packed bulk commit', () => {
  it('rewrites of all, most and some pages of a List[uint64] with a partial last page', () => {
    const store = new NodeStore();
    const baseline = store.stats().nodes;
    const n = 3000; // 94 pages, the last one three quarters full
    const model = Array.from({ length: n }, (_, i) => value(i, 0));
    const view = Balances.toView(uint64._arrayFrom(model), store);
    const kept: { tree: ReturnType<typeof view.commit>; root: string }[] = [];
    const keep = () => {
      const tree = view.commit();
      kept.push({ tree, root: toHex(tree.root) });
    };
    keep();
    // Round 1: every element (bulk); round 2: every page but every fifth (bulk, clean pages copied);
    // round 3: every other page (incremental); round 4: every element again, written in reverse.
    const plans: ((i: number) => boolean)[] = [() => true, (i) => (i >>> 5) % 5 !== 0, (i) => (i >>> 5) % 2 === 0, () => true];
    plans.forEach((write, r) => {
      const order = Array.from({ length: n }, (_, i) => (r === 3 ? n - 1 - i : i));
      for (const i of order) {
        if (!write(i)) continue;
        model[i] = value(i, r + 1);
        view.set(i, model[i]!);
      }
      expect(toHex(view.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))));
      for (let i = 0; i < n; i += 37) expect(view.get(i)).toBe(model[i]);
      expect(view.get(n - 1)).toBe(model[n - 1]);
      keep();
    });
    expectKeptUnchanged(kept);
    // A rewrite of every element with the value already there keeps the root node.
    const before = view.rootNode;
    for (let i = 0; i < n; i++) view.set(i, model[i]!);
    expect(view.rootNode).toBe(before);
    // Writes that all come back to the committed values keep it too.
    for (let i = 0; i < n; i++) view.set(i, model[i]! + 1n);
    for (let i = 0; i < n; i++) view.set(i, model[i]!);
    expect(view.rootNode).toBe(before);
    expectAllReleased(store, kept, [view], baseline);
  });

  it('epoch-sized rewrites across two views (a slab over 1 MiB handed from view to view as the spare), with the pool off and on', () => {
    for (const threads of [0, 1]) {
      configureThreads(threads);
      const store = new NodeStore();
      const n = 20_000; // 5000 pages: an all-pages slab (2 MiB) is over the 1 MiB a view keeps
      const models = [0, 1].map((v) => Array.from({ length: n }, (_, i) => value(i, v)));
      const views = models.map((m) => Balances.toView(uint64._arrayFrom(m), store));
      const kept: { tree: ReturnType<(typeof views)[0]['commit']>; root: string }[] = [];
      for (let round = 1; round <= 4; round++) {
        views.forEach((view, v) => {
          const model = models[v]!;
          // Odd rounds write in order (contiguous pages), even rounds from both ends (scattered), view 1 a page short of all.
          for (let k = 0; k < n; k++) {
            const i = round % 2 === 1 ? k : k % 2 === 0 ? k >>> 1 : n - 1 - (k >>> 1);
            if (v === 1 && i >>> 2 === 17) continue;
            model[i] = value(i, 10 * round + v);
            view.set(i, model[i]!);
          }
          const tree = view.commit();
          kept.push({ tree, root: toHex(tree.root) });
          expect(toHex(tree.root)).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))));
          for (let i = 0; i < n; i += 997) expect(view.get(i)).toBe(model[i]);
        });
      }
      expectKeptUnchanged(kept);
      expectAllReleased(store, kept, views);
    }
    configureThreads(0);
  });

  it('pushes that add pages along with a full rewrite', () => {
    const store = new NodeStore();
    const model = Array.from({ length: 2050 }, (_, i) => value(i, 0));
    const view = Balances.toView(uint64._arrayFrom(model), store);
    const old = view.commit();
    const oldRoot = toHex(old.root);
    for (let i = 0; i < model.length; i++) view.set(i, (model[i] = value(i, 1)));
    for (let i = 0; i < 100; i++) {
      model.push(value(model.length, 2));
      view.push(model[model.length - 1]!);
    }
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))));
    expect(view.length).toBe(2150);
    expect(view.get(2149)).toBe(model[2149]);
    expect(toHex(old.root)).toBe(oldRoot);
    old.dispose();
    view.dispose();
  });

  it('a Vector[uint16] and pages stored as branches and leaves', () => {
    const store = new NodeStore();
    const V = vector(uint16, 8192); // 512 chunks: 64 pages
    const model = Array.from({ length: 8192 }, (_, i) => i & 0xffff);
    const view = V.toView(uint16._arrayFrom(model), store);
    for (let i = 0; i < 8192; i += 2) view.set(i, (model[i] = (i * 7 + 1) & 0xffff));
    expect(toHex(view.hashTreeRoot())).toBe(toHex(V.hashTreeRoot(uint16._arrayFrom(model))));
    view.dispose();

    const n = 4000;
    const initial = Array.from({ length: n }, (_, i) => value(i, 0));
    const bytes = Balances.serialize(uint64._arrayFrom(initial));
    const chunks = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
    chunks.set(bytes);
    const plain = Balances._view(store, store.withLength(store.fromChunks(chunks, 38), n));
    for (let i = 0; i < n; i++) if (i % 128 >= 32) plain.set(i, (initial[i] = value(i, 1)));
    expect(toHex(plain.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(initial))));
    plain.dispose();
  });

  it('property: any share of pages rewritten agrees with the value root and keeps old versions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2048, max: 5000 }), fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 4 }), (n, shares) => {
        const store = new NodeStore();
        const model = Array.from({ length: n }, (_, i) => value(i, 0));
        const view = Balances.toView(uint64._arrayFrom(model), store);
        const kept = [{ tree: view.commit(), root: toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))) }];
        shares.forEach((share, r) => {
          for (let i = 0; i < n; i++) {
            if (((i >>> 5) * 37) % 100 < share) view.set(i, (model[i] = value(i, r + 1)));
          }
          const tree = view.commit();
          const root = toHex(Balances.hashTreeRoot(uint64._arrayFrom(model)));
          expect(toHex(tree.root)).toBe(root);
          kept.push({ tree, root });
        });
        for (const k of kept) {
          expect(toHex(k.tree.root)).toBe(k.root);
          k.tree.dispose();
        }
        view.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 25 },
    );
  });
});
