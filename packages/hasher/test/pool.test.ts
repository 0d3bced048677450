import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HasherError, configureThreads, getHasher, hashInto, hashIntoAsync, listHashers, merkleize, setHasher, threadCount } from '../src/index.js';
import { crashWorkerOnNextJob, LAYER_THRESHOLD, liveWorkerCount } from '../src/parallel/pool.js';
import { pseudoRandom, referenceLayer, toHex } from './reference.js';

const initialHasher = getHasher();
beforeAll(() => configureThreads(1));
afterAll(() => {
  configureThreads(0);
  setHasher(initialHasher);
});

/** Computes `f` with the pool off, then on, and returns both results. */
function offAndOn<T>(f: () => T): [T, T] {
  configureThreads(0);
  const off = f();
  configureThreads(1);
  const on = f();
  return [off, on];
}

const backends = listHashers().filter((h) => h.available).map((h) => h.name).filter((n) => n !== 'noble');

describe.each(backends)('worker pool with %s', (name) => {
  it('hashes large layers to the same bytes as the reference, and uses a worker for them', () => {
    setHasher(name);
    configureThreads(1);
    const n = LAYER_THRESHOLD + 123;
    const input = pseudoRandom(64 * n, 7);
    const out = new Uint8Array(32 * n);
    hashInto(input, out);
    expect(liveWorkerCount()).toBe(1);
    expect(toHex(out)).toBe(toHex(referenceLayer(input)));
  });

  it('folds in place across the pool', () => {
    setHasher(name);
    configureThreads(1);
    const n = 2 * LAYER_THRESHOLD + 2;
    const buf = pseudoRandom(64 * n, 11);
    const expected = referenceLayer(buf);
    hashInto(buf, buf.subarray(0, 32 * n));
    expect(toHex(buf.subarray(0, 32 * n))).toBe(toHex(expected));
  });

  it('merkleizes many blocks to the same root with the pool on and off', () => {
    setHasher(name);
    fc.assert(
      fc.property(fc.integer({ min: 2 ** 15, max: 2 ** 17 + 77 }), fc.constantFrom(0n, 1n << 40n), (count, limit) => {
        const chunks = pseudoRandom(32 * count, count);
        const [off, on] = offAndOn(() => toHex(merkleize(chunks, limit === 0n ? count : limit)));
        expect(on).toBe(off);
      }),
      { numRuns: 4 },
    );
  });

  it('has an async variant with the same results', async () => {
    setHasher(name);
    configureThreads(1);
    const n = LAYER_THRESHOLD * 2 + 5;
    const input = pseudoRandom(64 * n, 3);
    const out = new Uint8Array(32 * n);
    await hashIntoAsync(input, out);
    expect(toHex(out)).toBe(toHex(referenceLayer(input)));
  });
});

describe('worker failure', () => {
  it('finishes a batch on the main thread when a worker dies mid-batch, and replaces it', () => {
    setHasher(initialHasher);
    configureThreads(1);
    const n = LAYER_THRESHOLD * 2;
    const input = pseudoRandom(64 * n, 5);
    const expected = toHex(referenceLayer(input));
    const out = new Uint8Array(32 * n);
    hashInto(input, out); // the worker is up
    expect(crashWorkerOnNextJob(0)).toBe(true);
    out.fill(0);
    hashInto(input, out); // its share is given up on and hashed here
    expect(toHex(out)).toBe(expected);
    out.fill(0);
    hashInto(input, out); // a replacement worker takes the next batch
    expect(toHex(out)).toBe(expected);
    expect(liveWorkerCount()).toBe(1);
  });

  it('merkleize survives a worker dying mid-fold', () => {
    setHasher(initialHasher);
    const chunks = pseudoRandom(32 * (2 ** 16 + 9), 9);
    const [expected] = offAndOn(() => toHex(merkleize(chunks, 2 ** 17)));
    merkleize(chunks, 2 ** 17);
    expect(crashWorkerOnNextJob(0)).toBe(true);
    expect(toHex(merkleize(chunks, 2 ** 17))).toBe(expected);
  });
});

describe('pool configuration', () => {
  it('can be turned off and sized', () => {
    configureThreads(0);
    expect(threadCount()).toBe(0);
    configureThreads(3);
    expect(threadCount()).toBe(3);
    for (const bad of [-1, 1.5, 65, Number.NaN]) expect(() => configureThreads(bad)).toThrowError(HasherError);
  });

  it('never keeps a process alive, and honours SSZTREE_THREADS', () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const script =
      "import('@ssztree/hasher').then((h) => { const n = 1 << 15; h.hashInto(new Uint8Array(64 * n), new Uint8Array(32 * n)); console.log(h.threadCount()); })";
    const started = Date.now();
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--conditions=source', '-e', script], {
      cwd: root,
      env: { ...process.env, SSZTREE_THREADS: '2' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.trim()).toBe('2');
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
