/**
 * The validator part of the realistic epoch, alone (the state file
 * bench/profile-realistic.ts writes, fulu, 2^20 validators): per round, on
 * a clone of the head, `state.validators.get(i).effective_balance = x` for
 * 16384 random i, then the validators' commit, the store's flush, the
 * root, and the old head's dispose, each in CPU ms (process.cpuUsage: the
 * machine is shared), and the wall ms of GC pauses that began during the
 * writes; the clone becomes the head. `--count C` writes C
 * validators per round instead (128: a block's).
 *
 * `--balances` sets every balance and inactivity score first, as the epoch
 * does (their commit is then in `root`).
 *
 *   node --conditions=source --import tsx --expose-gc bench/validator-epoch.ts [--rounds 12] [--count 16384] [--balances] [--fork fulu] [--profile out.cpuprofile]
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { PerformanceObserver } from 'node:perf_hooks';
import { Rng } from '../demo/rng.js';
import { type DemoFork } from '../demo/state.js';
import { cpuMs, loadCachedState, PhaseSamples, turn, type StateView } from './lib/cachedState.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const FORK = (arg('fork') ?? 'fulu') as DemoFork;
const N = 2 ** 20;
const ROUNDS = Number(arg('rounds') ?? 12);
const COUNT = Number(arg('count') ?? 16384);
/** `--balances`: every balance and inactivity score is set first, as in the epoch (committed with the root). */
const BALANCES = process.argv.includes('--balances');
let head: StateView = loadCachedState(FORK, N);
const rng = new Rng(42);
const samples = new PhaseSamples();
const rows = samples.rows;
const note = (name: string, ms: number) => samples.note(name, ms);
/** GC pauses (start, duration), attributed to the phase they started in after each round (entries arrive late). */
const pauses: [number, number][] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) pauses.push([e.startTime, e.duration]);
}).observe({ entryTypes: ['gc'] });
/** `--profile out.cpuprofile`: a CPU profile of the rounds (the load left out). */
const PROFILE = arg('profile');
const session = PROFILE === undefined ? null : new Session();
if (session !== null) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
for (let r = 0; r < ROUNDS; r++) {
  const index = new Uint32Array(COUNT);
  const value = new BigUint64Array(COUNT);
  for (let k = 0; k < COUNT; k++) {
    index[k] = rng.int(N);
    value[k] = BigInt(16 + rng.int(17)) * 1_000_000_000n;
  }
  const s = head.clone();
  let t = cpuMs();
  if (BALANCES) {
    // As the realistic epoch before its validator writes: every balance and inactivity score set.
    const balances = s.balances;
    const scores = s.inactivity_scores;
    for (let i = 0; i < N; i++) {
      balances.set(i, 32_000_000_000n + BigInt(r));
      scores.set(i, BigInt(r));
    }
    note('balances+scores writes', cpuMs() - t);
  }
  const validators = s.validators;
  t = cpuMs();
  const writesFrom = performance.now();
  for (let k = 0; k < COUNT; k++) validators.get(index[k]!).effective_balance = value[k]!;
  note('writes', cpuMs() - t);
  const writesTo = performance.now();
  t = cpuMs();
  validators._commitNow();
  note('commit', cpuMs() - t);
  t = cpuMs();
  s._tree.store.flush();
  note('flush', cpuMs() - t);
  t = cpuMs();
  s.hashTreeRoot();
  note('root', cpuMs() - t);
  t = cpuMs();
  head.dispose();
  note('dispose', cpuMs() - t);
  head = s;
  t = cpuMs();
  await turn();
  note('turn', cpuMs() - t);
  await turn();
  // Wall ms of GC pauses that started during the writes (scavenges of what the writes, and any earlier
  // writes of the round, left young), not in the sum below.
  note('(GC during the writes, wall)', pauses.filter(([at]) => at >= writesFrom && at < writesTo).reduce((a, [, d]) => a + d, 0));
  pauses.length = 0;
}
if (session !== null) writeFileSync(PROFILE!, JSON.stringify((await session.post('Profiler.stop')).profile));
console.log(`root ${Buffer.from(head.hashTreeRoot()).toString('hex').slice(0, 16)}`);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const skip = ROUNDS > 4 ? 2 : 0;
console.log(`CPU ms (${COUNT} validators), median (min–max) of rounds ${skip + 1}–${ROUNDS}:`);
let total = 0;
for (const [name, xs] of rows) {
  const steady = xs.slice(skip);
  if (!name.startsWith('(')) total += med(steady);
  console.log(`  ${name}: ${med(steady).toFixed(2)} (${Math.min(...steady).toFixed(2)}–${Math.max(...steady).toFixed(2)})`);
}
console.log(`  sum of medians: ${total.toFixed(2)}`);
