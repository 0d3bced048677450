/**
 * Core record trees on their pipelined route (large builds with the hasher's
 * worker pool on: batches' row folds handed to a worker): a worker that dies
 * mid-build is given up on and its batch folded on the main thread, the root
 * still merkleize of the records' roots, and the next build has a worker
 * again.
 */
import { configureThreads, merkleize, poolStats } from '@ssztree/hasher';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeStore, registerRecordLayout, Tree } from '@ssztree/core';
// The fault-injection hook is not public API: reached in the hasher's sources, as test/browser does.
import { crashWorkerOnNextJob } from '../../packages/hasher/src/parallel/pool.js';
import { expandRecord, hex, VALIDATOR_LAYOUT } from '../../packages/core/test/helpers.js';

const KIND = registerRecordLayout(VALIDATOR_LAYOUT);

afterAll(() => configureThreads(0));

function recordBytes(size: number, n: number, seed: number): Uint8Array {
  return new Uint8Array(size * n).map((_, i) => (i * 31 + seed * 7 + (i >>> 7)) & 0xff);
}

function modelRoot(bytes: Uint8Array, n: number, depth: number): string {
  const roots = new Uint8Array(32 * n);
  for (let i = 0; i < n; i++) roots.set(merkleize(expandRecord(VALIDATOR_LAYOUT, bytes, i * VALIDATOR_LAYOUT.size)), 32 * i);
  return hex(merkleize(roots, 2 ** depth));
}

function build(bytes: Uint8Array, n: number, depth: number): string {
  const store = new NodeStore();
  const tree = new Tree(store.recordTreeFromBytes(KIND, bytes, 0, n, depth), store);
  const out = hex(tree.root);
  tree.dispose();
  return out;
}

describe('record trees, pipelined with the worker pool', () => {
  it('gives the right root when the worker dies mid-build, and the next build has a worker again', () => {
    const n = 6 * 2048 + 1;
    const depth = 20;
    const bytes = recordBytes(VALIDATOR_LAYOUT.size, n, 3);
    const model = modelRoot(bytes, n, depth);
    configureThreads(1);
    expect(build(bytes, n, depth)).toBe(model); // the worker is up
    const recovered = poolStats().jobsRecovered;
    expect(crashWorkerOnNextJob(0)).toBe(true);
    expect(build(bytes, n, depth)).toBe(model);
    expect(poolStats().jobsRecovered).toBeGreaterThan(recovered);
    const jobs = poolStats().jobsDone;
    expect(build(bytes, n, depth)).toBe(model);
    expect(poolStats().jobsDone).toBeGreaterThan(jobs);
  }, 30_000);
});
