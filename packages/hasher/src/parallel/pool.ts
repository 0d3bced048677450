/**
 * The hashing worker pool: persistent `worker_threads` that take shares of
 * large layers (and whole subtrees, for merkleize) while the main thread
 * hashes its own share. Synchronous callers stay synchronous — workers are
 * woken and awaited with `Atomics` — and an async variant awaits with
 * `Atomics.waitAsync` for callers that must not block. In a browser the
 * workers are Web Workers and only the async variant uses them (a browser
 * main thread may not block; see `workers.ts` and docs/BROWSER.md).
 *
 * Invariants:
 * - Only the main thread writes the caller's output. Workers hash copies of
 *   their shares in their own shared staging buffers (or read a caller's
 *   shared buffer in place, never writing it: `startFold`); the main thread copies
 *   a result out only after winning it with the RUNNING → DONE exchange (see
 *   `protocol.ts`), so a slow or dead worker can never corrupt a result.
 * - A worker that does not finish in time, exits or fails to start is
 *   retired and its share hashed on the main thread: results are the same
 *   bytes in every case. Replacements start lazily on a later call.
 * - An idle pool never keeps a process alive; an awaited async job does
 *   until it is collected (see `workers.ts`).
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { FOLD, LAYER } from './protocol.js';
import { collect, collectAsync, dispatch, dispatchShared, isDone, readyWorkers, readyWorkersAsync, type PoolWorker } from './workers.js';

/**
 * Layers below this many messages stay on the main thread: waking a worker,
 * copying its share and collecting the result costs more than it saves on
 * small layers. Measured with bench/parallel.ts (2 cores, hashtree, 1
 * worker, threshold lowered to 2^9 for the run, 5 rounds): 2^10 messages
 * ×0.39, 2^12 ×0.83, 2^14 ×1.35, 2^16 ×1.56 against the pool off — the
 * break-even lies between 2^12 and 2^14.
 */
export const LAYER_THRESHOLD = 1 << 13;
/** A worker slower than this (plus 20× the main thread's own share time) is presumed dead. */
const WAIT_FLOOR_MS = 1_000;
/** `startFold`'s allowance on top of WAIT_FLOOR_MS: 20 µs per message, far above any backend's rate (native ones hash one in ~25–40 ns). */
const WAIT_PER_MESSAGE_MS = 0.02;

/**
 * How many of `n` units the main thread keeps when `p` workers take the rest:
 * an equal share (plus the remainder). The main thread also copies the
 * workers' shares in and their results out, so a smaller main share looked
 * right on paper, but measured on 2 cores with hashtree (bench/parallel.ts,
 * 3 rounds each) an equal split was fastest: main-share fractions 0.44 /
 * 0.47 / 0.50 gave merkleize 2^22 ×1.65 / ×1.75 / ×1.80 and a 2^20 layer
 * ×1.41 / ×1.52 / ×1.59 over the pool off.
 */
function mainShare(n: number, p: number): number {
  return n - Math.floor(n / (p + 1)) * p;
}

interface Plan {
  readonly workers: PoolWorker[];
  readonly mainCount: number;
  readonly perWorker: number;
}

function plan(backend: HasherBackend, n: number, minimum: number): Plan | undefined {
  if (n < minimum) return undefined;
  return planFor(readyWorkers(backend.name), n);
}

function planFor(ws: PoolWorker[], n: number): Plan | undefined {
  if (ws.length === 0) return undefined;
  const mainCount = mainShare(n, ws.length);
  return { workers: ws, mainCount, perWorker: (n - mainCount) / ws.length };
}

/**
 * Hashes a layer across the pool and the main thread when it is large enough
 * and workers are available; returns false (having done nothing) otherwise.
 * Same contract as `HasherBackend.hashInto`.
 */
export function parallelHashInto(backend: HasherBackend, input: Uint8Array, output: Uint8Array): boolean {
  const p = plan(backend, output.length >>> 5, LAYER_THRESHOLD);
  if (p === undefined) return false;
  const timeout = startLayer(backend, p, input, output);
  p.workers.forEach((w, i) => finishLayer(backend, w, collect(w, timeout), output, 32 * (p.mainCount + i * p.perWorker), p.perWorker));
  return true;
}

/** The async variant of {@link parallelHashInto}: the main thread's share runs first, then it awaits the workers. */
export async function parallelHashIntoAsync(backend: HasherBackend, input: Uint8Array, output: Uint8Array): Promise<boolean> {
  const n = output.length >>> 5;
  // Re-checked after the await: a concurrent call may have taken a worker meanwhile.
  const p = n < LAYER_THRESHOLD ? undefined : planFor((await readyWorkersAsync(backend.name)).filter((w) => !w.busy && !w.retired), n);
  if (p === undefined) return false;
  const timeout = startLayer(backend, p, input, output);
  for (let i = 0; i < p.workers.length; i++) {
    const w = p.workers[i]!;
    finishLayer(backend, w, await collectAsync(w, timeout), output, 32 * (p.mainCount + i * p.perWorker), p.perWorker);
  }
  return true;
}

/**
 * Hands each worker its share, then hashes the main thread's own share;
 * returns how long to wait for the workers. Every worker's input is copied
 * to its staging before the main thread writes anything, so in-place
 * folding stays safe.
 */
function startLayer(backend: HasherBackend, p: Plan, input: Uint8Array, output: Uint8Array): number {
  const { workers: ws, mainCount, perWorker } = p;
  ws.forEach((w, i) => {
    const first = mainCount + i * perWorker;
    dispatch(w, LAYER, input.subarray(64 * first, 64 * (first + perWorker)), perWorker, 0);
  });
  const started = Date.now();
  backend.hashInto(input.subarray(0, 64 * mainCount), output.subarray(0, 32 * mainCount));
  return WAIT_FLOOR_MS + 20 * (Date.now() - started);
}

function finishLayer(backend: HasherBackend, w: PoolWorker, done: boolean, output: Uint8Array, at: number, count: number): void {
  const target = output.subarray(at, at + 32 * count);
  if (done) target.set(w.output.subarray(0, 32 * count));
  // The share is still intact in the worker's staging: hash it here instead.
  else backend.hashInto(w.input.subarray(0, 64 * count), target);
}

/**
 * Folds `blocks` consecutive subtrees of 2^height chunks each (from `chunks`)
 * to their roots, written to `roots` (32 bytes each), across the pool and the
 * main thread; `foldOnMain(first, count)` folds blocks on the main thread.
 * Returns false (having done nothing) when the pool does not take the work
 * (off, no ready worker, or fewer than `minBlocks` blocks).
 */
export function parallelFoldBlocks(
  backend: HasherBackend,
  chunks: Uint8Array,
  blocks: number,
  height: number,
  roots: Uint8Array,
  foldOnMain: (first: number, count: number) => void,
  minBlocks = 2,
): boolean {
  const p = plan(backend, blocks, minBlocks);
  if (p === undefined) return false;
  const { workers: ws, mainCount, perWorker } = p;
  const blockBytes = 32 << height;
  ws.forEach((w, i) => {
    const first = mainCount + i * perWorker;
    dispatch(w, FOLD, chunks.subarray(blockBytes * first, blockBytes * (first + perWorker)), perWorker, height);
  });
  const started = Date.now();
  foldOnMain(0, mainCount);
  const timeout = WAIT_FLOOR_MS + 20 * (Date.now() - started);
  ws.forEach((w, i) => {
    const first = mainCount + i * perWorker;
    if (collect(w, timeout)) roots.set(w.output.subarray(0, 32 * perWorker), 32 * first);
    else foldOnMain(first, perWorker);
  });
  return true;
}

/** A fold handed to a worker by {@link startFold}, collected by `wait`. */
export interface PendingFold {
  /** Whether the worker has finished (a `wait` now would not block). */
  readonly done: boolean;
  /** Blocks until the roots are in place (folded here instead if the worker failed); later calls do nothing. */
  wait(): void;
}

/**
 * Hands the fold of `blocks` subtrees of 2^height chunks (from `chunks`) to
 * one idle worker and returns at once; the roots are written to `roots` by
 * the returned job's `wait`. Chunks in a SharedArrayBuffer are read by the
 * worker where they are; others are copied to its staging first. Either
 * way the caller leaves `chunks` unchanged until `wait` returns: a worker
 * that fails is retired and the fold done by `foldHere()` from them.
 * Undefined (having done nothing) when no worker is ready and idle.
 */
export function startFold(
  backend: HasherBackend,
  chunks: Uint8Array,
  blocks: number,
  height: number,
  roots: Uint8Array,
  foldHere: () => void,
): PendingFold | undefined {
  const w = readyWorkers(backend.name)[0];
  if (w === undefined) return undefined;
  if (typeof SharedArrayBuffer !== 'undefined' && chunks.buffer instanceof SharedArrayBuffer) dispatchShared(w, chunks, blocks, height);
  else dispatch(w, FOLD, chunks, blocks, height);
  // Independent of how long the caller takes to come back for it (it may do much else meanwhile).
  const timeout = WAIT_FLOOR_MS + WAIT_PER_MESSAGE_MS * blocks * ((1 << height) - 1);
  let waited = false;
  return {
    get done() {
      return waited || isDone(w);
    },
    wait() {
      if (waited) return;
      waited = true;
      if (collect(w, timeout)) roots.set(w.output.subarray(0, 32 * blocks));
      else foldHere();
    },
  };
}

export { configureThreads, crashWorkerOnNextJob, defaultThreadCount, liveWorkerCount, poolStats, shutdownPool, threadCount, type PoolStats } from './workers.js';
