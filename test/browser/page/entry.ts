/**
 * The test page's script (bundled by `../harness.ts` for the browser, from
 * the packages' TypeScript sources). It runs on load, in the page's own
 * realm — so the page's Content-Security-Policy applies to everything the
 * library does — and leaves its report in `globalThis.__report` (or the
 * error in `globalThis.__failure`) for the test to fetch.
 *
 * Modes (`?mode=`): `main` (backend selection, consensus roots with js and
 * wasm, the Web Worker pool), `csp` (roots only; served under a CSP without
 * 'unsafe-eval'), `bench` (pool on vs off, interleaved).
 */
import { configureThreads, configureWorkerUrl, getBackend, getHasher, hashInto, hashIntoAsync, initHasher, listHashers, poolStats } from '@ssztree/hasher';
import { fromHex, SszType, toHex } from '@ssztree/types';
import { minimal } from '@ssztree/types/consensus';
import { crashWorkerOnNextJob, LAYER_THRESHOLD } from '../../../packages/hasher/src/parallel/pool.js';
import { codegenAvailable } from '../../../packages/types/src/schema/containerCodegen.js';
import { layerInput } from './layer.js';

/** One serialized value sent by the test: a container of `minimal[fork]`. */
interface Case {
  readonly fork: string;
  readonly name: string;
  readonly hex: string;
}

interface CaseResult {
  readonly root: string;
  readonly treeRoot: string;
  readonly reencoded: string;
}

type Global = typeof globalThis & { __report?: unknown; __failure?: string; crossOriginIsolated?: boolean; location: { search: string } };
const g = globalThis as Global;

function typeOf(c: Case): SszType<unknown> {
  return (minimal as unknown as Record<string, Record<string, SszType<unknown>>>)[c.fork]![c.name]!;
}

function runCases(cases: readonly Case[]): CaseResult[] {
  return cases.map((c) => {
    const type = typeOf(c);
    const value = type.deserialize(fromHex(c.hex));
    const tree = type.toTree(value);
    const result = { root: toHex(type.hashTreeRoot(value)), treeRoot: toHex(tree.root), reencoded: toHex(type.serialize(value)) };
    tree.dispose();
    return result;
  });
}

async function poolChecks(): Promise<Record<string, unknown>> {
  const n = 2 * LAYER_THRESHOLD + 5;
  const input = layerInput(n);
  const reference = new Uint8Array(32 * n);
  getBackend('noble').hashInto(input, reference);
  const out: Record<string, unknown> = { reference: toHex(reference) };
  const same = (a: Uint8Array) => toHex(a) === out.reference;

  for (const backend of ['wasm', 'js'] as const) {
    await initHasher(backend);
    configureThreads(2);
    const before = poolStats();
    const pooled = new Uint8Array(32 * n);
    await hashIntoAsync(input, pooled);
    const afterAsync = poolStats();
    const sync = new Uint8Array(32 * n);
    hashInto(input, sync);
    const afterSync = poolStats();
    // A worker that dies mid-job: its share is hashed on the main thread after the timeout.
    crashWorkerOnNextJob(0);
    const crashed = new Uint8Array(32 * n);
    await hashIntoAsync(input, crashed);
    const afterCrash = poolStats();
    out[backend] = {
      pooledSame: same(pooled),
      jobsByWorkers: afterAsync.jobsDone - before.jobsDone,
      liveWorkers: afterAsync.liveWorkers,
      syncSame: same(sync),
      syncJobsByWorkers: afterSync.jobsDone - afterAsync.jobsDone,
      crashedSame: same(crashed),
      recoveredAfterCrash: afterCrash.jobsRecovered - afterSync.jobsRecovered,
    };
  }

  // A worker script that does not exist: every worker fails to start, the main thread does the work.
  configureWorkerUrl(new URL('/missing-hashWorker.js', import.meta.url));
  configureThreads(2);
  const before = poolStats();
  const fallback = new Uint8Array(32 * n);
  await hashIntoAsync(input, fallback);
  const after = poolStats();
  out.failedStart = { same: same(fallback), jobsByWorkers: after.jobsDone - before.jobsDone, liveWorkers: after.liveWorkers };
  configureWorkerUrl(undefined);

  // An engine without Atomics.waitAsync: async callers hash on the main thread instead of throwing.
  configureThreads(2);
  const atomics = Atomics as { waitAsync?: unknown };
  const waitAsync = atomics.waitAsync;
  atomics.waitAsync = undefined;
  try {
    const beforeNoWait = poolStats();
    const noWait = new Uint8Array(32 * n);
    await hashIntoAsync(input, noWait);
    out.noWaitAsync = { same: same(noWait), jobsByWorkers: poolStats().jobsDone - beforeNoWait.jobsDone };
  } catch (e) {
    out.noWaitAsync = { threw: String(e) };
  } finally {
    atomics.waitAsync = waitAsync;
  }
  configureThreads(0);
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

/** hashIntoAsync with one Web Worker against the backend alone (pool off), round by round. */
async function bench(): Promise<Record<string, unknown>> {
  const backend = new URLSearchParams(g.location.search).get('backend') ?? 'wasm';
  await initHasher(backend as 'wasm' | 'js');
  configureThreads(1);
  const results: Record<string, unknown> = { backend, cores: (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency };
  for (const log2 of [14, 16, 18]) {
    const n = 1 << log2;
    const input = layerInput(n);
    const out = new Uint8Array(32 * n);
    await hashIntoAsync(input, out); // starts the worker, warms up
    const off: number[] = [];
    const on: number[] = [];
    for (let round = 0; round < 7; round++) {
      let t = performance.now();
      getBackend(backend as 'wasm').hashInto(input, out);
      off.push(performance.now() - t);
      t = performance.now();
      await hashIntoAsync(input, out);
      on.push(performance.now() - t);
    }
    results[`2^${log2}`] = { offMs: median(off), onMs: median(on), speedup: median(off) / median(on) };
  }
  results.jobsByWorkers = poolStats().jobsDone;
  configureThreads(0);
  return results;
}

async function main(): Promise<unknown> {
  const mode = new URLSearchParams(g.location.search).get('mode') ?? 'main';
  if (mode === 'bench') return bench();
  const cases = (await (await fetch('/cases.json')).json()) as Case[];
  const report: Record<string, unknown> = {
    mode,
    crossOriginIsolated: g.crossOriginIsolated === true,
    sharedArrayBuffer: typeof SharedArrayBuffer === 'function',
    codegen: codegenAvailable(),
    generatedCodec: (minimal.deneb.BeaconState as unknown as { codec: { generated: boolean } }).codec.generated,
    // What synchronous first use gets here: wasm cannot compile synchronously on a main thread.
    firstChoice: getHasher(),
    hashers: listHashers(),
  };
  report.initChoice = await initHasher();
  for (const backend of ['js', 'wasm'] as const) {
    await initHasher(backend);
    report[backend] = runCases(cases);
  }
  if (mode === 'main') report.pool = await poolChecks();
  return report;
}

main().then(
  (report) => {
    g.__report = report;
  },
  (error: unknown) => {
    g.__failure = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
  },
);
