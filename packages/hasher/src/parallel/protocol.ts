/**
 * The shared-memory protocol between the main thread and the hashing
 * workers. Each worker owns one slot of `SLOT_INTS` int32s in a shared
 * control block, plus an input and an output staging buffer (shared).
 *
 * A job's life: the main thread fills the worker's input staging, writes the
 * job fields, stores RUNNING and notifies. The worker hashes staging to
 * staging, then moves RUNNING → DONE with a compare-exchange. A main thread
 * that gave up waiting moves RUNNING → SHUTDOWN instead, which also tells the
 * worker to exit. Exactly one of the two exchanges succeeds, so a job's
 * results are used only if the worker finished before the main thread gave
 * up — and only the main thread ever writes the caller's output, so a late
 * worker can never corrupt it. A worker given up on is never used again.
 * @module
 */

export const SLOT_INTS = 8;

/** Slot fields (int32 offsets within a slot). */
export const STATE = 0;
export const KIND = 1;
/** Messages (LAYER) or subtrees (FOLD) in the job. */
export const COUNT = 2;
/** FOLD: levels to fold each subtree by. */
export const HEIGHT = 3;
/** Generation of the staging buffers the main thread last posted. */
export const STAGING_GEN = 4;
/** Set by the worker once its backend is loaded. */
export const READY = 5;
/** Fault injection for tests: the worker exits when it picks up its next job. */
export const CRASH_ON_NEXT_JOB = 6;

/** Slot states. */
export const IDLE = 0;
export const RUNNING = 1;
export const DONE = 2;
export const SHUTDOWN = 3;

/** Job kinds. */
/** Hash `COUNT` 64-byte messages of the input staging into the output staging. */
export const LAYER = 1;
/**
 * The input staging holds `COUNT` subtrees of 2^HEIGHT chunks each, end to
 * end; fold each to its root (HEIGHT in-place layers over the whole staging)
 * and write the roots to the output staging.
 */
export const FOLD = 2;

/** What a worker is started with (`workerData`). */
export interface WorkerInit {
  readonly control: SharedArrayBuffer;
  readonly slot: number;
  readonly backend: string;
}

/** Posted to a worker when its staging buffers are replaced (they only grow). */
export interface StagingMessage {
  readonly gen: number;
  readonly input: SharedArrayBuffer;
  readonly output: SharedArrayBuffer;
}
