/**
 * hashSubtreesInto: roots of equal subtrees laid end to end, equal to a
 * reference fold, the same bytes with the pool off and on (also when a
 * worker dies mid-job), input never written, bad arguments refused.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { configureThreads, HasherError, hashSubtreesInto, poolStats } from '../src/index.js';
import { crashWorkerOnNextJob, LAYER_THRESHOLD, liveWorkerCount } from '../src/parallel/pool.js';
import { pseudoRandom, referenceLayer, toHex } from './reference.js';

afterAll(() => configureThreads(0));

/** Reference: each subtree folded level by level with the plain SHA-256 model. */
function referenceRoots(chunks: Uint8Array, height: number): Uint8Array {
  let level = chunks;
  for (let h = 0; h < height; h++) level = referenceLayer(level);
  return level;
}

function roots(chunks: Uint8Array, height: number): Uint8Array {
  const out = new Uint8Array(chunks.length >>> height);
  hashSubtreesInto(chunks, height, out);
  return out;
}

describe('hashSubtreesInto', () => {
  it('matches the reference fold for every height and count, pool off, leaving the input alone', () => {
    configureThreads(0);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 120 }), fc.integer(), (height, blocks, seed) => {
        const chunks = pseudoRandom(blocks * (32 << height), seed);
        const before = toHex(chunks);
        expect(toHex(roots(chunks, height))).toBe(toHex(referenceRoots(chunks, height)));
        expect(toHex(chunks)).toBe(before);
      }),
      { numRuns: 60 },
    );
  });

  it('gives the same bytes with a worker, and uses it for large jobs', () => {
    const chunks = pseudoRandom(((LAYER_THRESHOLD >>> 2) + 37) * 256, 3); // pages of 8 chunks, 7 messages each
    configureThreads(0);
    const off = toHex(roots(chunks, 3));
    configureThreads(1);
    const jobs = poolStats().jobsDone;
    roots(chunks, 3); // starts the worker
    const on = toHex(roots(chunks, 3));
    expect(on).toBe(off);
    expect(poolStats().jobsDone).toBeGreaterThan(jobs);
    expect(off).toBe(toHex(referenceRoots(chunks, 3)));
  });

  it('stays on this thread for small jobs', () => {
    configureThreads(1);
    const chunks = pseudoRandom(64 * 256, 4);
    roots(chunks, 3);
    const jobs = poolStats().jobsDone;
    expect(toHex(roots(chunks, 3))).toBe(toHex(referenceRoots(chunks, 3)));
    expect(poolStats().jobsDone).toBe(jobs);
  });

  it('folds a dead worker\'s share here, and a replacement takes the next job', () => {
    configureThreads(1);
    const big = pseudoRandom((LAYER_THRESHOLD >>> 1) * 256, 6);
    const bigExpected = toHex(referenceRoots(big, 3));
    expect(toHex(roots(big, 3))).toBe(bigExpected);
    const recovered = poolStats().jobsRecovered;
    expect(crashWorkerOnNextJob(0)).toBe(true);
    expect(toHex(roots(big, 3))).toBe(bigExpected);
    expect(poolStats().jobsRecovered).toBe(recovered + 1);
    expect(toHex(roots(big, 3))).toBe(bigExpected);
    expect(liveWorkerCount()).toBe(1);
  });

  it('refuses bad arguments with a HasherError', () => {
    configureThreads(0);
    expect(() => hashSubtreesInto(new Uint8Array(96), 1, new Uint8Array(48))).toThrowError(HasherError);
    expect(() => hashSubtreesInto(new Uint8Array(128), 1, new Uint8Array(32))).toThrowError(/need 64 output bytes/);
    expect(() => hashSubtreesInto(new Uint8Array(64), -1, new Uint8Array(32))).toThrowError(/height/);
    expect(() => hashSubtreesInto(new Uint8Array(64), 1.5, new Uint8Array(32))).toThrowError(HasherError);
    expect(() => hashSubtreesInto(new Uint8Array(64), 25, new Uint8Array(32))).toThrowError(HasherError);
    const shared = new Uint8Array(96);
    expect(() => hashSubtreesInto(shared.subarray(0, 64), 1, shared.subarray(32, 64))).toThrowError(/overlap/);
    expect(() => hashSubtreesInto(shared.subarray(0, 64), 1, shared.subarray(64, 96))).not.toThrow();
  });
});
