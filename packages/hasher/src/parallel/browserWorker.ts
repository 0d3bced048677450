/**
 * The hashing worker as a browser Web Worker (module worker). Same protocol
 * and jobs as the `worker_threads` worker (`worker.ts`, `job.ts`), with two
 * differences a browser imposes:
 * - there is no `workerData`: the first message is the `WorkerInit`;
 * - messages (replaced staging buffers, sources) are delivered only between tasks, so
 *   the worker sleeps with `Atomics.waitAsync` (the event loop keeps running)
 *   rather than `Atomics.wait`, and a job that needs staging not yet received
 *   awaits that message before it runs.
 *
 * Invariant: a job runs only on the staging generation the main thread
 * posted for it (STAGING_GEN), never on older buffers.
 * @module
 */
import type { HasherBackend, HasherName } from '../backend.js';
import { runJob } from './job.js';
import { CRASH_ON_NEXT_JOB, READY, receive, RUNNING, SHUTDOWN, SLOT_INTS, SourceList, STAGING_GEN, STATE, type StagingMessage, type WorkerInit } from './protocol.js';

/** The parts of a dedicated worker's global scope used here (the project compiles without DOM types). */
interface WorkerScope {
  onmessage: ((event: { data: unknown }) => void) | null;
  close(): void;
}

type WaitAsync = (ctl: Int32Array, index: number, value: number) => { async: boolean; value: Promise<string> | string };

export function runBrowserWorker(factories: Record<HasherName, () => HasherBackend>): void {
  const scope = globalThis as unknown as WorkerScope;
  const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;
  const staged: StagingMessage[] = [];
  let wake: (() => void) | undefined;

  scope.onmessage = (event) => {
    const data = event.data as { init?: WorkerInit } & Partial<StagingMessage>;
    if (data.init !== undefined) {
      void serve(data.init).catch(() => scope.close());
    } else {
      staged.push(data as StagingMessage);
      wake?.();
    }
  };

  async function serve(init: WorkerInit): Promise<void> {
    const ctl = new Int32Array(init.control);
    const base = init.slot * SLOT_INTS;
    // Workers may compile WebAssembly synchronously at any size.
    const backend = factories[init.backend as HasherName]();
    let gen = 0;
    const staging = { input: new Uint8Array(0), output: new Uint8Array(0) };
    const sources = new SourceList();

    Atomics.store(ctl, base + READY, 1);
    Atomics.notify(ctl, base + READY);

    for (;;) {
      let state = Atomics.load(ctl, base + STATE);
      while (state !== RUNNING && state !== SHUTDOWN) {
        const waited = waitAsync(ctl, base + STATE, state);
        if (waited.async) await waited.value;
        state = Atomics.load(ctl, base + STATE);
      }
      // A crash on request (tests) looks like a shutdown from here: the worker just stops.
      if (state === SHUTDOWN || Atomics.load(ctl, base + CRASH_ON_NEXT_JOB) !== 0) {
        scope.close();
        return;
      }
      const wanted = Atomics.load(ctl, base + STAGING_GEN);
      while (gen !== wanted) {
        const message = staged.shift();
        if (message === undefined) {
          // Posted before the job started, so it is on its way: wait for its delivery.
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
          continue;
        }
        gen = message.gen;
        receive(message, staging, sources);
      }
      runJob(ctl, base, backend, staging.input, staging.output, sources);
    }
  }
}
