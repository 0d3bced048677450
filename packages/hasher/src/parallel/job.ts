/**
 * One job in a worker, the same for `worker_threads` and Web Workers: reads
 * the job fields from the control slot, hashes staging to staging, and
 * publishes with the RUNNING → DONE exchange (see `protocol.ts`).
 *
 * Invariants: writes only the worker's output staging and control slot. The
 * input — the input staging, or a caller's shared buffer posted as a source
 * — is only read: a job given up on is hashed again by the main thread from
 * it (`pool.ts`), and a caller's buffer is the caller's.
 * @module
 */
import type { HasherBackend } from '../backend.js';
import { COUNT, DONE, FOLD, HEIGHT, KIND, LAYER, OFFSET, RUNNING, SOURCE, STATE, type SourceList } from './protocol.js';

export function runJob(ctl: Int32Array, base: number, backend: HasherBackend, staged: Uint8Array, output: Uint8Array, sources: SourceList): void {
  const kind = Atomics.load(ctl, base + KIND);
  const count = Atomics.load(ctl, base + COUNT);
  if (kind === LAYER) {
    backend.hashInto(staged.subarray(0, 64 * count), output.subarray(0, 32 * count));
  } else if (kind === FOLD) {
    // The first level from input to output staging (half its size), the rest in place in the output.
    const height = Atomics.load(ctl, base + HEIGHT);
    let n = count << height; // nodes in the current level, all subtrees together
    const source = Atomics.load(ctl, base + SOURCE);
    const at = source === 0 ? 0 : Atomics.load(ctl, base + OFFSET);
    // A source the main thread posted before starting the job (it mirrors this worker's kept list).
    const input = source === 0 ? staged : sources.get(source)!;
    backend.hashInto(input.subarray(at, at + 32 * n), output.subarray(0, 16 * n));
    for (let level = 1; level < height; level++) {
      n >>>= 1;
      backend.hashInto(output.subarray(0, 32 * n), output.subarray(0, 16 * n));
    }
  }
  // Publish, unless the main thread gave up on this job meanwhile.
  if (Atomics.compareExchange(ctl, base + STATE, RUNNING, DONE) === RUNNING) {
    Atomics.notify(ctl, base + STATE);
  }
}
