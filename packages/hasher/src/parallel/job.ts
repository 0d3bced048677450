/**
 * One job in a worker, the same for `worker_threads` and Web Workers: reads
 * the job fields from the control slot, hashes staging to staging, and
 * publishes with the RUNNING → DONE exchange (see `protocol.ts`).
 *
 * Invariant: touches only the worker's own staging buffers and control slot.
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { COUNT, DONE, FOLD, HEIGHT, KIND, LAYER, RUNNING, STATE } from './protocol.js';

export function runJob(ctl: Int32Array, base: number, backend: HasherBackend, input: Uint8Array, output: Uint8Array): void {
  const kind = Atomics.load(ctl, base + KIND);
  const count = Atomics.load(ctl, base + COUNT);
  if (kind === LAYER) {
    backend.hashInto(input.subarray(0, 64 * count), output.subarray(0, 32 * count));
  } else if (kind === FOLD) {
    const height = Atomics.load(ctl, base + HEIGHT);
    let n = count << height; // nodes in the current level, all subtrees together
    for (let level = 0; level < height; level++, n >>>= 1) {
      backend.hashInto(input.subarray(0, 32 * n), input.subarray(0, 16 * n));
    }
    output.set(input.subarray(0, 32 * count));
  }
  // Publish, unless the main thread gave up on this job meanwhile.
  if (Atomics.compareExchange(ctl, base + STATE, RUNNING, DONE) === RUNNING) {
    Atomics.notify(ctl, base + STATE);
  }
}
