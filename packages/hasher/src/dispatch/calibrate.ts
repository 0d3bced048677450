/**
 * The start-up calibration of the size dispatch: times each candidate
 * backend on layers of 1, 2, 4 … 4096 messages on this machine and picks,
 * per size, the one to use. A pure function of its backends and clock, so
 * tests drive it with counting fakes.
 *
 * Invariants:
 *  - Bounded: it hashes at most {@link calibrationBudget} messages in at most
 *    {@link calibrationCalls} calls (about 2 ms on a 2-core AMD EPYC, see
 *    docs/HASHER.md), whatever the clock says; the report counts both.
 *  - Robust to a shared machine: each candidate's time at a size is its
 *    best over {@link CALIBRATION_ROUNDS} rounds, the candidates' order
 *    rotating per round, and a size keeps the previous size's choice
 *    unless another candidate is at least {@link SWITCH_MARGIN} faster, so
 *    noise cannot make the choice flap between neighbouring sizes.
 * @module
 */
import type { HasherBackend, HasherName } from '../backend.js';

/** The layer sizes timed, in messages: every power of two up to 2^10, then 2^12. Larger layers use the 2^12 choice. */
export const CALIBRATION_SIZES: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096];
/** Timed rounds per size and candidate; the best round counts. */
export const CALIBRATION_ROUNDS = 3;
/** Each timed sample hashes at least this many messages (in repeated calls on small layers), so the clock's resolution and one call's overhead do not decide. */
const MIN_SAMPLE_MESSAGES = 128;
/** The untimed first call per candidate (code, buffers and lazy set-up warm), in messages. */
const WARM_UP_MESSAGES = 1024;
/** How much faster a candidate must be at a size to take it from the previous size's choice. */
export const SWITCH_MARGIN = 0.05;

/** What one size measured: ns per message of every candidate, and the choice. */
export interface SizeTiming {
  readonly messages: number;
  readonly nsPerMessage: Readonly<Partial<Record<HasherName, number>>>;
  readonly chosen: HasherName;
}

export interface Calibration {
  /** The candidates, in preference order (the first wins ties at the smallest size). */
  readonly candidates: readonly HasherName[];
  /** Per size of CALIBRATION_SIZES, ascending; empty when nothing was measured. */
  readonly sizes: readonly SizeTiming[];
  /** What the calibration itself cost. */
  readonly cost: { readonly messages: number; readonly calls: number; readonly ms: number };
}

function repsFor(size: number): number {
  return Math.ceil(MIN_SAMPLE_MESSAGES / size);
}

/** The most messages a calibration of `candidates` backends hashes. */
export function calibrationBudget(candidates: number): number {
  const perRound = CALIBRATION_SIZES.reduce((sum, size) => sum + size * repsFor(size), 0);
  return candidates * (WARM_UP_MESSAGES + CALIBRATION_ROUNDS * perRound);
}

/** The most hashInto calls a calibration of `candidates` backends makes. */
export function calibrationCalls(candidates: number): number {
  const perRound = CALIBRATION_SIZES.reduce((sum, size) => sum + repsFor(size), 0);
  return candidates * (1 + CALIBRATION_ROUNDS * perRound);
}

let runs = 0;

/** How many calibrations this thread has run (for tests: the switches that skip it). */
export function calibrationsRun(): number {
  return runs;
}

/**
 * Times `candidates` (preference order) with `now` (milliseconds) and
 * returns the per-size choice. With one candidate nothing is measured.
 */
export function calibrate(candidates: readonly HasherBackend[], now: () => number): Calibration {
  const names = candidates.map((c) => c.name);
  if (candidates.length < 2) return { candidates: names, sizes: [], cost: { messages: 0, calls: 0, ms: 0 } };
  runs++;
  const started = now();
  const largest = Math.max(WARM_UP_MESSAGES, ...CALIBRATION_SIZES);
  const input = new Uint8Array(64 * largest);
  for (let i = 0; i < input.length; i++) input[i] = (i * 167 + 13) & 0xff;
  const output = new Uint8Array(32 * largest);
  let messages = 0;
  let calls = 0;
  for (const c of candidates) {
    c.hashInto(input.subarray(0, 64 * WARM_UP_MESSAGES), output.subarray(0, 32 * WARM_UP_MESSAGES));
    messages += WARM_UP_MESSAGES;
    calls++;
  }
  const best = CALIBRATION_SIZES.map(() => candidates.map(() => Infinity));
  for (let round = 0; round < CALIBRATION_ROUNDS; round++) {
    CALIBRATION_SIZES.forEach((size, s) => {
      const reps = repsFor(size);
      const layerIn = input.subarray(0, 64 * size);
      const layerOut = output.subarray(0, 32 * size);
      for (let k = 0; k < candidates.length; k++) {
        const c = (k + round + s) % candidates.length;
        const backend = candidates[c]!;
        const start = now();
        for (let r = 0; r < reps; r++) backend.hashInto(layerIn, layerOut);
        const perMessage = ((now() - start) * 1e6) / (reps * size);
        best[s]![c] = Math.min(best[s]![c]!, perMessage);
        messages += reps * size;
        calls += reps;
      }
    });
  }
  const sizes: SizeTiming[] = [];
  let incumbent = 0;
  CALIBRATION_SIZES.forEach((size, s) => {
    const times = best[s]!;
    let fastest = incumbent;
    times.forEach((t, c) => {
      if (t < times[fastest]!) fastest = c;
    });
    if (fastest !== incumbent && times[fastest]! < (1 - SWITCH_MARGIN) * times[incumbent]!) incumbent = fastest;
    const nsPerMessage: Partial<Record<HasherName, number>> = {};
    times.forEach((t, c) => (nsPerMessage[names[c]!] = t));
    sizes.push({ messages: size, nsPerMessage, chosen: names[incumbent]! });
  });
  return { candidates: names, sizes, cost: { messages, calls, ms: now() - started } };
}
