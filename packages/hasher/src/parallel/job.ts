/**
 * One job in a worker, the same for `worker_threads` and Web Workers: reads
 * the job fields from the control slot, hashes staging to staging, and
 * publishes with the RUNNING → DONE exchange (see `protocol.ts`).
 *
 * Invariants: touches only the worker's own staging buffers and control
 * slot; a caller's shared buffer posted as a source (`protocol.ts`) is only
 * read — it is the caller's, and a job given up on is hashed again by the
 * main thread from it.
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
    const height = Atomics.load(ctl, base + HEIGHT);
    const source = Atomics.load(ctl, base + SOURCE);
    let n = count << height; // nodes in the current level, all subtrees together
    if (source === 0) {
      // The staged copy folds in place (each level's writes land on lines just read), the roots copied out.
      for (let level = 0; level < height; level++, n >>>= 1) backend.hashInto(staged.subarray(0, 32 * n), staged.subarray(0, 16 * n));
      output.set(staged.subarray(0, 32 * count));
    } else {
      // A caller's buffer is only read: the first level into the output staging, the rest in place there.
      const input = sources.get(source)!;
      const at = Atomics.load(ctl, base + OFFSET);
      backend.hashInto(input.subarray(at, at + 32 * n), output.subarray(0, 16 * n));
      for (let level = 1; level < height; level++) {
        n >>>= 1;
        backend.hashInto(output.subarray(0, 32 * n), output.subarray(0, 16 * n));
      }
    }
  }
  // Publish, unless the main thread gave up on this job meanwhile.
  if (Atomics.compareExchange(ctl, base + STATE, RUNNING, DONE) === RUNNING) {
    Atomics.notify(ctl, base + STATE);
  }
}
