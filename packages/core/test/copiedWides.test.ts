/**
 * The fused copy of dense slab batches (write/copiedWides.ts): a
 * `setWidesAtDepth` of 64 or more pages under a shared root copies every
 * path level by level and hashes it at once. Checked against a byte model:
 * roots equal merkleize of the model, every version kept (clones, handles)
 * keeps its root, nothing is left pending by the fused pass, small batches
 * and pending neighbours mixed in, positions in zero subtrees taking the
 * walk, and every node given back once the handles are dropped.
 */
import { merkleize } from '@ssztree/hasher';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore, Tree } from '../src/index.js';
import { hex, randomBytes as bytes, rng } from './helpers.js';

type Op = { kind: 'dense' | 'small' | 'root' | 'drop' | 'past'; seed: number };
const op = fc.record({ kind: fc.constantFrom('dense', 'dense', 'small', 'root', 'drop', 'past'), seed: fc.integer({ min: 1, max: 2 ** 30 }) }) as fc.Arbitrary<Op>;

describe('dense slab batches under a shared root (fused copy)', () => {
  it('copies the paths: the old version unchanged, the new one hashed with nothing pending', () => {
    const store = new NodeStore();
    const inner = 3;
    const pageBytes = 32 << inner;
    const level = 12;
    const pages = 3000;
    const r = rng(7);
    const model = bytes(pages * pageBytes, r);
    const tree = new Tree(store.fromPages({ data: model }, pages, inner, level), store);
    const old = tree.clone();
    const oldRoot = hex(old.root);
    const at = Array.from({ length: 300 }, (_, k) => k * 10 + (k % 7));
    const data = bytes(at.length * pageBytes, r);
    const created: number[] = [];
    tree.setWidesAtDepth(level, at, inner, data, at.map((_, k) => k * pageBytes), created);
    expect(store.stats().pending).toBe(0);
    at.forEach((p, k) => model.set(data.subarray(k * pageBytes, (k + 1) * pageBytes), p * pageBytes));
    expect(hex(tree.root)).toBe(hex(merkleize(model, 2 ** (level + inner))));
    expect(created.every((id, k) => hex(store.hash(id)) === hex(merkleize(data.subarray(k * pageBytes, (k + 1) * pageBytes))))).toBe(true);
    expect(hex(old.root)).toBe(oldRoot);
    old.dispose();
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('property: dense and small batches among clones and dropped versions agree with the model and give every node back', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 3), fc.integer({ min: 200, max: 1200 }), fc.array(op, { minLength: 1, maxLength: 10 }), (inner, pages, ops) => {
        const store = new NodeStore();
        const pageBytes = 32 << inner;
        const level = 11;
        const size = 2 ** level * pageBytes;
        let model = new Uint8Array(size);
        model.set(bytes(pages * pageBytes, rng(pages)));
        let tree = new Tree(store.fromPages({ data: model.subarray(0, pages * pageBytes) }, pages, inner, level), store);
        const kept: { tree: Tree; model: Uint8Array }[] = [];
        for (const { kind, seed } of ops) {
          const r = rng(seed);
          if (kind === 'root') {
            tree.root;
            continue;
          }
          if (kind === 'drop') {
            const k = kept.splice(Math.floor(r() * kept.length), 1)[0];
            k?.tree.dispose();
            continue;
          }
          // Each write goes to a clone of the last version, which is kept (the write's root is shared).
          kept.push({ tree, model });
          tree = tree.clone();
          model = model.slice();
          // 'past' writes pages past the built ones too: zero subtrees on the paths, so the walk takes them.
          const span = kind === 'past' ? 2 ** level : pages;
          const want = kind === 'small' ? 1 + Math.floor(r() * 40) : 64 + Math.floor(r() * (span - 64) * 0.5);
          const set = new Set<number>();
          while (set.size < Math.min(want, span)) set.add(Math.floor(r() * span));
          const at = [...set].sort((a, b) => a - b);
          // The slab in a shuffled order with gaps, as a view's may be.
          const slots = at.map((_, k) => (k * 7919) % (at.length + 5));
          const slab = new Uint8Array((at.length + 5) * pageBytes);
          const data = bytes(at.length * pageBytes, r);
          at.forEach((p, k) => {
            slab.set(data.subarray(k * pageBytes, (k + 1) * pageBytes), slots[k]! * pageBytes);
            model.set(data.subarray(k * pageBytes, (k + 1) * pageBytes), p * pageBytes);
          });
          tree.setWidesAtDepth(level, at, inner, slab, slots.map((s) => s * pageBytes));
          expect(hex(tree.root)).toBe(hex(merkleize(model, 2 ** (level + inner))));
        }
        for (const k of kept) {
          expect(hex(k.tree.root)).toBe(hex(merkleize(k.model, 2 ** (level + inner))));
          k.tree.dispose();
        }
        tree.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
        expect(store.stats().floating).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});
