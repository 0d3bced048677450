/**
 * The pool's workers: their lifecycle (sized from the cores or configured,
 * started lazily, unref'd, retired when they fail) and the handshake that
 * hands one worker one job and collects it (see `protocol.ts`). Which work
 * goes to which worker is `pool.ts`'s business.
 *
 * Invariants:
 * - A worker's result is used only if the worker wins the RUNNING → DONE
 *   exchange; a worker given up on (RUNNING → SHUTDOWN) is retired and never
 *   used again, and its replacement takes a fresh slot.
 * - A worker with a job in flight is `busy` and never handed another, even
 *   when the main thread's own share calls back into the pool.
 * - An idle pool never keeps a process alive; an async caller's pending
 *   work always does. Workers are unref'd while idle; each async wait (a
 *   job in flight, or a worker's start-up awaited) holds its worker ref'd
 *   until the wait ends. `Atomics.waitAsync` alone keeps nothing alive in
 *   Node: without the hold, a process whose only pending work is an awaited
 *   `hashIntoAsync` would exit mid-await (code 13 as an ES module, silently
 *   skipping the rest as CommonJS).
 * - In a browser the workers are Web Workers (`browserApi.ts`) and only the
 *   async path uses them: a browser main thread may not block in
 *   `Atomics.wait`, so synchronous callers there stay single-threaded.
 * @module
 */
import { HasherError } from '../errors.js';
import {
  COUNT,
  FOLD,
  CRASH_ON_NEXT_JOB,
  DONE,
  HEIGHT,
  KEPT_SOURCES,
  KIND,
  OFFSET,
  READY,
  RUNNING,
  SHUTDOWN,
  SLOT_INTS,
  SOURCE,
  STAGING_GEN,
  STATE,
  type StagingMessage,
  type WorkerInit,
} from './protocol.js';
import { startWebWorker } from './browserApi.js';
import { availableCores, nodeWorkerThreads, workerExecArgv, type NodeWorker, type NodeWorkerThreads } from './nodeApi.js';

/** Slots ever handed out (replacements take fresh slots); the pool degrades gracefully past it. */
const MAX_SLOTS = 256;
/** Most workers the default size starts, whatever the core count. */
const DEFAULT_MAX_WORKERS = 7;
/** How long the first parallel call waits for workers to load their backend. */
const BOOT_WAIT_MS = 5_000;

export interface PoolWorker {
  readonly slot: number;
  readonly worker: NodeWorker;
  retired: boolean;
  /** Has a job in flight: the main thread's own share may itself call into the pool, which must skip it. */
  busy: boolean;
  gen: number;
  input: Uint8Array;
  output: Uint8Array;
  /** Async waits on this worker in progress; while above zero the worker is ref'd (keeps the process alive). */
  holds: number;
  /** Ids of the sources this worker keeps, oldest first: the mirror of its `SourceList` (protocol.ts). */
  sources: number[];
}

let requestedThreads: number | undefined;
let control: Int32Array | undefined;
let workers: PoolWorker[] = [];
let poolBackend: string | undefined;
let nextSlot = 0;
let bootDeadline = 0;
let jobsDone = 0;
let jobsRecovered = 0;

function envThreads(): number | undefined {
  const raw = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SSZTREE_THREADS;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Whether the pool runs without being asked: no. Measured on an idle 2-core
 * AMD EPYC with one worker (`npm run bench:parallel -- --rounds 5 --threads
 * 0,1`, paired by round): merkleize 2^22 ×1.64 and single layers of
 * 2^16–2^20 messages ×1.65–1.71, an epoch's balances ×1.27; a 2^20
 * validator list from bytes (its record build pipelined over the worker,
 * core build/recordTrees.ts) ×1.42–1.51 on a shared machine with the second
 * core mostly free, ×0.99 with another process on it; on the mainnet-realistic state
 * (`npm run bench:realistic -- --threads 1`) a load, a block and an epoch
 * moved by less than their spread, and with another job on the second core
 * big layers ran 0.73–0.88×. `configureThreads()` or `SSZTREE_THREADS` turn it on.
 */
const ON_BY_DEFAULT = false;

/** The default pool size: one fewer than the cores, so the main thread has one too. */
export function defaultThreadCount(): number {
  return Math.min(Math.max(availableCores() - 1, 0), DEFAULT_MAX_WORKERS);
}

/** Worker threads the pool runs besides the main thread (0 = off). */
export function threadCount(): number {
  const requested = requestedThreads ?? envThreads();
  if (requested !== undefined) return requested;
  return ON_BY_DEFAULT ? defaultThreadCount() : 0;
}

/**
 * Sets how many worker threads hash besides the main thread: 0 turns the
 * pool off; {@link defaultThreadCount} is one fewer than
 * `os.availableParallelism()` (at most 7). `SSZTREE_THREADS` sets it from the
 * environment. Running workers are stopped; new ones start lazily.
 */
export function configureThreads(threads: number): void {
  if (!Number.isInteger(threads) || threads < 0 || threads > 64) {
    throw new HasherError('LENGTH_RANGE', `configureThreads: expected an integer in 0..64, got ${threads}`);
  }
  requestedThreads = threads;
  shutdownPool();
}

/** Stops every worker (they are unref'd, so this is never needed to exit). */
export function shutdownPool(): void {
  for (const w of workers) retire(w);
  workers = [];
  poolBackend = undefined;
}

function retire(w: PoolWorker): void {
  if (w.retired) return;
  w.retired = true;
  const ctl = control!;
  Atomics.store(ctl, w.slot * SLOT_INTS + STATE, SHUTDOWN);
  Atomics.notify(ctl, w.slot * SLOT_INTS + STATE);
  // Wakes an async wait for this worker's start-up: it will never come.
  Atomics.notify(ctl, w.slot * SLOT_INTS + READY);
  void w.worker.terminate().catch(() => undefined);
}

function spawn(backend: string): PoolWorker | undefined {
  if (nextSlot >= MAX_SLOTS || typeof SharedArrayBuffer === 'undefined') return undefined;
  control ??= new Int32Array(new SharedArrayBuffer(4 * SLOT_INTS * MAX_SLOTS));
  const slot = nextSlot++;
  const init: WorkerInit = { control: control.buffer as SharedArrayBuffer, slot, backend };
  const threads = nodeWorkerThreads();
  // Node's worker_threads, else Web Workers (a cross-origin isolated page), else none.
  const worker = threads !== undefined ? startNodeWorker(threads, init) : startWebWorker(init);
  return worker === undefined ? undefined : track(slot, worker);
}

function startNodeWorker(threads: NodeWorkerThreads, init: WorkerInit): NodeWorker | undefined {
  const here = import.meta.url;
  try {
    if (here.endsWith('.ts')) {
      // Running from TypeScript sources (tests, benchmarks under tsx): the
      // worker registers tsx before importing its entry.
      const entry = JSON.stringify(new URL('./worker.ts', here).href);
      const boot = `import('tsx/esm/api').then((api) => { api.register(); return import(${entry}); })`;
      return new threads.Worker(boot, { eval: true, workerData: init, execArgv: workerExecArgv() });
    }
    // Built package: the worker is its own entry beside the bundle.
    const entry = new URL(here.endsWith('.cjs') ? './hashWorker.cjs' : './hashWorker.js', here);
    return new threads.Worker(entry, { workerData: init, execArgv: workerExecArgv() });
  } catch {
    return undefined;
  }
}

function track(slot: number, worker: NodeWorker): PoolWorker {
  const w: PoolWorker = { slot, worker, retired: false, busy: false, gen: 0, input: new Uint8Array(0), output: new Uint8Array(0), holds: 0, sources: [] };
  worker.unref();
  worker.on('error', () => retire(w));
  worker.on('exit', () => retire(w));
  return w;
}

/** Starts or replaces workers up to the configured count; false when the pool is off. */
function startWorkers(backend: string): boolean {
  const wanted = threadCount();
  if (wanted === 0) return false;
  if (poolBackend !== backend) {
    shutdownPool();
    poolBackend = backend;
    bootDeadline = Date.now() + BOOT_WAIT_MS;
  }
  workers = workers.filter((w) => !w.retired);
  while (workers.length < wanted) {
    const w = spawn(backend);
    if (w === undefined) break;
    workers.push(w);
  }
  return control !== undefined;
}

function isReady(ctl: Int32Array, w: PoolWorker): boolean {
  return Atomics.load(ctl, w.slot * SLOT_INTS + READY) === 1 && !w.retired && !w.busy;
}

/**
 * The workers ready for jobs with `backend`, starting or replacing them as
 * needed, for callers that may block. None where blocking is not allowed
 * (outside Node's worker_threads: a browser main thread).
 */
export function readyWorkers(backend: string): PoolWorker[] {
  if (nodeWorkerThreads() === undefined || !startWorkers(backend)) return [];
  const ctl = control!;
  const ready: PoolWorker[] = [];
  for (const w of workers) {
    const at = w.slot * SLOT_INTS + READY;
    // Only the first calls wait for start-up; after the deadline, unready workers are skipped.
    const remaining = bootDeadline - Date.now();
    if (Atomics.load(ctl, at) === 0 && remaining > 0) Atomics.wait(ctl, at, 0, remaining);
    if (isReady(ctl, w)) ready.push(w);
  }
  return ready;
}

/**
 * Runs `wait` with `w` ref'd, so the process stays alive until the wait
 * ends; the worker is unref'd again once no async wait holds it.
 */
async function holding<T>(w: PoolWorker, wait: () => Promise<T>): Promise<T> {
  if (w.holds++ === 0) w.worker.ref();
  try {
    return await wait();
  } finally {
    if (--w.holds === 0) w.worker.unref();
  }
}

/**
 * {@link readyWorkers} for async callers: waits for start-up without blocking
 * (Node and browsers). None in an engine without `Atomics.waitAsync` (not
 * every browser has it): a result could then only be awaited by polling or
 * blocking, so async callers there hash on the main thread.
 */
export async function readyWorkersAsync(backend: string): Promise<PoolWorker[]> {
  if (typeof (Atomics as { waitAsync?: unknown }).waitAsync !== 'function' || !startWorkers(backend)) return [];
  const ctl = control!;
  const ready: PoolWorker[] = [];
  for (const w of [...workers]) {
    const at = w.slot * SLOT_INTS + READY;
    const remaining = bootDeadline - Date.now();
    if (Atomics.load(ctl, at) === 0 && remaining > 0 && !w.retired) {
      const waited = waitAsync(ctl, at, 0, remaining);
      if (waited.async) await holding(w, () => waited.value as Promise<string>);
    }
    if (isReady(ctl, w)) ready.push(w);
  }
  return ready;
}

/** Grows a worker's staging buffers to hold `inputBytes` (and half as much output). */
function ensureStaging(w: PoolWorker, inputBytes: number): void {
  if (w.input.length >= inputBytes) return;
  const size = Math.max(inputBytes, 2 * w.input.length);
  const message: StagingMessage = { gen: ++w.gen, input: new SharedArrayBuffer(size), output: new SharedArrayBuffer(size >>> 1) };
  w.input = new Uint8Array(message.input);
  w.output = new Uint8Array(message.output);
  w.worker.postMessage(message);
  Atomics.store(control!, w.slot * SLOT_INTS + STAGING_GEN, w.gen);
}

/** Ids of callers' shared buffers, for `dispatchShared`. */
const sourceIds = new WeakMap<SharedArrayBuffer, number>();
let nextSourceId = 1;

/** Posts `buffer` to `w` as a source unless it keeps it already; returns its id. */
function ensureSource(w: PoolWorker, buffer: SharedArrayBuffer): number {
  let id = sourceIds.get(buffer);
  if (id === undefined) {
    id = nextSourceId++;
    sourceIds.set(buffer, id);
  }
  if (w.sources.includes(id)) return id;
  // The worker drops its oldest source the same way (SourceList).
  w.sources.push(id);
  if (w.sources.length > KEPT_SOURCES) w.sources.shift();
  const message: StagingMessage = { gen: ++w.gen, sourceId: id, source: buffer };
  w.worker.postMessage(message);
  Atomics.store(control!, w.slot * SLOT_INTS + STAGING_GEN, w.gen);
  return id;
}

export function dispatch(w: PoolWorker, kind: number, src: Uint8Array, count: number, height: number): void {
  w.busy = true;
  ensureStaging(w, src.length);
  w.input.set(src);
  start(w, kind, count, height, 0, 0);
}

/**
 * `dispatch` of a FOLD whose input the worker reads in place from `src`, a
 * view of a SharedArrayBuffer: nothing is copied, and the caller must not
 * write `src` until the job is collected.
 */
export function dispatchShared(w: PoolWorker, src: Uint8Array, count: number, height: number): void {
  w.busy = true;
  // The output staging is half the input staging's size.
  ensureStaging(w, src.length);
  start(w, FOLD, count, height, ensureSource(w, src.buffer as SharedArrayBuffer), src.byteOffset);
}

function start(w: PoolWorker, kind: number, count: number, height: number, source: number, offset: number): void {
  const base = w.slot * SLOT_INTS;
  const ctl = control!;
  Atomics.store(ctl, base + SOURCE, source);
  Atomics.store(ctl, base + OFFSET, offset);
  Atomics.store(ctl, base + KIND, kind);
  Atomics.store(ctl, base + COUNT, count);
  Atomics.store(ctl, base + HEIGHT, height);
  Atomics.store(ctl, base + STATE, RUNNING);
  Atomics.notify(ctl, base + STATE);
}

/** Whether a worker's job in flight has finished (collecting it would not block). */
export function isDone(w: PoolWorker): boolean {
  return Atomics.load(control!, w.slot * SLOT_INTS + STATE) === DONE;
}

/** Waits for a worker's job; true if its result may be used, false if it was given up (and the worker retired). */
export function collect(w: PoolWorker, timeoutMs: number): boolean {
  try {
    return waitForJob(w, timeoutMs);
  } finally {
    w.busy = false;
  }
}

function waitForJob(w: PoolWorker, timeoutMs: number): boolean {
  const ctl = control!;
  const at = w.slot * SLOT_INTS + STATE;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = Atomics.load(ctl, at);
    if (state === DONE) return ++jobsDone > 0;
    const remaining = deadline - Date.now();
    if (state !== RUNNING || remaining <= 0) return giveUp(w);
    Atomics.wait(ctl, at, RUNNING, remaining);
  }
}

/** {@link collect} for async callers: the job in flight keeps the process alive until it is collected. */
export async function collectAsync(w: PoolWorker, timeoutMs: number): Promise<boolean> {
  try {
    return await holding(w, () => waitForJobAsync(w, timeoutMs));
  } finally {
    w.busy = false;
  }
}

async function waitForJobAsync(w: PoolWorker, timeoutMs: number): Promise<boolean> {
  const ctl = control!;
  const at = w.slot * SLOT_INTS + STATE;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = Atomics.load(ctl, at);
    if (state === DONE) return ++jobsDone > 0;
    const remaining = deadline - Date.now();
    if (state !== RUNNING || remaining <= 0) return giveUp(w);
    const waited = waitAsync(ctl, at, RUNNING, remaining);
    if (waited.async) await waited.value;
  }
}

/** `Atomics.waitAsync` (ES2024; in Node since 16), typed here as the project targets ES2023. */
function waitAsync(ctl: Int32Array, index: number, value: number, timeoutMs: number): { async: boolean; value: Promise<string> | string } {
  return (Atomics as unknown as { waitAsync: typeof waitAsync }).waitAsync(ctl, index, value, timeoutMs);
}

function giveUp(w: PoolWorker): boolean {
  const at = w.slot * SLOT_INTS + STATE;
  // Lost the race to a worker that just finished: its result is good.
  if (Atomics.compareExchange(control!, at, RUNNING, SHUTDOWN) === DONE) return true;
  retire(w);
  jobsRecovered++;
  return false;
}

/**
 * Test hook (fault injection, not part of the public API): the index-th
 * worker exits as soon as it picks up its next job, as a crashed thread would.
 */
export function crashWorkerOnNextJob(index: number): boolean {
  const w = workers.filter((x) => !x.retired)[index];
  if (w === undefined || control === undefined) return false;
  Atomics.store(control, w.slot * SLOT_INTS + CRASH_ON_NEXT_JOB, 1);
  return true;
}

/** Workers currently running (not retired); for tests and diagnostics. */
export function liveWorkerCount(): number {
  return workers.filter((w) => !w.retired).length;
}

export interface PoolStats {
  /** Worker threads the pool is configured to run (0 = off). */
  readonly threads: number;
  /** Workers started and not retired. */
  readonly liveWorkers: number;
  /** Shares hashed by workers since the process started. */
  readonly jobsDone: number;
  /** Shares a worker failed to deliver in time, hashed on the main thread instead. */
  readonly jobsRecovered: number;
}

/** What the pool has done so far: for diagnostics and tests. */
export function poolStats(): PoolStats {
  return { threads: threadCount(), liveWorkers: liveWorkerCount(), jobsDone, jobsRecovered };
}

