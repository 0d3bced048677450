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
 * `--rounds R` runs the blocks R times, loading the state from bytes again before each round after the first
 * (with `--phases`, the first 8 blocks are then those of rounds 2 to R: a warm process, as in the realistic bench).
 *
 * `--only participation` times the participation `set` loop of each block alone (on a clone dropped after).
 *
 * `--phases` applies each block in its parts instead (the same writes as demo/apply.ts's `applyBlock`, in
 * its order; the root printed at the end is the same) and prints each part's p50, wall and CPU (steady:
 * after the first 8 blocks; and the first 8): the header and roots, the 1024 balances, the 128
 * validators, the participation flags; then the commit, field by field (the field's own commit and the
 * store's flush after it, so each field's hashing is counted with it), the rest and the root; the
 * old head's dispose, which the realistic bench counts in its commit + root; and the freeing that the
 * dispose defers to the store's next settle, which the realistic bench times as a row of its own.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex, type ViewOf } from '@ssztree/types';
import { applyBlock, applyEpoch, type RotateParticipation, type StateLike } from '../demo/apply.js';
import { Rng } from '../demo/rng.js';
import { type BeaconState as ElectraState, generateState, START_SLOT, STATE_TYPES, type DemoFork } from '../demo/state.js';
import { type BlockPlan, planBlock, planEpoch, SLOTS_PER_EPOCH, ValidatorChange } from '../demo/workload.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const FORK = (arg('fork') ?? 'fulu') as DemoFork;
const N = Number(arg('validators') ?? 2 ** 20);
const BLOCKS = Number(arg('blocks') ?? 64);
/** `--rounds R`: the blocks R times, the state loaded again from bytes before each round after the first (as the realistic bench's rounds in one process). */
const ROUNDS = Number(arg('rounds') ?? 1);
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
/** `--profile-epochs-from E`: the profile starts before epoch E (0-based), leaving the blocks and earlier epochs out. */
const PROFILE_FROM = arg('profile-epochs-from');
const startProfile = async (): Promise<void> => {
  if (!session) return;
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
};
if (PROFILE_FROM === undefined) await startProfile();
const c: number[] = [];
/**
 * `--phases`: wall and CPU ms of each part of each block, by part: `steady` after the first 8 blocks of a round,
 * `first` the first 8 (of rounds after the first when there are several: a warm process, as the realistic bench's).
 */
const parts = new Map<string, { wall: number[]; cpu: number[] }>();
const firstParts = new Map<string, { wall: number[]; cpu: number[] }>();
let partsNow: Map<string, { wall: number[]; cpu: number[] }> | null = parts;
let partWall = 0;
let partCpu = 0;
const part = (name: string): void => {
  const wall = performance.now();
  const used = cpu();
  const into = partsNow;
  let p = into?.get(name);
  if (into !== null && p === undefined) into.set(name, (p = { wall: [], cpu: [] }));
  p?.wall.push(wall - partWall);
  p?.cpu.push(used - partCpu);
  partWall = performance.now();
  partCpu = cpu();
};
const ZERO_ROOT = new Uint8Array(32);

// demo/apply.ts `applyBlock`, part by part. Each part's loop is a function of its own, as `applyBlock`
// is: a loop in top-level module code runs in whatever tier its on-stack replacement reached, which made
// the same part measure 0.4, 1.7 or 5.6 ms from one block to the next.
function headerPart(s: StateView, plan: BlockPlan): void {
  const previousSlot = Number(s.slot);
  s.state_roots.set(previousSlot % 8192, root);
  s.block_roots.set(previousSlot % 8192, plan.parentRoot);
  s.slot = plan.slot;
  const header = s.latest_block_header;
  header.slot = plan.slot;
  header.proposer_index = plan.proposer;
  header.parent_root = plan.parentRoot;
  header.state_root = ZERO_ROOT;
  header.body_root = plan.bodyRoot;
  s.randao_mixes.set(plan.epoch % 65536, plan.randaoMix);
}
function balancesPart(s: StateView, plan: BlockPlan): void {
  const balances = s.balances;
  for (let j = 0; j < plan.balanceIndex.length; j++) balances.set(plan.balanceIndex[j]!, plan.balanceValue[j]!);
}
function validatorsPart(s: StateView, plan: BlockPlan): void {
  const validators = s.validators;
  for (let j = 0; j < plan.validatorIndex.length; j++) {
    const v = validators.get(plan.validatorIndex[j]!);
    const value = plan.validatorValue[j]!;
    if (plan.validatorChange[j] === ValidatorChange.Slashed) {
      v.slashed = true;
      v.withdrawable_epoch = BigInt(plan.epoch + 8192);
    } else if (plan.validatorChange[j] === ValidatorChange.Exit) {
      v.exit_epoch = value;
      v.withdrawable_epoch = value + 256n;
    } else v.effective_balance = value;
  }
}
function participationPart(s: StateView, plan: BlockPlan): void {
  const flags = s.current_epoch_participation;
  for (let j = 0; j < plan.participationIndex.length; j++) {
    const i = plan.participationIndex[j]!;
    flags.set(i, flags.get(i) | plan.participationFlags[j]!);
  }
}
/** One block on a clone of `head`, part by part (`--phases`); the old head disposed; returns the new head. */
async function phasedBlock(head: StateView, plan: BlockPlan): Promise<StateView> {
  partWall = performance.now();
  partCpu = cpu();
  const s = head.clone();
  headerPart(s, plan);
  part('writes: clone, header, roots, randao mix');
  balancesPart(s, plan);
  part('writes: 1024 balances');
  validatorsPart(s, plan);
  part(`writes: ${plan.validatorIndex.length} validators`);
  participationPart(s, plan);
  part('writes: participation flags');
  const store = s._tree.store;
  for (const [name, view] of [['participation', s.current_epoch_participation], ['balances', s.balances], ['validators', s.validators]] as const) {
    view._commitNow();
    store.flush();
    part(`commit: ${name} (commit, flush)`);
  }
  root = s.hashTreeRoot();
  part('commit: the rest + root');
  head.dispose();
  part('dispose of the old head');
  store.settle();
  part('release of the old head (the deferred settle; a task turn runs it)');
  await turn();
  return s;
}
for (let round = 0; round < ROUNDS; round++) {
  if (round > 0) {
    head.dispose();
    await turn();
    t = performance.now();
    head = T.deserializeToView(bytes);
    root = head.hashTreeRoot();
    console.log(`load ${(performance.now() - t).toFixed(1)} ms`);
  }
  for (let k = 1; k <= BLOCKS; k++) {
    const plan = planBlock(new Rng(1000 + k), N, START_SLOT + k);
    partsNow = k > 8 ? parts : ROUNDS === 1 || round > 0 ? firstParts : null;
    if (process.argv.includes('--phases')) {
      head = await phasedBlock(head, plan);
      continue;
    }
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
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]?.toFixed(2);
if (parts.size > 0) {
  const sum = (of: typeof parts, pick: (p: { wall: number[]; cpu: number[] }) => number[]) => [...of.values()].reduce((a, p) => a + Number(med(pick(p))), 0).toFixed(2);
  console.log(`part: steady p50 ms wall (CPU) | first 8 wall (CPU)${ROUNDS > 1 ? ` (rounds 2–${ROUNDS})` : ''}`);
  for (const [name, p] of parts) {
    const f = firstParts.get(name);
    console.log(`  ${name}: ${med(p.wall)} (${med(p.cpu)}) | ${med(f?.wall ?? [])} (${med(f?.cpu ?? [])})`);
  }
  console.log(`  sum of the parts' p50s: ${sum(parts, (p) => p.wall)} (${sum(parts, (p) => p.cpu)}) | ${sum(firstParts, (p) => p.wall)} (${sum(firstParts, (p) => p.cpu)})`);
}
if (w.length > 0) console.log(`blocks: writes p50 ${med(w)} ms (CPU ${med(wc)} ms), commit+root p50 ${med(c)} ms (last 8 writes ${w.slice(-8).map((x) => x.toFixed(2)).join(' ')})`);
for (let e = 0; e < EPOCHS && ONLY === undefined; e++) {
  const plan = planEpoch(new Rng(7919 + e), N, Math.floor(START_SLOT / SLOTS_PER_EPOCH) + e);
  if (PROFILE_FROM !== undefined && e === Number(PROFILE_FROM)) await startProfile();
  const next = head.clone();
  if (process.argv.includes('--epoch-phases')) {
    // The epoch of demo/apply.ts `applyEpoch` in its parts (the same writes in its order), CPU ms of each.
    const out: string[] = [];
    let c1 = cpu();
    const step = (name: string): void => {
      const now = cpu();
      out.push(`${name} ${(now - c1).toFixed(1)}`);
      c1 = cpu();
    };
    const s = next;
    const balances = s.balances;
    const scores = s.inactivity_scores;
    for (let i = 0; i < N; i++) {
      balances.set(i, plan.balances[i]!);
      scores.set(i, plan.inactivityScores[i]!);
    }
    step('balances+scores');
    const validators = s.validators;
    for (let k = 0; k < plan.effectiveIndex.length; k++) validators.get(plan.effectiveIndex[k]!).effective_balance = plan.effectiveValue[k]!;
    step('validators');
    rotate(s as unknown as StateLike, N);
    const justified = s.current_justified_checkpoint;
    s.previous_justified_checkpoint.epoch = justified.epoch;
    s.previous_justified_checkpoint.root = justified.root;
    justified.epoch = BigInt(plan.epoch);
    justified.root = plan.nextRandaoMix;
    s.randao_mixes.set((plan.epoch + 1) % 65536, plan.nextRandaoMix);
    s.slashings.set((plan.epoch + 1) % 8192, 0n);
    step('rest');
    const store = s._tree.store;
    for (const [name, view] of [['validators', validators], ['balances', balances], ['scores', scores]] as const) {
      view._commitNow();
      step(`commit ${name}`);
      store.flush();
      step(`flush ${name}`);
    }
    root = s.hashTreeRoot();
    step('rest+root');
    head.dispose();
    step('dispose');
    head = s;
    await turn();
    step('turn');
    console.log(`epoch CPU ms: ${out.join(', ')}`);
    continue;
  }
  t = performance.now();
  let c0 = cpu();
  applyEpoch(next as unknown as StateLike, plan, rotate);
  const ew = performance.now() - t;
  const ewc = cpu() - c0;
  t = performance.now();
  c0 = cpu();
  root = next.hashTreeRoot();
  const ec = performance.now() - t;
  const ecc = cpu() - c0;
  t = performance.now();
  c0 = cpu();
  head.dispose();
  head = next;
  await turn();
  // CPU in process (the machine may be shared): the epoch's writes, its commit + root, and the old head's dispose.
  console.log(`epoch: writes ${ew.toFixed(1)} ms (CPU ${ewc.toFixed(1)}), commit+root ${ec.toFixed(1)} ms (CPU ${ecc.toFixed(1)}), dispose ${(performance.now() - t).toFixed(1)} ms (CPU ${(cpu() - c0).toFixed(1)})`);
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(process.argv[profileAt + 1] as string, JSON.stringify(profile));
}
console.log(`root ${toHex(root).slice(0, 18)}`);
