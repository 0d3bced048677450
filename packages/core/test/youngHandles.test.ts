/**
 * Handles are registered for finalization at the end of the synchronous run
 * that made them (tree.ts `enlist`). Handles made in one run and disposed in
 * it, dropped in it, or kept past it: dropped ones are still released by the
 * collector, disposed ones exactly once, kept ones keep their version.
 */
import { describe, expect, it } from 'vitest';
import { NodeStore, Tree } from '../src/index.js';
import { collectUntil } from './gc.js';
import { chunkOf, chunksOf, hex, modelRoot } from './helpers.js';

const DEPTH = 4;

/** One synchronous run: versions written from `base`; every third disposed, every third kept, the rest dropped. */
function run(store: NodeStore, base: Tree, round: number, kept: { tree: Tree; root: string }[]): void {
  const model = chunksOf(Array.from({ length: 2 ** DEPTH }, (_, i) => i + 1));
  for (let k = 0; k < 30; k++) {
    const tree = base.clone();
    const i = (round * 31 + k) % 2 ** DEPTH;
    tree.setNodesAtDepth(DEPTH, [i], [store.leaf(chunkOf(1000 + round * 100 + k))]);
    if (k % 3 === 0) tree.dispose();
    else if (k % 3 === 1) {
      const m = model.slice();
      m.set(chunkOf(1000 + round * 100 + k), 32 * i);
      kept.push({ tree, root: modelRoot(m, DEPTH) });
    }
  }
}

describe('young handles', () => {
  it('handles dropped, disposed or kept in the run that made them are each released once, when due', async () => {
    const store = new NodeStore();
    const base = Tree.fromChunks(chunksOf(Array.from({ length: 2 ** DEPTH }, (_, i) => i + 1)), DEPTH, store);
    const baseNodes = store.stats().nodes;
    const kept: { tree: Tree; root: string }[] = [];
    for (let round = 0; round < 5; round++) {
      run(store, base, round, kept);
      await collectUntil(() => true, 1);
    }
    await collectUntil(() => false, 3);
    store.collect();
    for (const v of kept) expect(hex(v.tree.root)).toBe(v.root);
    for (const v of kept) v.tree.dispose();
    const back = await collectUntil(() => {
      store.collect();
      return store.stats().nodes === baseNodes;
    });
    expect(back).toBe(true);
    expect(base.root.length).toBe(32);
    base.dispose();
    const empty = await collectUntil(() => {
      store.collect();
      return store.stats().nodes === 0;
    });
    expect(empty).toBe(true);
  });
});
