/**
 * Record trees built with the hasher's worker pool on: the pipelined record
 * hashing (build/recordTrees.ts, batches' row folds handed to a worker with
 * `startSubtrees`) gives the same roots as the pool off and as merkleize of
 * the records' roots — single records and pairs, counts across batch and
 * page boundaries, any share of each batch folded on the main thread. (A
 * worker dying mid-build: test/parallel/recordTrees.test.ts.)
 */
import { configureThreads, merkleize, poolStats } from '@ssztree/hasher';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { NodeStore, registerRecordLayout, registerRecordPairs, Tree, type RecordLayout } from '../src/index.js';
import { recordHasher } from '../src/hash/recordHash.js';
import { layoutOf } from '../src/nodes/recordLayouts.js';
import { expandRecord, hex, VALIDATOR_LAYOUT } from './helpers.js';

const KIND = registerRecordLayout(VALIDATOR_LAYOUT);
const PAIR = registerRecordPairs(KIND);
/** Two long fields, depth 2: another plan shape. */
const LAYOUT2: RecordLayout = { size: 103, depth: 2, fields: [[0, 3], [3, 64], [67, 36]] };
const KIND2 = registerRecordLayout(LAYOUT2);

afterAll(() => configureThreads(0));

function recordBytes(size: number, n: number, seed: number): Uint8Array {
  return new Uint8Array(size * n).map((_, i) => (i * 31 + seed * 7 + (i >>> 7)) & 0xff);
}

/** The root of `n` records as SSZ merkleizes them: each record's root from its expanded chunks, padded to depth. */
function modelRoot(layout: RecordLayout, bytes: Uint8Array, n: number, depth: number): string {
  const roots = new Uint8Array(32 * n);
  for (let i = 0; i < n; i++) roots.set(merkleize(expandRecord(layout, bytes, i * layout.size)), 32 * i);
  return hex(merkleize(roots, 2 ** depth));
}

function build(kind: number, pairs: boolean, bytes: Uint8Array, n: number, depth: number): string {
  const store = new NodeStore();
  const root = pairs ? store.recordPairTreeFromBytes(kind, bytes, 0, n, depth) : store.recordTreeFromBytes(kind, bytes, 0, n, depth);
  const tree = new Tree(root, store);
  const out = hex(tree.root);
  tree.dispose();
  return out;
}

describe('record trees with the worker pool', () => {
  it('hash to the same roots as the pool off and as merkleize, records and pairs, any main-thread share', () => {
    const cases: [number, RecordLayout, boolean, number][] = [
      [KIND, VALIDATOR_LAYOUT, false, 2049],
      [KIND, VALIDATOR_LAYOUT, false, 3 * 2048 + 5],
      [KIND, VALIDATOR_LAYOUT, true, 4 * 2048 + 3],
      [KIND, VALIDATOR_LAYOUT, true, 9 * 2048],
      [KIND2, LAYOUT2, false, 5 * 2048 + 77],
    ];
    for (const [kind, layout, pairs, n] of cases) {
      const depth = Math.ceil(Math.log2(n)) + 1;
      const bytes = recordBytes(layout.size, n, n);
      const model = modelRoot(layout, bytes, n, depth);
      const hasher = recordHasher(layoutOf(pairs ? PAIR : kind)!);
      const finish = vi.spyOn(hasher, 'finish');
      configureThreads(0);
      expect(build(kind, pairs, bytes, n, depth)).toBe(model);
      expect(finish).toHaveBeenCalled(); // pool off: batch by batch on this thread
      configureThreads(1);
      for (const share of [0, 0.3, 0.5]) {
        hasher.hereShare = share;
        const jobs = poolStats().jobsDone;
        finish.mockClear();
        expect(build(kind, pairs, bytes, n, depth)).toBe(model);
        expect(finish).not.toHaveBeenCalled(); // pool on: the pipeline
        // The worker took batches (its first build may still have been waiting for the worker to start).
        if (share < 0.5) expect(poolStats().jobsDone).toBeGreaterThan(jobs);
      }
      finish.mockRestore();
    }
  });
});
