/**
 * Profiling driver for the views' block and epoch workloads (ours only, one
 * process): builds the bench's state of 2^20 validators once, then loops
 * blocks (1024 balances, 128 validators × 2 fields) and epochs (all
 * balances), printing per-phase times. Run it under a profiler:
 *
 *   node --conditions=source --import tsx bench/profile-views.ts [--blocks 200] [--epochs 3] [--threads 0] [--yield] [--part balances|validators] [--sleep ms] [--spin ms] [--thrash MiB] [--profile out.cpuprofile]
 *
 * `--yield` gives the event loop a task turn after every write loop and
 * every commit, as bench/views.ts's rows (one task each) and a client
 * between blocks do: the store frees released versions in such a turn
 * (store.settle). Without it the loop never yields and each commit frees the
 * last one's version in its first allocations.
 *
 * `--threads N` turns the hasher's worker pool on with N workers (off by
 * default, as in bench/views.ts); large flush levels are then shared.
 *
 * `--part balances|validators` writes only that half of each block (the
 * same draws, the other half's writes skipped): where a block's commit time
 * goes, half by half.
 *
 * `--sleep`, `--spin` and `--thrash` put something between blocks, to study
 * why bench/views.ts (where the peer's block runs between two of ours) reads
 * more than this loop: sleeping (the process idle, as while the peer runs),
 * spinning (busy but touching nothing), or sweeping a buffer of that many MiB
 * (evicting caches as another process would). Measured 2026-11-30, 200
 * blocks: none 3.02–3.26 ms, --sleep 10 3.75–3.77, --spin 10 3.37,
 * --thrash 64 3.59: mostly the idle gap, not the eviction.
 *
 * `--profile` records a CPU profile of the block/epoch loops only (not the
 * state build), through the inspector.
 *
 * The workloads are bench/views.ts's, same schemas and seeded inputs.
 * Each phase reports wall time and the process's CPU time (user + system,
 * all threads): on a shared, overloaded machine CPU time is the steadier
 * of the two (it leaves out time spent waiting for a core).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { configureThreads } from '@ssztree/hasher';
import { container, list, uint64 } from '@ssztree/types';
import { type BlockPart, writeBlock, writeEpoch } from './lib/stateWorkload.js';
import { makeValidators, prng, Validator } from './lib/validator.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

configureThreads(arg('threads', 0));
const NS = 2 ** 20;
const LIMIT = 2 ** 40;
const State = container({ validators: list(Validator, LIMIT), balances: list(uint64, LIMIT) }, 'State');


// bench/views.ts's state inputs: distinct pubkeys (tagged 0xaa), the same balances.
const validators = makeValidators(NS, 0xaa);
const balances = new BigUint64Array(NS);
for (let i = 0; i < NS; i++) balances[i] = 32_000_000_000n + BigInt(i % 1000);
const state = State.deserializeToView(State.serialize({ validators, balances }));
state.hashTreeRoot();

const profileAt = process.argv.indexOf('--profile');
const session = profileAt >= 0 ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}

const blocks = arg('blocks', 200);
const partAt = process.argv.indexOf('--part');
const part = (partAt >= 0 ? process.argv[partAt + 1] : 'both') as BlockPart;
if (!['both', 'balances', 'validators'].includes(part)) throw new Error(`--part: expected balances or validators, got ${part}`);
const yields = process.argv.includes('--yield');
const turn = (): Promise<void> | undefined => (yields ? new Promise((resolve) => setImmediate(resolve)) : undefined);
const epochs = arg('epochs', 3);
const sleepMs = arg('sleep', 0);
const thrashMb = arg('thrash', 0);
const spinMs = arg('spin', 0);
const thrash = new Uint8Array(thrashMb * 2 ** 20);
let thrashSum = 0;
/** Between blocks: sleep, and/or sweep a buffer as another process's block would. */
async function between(): Promise<void> {
  if (sleepMs > 0) await new Promise((resolve) => setTimeout(resolve, sleepMs));
  if (spinMs > 0) {
    const end = performance.now() + spinMs;
    while (performance.now() < end);
  }
  for (let i = 0; i < thrash.length; i += 64) thrashSum += thrash[i] as number;
  for (let i = 0; i < thrash.length; i += 64) thrash[i] = i;
}
let writeMs = 0;
let commitMs = 0;
let writeCpu = 0;
let commitCpu = 0;
/** Process CPU time in ms. */
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
for (let b = 0; b < blocks; b++) {
  const r = prng(1000 + b);
  await between();
  const c0 = cpu();
  const t0 = performance.now();
  writeBlock(state, NS, r, part);
  const w1 = performance.now();
  const wc1 = cpu();
  await turn();
  const t1 = performance.now();
  const c1 = cpu();
  state.hashTreeRoot();
  const t2 = performance.now();
  const c2 = cpu();
  await turn();
  if (b >= 10) {
    writeMs += w1 - t0;
    commitMs += t2 - t1;
    writeCpu += wc1 - c0;
    commitCpu += c2 - c1;
  }
}
const n = Math.max(1, blocks - 10);
console.log(
  `block: write ${(writeMs / n).toFixed(2)} ms (cpu ${(writeCpu / n).toFixed(2)}), commit+root ${(commitMs / n).toFixed(2)} ms (cpu ${(commitCpu / n).toFixed(2)}) (mean of ${n})`,
);
for (let e = 0; e < epochs; e++) {
  const add = BigInt(e + 1);
  const c0 = cpu();
  const t0 = performance.now();
  writeEpoch(state, NS, add);
  const w1 = performance.now();
  const wc1 = cpu();
  await turn();
  const t1 = performance.now();
  const c1 = cpu();
  state.hashTreeRoot();
  const t2 = performance.now();
  const c2 = cpu();
  await turn();
  console.log(`epoch ${e}: write ${(w1 - t0).toFixed(1)} ms (cpu ${(wc1 - c0).toFixed(1)}), commit+root ${(t2 - t1).toFixed(1)} ms (cpu ${(c2 - c1).toFixed(1)})`);
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.argv[profileAt + 1] as string, JSON.stringify(profile));
}
