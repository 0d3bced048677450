/**
 * Proofs: single-leaf branches and multiproofs over random trees (including
 * wide leaves) always verify; flipping any byte of a proof or leaf makes
 * verification fail; partial trees rebuilt from proofs have the same root and
 * readable proven positions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, Tree, helperIndices, multiproofRoot, verifyMultiproof, verifySingleProof } from '../src/index.js';
import { chunksOf, hex } from './helpers.js';

function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice();
  copy[at] = copy[at]! ^ 1;
  return copy;
}

/** A random tree of `depth`: packed chunks, maybe a wide leaf somewhere. */
const treeArb = fc.record({
  depth: fc.integer({ min: 1, max: 7 }),
  seeds: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 128 }),
  wideAt: fc.option(fc.nat(), { nil: undefined }),
});

function makeTree(store: NodeStore, spec: { depth: number; seeds: number[]; wideAt: number | undefined }): Tree {
  const tree = Tree.fromChunks(chunksOf(spec.seeds.slice(0, 2 ** spec.depth)), spec.depth, store);
  if (spec.wideAt !== undefined && spec.depth >= 2) {
    const wd = Math.min(spec.depth - 1, 3);
    const level = spec.depth - wd;
    tree.setNode(2 ** level + (spec.wideAt % 2 ** level), store.wide(chunksOf(spec.seeds.slice(0, 2 ** wd).concat(Array(2 ** wd).fill(5)).slice(0, 2 ** wd))));
  }
  return tree;
}

/** Random disjoint gindices of a tree of `depth` (none below another). */
function disjoint(depth: number, picks: number[]): number[] {
  const chosen: number[] = [];
  for (const p of picks) {
    const level = 1 + (p % depth);
    const g = 2 ** level + ((p >>> 3) % 2 ** level);
    const clash = chosen.some((c) => {
      let [a, b] = c < g ? [c, g] : [g, c];
      while (b > a) b = Math.floor(b / 2);
      return a === b;
    });
    if (!clash) chosen.push(g);
  }
  return chosen;
}

describe('multiproofs', () => {
  it('use the consensus-spec helper ordering', () => {
    expect(helperIndices([8, 9, 14])).toEqual([15n, 6n, 5n]);
    expect(helperIndices([5])).toEqual([4n, 3n]);
    expect(helperIndices([1])).toEqual([]);
  });

  it('verify for random trees and fail when any byte is flipped', () => {
    fc.assert(
      fc.property(treeArb, fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), (spec, picks) => {
        const store = new NodeStore();
        const tree = makeTree(store, spec);
        const gindices = disjoint(spec.depth, picks);
        const p = tree.multiproof(gindices);
        const root = tree.root;
        expect(verifyMultiproof(root, p.gindices, p.leaves, p.proof)).toBe(true);
        p.leaves.forEach((leaf, i) => {
          const at = (i * 13) % 32;
          const leaves = p.leaves.map((l, j) => (j === i ? flipped(leaf, at) : l));
          expect(verifyMultiproof(root, p.gindices, leaves, p.proof)).toBe(false);
        });
        p.proof.forEach((h, i) => {
          const at = (i * 7 + 3) % 32;
          const proof = p.proof.map((x, j) => (j === i ? flipped(h, at) : x));
          expect(verifyMultiproof(root, p.gindices, p.leaves, proof)).toBe(false);
        });
        expect(verifyMultiproof(flipped(root, 0), p.gindices, p.leaves, p.proof)).toBe(false);
        // The partial tree has the same root and the proven values.
        const partial = Tree.fromProof(p, store);
        expect(hex(partial.root)).toBe(hex(root));
        gindices.forEach((g, i) => expect(hex(partial.getChunk(g))).toBe(hex(p.leaves[i]!)));
      }),
      { numRuns: 150 },
    );
  });

  it('fail for every single flipped byte of a small proof', () => {
    const store = new NodeStore();
    const tree = Tree.fromChunks(chunksOf([1, 2, 3, 4, 5, 6, 7, 8]), 3, store);
    const p = tree.multiproof([9, 5, 14]);
    for (let i = 0; i < p.proof.length; i++) {
      for (let b = 0; b < 32; b++) {
        const proof = p.proof.map((x, j) => (j === i ? flipped(x, b) : x));
        expect(verifyMultiproof(tree.root, p.gindices, p.leaves, proof)).toBe(false);
      }
    }
    for (let i = 0; i < p.leaves.length; i++) {
      for (let b = 0; b < 32; b++) {
        const leaves = p.leaves.map((x, j) => (j === i ? flipped(x, b) : x));
        expect(verifyMultiproof(tree.root, p.gindices, leaves, p.proof)).toBe(false);
      }
    }
  });

  it('reject malformed inputs', () => {
    const store = new NodeStore();
    const tree = Tree.fromChunks(chunksOf([1, 2, 3, 4]), 2, store);
    expect(() => tree.multiproof([2, 4])).toThrow(CoreError);
    expect(() => tree.multiproof([5, 5])).toThrow(CoreError);
    const p = tree.multiproof([4, 7]);
    expect(verifyMultiproof(tree.root, p.gindices, p.leaves, p.proof.slice(1))).toBe(false);
    expect(verifyMultiproof(tree.root, p.gindices, p.leaves.slice(1), p.proof)).toBe(false);
    expect(multiproofRoot([4, 2], [p.leaves[0]!, p.leaves[0]!], p.proof)).toBeUndefined();
    expect(() => Tree.fromProof({ gindices: [4], leaves: [p.leaves[0]!], proof: [] }, store)).toThrow(CoreError);
  });

  it('partial trees throw OPAQUE below unknown parts', () => {
    const store = new NodeStore();
    const tree = Tree.fromChunks(chunksOf([1, 2, 3, 4, 5, 6, 7, 8]), 3, store);
    const partial = Tree.fromProof(tree.multiproof([9]), store);
    expect(store.kind(partial.getNode(3))).toBe('opaque');
    try {
      partial.getNode(12);
      expect.unreachable();
    } catch (e) {
      expect((e as CoreError).code).toBe('OPAQUE');
    }
  });
});

describe('single proofs', () => {
  it('verify for every position of random trees and fail on any flip', () => {
    fc.assert(
      fc.property(treeArb, fc.nat(), (spec, pick) => {
        const store = new NodeStore();
        const tree = makeTree(store, spec);
        const level = 1 + (pick % spec.depth);
        const g = 2 ** level + ((pick >>> 3) % 2 ** level);
        const p = tree.singleProof(g);
        const root = tree.root;
        expect(p.branch.length).toBe(level);
        expect(verifySingleProof(root, g, p.leaf, p.branch)).toBe(true);
        expect(verifySingleProof(root, g, flipped(p.leaf, pick % 32), p.branch)).toBe(false);
        p.branch.forEach((_, i) => {
          const branch = p.branch.map((x, j) => (j === i ? flipped(x, (pick + i) % 32) : x));
          expect(verifySingleProof(root, g, p.leaf, branch)).toBe(false);
        });
        // The branch is the multiproof of one index, in the same order.
        expect(tree.multiproof([g]).proof.map(hex)).toEqual(p.branch.map(hex));
        expect(verifySingleProof(root, g ^ 1, p.leaf, p.branch)).toBe(p.leaf.every((b, i) => b === tree.getChunk(g ^ 1)[i]));
      }),
      { numRuns: 200 },
    );
  });
});
