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

export const SLOT_INTS = 16;

/** Slot fields (int32 offsets within a slot). */
export const STATE = 0;
export const KIND = 1;
/** Messages (LAYER) or subtrees (FOLD) in the job. */
export const COUNT = 2;
/** FOLD: levels to fold each subtree by. */
export const HEIGHT = 3;
/** Generation of the last message the main thread posted (staging buffers or a source). */
export const STAGING_GEN = 4;
/** Set by the worker once its backend is loaded. */
export const READY = 5;
/** Fault injection for tests: the worker exits when it picks up its next job. */
export const CRASH_ON_NEXT_JOB = 6;
/** FOLD: 0 to read the input staging, else the id of a posted source the input is read from in place. */
export const SOURCE = 7;
/** FOLD from a source: the byte offset of the input in it. */
export const OFFSET = 8;

/** Slot states. */
export const IDLE = 0;
export const RUNNING = 1;
export const DONE = 2;
export const SHUTDOWN = 3;

/** Job kinds. */
/** Hash `COUNT` 64-byte messages of the input staging into the output staging. */
export const LAYER = 1;
/**
 * The input staging (or, when SOURCE is set, a posted source from byte
 * OFFSET) holds `COUNT` subtrees of 2^HEIGHT chunks each, end to end
 * (HEIGHT ≥ 1); fold each to its root and write the roots to the front of
 * the output staging. The input staging folds in place; a source is never
 * written (its first layer goes to the output staging, which folds on).
 */
export const FOLD = 2;

/** What a worker is started with (`workerData`). */
export interface WorkerInit {
  readonly control: SharedArrayBuffer;
  readonly slot: number;
  readonly backend: string;
}

/**
 * Posted to a worker: its replaced staging buffers (they only grow), or a
 * caller's shared buffer it may read jobs' input from (a source, by id).
 */
export type StagingMessage =
  | { readonly gen: number; readonly input: SharedArrayBuffer; readonly output: SharedArrayBuffer }
  | { readonly gen: number; readonly sourceId: number; readonly source: SharedArrayBuffer };

/**
 * Sources a worker keeps: the last this many posted, first in first out.
 * The main thread mirrors the same list per worker (`workers.ts`), so it
 * knows without asking which sources a worker still has.
 */
export const KEPT_SOURCES = 4;

/** A worker's kept sources (see KEPT_SOURCES); the main thread's mirror keeps ids only. */
export class SourceList {
  readonly ids: number[] = [];
  readonly buffers: Uint8Array[] = [];

  /** Adds a source, dropping the oldest past KEPT_SOURCES. */
  add(id: number, buffer: Uint8Array): void {
    this.ids.push(id);
    this.buffers.push(buffer);
    if (this.ids.length > KEPT_SOURCES) {
      this.ids.shift();
      this.buffers.shift();
    }
  }

  get(id: number): Uint8Array | undefined {
    const i = this.ids.indexOf(id);
    return i < 0 ? undefined : this.buffers[i];
  }
}

/** Applies a posted message to a worker's state: staging buffers or a source. */
export function receive(message: StagingMessage, staging: { input: Uint8Array; output: Uint8Array }, sources: SourceList): void {
  if ('source' in message) sources.add(message.sourceId, new Uint8Array(message.source));
  else {
    staging.input = new Uint8Array(message.input);
    staging.output = new Uint8Array(message.output);
  }
}
