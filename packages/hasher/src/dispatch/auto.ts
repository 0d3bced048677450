/**
 * The `auto` backend: every call goes to the candidate (our `shani` and
 * `avx512` kernels, `hashtree`) that the start-up calibration measured
 * fastest for a layer of that size on this machine, so a CPU where SHA-NI
 * wins small layers and sixteen AVX-512 lanes win large ones uses each
 * where it is faster. One array lookup per call.
 *
 * Invariant: it is byte-identical to each candidate (they are all
 * self-checked before they become candidates), whatever was chosen.
 * @module
 */
import type { HasherBackend, HasherName } from '../backend.js';
import { HasherError } from '../errors.js';
import { calibrate, CALIBRATION_SIZES, type Calibration } from './calibrate.js';

/** The candidates, in preference order: without a calibration the first available one hashes everything. */
export const AUTO_CANDIDATES: readonly HasherName[] = ['shani', 'avx512', 'hashtree'];

/** From this many messages on (up to the next threshold), `backend` hashes the layer. */
export interface Threshold {
  readonly fromMessages: number;
  readonly backend: HasherName;
}

/**
 * After this many messages have gone through `auto`, it runs a second
 * calibration pass and merges it with the first (each candidate's best time
 * of both): a start-up pass on a machine that happened to be busy does not
 * decide for the rest of the process. By then the pass costs about 1.5 % of
 * the hashing done (65,280 of 4 Mi messages).
 */
export const SECOND_PASS_AFTER_MESSAGES = 1 << 22;

export interface AutoBackend extends HasherBackend {
  readonly name: 'auto';
  readonly candidates: readonly HasherName[];
  /** The measurements so far, or undefined when none were taken (one candidate, or calibration switched off). */
  readonly calibration: Calibration | undefined;
  /** Why nothing was measured, when nothing was. */
  readonly uncalibrated: string | undefined;
  readonly thresholds: readonly Threshold[];
  /** The candidate a layer of `messages` messages goes to. */
  backendFor(messages: number): HasherBackend;
}

export interface AutoOptions {
  /** Skip the measurements (the first candidate hashes every size); the reason is reported. */
  readonly uncalibrated?: string;
  /** The clock the calibration reads, in milliseconds (performance.now by default). */
  readonly now?: () => number;
}

/**
 * The `auto` backend over `candidates` (already loaded and self-checked, in
 * preference order). Calibrates unless told not to (a first pass now, a
 * second after {@link SECOND_PASS_AFTER_MESSAGES}); throws HasherError when
 * there is no candidate.
 */
export function createAutoBackend(candidates: readonly HasherBackend[], options: AutoOptions = {}): AutoBackend {
  if (candidates.length === 0) {
    throw new HasherError('HASHER_UNAVAILABLE', `auto: none of ${AUTO_CANDIDATES.join(', ')} is available here`);
  }
  const names = candidates.map((c) => c.name);
  const now = options.now ?? (() => performance.now());
  const uncalibrated = options.uncalibrated ?? (candidates.length === 1 ? `one candidate (${names[0]})` : undefined);
  let calibration = uncalibrated === undefined ? calibrate(candidates, now) : undefined;
  // byBucket[b] hashes layers of 2^b .. 2^(b+1) - 1 messages: the choice at the largest timed size <= 2^b.
  const byBucket: HasherBackend[] = [];
  let thresholds: Threshold[] = [];
  const decide = (): void => {
    for (let b = 0; b < 32; b++) {
      let chosen = candidates[0]!;
      for (const timing of calibration?.sizes ?? []) {
        if (timing.messages <= 2 ** b) chosen = candidates[names.indexOf(timing.chosen)]!;
      }
      byBucket[b] = chosen;
    }
    thresholds = [];
    byBucket.forEach((backend, b) => {
      if (thresholds.at(-1)?.backend !== backend.name) thresholds.push({ fromMessages: 2 ** b, backend: backend.name });
    });
  };
  decide();
  let untilSecondPass = calibration === undefined ? Infinity : SECOND_PASS_AFTER_MESSAGES;
  // `| 1` puts an empty layer in bucket 0 and leaves every other size's top bit as it is.
  const backendFor = (messages: number): HasherBackend => byBucket[31 - Math.clz32(messages | 1)]!;
  return {
    name: 'auto',
    candidates: names,
    get calibration() {
      return calibration;
    },
    uncalibrated,
    get thresholds() {
      return thresholds;
    },
    backendFor,
    hashInto: (input, output) => {
      const n = output.length >>> 5;
      byBucket[31 - Math.clz32(n | 1)]!.hashInto(input, output);
      if ((untilSecondPass -= n) <= 0) {
        untilSecondPass = Infinity;
        calibration = calibrate(candidates, now, calibration);
        decide();
      }
    },
  };
}

/** One line for listHashers(): which candidate hashes which sizes. */
export function describeDispatch(auto: AutoBackend): string {
  const parts = auto.thresholds.map((t, i) => {
    const next = auto.thresholds[i + 1];
    if (next === undefined) return i === 0 ? `${t.backend} for every size` : `${t.backend} from ${t.fromMessages}`;
    return `${t.backend} for ${t.fromMessages}–${next.fromMessages - 1} messages`;
  });
  const c = auto.calibration;
  const how = c !== undefined ? `measured here (${CALIBRATION_SIZES.length} sizes, ${c.passes === 1 ? 'one pass' : `${c.passes} passes`}, ${c.cost.ms.toFixed(1)} ms)` : `not measured: ${auto.uncalibrated}`;
  return `${parts.join(', ')}; ${how}`;
}
