/**
 * The pool and the process's lifetime, in real child processes: an awaited
 * async job keeps the program running to its end (as an ES module and as
 * CommonJS, from the sources and from the built bundles), and an idle pool
 * never keeps it alive afterwards.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtHasher } from './builtPackage.js';
import { referenceLayer, toHex } from './reference.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Messages per layer: above the pool's threshold, so the workers take shares. */
const N = 1 << 15;
/** Generous: a child that hangs instead of exiting fails on this, not on vitest's timeout. */
const EXIT_WITHIN_MS = 30_000;

/**
 * The program body, the same in every module format: `h` is the hasher's
 * namespace. Awaits the pool several ways and prints a line after each await;
 * the last line is the hash of every result, so a skipped await shows.
 */
const BODY = `
  const n = ${N};
  const input = new Uint8Array(64 * n).map((_, i) => (i * 31 + 7) & 255);
  const out = () => new Uint8Array(32 * n);
  h.configureThreads(1);
  const first = out();
  await h.hashIntoAsync(input, first); // the worker starts during this await
  console.log('after first');
  const second = out();
  await h.hashIntoAsync(input, second); // a warm worker
  console.log('after second');
  h.configureThreads(2);
  const both = [out(), out(), out()];
  await Promise.all(both.map((o) => h.hashIntoAsync(input, o))); // concurrent callers share the pool
  console.log('after concurrent');
  const inPlace = input.slice();
  await h.hashIntoAsync(inPlace, inPlace.subarray(0, 32 * n)); // an in-place fold
  console.log('after in place');
  const results = [first, second, ...both, inPlace.subarray(0, 32 * n)];
  const same = results.every((r) => Buffer.compare(Buffer.from(r), Buffer.from(first)) === 0);
  console.log('workers', h.poolStats().jobsDone > 0, 'same', same, Buffer.from(first.subarray(0, 32)).toString('hex'));
`;

/** The program's last line when every await completed: the first message's hash, from the reference model. */
function expectedLastLine(): string {
  const firstMessage = new Uint8Array(64).map((_, i) => (i * 31 + 7) & 255);
  return `workers true same true ${toHex(referenceLayer(firstMessage))}`;
}

function runChild(args: string[]): { code: number | null; lines: string[]; err: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: EXIT_WITHIN_MS, env: { ...process.env, SSZTREE_THREADS: '' } });
  return { code: r.status, lines: r.stdout.trim().split('\n'), err: r.stderr, ms: Date.now() - started };
}

const EXPECTED_LINES = ['after first', 'after second', 'after concurrent', 'after in place'];

function expectRanToTheEnd(r: ReturnType<typeof runChild>): void {
  expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
  expect(r.lines).toEqual([...EXPECTED_LINES, expectedLastLine()]);
  // Exited by itself (an idle pool holds nothing): well before the kill timeout.
  expect(r.ms).toBeLessThan(EXIT_WITHIN_MS);
}

describe('an awaited hashIntoAsync keeps the process alive; an idle pool does not', () => {
  let built: { esm: string; cjs: string };
  beforeAll(() => {
    built = builtHasher();
  }, 120_000);

  it('an ES module from the sources (tsx)', () => {
    const program = `const h = await import('@ssztree/hasher');${BODY}`;
    expectRanToTheEnd(runChild(['--import', 'tsx', '--conditions=source', '--input-type=module', '-e', program]));
  });

  it('an ES module from the built bundle', () => {
    const program = `const h = await import(${JSON.stringify(pathToFileURL(built.esm).href)});${BODY}`;
    expectRanToTheEnd(runChild(['--input-type=module', '-e', program]));
  });

  it('a CommonJS program from the built bundle', () => {
    const program = `const h = require(${JSON.stringify(built.cjs)}); (async () => {${BODY}})();`;
    expectRanToTheEnd(runChild(['--input-type=commonjs', '-e', program]));
  });

  it('an idle pool after synchronous and async hashing lets the process exit at once', () => {
    const program = `const h = require(${JSON.stringify(built.cjs)});
      h.configureThreads(1);
      const n = ${N};
      h.hashInto(new Uint8Array(64 * n), new Uint8Array(32 * n));
      h.hashIntoAsync(new Uint8Array(64 * n), new Uint8Array(32 * n)).then(() => console.log(h.poolStats().liveWorkers));`;
    const r = runChild(['-e', program]);
    expect({ code: r.code, lines: r.lines, err: r.err }).toEqual({ code: 0, lines: ['1'], err: '' });
    // Nothing waits on the live worker: the process ends in start-up time, not at a timeout.
    expect(r.ms).toBeLessThan(10_000);
  });
});
