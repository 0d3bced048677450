/**
 * hashSubtreesInto: roots of equal subtrees laid end to end, equal to a
 * reference fold, the same bytes with the pool off and on (also when a
 * worker dies mid-job), input never written, bad arguments refused.
 * startSubtrees: the same roots from a worker collected later, from chunks
 * in ordinary or shared memory (read in place, never written), the worker
 * reserved until the wait (other calls hash here meanwhile), more shared
 * buffers than a worker keeps, a dead worker's job folded here.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { configureThreads, HasherError, hashInto, hashSubtreesInto, poolStats, startSubtrees } from '../src/index.js';
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

describe('startSubtrees', () => {
  it('collects the same roots from a worker later, from ordinary and shared memory, the chunks left as they were', () => {
    configureThreads(1);
    roots(pseudoRandom(LAYER_THRESHOLD * 64, 1), 3); // the worker is up
    for (const shared of [false, true]) {
      for (const height of [1, 3, 4, 7]) {
        const blocks = Math.ceil(3000 / ((1 << height) - 1)) + height;
        const plain = pseudoRandom(blocks * (32 << height), height);
        // Shared: at an offset inside a larger buffer, as a caller's batch within its rows.
        const chunks = shared ? new Uint8Array(new SharedArrayBuffer(plain.length + 96), 64, plain.length) : plain;
        if (shared) chunks.set(plain);
        const expected = toHex(referenceRoots(plain, height));
        const out = new Uint8Array(32 * blocks);
        const jobs = poolStats().jobsDone;
        const job = startSubtrees(chunks, height, out);
        job.wait();
        expect(job.done).toBe(true);
        expect(toHex(out)).toBe(expected);
        expect(toHex(chunks)).toBe(toHex(plain));
        expect(poolStats().jobsDone).toBe(jobs + 1);
        job.wait(); // a second wait changes nothing
        expect(toHex(out)).toBe(expected);
      }
    }
  });

  it('reads from more shared buffers than a worker keeps, old ones again after they were dropped', () => {
    configureThreads(1);
    const buffers = Array.from({ length: 7 }, (_, i) => {
      const b = new Uint8Array(new SharedArrayBuffer(1024 * 256));
      b.set(pseudoRandom(b.length, 100 + i));
      return b;
    });
    const { jobsDone, jobsRecovered } = poolStats();
    const order = [0, 1, 2, 3, 4, 5, 6, 0, 6, 1, 0];
    for (const i of order) {
      const out = new Uint8Array(32 * 1024);
      startSubtrees(buffers[i]!, 3, out).wait();
      expect(toHex(out)).toBe(toHex(referenceRoots(buffers[i]!, 3)));
    }
    // Every job done by the worker: none failed for a source it did not have.
    expect(poolStats().jobsDone).toBe(jobsDone + order.length);
    expect(poolStats().jobsRecovered).toBe(jobsRecovered);
  });

  it('keeps the worker for its job until the wait: a large layer meanwhile is hashed here, right', () => {
    configureThreads(1);
    const chunks = pseudoRandom(4096 * 256, 8);
    const out = new Uint8Array(32 * 4096);
    const job = startSubtrees(chunks, 3, out);
    const layer = pseudoRandom(64 * LAYER_THRESHOLD * 2, 9);
    const layerOut = new Uint8Array(32 * LAYER_THRESHOLD * 2);
    const jobs = poolStats().jobsDone;
    hashInto(layer, layerOut);
    expect(poolStats().jobsDone).toBe(jobs); // the busy worker took no share
    expect(toHex(layerOut)).toBe(toHex(referenceLayer(layer)));
    job.wait();
    expect(toHex(out)).toBe(toHex(referenceRoots(chunks, 3)));
  });

  it('hashes at once with the pool off, for small jobs and height 0', () => {
    for (const [threads, blocks, height] of [[0, 4096, 3], [1, 8, 3], [1, 64, 0]] as const) {
      configureThreads(threads);
      const chunks = pseudoRandom(blocks * (32 << height), blocks);
      const out = new Uint8Array(32 * blocks);
      const jobs = poolStats().jobsDone;
      const job = startSubtrees(chunks, height, out);
      expect(job.done).toBe(true);
      expect(toHex(out)).toBe(toHex(referenceRoots(chunks, height)));
      job.wait();
      expect(poolStats().jobsDone).toBe(jobs);
    }
  });

  it('folds a dead worker\'s job here, from ordinary and shared memory, and a replacement takes the next', () => {
    configureThreads(1);
    for (const shared of [false, true]) {
      const chunks = shared ? new Uint8Array(new SharedArrayBuffer(4096 * 256)) : new Uint8Array(4096 * 256);
      chunks.set(pseudoRandom(chunks.length, 12));
      const expected = toHex(referenceRoots(chunks, 3));
      const out = new Uint8Array(32 * 4096);
      startSubtrees(chunks, 3, out).wait(); // the worker is up
      const recovered = poolStats().jobsRecovered;
      expect(crashWorkerOnNextJob(0)).toBe(true);
      out.fill(0);
      startSubtrees(chunks, 3, out).wait();
      expect(toHex(out)).toBe(expected);
      expect(poolStats().jobsRecovered).toBe(recovered + 1);
      out.fill(0);
      startSubtrees(chunks, 3, out).wait(); // a replacement worker
      expect(toHex(out)).toBe(expected);
      expect(liveWorkerCount()).toBe(1);
    }
  }, 30_000);

  it('refuses bad arguments with a HasherError', () => {
    expect(() => startSubtrees(new Uint8Array(128), 1, new Uint8Array(32))).toThrowError(/startSubtrees: 2 subtrees need 64 output bytes/);
    expect(() => startSubtrees(new Uint8Array(64), 25, new Uint8Array(32))).toThrowError(HasherError);
    const shared = new Uint8Array(96);
    expect(() => startSubtrees(shared.subarray(0, 64), 1, shared.subarray(32, 64))).toThrowError(/overlap/);
  });
});
