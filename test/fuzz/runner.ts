/**
 * The fuzz loop: for each target, a deterministic stream of inputs (random
 * byte strings, and valid encodings put through the mutators), each judged
 * by the oracle; failures saved as reproducible cases; memory sampled.
 *
 * Input n of a target depends only on the run seed, the target's name and
 * n, so `--seed S --types T --count n+1` replays a target's stream up to a
 * failing input; the saved hex replays it directly (`--replay file`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { NodeStore } from '@ssztree/core';
import { ContainerType, preimageBytes, toHex, type SszType } from '@ssztree/types';
import { arbitrary } from '../differential/arbitrary.js';
import { layoutOf, type Layout } from './layout.js';
import { mutate } from './mutators.js';
import { check, type Verdict, type ViewCheck } from './oracle.js';
import { Rng, hashString } from './prng.js';
import type { Target } from './targets.js';

/** Seeds (valid encodings) per target: fast-check samples plus the default value. */
const SEEDS = 6;
const SEEDS_HUGE = 2;
/** Above this many bytes a target counts as huge: fewer seeds, memory sampled after every input. */
const HUGE = 1 << 18;
/** Fraction of inputs that are random byte strings (the rest are mutated seeds, and a few seeds as they are). */
const RANDOM_SHARE = 0.25;
const SEED_AS_IS = 0.02;

/**
 * Memory bound (checked at every sample): RSS may not exceed the RSS at the
 * start of the run + MEMORY_SLACK + MEMORY_PER_INPUT_BYTE × the largest
 * input so far. Decoding n bytes holds the input copy, our value, ChainSafe's
 * value and both re-serializations; the values are where the factor comes
 * from (a JS array of booleans or numbers costs 8 bytes per 1-byte element,
 * a Uint8Array view ~100 bytes per 32-byte root). The slack covers V8 heap
 * growth between collections and the seeds of every target held for the run.
 */
export const MEMORY_SLACK = 768 * 2 ** 20;
export const MEMORY_PER_INPUT_BYTE = 64;

export interface FailureCase {
  readonly target: string;
  readonly seed: number;
  readonly n: number;
  readonly how: string;
  readonly what: string;
  readonly ours: string;
  readonly chainsafe: string;
  readonly inputHex: string;
  readonly repro: string;
  file?: string;
}

export interface TargetStats {
  inputs: number;
  accepted: number;
  rejected: number;
  leniencies: number;
}

export interface FuzzStats {
  seed: number;
  inputs: number;
  accepted: number;
  rejected: number;
  leniencies: Record<string, number>;
  codes: Record<string, number>;
  failures: FailureCase[];
  failureCount: number;
  targets: Record<string, TargetStats>;
  elapsedMs: number;
  startRss: number;
  peakRss: number;
  peakArrayBuffers: number;
  peakHeapUsed: number;
  maxInput: number;
  slowest: { ms: number; target: string; size: number };
  /** Storage held by the run's view store at the last memory sample. */
  viewStoreBytes: number;
}

export interface FuzzOptions {
  readonly seed: number;
  readonly targets: readonly Target[];
  /** Stop after this many seconds (time-sliced across targets). */
  readonly seconds?: number;
  /** Stop after this many inputs in total (time-sliced across targets). */
  readonly count?: number;
  /** Run exactly this many inputs per target, in order (deterministic; for CI). */
  readonly perTarget?: number;
  /** Where failures are written (null: keep them in memory only). */
  readonly failuresDir?: string | null;
  /** Per visit of a target in time-sliced mode. */
  readonly sliceMs?: number;
  /** How `deserializeToView` is checked on every input (default `verdict`). */
  readonly views?: ViewCheck;
  /** Sample memory every this many inputs. */
  readonly memoryEvery?: number;
  readonly onProgress?: (stats: FuzzStats) => void;
  readonly progressMs?: number;
}

interface Seed {
  readonly bytes: Uint8Array;
  readonly layout: Layout;
}

/** One target's deterministic input stream. */
export class TargetStream {
  readonly rng: Rng;
  n = 0;
  private seeds: Seed[] | null = null;

  constructor(
    readonly target: Target,
    runSeed: number,
  ) {
    this.rng = new Rng(hashString(target.name, runSeed >>> 0));
  }

  private seedPool(): Seed[] {
    if (this.seeds) return this.seeds;
    const type = this.target.type;
    const huge = type.minSize > HUGE;
    const values = fc.sample(arbitrary(type), { seed: this.rng.u32() | 0, numRuns: huge ? SEEDS_HUGE : SEEDS });
    // Compatible unions (and what holds one) have no default value in the spec.
    try {
      values.push(type.defaultValue());
    } catch {}
    this.seeds = values.map((v) => {
      const bytes = type.serialize(v);
      return { bytes, layout: layoutOf(type, bytes) };
    });
    return this.seeds;
  }

  /** Input number `this.n` (and advances). */
  next(): { bytes: Uint8Array; how: string } {
    this.n++;
    const rng = this.rng;
    if (rng.chance(RANDOM_SHARE)) return randomInput(this.target.type, rng);
    const seeds = this.seedPool();
    const si = rng.int(seeds.length);
    const seed = seeds[si] as Seed;
    if (rng.chance(SEED_AS_IS)) return { bytes: seed.bytes, how: `seed#${si} as is` };
    const m = mutate(seed, rng);
    return { bytes: m.bytes, how: `seed#${si} ${m.label}` };
  }
}

/** Random bytes of a length drawn around the type's sizes; for containers, sometimes with a plausible offset skeleton. */
function randomInput(type: SszType<unknown>, rng: Rng): { bytes: Uint8Array; how: string } {
  const sizes = [rng.int(9), type.minSize, type.minSize + rng.range(-2, 2), rng.int(Math.min(2 * type.minSize + 256, 1 << 16))];
  if (type.fixedSize !== null) sizes.push(type.fixedSize, type.fixedSize - 1, type.fixedSize + 1);
  const size = Math.max(0, rng.pick(sizes));
  const bytes = rng.chance(0.15) ? new Uint8Array(size).fill(rng.chance(0.5) ? 0 : 0xff) : rng.bytes(size);
  let how = `random ${size} bytes`;
  const t = type as unknown;
  if (t instanceof ContainerType && t.fixedSize === null && size >= t.fixedPartSize && rng.chance(0.5)) {
    // Offsets that pass the first checks: the first at the fixed part's end, the others ascending within the input.
    const dv = new DataView(bytes.buffer);
    let pos = 0;
    const fields = Object.values(t.fields as Record<string, SszType<unknown>>);
    const targets = fields.filter((f) => f.fixedSize === null).map(() => t.fixedPartSize + rng.int(size - t.fixedPartSize + 1));
    targets.sort((a, b) => a - b);
    targets[0] = t.fixedPartSize;
    let v = 0;
    for (const f of fields) {
      if (f.fixedSize === null) {
        dv.setUint32(pos, targets[v++] as number, true);
        pos += 4;
      } else pos += f.fixedSize;
    }
    how += ' with an offset skeleton';
  }
  return { bytes, how };
}

function newStats(seed: number): FuzzStats {
  const m = process.memoryUsage();
  return {
    seed,
    inputs: 0,
    accepted: 0,
    rejected: 0,
    leniencies: {},
    codes: {},
    failures: [],
    failureCount: 0,
    targets: {},
    elapsedMs: 0,
    startRss: m.rss,
    peakRss: m.rss,
    peakArrayBuffers: m.arrayBuffers,
    peakHeapUsed: m.heapUsed,
    maxInput: 0,
    slowest: { ms: 0, target: '', size: 0 },
    viewStoreBytes: 0,
  };
}

export function memoryBound(stats: FuzzStats): number {
  return stats.startRss + MEMORY_SLACK + MEMORY_PER_INPUT_BYTE * stats.maxInput;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '_');
}

export function runFuzz(options: FuzzOptions): FuzzStats {
  const { seed, targets } = options;
  const stats = newStats(seed);
  const streams = targets.map((t) => new TargetStream(t, seed));
  const memoryEvery = options.memoryEvery ?? 500;
  const t0 = performance.now();
  const deadline = options.seconds !== undefined ? t0 + options.seconds * 1000 : Infinity;
  const maxCount = options.count ?? Infinity;
  let lastProgress = t0;
  let sinceSample = 0;
  // Views are built in a store private to the run (not the shared default store) and swept every 256 inputs.
  const viewStore = new NodeStore();
  let sinceCollect = 0;

  const record = (stream: TargetStream, bytes: Uint8Array, how: string, verdict: Verdict): void => {
    const ts = (stats.targets[stream.target.name] ??= { inputs: 0, accepted: 0, rejected: 0, leniencies: 0 });
    ts.inputs++;
    stats.inputs++;
    if (verdict.kind === 'accept') {
      stats.accepted++;
      ts.accepted++;
    } else if (verdict.kind === 'reject') {
      stats.rejected++;
      ts.rejected++;
      stats.codes[verdict.code] = (stats.codes[verdict.code] ?? 0) + 1;
    } else if (verdict.kind === 'leniency') {
      ts.leniencies++;
      stats.rejected++;
      stats.codes[verdict.code] = (stats.codes[verdict.code] ?? 0) + 1;
      stats.leniencies[verdict.id] = (stats.leniencies[verdict.id] ?? 0) + 1;
    } else {
      fail(stream, bytes, how, verdict.what, verdict.ours, verdict.chainsafe);
    }
  };

  const fail = (stream: TargetStream, bytes: Uint8Array, how: string, what: string, ours: string, chainsafe: string): void => {
    stats.failureCount++;
    const n = stream.n - 1;
    const c: FailureCase = {
      target: stream.target.name,
      seed,
      n,
      how,
      what,
      ours,
      chainsafe,
      inputHex: toHex(bytes),
      repro: `npm run fuzz -- --seed ${seed} --types ${stream.target.name} --count ${n + 1}`,
    };
    if (options.failuresDir) {
      mkdirSync(options.failuresDir, { recursive: true });
      const file = join(options.failuresDir, `${safeName(stream.target.name)}-${seed}-${n}.json`);
      c.file = file;
      writeFileSync(file, JSON.stringify({ ...c, replay: `npm run fuzz -- --replay ${file}` }, null, 2) + '\n');
    }
    if (stats.failures.length < 100) stats.failures.push(c);
  };

  const sampleMemory = (stream: TargetStream, bytes: Uint8Array, how: string): void => {
    sinceSample = 0;
    const m = process.memoryUsage();
    stats.peakRss = Math.max(stats.peakRss, m.rss);
    stats.peakArrayBuffers = Math.max(stats.peakArrayBuffers, m.arrayBuffers);
    stats.peakHeapUsed = Math.max(stats.peakHeapUsed, m.heapUsed);
    stats.viewStoreBytes = viewStore.stats().bytes;
    const bound = memoryBound(stats);
    if (m.rss > bound) {
      fail(stream, bytes, how, `memory: RSS ${(m.rss / 2 ** 20).toFixed(0)} MiB above the bound ${(bound / 2 ** 20).toFixed(0)} MiB`, `arrayBuffers ${(m.arrayBuffers / 2 ** 20).toFixed(0)} MiB, heapUsed ${(m.heapUsed / 2 ** 20).toFixed(0)} MiB, view store ${(stats.viewStoreBytes / 2 ** 20).toFixed(0)} MiB, preimage tables ${(preimageBytes() / 2 ** 20).toFixed(0)} MiB`, '');
    }
  };

  const one = (stream: TargetStream): void => {
    const { bytes, how } = stream.next();
    if (bytes.length > stats.maxInput) stats.maxInput = bytes.length;
    const observed = check(stream.target.type, bytes, { views: options.views ?? 'verdict', store: viewStore, collect: false });
    if (++sinceCollect >= 256 || bytes.length > HUGE) {
      sinceCollect = 0;
      viewStore.collect();
    }
    if (observed.decodeMs > stats.slowest.ms) stats.slowest = { ms: observed.decodeMs, target: stream.target.name, size: bytes.length };
    record(stream, bytes, how, observed.verdict);
    if (++sinceSample >= memoryEvery || bytes.length > HUGE) sampleMemory(stream, bytes, how);
  };

  const progress = (): void => {
    const now = performance.now();
    if (options.onProgress && now - lastProgress >= (options.progressMs ?? 10_000)) {
      lastProgress = now;
      stats.elapsedMs = now - t0;
      options.onProgress(stats);
    }
  };

  if (options.perTarget !== undefined) {
    for (const stream of streams) {
      for (let i = 0; i < options.perTarget; i++) one(stream);
      progress();
    }
  } else {
    const slice = options.sliceMs ?? 20;
    outer: for (;;) {
      for (const stream of streams) {
        const until = performance.now() + slice;
        do {
          if (stats.inputs >= maxCount || performance.now() >= deadline) break outer;
          one(stream);
        } while (performance.now() < until);
        progress();
      }
    }
  }
  stats.elapsedMs = performance.now() - t0;
  return stats;
}
