/**
 * Our side of bench/realistic.ts's epochs, in one process and in its order:
 * per round, the state loaded from bytes (+ root), 32 blocks, an epoch, 8
 * blocks, an epoch — the same plans (seed 1), each step on a clone of the
 * head, the old head released after it. Prints, for the rounds after the
 * warm-up ones, each epoch's writes and commit + root in wall and CPU ms
 * (process.cpuUsage: the machine is shared) and their p50s, and the final
 * root (to compare versions: the same rounds give the same root).
 *
 * `--parts` times the epoch in its parts instead, in CPU ms: the writes
 * part by part (demo/apply.ts `applyEpoch`'s, in its order), the commit
 * field by field (validators, balances, inactivity scores: each field's
 * commit and the store's flush, then the rest + root), with the minor page
 * faults of each part.
 *
 * `--profile out` writes a CPU profile of each measured epoch (out-1.cpuprofile, …).
 *
 *   node --conditions=source --import tsx --expose-gc bench/realistic-epochs.ts [--rounds 3] [--warmup 1] [--fork fulu] [--parts] [--profile out]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex, type ViewOf } from '@ssztree/types';
import { applyBlock, applyEpoch, type RotateParticipation, type StateLike } from '../demo/apply.js';
import { Rng } from '../demo/rng.js';
import { type BeaconState as ElectraState, START_SLOT, STATE_TYPES, type DemoFork } from '../demo/state.js';
import { type EpochPlan, planBlock, planEpoch, SLOTS_PER_EPOCH } from '../demo/workload.js';
import { cpuMs, turn } from './lib/cachedState.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const FORK = (arg('fork') ?? 'fulu') as DemoFork;
const N = 2 ** 20;
const ROUNDS = Number(arg('rounds') ?? 3);
const WARMUP = Number(arg('warmup') ?? 1);
const PARTS = process.argv.includes('--parts');
const SEED = 1;
/** `--profile out`: a CPU profile of each measured epoch (its writes, commit + root), written to out-1.cpuprofile, out-2.cpuprofile, … */
const PROFILE = arg('profile');
const session = PROFILE === undefined ? null : new Session();
if (session !== null) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
}
let profiled = 0;
type StateView = ViewOf<typeof ElectraState>;
const T = STATE_TYPES[FORK] as unknown as typeof ElectraState;
const bytes = readFileSync(join(tmpdir(), `ssztree-realistic-${FORK}-${N}-1.ssz`));
const rotate: RotateParticipation = (state, n) => {
  const s = state as unknown as StateView;
  s.previous_epoch_participation = s.current_epoch_participation;
  s.setField('current_epoch_participation', new Uint8Array(n));
};
const rows = new Map<string, number[]>();
const note = (name: string, ms: number): void => {
  let r = rows.get(name);
  if (r === undefined) rows.set(name, (r = []));
  r.push(ms);
};
let head: StateView | null = null;
let root: Uint8Array = new Uint8Array(32);

/** One step on a clone of the head: `write` timed, then the commit + root, then the old head released (untimed). */
async function step(write: (s: StateView) => void, epoch: boolean, measured: boolean): Promise<void> {
  const profile = session !== null && epoch && measured;
  if (profile) await session.post('Profiler.start');
  const s = head!.clone();
  let wall = performance.now();
  let cpu = cpuMs();
  write(s);
  const writes = [performance.now() - wall, cpuMs() - cpu];
  const parts: [string, number][] = [];
  wall = performance.now();
  cpu = cpuMs();
  if (epoch && PARTS) {
    let c = cpuMs();
    let f = faults();
    for (const [name, view] of [['validators', s.validators], ['balances', s.balances], ['scores', s.inactivity_scores]] as const) {
      view._commitNow();
      s._tree.store.flush();
      parts.push([`commit ${name}`, cpuMs() - c], [`commit ${name} (page faults)`, faults() - f]);
      c = cpuMs();
      f = faults();
    }
  }
  root = s.hashTreeRoot();
  const commit = [performance.now() - wall, cpuMs() - cpu];
  if (profile) writeFileSync(`${PROFILE}-${++profiled}.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile));
  head!.dispose();
  head = s;
  head._tree.store.settle();
  await turn();
  if (!epoch || !measured) return;
  note('epoch writes wall', writes[0]!);
  note('epoch writes CPU', writes[1]!);
  note('epoch commit + root wall', commit[0]!);
  note('epoch commit + root CPU', commit[1]!);
  note('epoch total wall', writes[0]! + commit[0]!);
  for (const [name, ms] of parts) note(name, ms);
  if (PARTS) console.log(`epoch parts: ${[...rows].map(([name, xs]) => `${name} ${xs[xs.length - 1]!.toFixed(1)}`).join(', ')}`);
  console.log(`epoch: writes ${writes[0]!.toFixed(1)} (CPU ${writes[1]!.toFixed(1)}), commit + root ${commit[0]!.toFixed(1)} (CPU ${commit[1]!.toFixed(1)})${parts.map(([n, ms]) => `, ${n} ${ms.toFixed(1)}`).join('')}`);
}

/** Minor page faults of the process so far (a fault on fresh memory costs ~10 µs on the benchmark's VM). */
const faults = (): number => process.resourceUsage().minorPageFault;

/** demo/apply.ts `applyEpoch` in its parts (the same writes in its order), each part's CPU ms noted. */
function epochInParts(s: StateView, plan: EpochPlan, measured: boolean): void {
  let c = cpuMs();
  let f = faults();
  const part = (name: string): void => {
    if (measured) note(name, cpuMs() - c);
    if (measured) note(`${name} (page faults)`, faults() - f);
    c = cpuMs();
    f = faults();
  };
  setAll(s, plan);
  part('writes: balances + scores');
  writeValidators(s, plan);
  part('writes: validators');
  rotate(s as unknown as StateLike, N);
  part('writes: rotation');
  const justified = s.current_justified_checkpoint;
  s.previous_justified_checkpoint.epoch = justified.epoch;
  s.previous_justified_checkpoint.root = justified.root;
  justified.epoch = BigInt(plan.epoch);
  justified.root = plan.nextRandaoMix;
  s.randao_mixes.set((plan.epoch + 1) % 65536, plan.nextRandaoMix);
  s.slashings.set((plan.epoch + 1) % 8192, 0n);
  part('writes: the rest');
}
function setAll(s: StateView, plan: EpochPlan): void {
  const balances = s.balances;
  const scores = s.inactivity_scores;
  for (let i = 0; i < N; i++) {
    balances.set(i, plan.balances[i]!);
    scores.set(i, plan.inactivityScores[i]!);
  }
}
function writeValidators(s: StateView, plan: EpochPlan): void {
  const validators = s.validators;
  for (let k = 0; k < plan.effectiveIndex.length; k++) validators.get(plan.effectiveIndex[k]!).effective_balance = plan.effectiveValue[k]!;
}

for (let round = 0; round < WARMUP + ROUNDS; round++) {
  const measured = round >= WARMUP;
  head?.dispose();
  await turn();
  head = T.deserializeToView(bytes);
  root = head.hashTreeRoot();
  let k = round * 40;
  const block = async () => {
    k++;
    const plan = planBlock(new Rng(SEED * 1000 + k), N, START_SLOT + k);
    const prev = root;
    await step((s) => applyBlock(s as unknown as StateLike, plan, prev), false, measured);
  };
  const epoch = async (e: number) => {
    const plan = planEpoch(new Rng(SEED * 7919 + e), N, Math.floor(START_SLOT / SLOTS_PER_EPOCH) + e);
    await step((s) => (PARTS ? epochInParts(s, plan, measured) : applyEpoch(s as unknown as StateLike, plan, rotate)), true, measured);
  };
  for (let b = 0; b < 32; b++) await block();
  await epoch(2 * round);
  for (let b = 0; b < 8; b++) await block();
  await epoch(2 * round + 1);
}
const med = (xs: number[]): string => ([...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN).toFixed(1);
for (const [name, xs] of rows) console.log(`${name}: p50 ${med(xs)} (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`);
console.log(`root ${toHex(root).slice(0, 18)}`);
