/**
 * Profiling driver for the realistic block and epoch (ours only, one
 * process): loads the state bench/realistic.ts wrote (run that first, or
 * pass --validators to generate one here), then loops the demo's blocks on
 * clones and an epoch, printing the writes and commit + root times per
 * phase. Run it under a profiler:
 *
 *   node --conditions=source --import tsx --cpu-prof bench/profile-realistic.ts [--blocks 64] [--epochs 1] [--fork fulu] [--only writes|participation]
 *
 * `--profile out.cpuprofile` records a CPU profile of the block and epoch loops only (the load left out).
 * Each block and epoch ends with a task turn, as between a client's blocks (old versions are freed there).
 *
 * `--only participation` times the participation `set` loop of each block alone (on a clone dropped after).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex, type ViewOf } from '@ssztree/types';
import { applyBlock, applyEpoch, type RotateParticipation, type StateLike } from '../demo/apply.js';
import { Rng } from '../demo/rng.js';
import { type BeaconState as ElectraState, generateState, START_SLOT, STATE_TYPES, type DemoFork } from '../demo/state.js';
import { planBlock, planEpoch, SLOTS_PER_EPOCH } from '../demo/workload.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const FORK = (arg('fork') ?? 'fulu') as DemoFork;
const N = Number(arg('validators') ?? 2 ** 20);
const BLOCKS = Number(arg('blocks') ?? 64);
const EPOCHS = Number(arg('epochs') ?? 1);
const ONLY = arg('only');
type StateView = ViewOf<typeof ElectraState>;
const T = STATE_TYPES[FORK] as unknown as typeof ElectraState;
const file = join(tmpdir(), `ssztree-realistic-${FORK}-${N}-1.ssz`);
if (!existsSync(file)) writeFileSync(file, T.serialize(generateState(N, 1, () => {}, FORK)));
const bytes = readFileSync(file);
const rotate: RotateParticipation = (state, n) => {
  const s = state as unknown as StateView;
  s.previous_epoch_participation = s.current_epoch_participation;
  s.setField('current_epoch_participation', new Uint8Array(n));
};
let t = performance.now();
let head = T.deserializeToView(bytes);
let root = head.hashTreeRoot();
console.log(`load ${(performance.now() - t).toFixed(1)} ms`);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const wc: number[] = [];
const w: number[] = [];
const turn = () => new Promise((resolve) => setImmediate(resolve));
const profileAt = process.argv.indexOf('--profile');
const session = profileAt >= 0 ? new Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
}
const c: number[] = [];
for (let k = 1; k <= BLOCKS; k++) {
  const plan = planBlock(new Rng(1000 + k), N, START_SLOT + k);
  const next = head.clone();
  if (ONLY === 'participation') {
    const flags = next.current_epoch_participation;
    t = performance.now();
    const c0 = cpu();
    for (let j = 0; j < plan.participationIndex.length; j++) flags.set(plan.participationIndex[j]!, plan.participationFlags[j]! ^ 64);
    w.push(performance.now() - t);
    wc.push(cpu() - c0);
    next.dispose();
    await turn();
    continue;
  }
  t = performance.now();
  const c0 = cpu();
  applyBlock(next as unknown as StateLike, plan, root);
  w.push(performance.now() - t);
  wc.push(cpu() - c0);
  if (ONLY === 'writes') {
    next.dispose();
    await turn();
    continue;
  }
  t = performance.now();
  root = next.hashTreeRoot();
  c.push(performance.now() - t);
  head.dispose();
  head = next;
  await turn();
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]?.toFixed(2);
console.log(`blocks: writes p50 ${med(w)} ms (CPU ${med(wc)} ms), commit+root p50 ${med(c)} ms (last 8 writes ${w.slice(-8).map((x) => x.toFixed(2)).join(' ')})`);
for (let e = 0; e < EPOCHS && ONLY === undefined; e++) {
  const plan = planEpoch(new Rng(7919 + e), N, Math.floor(START_SLOT / SLOTS_PER_EPOCH) + e);
  const next = head.clone();
  t = performance.now();
  applyEpoch(next as unknown as StateLike, plan, rotate);
  const ew = performance.now() - t;
  t = performance.now();
  root = next.hashTreeRoot();
  console.log(`epoch: writes ${ew.toFixed(1)} ms, commit+root ${(performance.now() - t).toFixed(1)} ms`);
  head.dispose();
  head = next;
  await turn();
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.argv[profileAt + 1] as string, JSON.stringify(profile));
}
console.log(`root ${toHex(root).slice(0, 18)}`);
