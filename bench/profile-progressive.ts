/**
 * Profiling driver for the progressive state's block and epoch workloads,
 * ours only, one process: builds a gloas-shaped state (progressive lists)
 * and an electra-shaped one (binary lists) of 2^20 validators from bytes,
 * then runs blocks (1024 balances, 128 validators × 2 fields) and epochs
 * (every balance) on them, alternating the two states block by block so
 * both see the same machine, and prints per-block times of the first blocks
 * after the build (cold) and medians of the rest (steady), wall and process
 * CPU time, and the progressive/binary ratios paired block by block (CPU
 * time: on the shared machine it leaves out the waits for a core, which wall
 * time does not).
 *
 *   node --conditions=source --expose-gc --import tsx bench/profile-progressive.ts \
 *     [--blocks 100] [--epochs 4] [--shape both|progressive|binary] [--idle MS] [--thrash MIB] [--profile out.cpuprofile]
 *
 * `--idle MS` waits that long between blocks, as bench/progressive.ts's row
 * processes do while the other library's process runs its block: the caches
 * then go cold between blocks (on a shared 2-core Xeon, 20 ms of idle added
 * 0.4–0.6 ms of CPU to a block's commit + root, more to the progressive
 * state's than to the binary one's). `--thrash MIB` instead reads and
 * writes that many MiB of a buffer of its own before each block's writes
 * (64: twice the L3 of the 2-core AMD EPYC), so every block starts on cold
 * caches as in bench/progressive.ts, without the idle time's variance on a
 * shared machine. The commit's part hashed at the root
 * (what the commits left for the store's flush) is printed apart.
 *
 * `--profile` records a CPU profile of the block and epoch loops only (not
 * the builds), through the inspector. The workloads are bench/progressive.ts's
 * (bench/lib/stateWorkload.ts), same schemas and seeded inputs.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { container, list, progressiveContainer, progressiveList, uint8, uint64 } from '@ssztree/types';
import { makeBalances, NS } from './progressiveBinary.js';
import { writeBlock, writeEpoch } from './lib/stateWorkload.js';
import { makeValidators, prng, Validator } from './lib/validator.js';
import { cpuMs } from './lib/cachedState.js';
import { median } from './lib/stats.js';
import { cacheThrasher } from './lib/thrash.js';

process.env['SSZTREE_HASHER'] ??= 'hashtree';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : fallback;
}

const GloasState = progressiveContainer(
  { slot: uint64, validators: progressiveList(Validator), balances: progressiveList(uint64), participation: progressiveList(uint8) },
  [1, 0, 1, 1, 1],
  'GloasShapedState',
);
const ElectraState = container(
  { slot: uint64, validators: list(Validator, 2 ** 40), balances: list(uint64, 2 ** 40), participation: list(uint8, 2 ** 40) },
  'ElectraShapedState',
);

// biome-ignore lint: both states' views are driven by field name.
type Dyn = any;

const shape = arg('shape', 'both');
const blocks = Number(arg('blocks', '100'));
const epochs = Number(arg('epochs', '4'));
const idle = Number(arg('idle', '0'));
const thrash = cacheThrasher(Number(arg('thrash', '0')));
const cpu = cpuMs;

// The value is serialized once and dropped: a client holds the state's tree, not a value of a million objects (whose
// marking would dominate every full GC).
let value: object | null = { slot: 1n, validators: makeValidators(NS), balances: makeBalances(NS), participation: new Uint8Array(NS).fill(7) };
const inputs = new Map<string, Uint8Array>();
for (const [name, type] of [
  ['progressive', GloasState],
  ['binary', ElectraState],
] as const) {
  if (shape === 'both' || shape === name) inputs.set(name, (type as Dyn).serialize(value));
}
value = null;
const states: { name: string; view: Dyn; commit: number[]; commitCpu: number[]; flush: number[]; write: number[]; epoch: number[]; epochCpu: number[] }[] = [];
for (const [name, type] of [
  ['progressive', GloasState],
  ['binary', ElectraState],
] as const) {
  if (shape !== 'both' && shape !== name) continue;
  const bytes = inputs.get(name) as Uint8Array;
  inputs.delete(name);
  const t0 = performance.now();
  const view = (type as Dyn).deserializeToView(bytes);
  view.hashTreeRoot();
  console.log(`${name}: bytes → view + root ${(performance.now() - t0).toFixed(0)} ms`);
  states.push({ name, view, commit: [], commitCpu: [], flush: [], write: [], epoch: [], epochCpu: [] });
}

const profileAt = process.argv.indexOf('--profile');
const session = profileAt >= 0 ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}

for (let b = 0; b < blocks; b++) {
  for (const s of b % 2 === 0 ? states : [...states].reverse()) {
    thrash();
    const t0 = performance.now();
    writeBlock(s.view, NS, prng(1000 + b));
    const t1 = performance.now();
    const c1 = cpu();
    void s.view.rootNode; // the commit; what it left unhashed is hashed by the root's flush
    const t2 = performance.now();
    s.view.hashTreeRoot();
    const t3 = performance.now();
    s.commit.push(t3 - t1);
    s.commitCpu.push(cpu() - c1);
    s.flush.push(t3 - t2);
    s.write.push(t1 - t0);
    // A task turn between blocks, as a client has (the store settles released versions there).
    await new Promise((resolve) => (idle > 0 ? setTimeout(resolve, idle) : setImmediate(resolve)));
  }
}
for (let e = 0; e < epochs; e++) {
  for (const s of e % 2 === 0 ? states : [...states].reverse()) {
    writeEpoch(s.view, NS, BigInt(e + 1));
    const t1 = performance.now();
    const c1 = cpu();
    s.view.hashTreeRoot();
    s.epoch.push(performance.now() - t1);
    s.epochCpu.push(cpu() - c1);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const range = (xs: number[]) => `${median(xs).toFixed(2)} [${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}]`;
for (const s of states) {
  const cold = s.commit.slice(0, 5).map((x) => x.toFixed(1));
  console.log(`${s.name}: block commit+root, first 5 after the build: [${cold.join(', ')}] ms (cpu [${s.commitCpu.slice(0, 5).map((x) => x.toFixed(1)).join(', ')}])`);
  console.log(`${s.name}: block commit+root, blocks 10+: median ${range(s.commit.slice(10))} ms, cpu ${range(s.commitCpu.slice(10))} ms (of which the root's flush ${range(s.flush.slice(10))} ms); write loop ${range(s.write.slice(10))} ms`);
  console.log(`${s.name}: epoch commit+root [${s.epoch.map((x) => x.toFixed(1)).join(', ')}] ms (cpu [${s.epochCpu.map((x) => x.toFixed(1)).join(', ')}])`);
}
if (states.length === 2) {
  // Paired by block (and by epoch): the progressive state's time over the binary one's, CPU time (waits for a core left out).
  const [p, b] = states as [(typeof states)[0], (typeof states)[0]];
  const ratios = (x: number[], y: number[]) => x.map((v, i) => v / (y[i] as number));
  console.log(`progressive / binary, cpu, paired: block commit+root (blocks 10+) ${range(ratios(p.commitCpu.slice(10), b.commitCpu.slice(10)))}; epoch commit+root (epochs 1+) ${range(ratios(p.epochCpu.slice(1), b.epochCpu.slice(1)))}`);
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.argv[profileAt + 1] as string, JSON.stringify(profile));
}
