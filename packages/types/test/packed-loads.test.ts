/**
 * How packed views load committed pages for writes, against the value
 * API's roots: a write to a clean page is compared with the page in the
 * read cache first (writes of the bytes already there dirty nothing, and
 * the next write to the page finds it cached), and a load of all pages
 * from the page table keeps no copy of the committed bytes (a commit
 * compares pages with the pool's). No-op rewrites keep the root node, old
 * versions are unchanged, and every node is given back at the end.
 */
import { NodeStore } from '@ssztree/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boolean, list, toHex, uint16, uint64, uint8, vector } from '../src/index.js';
import { expectAllReleased, expectKeptUnchanged } from './released.js';

describe('packed writes to clean pages', () => {
  it('a rewrite of the value there dirties nothing, a later write to the same page lands (uint64, uint16, uint8, boolean)', () => {
    const cases = [
      { type: list(uint64, 4096), elem: uint64, of: (i: number, r: number) => BigInt(i * 7 + r) * 1_000_003n },
      { type: list(uint16, 4096), elem: uint16, of: (i: number, r: number) => (i * 7 + r) & 0xffff },
      { type: list(uint8, 4096), elem: uint8, of: (i: number, r: number) => (i * 7 + r) & 0xff },
      { type: vector(boolean, 3000), elem: boolean, of: (i: number, r: number) => ((i * 7 + r) & 3) === 0 },
    ];
    for (const { type, elem, of } of cases) {
      const store = new NodeStore();
      const baseline = store.stats().nodes;
      const n = 3000;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const t = type as unknown as { toView(v: unknown, s: NodeStore): any; hashTreeRoot(v: unknown): Uint8Array };
      const model: unknown[] = Array.from({ length: n }, (_, i) => of(i, 0));
      const arrayOf = (xs: unknown[]) => (elem as unknown as { _arrayFrom(xs: unknown[]): unknown })._arrayFrom(xs);
      const view = t.toView(arrayOf(model), store);
      const first = view.commit();
      const firstRoot = toHex(first.root);
      const root0 = view.rootNode;
      // Every element rewritten with its value (each page loaded into the read cache once, none dirtied).
      for (let i = 0; i < n; i++) view.set(i, model[i]);
      expect(view.rootNode).toBe(root0);
      view.commit().dispose();
      expect(view.rootNode).toBe(root0);
      // In each page: no-op writes, then one changed element, then a read, then more no-op writes.
      const step = 97;
      for (let i = 0; i < n; i += step) {
        view.set(i, model[i]);
        if (i + 1 < n) view.set(i + 1, model[i + 1]);
        const j = Math.min(n - 1, i + 2);
        model[j] = of(j, 1);
        view.set(j, model[j]);
        expect(view.get(j)).toBe(model[j]);
        expect(view.get(i)).toBe(model[i]);
        view.set(i, model[i]);
      }
      const second = view.commit();
      expect(toHex(second.root)).toBe(toHex(t.hashTreeRoot(arrayOf(model))));
      // A read caches a page, a commit changes it: the next write to it compares with the new bytes.
      const k = 5 * step + 2;
      expect(view.get(k)).toBe(model[k]);
      model[k] = of(k, 2);
      view.set(k, model[k]);
      view.commit().dispose();
      // A stale cache would hold k's old value: these writes leave k alone, so the page made from them shows it.
      view.set(k - 1, model[k - 1]);
      model[k + 1] = of(k + 1, 3);
      view.set(k + 1, model[k + 1]);
      view.set(k - 1, model[k - 1]);
      expect(toHex(view.hashTreeRoot())).toBe(toHex(t.hashTreeRoot(arrayOf(model))));
      for (let i = 0; i < n; i += 13) expect(view.get(i)).toBe(model[i]);
      expect(toHex(first.root)).toBe(firstRoot);
      first.dispose();
      second.dispose();
      view.dispose();
      store.collect();
      expect(store.stats().nodes).toBe(baseline);
    }
  });

  it('random sets (many of the value there), gets and commits match a plain model', () => {
    const Type = list(uint16, 2048);
    const n = 700; // 22 pages: loaded one by one
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ op: fc.constant('set' as const), i: fc.nat(n - 1), v: fc.nat(3) }), fc.record({ op: fc.constant('get' as const), i: fc.nat(n - 1), v: fc.constant(0) }), fc.record({ op: fc.constant('commit' as const), i: fc.constant(0), v: fc.constant(0) })), { maxLength: 120 }),
        (ops) => {
          const store = new NodeStore();
          const model = Array.from({ length: n }, (_, i) => i & 3);
          const view = Type.toView(Uint16Array.from(model), store);
          const kept: { tree: ReturnType<typeof view.commit>; root: string; node: number }[] = [];
          for (const { op, i, v } of ops) {
            if (op === 'set') {
              model[i] = v;
              view.set(i, v);
            } else if (op === 'get') expect(view.get(i)).toBe(model[i]);
            else {
              const tree = view.commit();
              // Contents equal to the last commit's: the same root node (no-op writes made nothing).
              const last = kept.at(-1);
              if (last !== undefined && toHex(tree.root) === last.root) expect(view.rootNode).toBe(last.node);
              kept.push({ tree, root: toHex(tree.root), node: view.rootNode });
            }
          }
          expect(toHex(view.hashTreeRoot())).toBe(toHex(Type.hashTreeRoot(Uint16Array.from(model))));
          expectKeptUnchanged(kept);
          for (const k of kept) k.tree.dispose();
          view.dispose();
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('packed load of all pages from the page table', () => {
  const Balances = list(uint64, 2 ** 40);
  const n = 300 * 32; // 300 pages: past LOAD_ALL_MIN_PAGES
  const value = (i: number, round: number) => BigInt(i) * 1_000_003n + BigInt(round) * 77n + 1n;

  it('after a bulk commit: a predicted load, compared with the pool page by page (no-op, light and full rewrites)', () => {
    const store = new NodeStore();
    const baseline = store.stats().nodes;
    const model = Array.from({ length: n }, (_, i) => value(i, 0));
    const view = Balances.toView(uint64._arrayFrom(model), store);
    const kept: { tree: ReturnType<typeof view.commit>; root: string }[] = [];
    const keep = () => {
      const tree = view.commit();
      kept.push({ tree, root: toHex(tree.root) });
      expect(toHex(tree.root)).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))));
    };
    keep();
    // Every element: a bulk commit (the page table then names every page).
    for (let i = 0; i < n; i++) view.set(i, (model[i] = value(i, 1)));
    keep();
    // Every element rewritten as it is, in a clone too: the first write loads all pages, no page changed.
    const before = view.rootNode;
    const clone = view.clone();
    for (let i = 0; i < n; i++) view.set(i, model[i]!);
    expect(view.rootNode).toBe(before);
    for (let i = 0; i < n; i++) clone.set(i, model[i]!);
    expect(clone.rootNode).toBe(before);
    clone.dispose();
    // Every element again (bulk), then writes that come back everywhere but in three pages: all pages
    // are loaded at the first write, and the rest keep their nodes (an incremental commit).
    for (let i = 0; i < n; i++) view.set(i, (model[i] = value(i, 4)));
    keep();
    for (let i = 0; i < n; i++) view.set(i, model[i]! + 5n);
    for (let i = 0; i < n; i++) if (![3, 150, 299].includes(i >>> 5)) view.set(i, model[i]!);
    for (let i = 0; i < n; i++) if ([3, 150, 299].includes(i >>> 5)) model[i]! += 5n;
    // Pages are wide leaves of 8 chunks at level 1 + 38 - 3 of the list's tree.
    const pageNodes = () => Array.from({ length: n / 32 }, (_, p) => view._tree.getNodeAtDepth(36, p));
    const pagesBefore = pageNodes();
    keep();
    // Three new pages; the others keep their nodes (a page compared wrongly would be made anew).
    const pagesAfter = pageNodes();
    expect(pagesAfter.filter((id, p) => id !== pagesBefore[p]).length).toBe(3);
    for (const p of [3, 150, 299]) expect(pagesAfter[p]).not.toBe(pagesBefore[p]);
    // A light rewrite after a bulk commit, then every element again (bulk).
    for (let i = 0; i < n; i++) view.set(i, (model[i] = value(i, 2)));
    keep();
    for (let i = 0; i < n; i += 3) view.set(i, (model[i] = value(i, 3)));
    keep();
    expectKeptUnchanged(kept);
    for (let i = 0; i < n; i += 31) expect(view.get(i)).toBe(model[i]);
    expectAllReleased(store, kept, [view], baseline);
  });

  it('after an incremental commit: a load once an eighth of the pages are dirty, pages written before it compared too', () => {
    const store = new NodeStore();
    const model = Array.from({ length: n }, (_, i) => value(i, 0));
    const view = Balances.toView(uint64._arrayFrom(model), store);
    view.commit().dispose();
    for (let i = 0; i < n; i++) view.set(i, (model[i] = value(i, 1)));
    view.commit().dispose(); // bulk: the table names every page
    for (let i = 0; i < n; i += 64) view.set(i, (model[i] = value(i, 2)));
    const light = view.commit(); // incremental: the next write loads pages one by one
    const lightRoot = toHex(light.root);
    const before = view.rootNode;
    // Changed and then changed back, page by page: past an eighth of the pages all are loaded at once.
    for (let i = 0; i < n; i++) view.set(i, model[i]! + 9n);
    for (let i = 0; i < n; i++) view.set(i, model[i]!);
    expect(view.rootNode).toBe(before);
    // The same with one element left changed: the root is the value API's.
    for (let i = 0; i < n; i++) view.set(i, model[i]! + 9n);
    for (let i = 0; i < n; i++) if (i !== 4321) view.set(i, model[i]!);
    model[4321]! += 9n;
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(uint64._arrayFrom(model))));
    expect(toHex(light.root)).toBe(lightRoot);
    light.dispose();
    view.dispose();
  });
});
