/**
 * The calibration of the size dispatch: times each candidate backend on
 * layers of 1, 2, 4 … 4096 messages on this machine and picks, per size, the
 * one to use. Pure functions of their backends and clock, so tests drive them
 * with counting fakes.
 *
 * Invariants:
 *  - Bounded: one pass hashes exactly {@link calibrationBudget} messages in
 *    {@link calibrationCalls} calls (about 2 ms on a 2-core AMD EPYC, see
 *    docs/HASHER.md), whatever the clock says; the report counts them.
 *  - Robust to a shared machine: a candidate's time at a size is its best
 *    over {@link CALIBRATION_ROUNDS} rounds (and over passes, when a later
 *    pass is merged in), the candidates' order rotating per round; each size
 *    is decided on its own, and a candidate earlier in the preference order
 *    keeps a size unless another is more than {@link SWITCH_MARGIN} faster,
 *    so noise between near-equal candidates neither flips a size nor carries
 *    over to the next.
 * @module
 */
import type { HasherBackend, HasherName } from '../backend.js';

/** The layer sizes timed, in messages: every power of two up to 2^10, then 2^12. Larger layers use the 2^12 choice. */
export const CALIBRATION_SIZES: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096];
/** Timed rounds per size and candidate in one pass; the best round counts. */
export const CALIBRATION_ROUNDS = 3;
/** Each timed sample hashes at least this many messages (in repeated calls on small layers), so the clock's resolution and one call's overhead do not decide. */
const MIN_SAMPLE_MESSAGES = 128;
/** The untimed first call per candidate and pass (code, buffers and lazy set-up warm), in messages. */
const WARM_UP_MESSAGES = 1024;
/** How much faster than a preferred candidate another must be to take a size from it. */
export const SWITCH_MARGIN = 0.05;

/** What one size measured: ns per message of every candidate, and the choice. */
export interface SizeTiming {
  readonly messages: number;
  readonly nsPerMessage: Readonly<Partial<Record<HasherName, number>>>;
  readonly chosen: HasherName;
}

export interface Calibration {
  /** The candidates, in preference order. */
  readonly candidates: readonly HasherName[];
  /** Per size of CALIBRATION_SIZES, ascending: each candidate's best time over every pass, and the choice. */
  readonly sizes: readonly SizeTiming[];
  /** How many passes were merged. */
  readonly passes: number;
  /** What all passes together cost. */
  readonly cost: { readonly messages: number; readonly calls: number; readonly ms: number };
}

function repsFor(size: number): number {
  return Math.ceil(MIN_SAMPLE_MESSAGES / size);
}

/** The messages one calibration pass over `candidates` backends hashes. */
export function calibrationBudget(candidates: number): number {
  const perRound = CALIBRATION_SIZES.reduce((sum, size) => sum + size * repsFor(size), 0);
  return candidates * (WARM_UP_MESSAGES + CALIBRATION_ROUNDS * perRound);
}

/** The hashInto calls one calibration pass over `candidates` backends makes. */
export function calibrationCalls(candidates: number): number {
  const perRound = CALIBRATION_SIZES.reduce((sum, size) => sum + repsFor(size), 0);
  return candidates * (1 + CALIBRATION_ROUNDS * perRound);
}

let passesRun = 0;

/** How many calibration passes this thread has run (for tests: the switches that skip them). */
export function calibrationsRun(): number {
  return passesRun;
}

/** At each size, the earliest candidate within SWITCH_MARGIN of the fastest. */
function choose(names: readonly HasherName[], best: readonly (readonly number[])[]): SizeTiming[] {
  return CALIBRATION_SIZES.map((size, s) => {
    const times = best[s]!;
    const fastest = Math.min(...times);
    const chosen = times.findIndex((t) => (1 - SWITCH_MARGIN) * t <= fastest);
    const nsPerMessage: Partial<Record<HasherName, number>> = {};
    times.forEach((t, c) => (nsPerMessage[names[c]!] = t));
    return { messages: size, nsPerMessage, chosen: names[chosen]! };
  });
}

/**
 * Times `candidates` (preference order) with `now` (milliseconds) and
 * returns the per-size choice, merged with `earlier` passes over the same
 * candidates when given (each time the minimum of both). With one candidate
 * nothing is measured.
 */
export function calibrate(candidates: readonly HasherBackend[], now: () => number, earlier?: Calibration): Calibration {
  const names = candidates.map((c) => c.name);
  if (candidates.length < 2) return { candidates: names, sizes: [], passes: 0, cost: { messages: 0, calls: 0, ms: 0 } };
  passesRun++;
  const started = now();
  const largest = Math.max(WARM_UP_MESSAGES, ...CALIBRATION_SIZES);
  // SHA-256 takes the same time whatever the bytes: one message's pattern, doubled by native copies
  // (a byte loop over the whole buffer would cost more than the hashing, before the JIT warms up).
  const input = new Uint8Array(64 * largest);
  for (let i = 0; i < 64; i++) input[i] = (i * 167 + 13) & 0xff;
  for (let filled = 64; filled < input.length; filled *= 2) input.copyWithin(filled, 0, filled);
  const output = new Uint8Array(32 * largest);
  let messages = 0;
  let calls = 0;
  for (const c of candidates) {
    c.hashInto(input.subarray(0, 64 * WARM_UP_MESSAGES), output.subarray(0, 32 * WARM_UP_MESSAGES));
    messages += WARM_UP_MESSAGES;
    calls++;
  }
  const best = CALIBRATION_SIZES.map((_, s) => names.map((name) => earlier?.sizes[s]?.nsPerMessage[name] ?? Infinity));
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
  const before = earlier?.cost ?? { messages: 0, calls: 0, ms: 0 };
  return {
    candidates: names,
    sizes: choose(names, best),
    passes: (earlier?.passes ?? 0) + 1,
    cost: { messages: before.messages + messages, calls: before.calls + calls, ms: before.ms + now() - started },
  };
}
