/**
 * A hashing worker thread: loads the same backend as the main thread, then
 * sleeps on its control slot and runs the jobs it is given (see
 * `protocol.ts`). It never touches memory other than its own staging buffers.
 * The same entry serves as a browser Web Worker (`browserWorker.ts`) where
 * there is no Node `process`.
 * @module
 */
import type { HasherBackend, HasherName } from '../backend.js';
import { createAvx512Backend } from '../backends/avx512.js';
import { createHashtreeBackend } from '../backends/hashtree.js';
import { createJsBackend } from '../backends/js.js';
import { createNobleBackend } from '../backends/noble.js';
import { createShaniBackend } from '../backends/shani.js';
import { createWasmBackend } from '../backends/wasm.js';
import { createAutoBackendHere } from '../dispatch/here.js';
import { runBrowserWorker } from './browserWorker.js';
import { runJob } from './job.js';
import {
  CRASH_ON_NEXT_JOB,
  READY,
  RUNNING,
  SHUTDOWN,
  SLOT_INTS,
  receive,
  SourceList,
  STAGING_GEN,
  STATE,
  type StagingMessage,
  type WorkerInit,
} from './protocol.js';

interface WorkerThreadsApi {
  readonly workerData: WorkerInit;
  readonly parentPort: object;
  receiveMessageOnPort(port: object): { message: StagingMessage } | undefined;
}

/** `auto` calibrates in the worker itself (a few ms, off the main thread). */
const FACTORIES: Record<HasherName, () => HasherBackend> = {
  auto: createAutoBackendHere,
  shani: createShaniBackend,
  avx512: createAvx512Backend,
  hashtree: createHashtreeBackend,
  wasm: () => createWasmBackend(),
  js: createJsBackend,
  noble: createNobleBackend,
};

function main(): void {
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown; exit(code: number): never } }).process!;
  const threads = proc.getBuiltinModule!('worker_threads') as WorkerThreadsApi;
  const { control, slot, backend: backendName } = threads.workerData;
  const ctl = new Int32Array(control);
  const base = slot * SLOT_INTS;
  const backend = FACTORIES[backendName as HasherName]();

  let gen = 0;
  const staging = { input: new Uint8Array(0), output: new Uint8Array(0) };
  const sources = new SourceList();

  Atomics.store(ctl, base + READY, 1);
  Atomics.notify(ctl, base + READY);

  for (;;) {
    // Sleep until a job starts (from IDLE, or DONE left from the last job) or shutdown.
    let state = Atomics.load(ctl, base + STATE);
    while (state !== RUNNING && state !== SHUTDOWN) {
      Atomics.wait(ctl, base + STATE, state);
      state = Atomics.load(ctl, base + STATE);
    }
    if (state === SHUTDOWN) return;
    if (Atomics.load(ctl, base + CRASH_ON_NEXT_JOB) !== 0) proc.exit(1);

    // Pick up replaced staging buffers and new sources: posted before the job was started.
    const wanted = Atomics.load(ctl, base + STAGING_GEN);
    while (gen !== wanted) {
      const received = threads.receiveMessageOnPort(threads.parentPort);
      if (received === undefined) break;
      gen = received.message.gen;
      receive(received.message, staging, sources);
    }

    runJob(ctl, base, backend, staging.input, staging.output, sources);
  }
}

if (typeof (globalThis as { process?: { getBuiltinModule?: unknown } }).process?.getBuiltinModule === 'function') main();
else runBrowserWorker(FACTORIES);
