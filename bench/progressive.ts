/**
 * Progressive types benchmark: @ssztree/types progressive lists and
 * containers (on our default hasher backend) side by side with @chainsafe/ssz
 * 1.9's (on its hashtree hasher), and with our own binary lists, same inputs, each side in a child
 * process of its own, rounds interleaved (which side goes first alternates),
 * ratios paired round by round so the shared machine's load cancels.
 *
 *   P1  ProgressiveList[uint64] of 2^20: value root        (vs our List[uint64, 2^40]: P1b)
 *   P2  ProgressiveList[Validator] of 2^18: value root     (vs our List[Validator, 2^40]: P2b)
 *   P3  … values → view + root                             (P3b)
 *   P4  … bytes → view + root                              (P4b)
 *   G1  gloas-shaped state ProgressiveContainer{validators, balances, participation, slot}
 *       of 2^20 validators: bytes → view + root
 *   G2  its first block after the build: writes + commit + root (1024 balances, 128 validators × 2 fields)
 *   G3  steady blocks (15 more per build): commit + root (the write loop, G3w, timed apart)
 *   G4  epochs (3 per build, every balance rewritten): commit + root (write loop: G4w)
 *   U1  fork upgrade: a binary state view of 2^20 validators → the progressive lists
 *       (`fromBinaryView` of validators and balances) + root
 *   M*  memory (separate processes, --expose-gc): bytes per validator and per balance
 *   L*  binary-list rows against an earlier commit (`--base DIR`, a checkout with its
 *       dependencies installed): bench/progressiveBinary.ts run from both trees
 *
 * Usage: npm run bench:progressive -- [--rounds 5] [--warmup 2] [--state-rounds 3]
 *        [--base DIR] [--only P,G,U,M,L] [--write]
 */
import { copyFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher as hashtreeHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import * as cs from '@chainsafe/ssz';
import { defaultStore } from '@ssztree/core';
import { getHasher } from '@ssztree/hasher';
import { container, list, progressiveContainer, progressiveList, toHex, uint8, uint64 } from '@ssztree/types';
import { makeBalances, NS, NV } from './progressiveBinary.js';
import { writeSection } from './lib/docs.js';
import { RowProcess, serveRow } from './lib/rowProcess.js';
import { writeBlock, writeEpoch } from './lib/stateWorkload.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';
import { makeValidators, PeerValidator, prng, Validator, type ValidatorValue } from './lib/validator.js';

setHasher(hashtreeHasher);
// Ours on the backend the library's own start-up choice picks in the parent (its default, as in the realistic
// bench), pinned for every child process (they inherit the variable): otherwise each process picks its backend
// by a short timing at first use, which a loaded machine can tip either way from process to process. Set
// SSZTREE_HASHER=hashtree to run ours on the peer's hasher.
process.env['SSZTREE_HASHER'] ??= getHasher();

// ------------------------------------------------------------------ schemas
const PBalances = progressiveList(uint64);
const PValidators = progressiveList(Validator);
const Participation = progressiveList(uint8);
const GloasState = progressiveContainer({ slot: uint64, validators: PValidators, balances: PBalances, participation: Participation }, [1, 0, 1, 1, 1], 'GloasShapedState');
const BBalances = list(uint64, 2 ** 40);
const BValidators = list(Validator, 2 ** 40);
const ElectraState = container({ slot: uint64, validators: BValidators, balances: BBalances, participation: list(uint8, 2 ** 40) }, 'ElectraShapedState');

const PeerPBalances = new cs.ProgressiveListBasicType(new cs.UintBigintType(8));
const PeerPValidators = new cs.ProgressiveListCompositeType(PeerValidator);
const PeerGloasState = new cs.ProgressiveContainerType(
  { slot: new cs.UintBigintType(8), validators: PeerPValidators, balances: PeerPBalances, participation: new cs.ProgressiveListBasicType(new cs.UintNumberType(1)) },
  [true, false, true, true, true],
  { typeName: 'GloasShapedState' },
);

const stateValue = () => ({ slot: 1n, validators: makeValidators(NS), balances: makeBalances(NS), participation: new Uint8Array(NS).fill(7) });

// biome-ignore lint: both libraries' views are driven by field name.
type Dyn = any;

// --------------------------------------------------------- one side's rows
function serve(side: 'ours' | 'peer'): void {
  const ours = side === 'ours';
  let values: ValidatorValue[] | null = null;
  let valBytes: Uint8Array | null = null;
  let stateBytes: Uint8Array | null = null;
  let electraBytes: Uint8Array | null = null;
  let balances: BigUint64Array | null = null;
  let view: Dyn = null;
  let state: Dyn = null;
  let round = 0;
  const vals = () => (values ??= makeValidators(NV, 0xaa));
  const vBytes = () => (valBytes ??= PValidators.serialize(vals()));
  const bal = () => (balances ??= makeBalances(NS));
  const sBytes = () => (stateBytes ??= GloasState.serialize(stateValue()));
  const drop = () => {
    if (ours) view?.dispose();
    view = null;
  };
  const dropState = () => {
    if (ours) state?.dispose();
    state = null;
  };
  const noop = () => {};
  serveRow({
    P1: { prepare: bal, run: () => void (ours ? PBalances : PeerPBalances).hashTreeRoot(bal() as never) },
    P1b: { prepare: bal, run: () => void BBalances.hashTreeRoot(bal()) },
    P2: { prepare: vals, run: () => void (ours ? PValidators : PeerPValidators).hashTreeRoot(vals() as never) },
    P2b: { prepare: vals, run: () => void BValidators.hashTreeRoot(vals()) },
    P3: { prepare: () => (drop(), vals()), run: () => void (view = ours ? PValidators.toView(vals()) : PeerPValidators.toViewDU(vals())).hashTreeRoot() },
    P3b: { prepare: () => (drop(), vals()), run: () => void (view = BValidators.toView(vals())).hashTreeRoot() },
    P4: { prepare: () => (drop(), vBytes()), run: () => void (view = ours ? PValidators.deserializeToView(vBytes()) : PeerPValidators.deserializeToViewDU(vBytes())).hashTreeRoot() },
    P4b: { prepare: () => (drop(), vBytes()), run: () => void (view = BValidators.deserializeToView(vBytes())).hashTreeRoot() },
    G1: { prepare: () => (dropState(), sBytes()), run: () => void (state = ours ? GloasState.deserializeToView(sBytes()) : PeerGloasState.deserializeToViewDU(sBytes())).hashTreeRoot() },
    G2: {
      prepare: () => round++,
      run: () => {
        writeBlock(state, NS, prng(1000 + round));
        state.hashTreeRoot();
      },
    },
    G3w: { prepare: () => round++, run: () => writeBlock(state, NS, prng(1000 + round)) },
    G3: { prepare: noop, run: () => void state.hashTreeRoot() },
    G4w: { prepare: () => round++, run: () => writeEpoch(state, NS, BigInt(round + 1)) },
    G4: { prepare: noop, run: () => void state.hashTreeRoot() },
    U1: {
      prepare: () => {
        dropState();
        electraBytes ??= ElectraState.serialize(stateValue());
        state = ElectraState.deserializeToView(electraBytes);
        state.hashTreeRoot();
      },
      run: () => {
        const validators = PValidators.fromBinaryView(state.validators);
        const balances = PBalances.fromBinaryView(state.balances);
        validators.hashTreeRoot();
        balances.hashTreeRoot();
        validators.dispose();
        balances.dispose();
      },
    },
  });
}

// ------------------------------------------------------------------- memory
function heapBytes(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function memoryReport(which: 'ours' | 'peer'): Record<string, number> {
  const out: Record<string, number> = {};
  const balBytes = PBalances.serialize(makeBalances(NS));
  let base = heapBytes();
  const balances: Dyn = which === 'ours' ? PBalances.deserializeToView(balBytes) : PeerPBalances.deserializeToViewDU(balBytes);
  balances.hashTreeRoot();
  defaultStore.collect();
  out['bytes per balance (heap + buffers)'] = (heapBytes() - base) / NS;
  if (which === 'ours') out['ours: node bytes per balance (view.memory())'] = balances.memory().bytes / NS;
  const valBytes = PValidators.serialize(makeValidators(NS));
  base = heapBytes();
  const validators: Dyn = which === 'ours' ? PValidators.deserializeToView(valBytes) : PeerPValidators.deserializeToViewDU(valBytes);
  validators.hashTreeRoot();
  defaultStore.collect();
  out['bytes per validator (heap + buffers)'] = (heapBytes() - base) / NS;
  if (which === 'ours') out['ours: node bytes per validator (view.memory())'] = validators.memory().bytes / NS;
  return out;
}

// ------------------------------------------------------------------- parent
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

interface Group {
  readonly title: string;
  /** Per step, the workloads each side runs (one task per side; sides may be one process). */
  readonly steps: readonly (readonly [readonly string[], readonly string[]])[];
  readonly rounds: number;
  /** The processes compared (one: timed alone), and the labels of their columns. */
  readonly sides: readonly RowProcess[];
  readonly labels: readonly string[];
}

const NAMES: Record<string, string> = {
  P1: 'ProgressiveList[uint64] 2^20: value root (binary: List[uint64, 2^40])',
  P2: 'ProgressiveList[Validator] 2^18: value root (binary: List[Validator, 2^40])',
  P3: 'ProgressiveList[Validator] 2^18: values → view + root',
  P4: 'ProgressiveList[Validator] 2^18: bytes → view + root',
  G1: 'gloas-shaped state 2^20: bytes → view + root',
  G2: 'first block after the build: writes + commit + root',
  G3w: 'block: write loop (1024 balances, 128 validators × 2 fields)',
  G3: 'block: commit + root',
  G4w: 'epoch: write loop (2^20 balances)',
  G4: 'epoch: commit + root',
  U1: 'upgrade: binary state 2^20 → progressive lists (fromBinaryView ×2) + root',
  LU: 'List[uint64, 2^40] 2^20: value root',
  LV: 'List[Validator, 2^40] 2^18: value root',
  V1: 'List[Validator] 2^18: values → view + root',
  V2: 'List[Validator] 2^18: bytes → view + root',
  S1: 'binary state 2^20: bytes → view + root',
  B: 'binary state block: writes + commit + root',
  E: 'binary state epoch: writes + commit + root',
};

type Samples = Map<string, { a: number[]; b: number[]; labels: readonly string[] }>;

/** Both sides run the same workloads. */
const same = (w: string[]): [string[], string[]] => [w, w];

async function runGroups(groups: Group[], warmup: number): Promise<Samples> {
  const samples: Samples = new Map();
  for (const g of groups) {
    try {
      for (let round = 0; round < warmup + g.rounds; round++) {
        for (const step of g.steps) {
          const order = g.sides.length === 1 ? [0] : round % 2 === 0 ? [0, 1] : [1, 0];
          for (const k of order) {
            const reply = await g.sides[k]!.runAll(step[k]!);
            if (reply.kind === 'error') throw new Error(`${g.labels[k]} ${step[k]!.join('+')}: ${reply.message}`);
            step[0].forEach((w, j) => {
              if (round < warmup) return;
              const key = `${g.title}/${w}`;
              let s = samples.get(key);
              if (s === undefined) samples.set(key, (s = { a: [], b: [], labels: g.labels }));
              (k === 0 ? s.a : s.b).push(reply.ms[j]!);
            });
          }
        }
        console.error(`${g.title}: round ${round + 1}/${warmup + g.rounds} done (load ${loadavg()[0]!.toFixed(1)})`);
      }
    } finally {
      for (const p of new Set(g.sides)) p.close();
    }
  }
  return samples;
}

async function main(): Promise<void> {
  const rounds = Number(arg('rounds') ?? 5);
  const warmup = Number(arg('warmup') ?? 2);
  const stateRounds = Number(arg('state-rounds') ?? 3);
  const base = arg('base');
  const only = (arg('only') ?? 'P,G,U,M,L').split(',');
  const script = fileURLToPath(import.meta.url);
  // Both libraries agree before anything is timed.
  const sample = makeValidators(1000);
  if (toHex(PValidators.hashTreeRoot(sample)) !== toHex(PeerPValidators.hashTreeRoot(sample as never))) throw new Error('roots differ');
  const loadStart = loadavg()[0]!;
  const groups: Group[] = [];
  const pair = (): [RowProcess, RowProcess] => [new RowProcess(script, 'ours', ['--max-old-space-size=8192']), new RowProcess(script, 'peer', ['--max-old-space-size=8192'])];
  if (only.includes('P')) {
    groups.push({ title: 'progressive vs peer', steps: [['P1'], ['P2'], ['P3'], ['P4']].map(same), rounds, sides: pair(), labels: ['@ssztree', '@chainsafe/ssz'] });
    // Our progressive rows against our binary rows: one process, the two alternating.
    const p = new RowProcess(script, 'ours', ['--max-old-space-size=8192']);
    const steps: [string[], string[]][] = [['P1'], ['P2'], ['P3'], ['P4']].map(([w]) => [[w!], [`${w}b`]]);
    groups.push({ title: 'progressive vs binary (ours)', steps, rounds, sides: [p, p], labels: ['ProgressiveList', 'List[T, 2^40]'] });
  }
  if (only.includes('G')) {
    const steps = [['G1'], ['G2'], ...Array.from({ length: 15 }, () => ['G3w', 'G3']), ...Array.from({ length: 3 }, () => ['G4w', 'G4'])].map(same);
    groups.push({ title: 'gloas-shaped state', steps, rounds: stateRounds, sides: pair(), labels: ['@ssztree', '@chainsafe/ssz'] });
  }
  if (only.includes('U')) {
    groups.push({ title: 'upgrade', steps: [same(['U1'])], rounds, sides: [new RowProcess(script, 'ours', ['--max-old-space-size=8192'])], labels: ['@ssztree'] });
  }
  if (only.includes('L') && base !== undefined) {
    if (!existsSync(join(base, 'node_modules'))) throw new Error(`--base ${base}: no node_modules (install its dependencies first)`);
    const rowsFile = fileURLToPath(new URL('./progressiveBinary.ts', import.meta.url));
    const baseRows = join(base, 'bench', 'progressiveBinary.ts');
    copyFileSync(rowsFile, baseRows);
    const baseCommit = execFileSync('git', ['-C', base, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const now = new RowProcess(rowsFile, 'rows', ['--max-old-space-size=8192']);
    const then = new RowProcess(baseRows, 'rows', ['--max-old-space-size=8192']);
    const steps = [['LU'], ['LV'], ['V1'], ['V2'], ['S1'], ...Array.from({ length: 8 }, () => ['B']), ...Array.from({ length: 3 }, () => ['E'])].map(same);
    groups.push({ title: `binary lists: this commit vs ${baseCommit}`, steps, rounds: stateRounds, sides: [now, then], labels: ['this commit', baseCommit] });
  }
  const samples = await runGroups(groups, warmup);
  const memory: Record<string, Record<string, number>> = {};
  if (only.includes('M')) {
    for (const who of ['ours', 'peer'] as const) {
      const text = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx', '--conditions=source', script, 'memory', who], { encoding: 'utf8' });
      memory[who] = JSON.parse(text.trim().split('\n').at(-1) as string) as Record<string, number>;
    }
  }
  const lines: string[] = [];
  lines.push(`Command: \`npm run bench:progressive -- --rounds ${rounds} --warmup ${warmup} --state-rounds ${stateRounds}${base !== undefined ? ' --base <checkout>' : ''}${arg('only') !== undefined ? ` --only ${arg('only')}` : ''}\` (${new Date().toISOString().slice(0, 10)}).`);
  lines.push(
    `Machine: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}, Node ${process.version}, our hasher backend \`${getHasher()}\` (\`SSZTREE_HASHER\`), @chainsafe/ssz 1.9 on hashtree; load average ${loadStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end (the machine is shared with other engineers' test runs; sides interleaved and ratios paired round by round).`,
  );
  let title = '';
  for (const [key, s] of samples) {
    const [group, w] = key.split('/') as [string, string];
    const two = s.labels.length === 2;
    if (group !== title) {
      title = group;
      lines.push('', `${group}:`, '');
      lines.push(two ? `| workload | ${s.labels[0]} ms (median, min–max) | ${s.labels[1]} ms | ratio ${s.labels[1]} / ${s.labels[0]} (paired) |` : `| workload | ${s.labels[0]} ms (median, min–max) |`);
      lines.push(two ? '| --- | --- | --- | --- |' : '| --- | --- |');
    }
    const a = summarize(s.a);
    const cell = (x: ReturnType<typeof summarize>) => `${fmt(x.median, 2)} (${fmt(x.min, 2)}–${fmt(x.max, 2)})`;
    if (!two) {
      lines.push(`| ${NAMES[w] ?? w} | ${cell(a)} |`);
      continue;
    }
    const r = pairedRatio(s.b, s.a);
    lines.push(`| ${NAMES[w] ?? w} | ${cell(a)} | ${cell(summarize(s.b))} | ${fmt(r.median, 2)}× (${fmt(r.min, 2)}–${fmt(r.max, 2)}) |`);
  }
  if (Object.keys(memory).length > 0) {
    lines.push('', 'Memory, 2^20 validators and balances (process heap + array buffers after GC, delta over the inputs):', '', '| measure | @ssztree | @chainsafe/ssz |', '| --- | --- | --- |');
    for (const key of Object.keys(memory['ours'] ?? {})) lines.push(`| ${key} | ${fmt(memory['ours']?.[key] ?? Number.NaN, 1)} | ${fmt(memory['peer']?.[key] ?? Number.NaN, 1)} |`);
  }
  const report = lines.join('\n');
  console.log(report);
  if (process.argv.includes('--write')) writeSection('Progressive types', report);
}

const role = process.argv[2];
if (role === 'ours' || role === 'peer') serve(role);
else if (role === 'memory') console.log(JSON.stringify(memoryReport(process.argv[3] as 'ours' | 'peer')));
else void main();
