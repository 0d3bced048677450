/**
 * Views benchmark: tree-backed views of @ssztree/types side by side with
 * @chainsafe/ssz ViewDU (on its hashtree hasher), same inputs, each side in
 * a child process of its own (one process per row), rounds interleaved. A
 * block's (and an epoch's) write loop and commit run back to back in one
 * task of one side's process, then the other side's; which side goes first
 * alternates.
 *
 *   V1  List[Validator, 2^40] of 2^18: from values to a tree-backed view + root
 *   V2  the same from bytes
 *   S1  state {validators, balances} of 2^20 validators: from bytes to a view + root
 *   B1  a block on that state: 1024 random balances, 128 random validators'
 *       effective_balance and slashed written (the write loop), then
 *   B2  commit + root
 *   E1  an epoch: all 2^20 balances rewritten (the write loop), then
 *   E2  commit + root (three epochs per state round, after its eight blocks)
 *   M*  memory (separate processes, --expose-gc): bytes per validator and
 *       per balance, and 1000 successive blocks dropping old states
 *
 * Before each build a side lets go of its previous list view or state,
 * untimed: ours by `dispose()` (as a client drops old states), the peer's by
 * dropping the reference (its views have no dispose).
 *
 * Both sides use bigint uint64 fields (our consensus-style schemas,
 * ChainSafe's UintBigintType); ChainSafe's Validator is its
 * ContainerNodeStructType (how Lodestar stores validators). Inputs come from
 * one seeded generator, so both sides write the very same values; before
 * timing, both sides' roots are compared.
 *
 * Warm-up: `--warmup 2` by default (it was 1 until 2026-11-30). Our block
 * commit reaches its steady cost only after ~16–20 blocks in a process (the
 * JIT's tiering of the commit path): with one warm-up state round (8
 * blocks), the first measured round's 8 of the 24 block samples still ran
 * slower than the rounds after it (`--samples` prints them; figures in
 * docs/VIEWS.md). The peer's figures are the same either way. A client
 * processes blocks for days; the block rows measure that steady state.
 *
 * Usage: npm run bench:views -- [--rounds 5] [--warmup 2] [--state-rounds 3] [--write]
 *        [--samples]  (also print each side's block commit + root samples, in order, to stderr)
 *        [--only V1,V2,S1,M]  (just these rows; M = the memory rows; not with --write;
 *        block/epoch rows alone still build their state with S1, untimed)
 *        [--threads N]  (our row process turns the hasher's worker pool on with N
 *        workers, `configureThreads(N)`; default off. The peer and the memory rows
 *        are unchanged.)
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher as hashtreeHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import * as cs from '@chainsafe/ssz';
import { defaultStore } from '@ssztree/core';
import { configureThreads, getHasher } from '@ssztree/hasher';
import { container, list, preimageBytes, toHex, uint64 } from '@ssztree/types';
import { writeSection } from './lib/docs.js';
import { RowProcess, serveRow } from './lib/rowProcess.js';
import { writeBlock, writeEpoch } from './lib/stateWorkload.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';
import { makeValidators as makeValidatorsOf, PeerValidator, prng, Validator, type ValidatorValue } from './lib/validator.js';

setHasher(hashtreeHasher);
/** `--threads N`: our row process (and the probe) hash with N pool workers; the parent, the peer and the memory rows stay off. */
const THREADS = threadsArg();
const ROLE = process.argv[2];
configureThreads(ROLE === 'ours' || ROLE === 'probe' ? THREADS : 0);

function threadsArg(): number {
  const i = process.argv.indexOf('--threads');
  if (i < 0) return 0;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 0 || n > 64) throw new Error(`--threads: expected an integer in 0..64, got ${process.argv[i + 1]}`);
  return n;
}

const NV = 2 ** 18;
const NS = 2 ** 20;
const LIMIT = 2 ** 40;

// ------------------------------------------------------------------ schemas
const Validators = list(Validator, LIMIT);
const Balances = list(uint64, LIMIT);
const State = container({ validators: Validators, balances: Balances }, 'State');

const PeerValidators = new cs.ListCompositeType(PeerValidator, LIMIT);
const PeerBalances = new cs.ListBasicType(new cs.UintBigintType(8), LIMIT);
const PeerState = new cs.ContainerType({ validators: PeerValidators, balances: PeerBalances }, { typeName: 'State' });

// ------------------------------------------------------------------- inputs
/** The list rows' validators (pubkeys tagged 0xaa in their last byte). */
const makeValidators = (n: number): ValidatorValue[] => makeValidatorsOf(n, 0xaa);

function makeBalances(n: number): BigUint64Array {
  const out = new BigUint64Array(n);
  for (let i = 0; i < n; i++) out[i] = 32_000_000_000n + BigInt(i % 1000);
  return out;
}


// --------------------------------------------------------- one side's rows
/** What a side can do: the same operations on its own library. */
interface Side {
  validatorsFromValues(values: ValidatorValue[]): Uint8Array;
  validatorsFromBytes(bytes: Uint8Array): Uint8Array;
  stateFromBytes(bytes: Uint8Array): void;
  blockWrites(round: number): void;
  epochWrites(round: number): void;
  commitRoot(): Uint8Array;
  /** Lets go of the last list view or state before the next build, untimed (ours: dispose; the peer's views have no dispose, they are dropped for GC). */
  releaseList(): void;
  releaseState(): void;
}

// biome-ignore lint: ChainSafe's ViewDU is typed per schema; the benchmark drives it by field name.
type Dyn = any;

function oursSide(): Side {
  let state: Dyn = null;
  let last: Dyn = null;
  return {
    validatorsFromValues: (values) => (last = Validators.toView(values)).hashTreeRoot(),
    validatorsFromBytes: (bytes) => (last = Validators.deserializeToView(bytes)).hashTreeRoot(),
    releaseList() {
      last?.dispose();
      last = null;
    },
    releaseState() {
      state?.dispose();
      state = null;
    },
    stateFromBytes(bytes) {
      state = State.deserializeToView(bytes);
      state.hashTreeRoot();
    },
    blockWrites: (round) => writeBlock(state, NS, prng(1000 + round)),
    epochWrites: (round) => writeEpoch(state, NS, BigInt(round + 1)),
    commitRoot: () => state.hashTreeRoot(),
  };
}

function peerSide(): Side {
  let state: Dyn = null;
  return {
    releaseList() {},
    releaseState() {
      state = null;
    },
    validatorsFromValues: (values) => PeerValidators.toViewDU(values).hashTreeRoot(),
    validatorsFromBytes: (bytes) => PeerValidators.deserializeToViewDU(bytes).hashTreeRoot(),
    stateFromBytes(bytes) {
      state = PeerState.deserializeToViewDU(bytes);
      state.hashTreeRoot();
    },
    blockWrites: (round) => writeBlock(state, NS, prng(1000 + round)),
    epochWrites: (round) => writeEpoch(state, NS, BigInt(round + 1)),
    commitRoot: () => state.hashTreeRoot(),
  };
}

function serve(side: Side): void {
  let values: ValidatorValue[] | null = null;
  let bytes: Uint8Array | null = null;
  let stateBytes: Uint8Array | null = null;
  let round = 0;
  const vals = () => (values ??= makeValidators(NV));
  const valBytes = () => (bytes ??= Validators.serialize(vals()));
  const sBytes = () => (stateBytes ??= State.serialize({ validators: makeValidators(NS), balances: makeBalances(NS) }));
  const noop = () => {};
  serveRow({
    V1: { prepare: () => (side.releaseList(), vals()), run: () => void side.validatorsFromValues(vals()) },
    V2: { prepare: () => (side.releaseList(), valBytes()), run: () => void side.validatorsFromBytes(valBytes()) },
    S1: { prepare: () => (side.releaseState(), sBytes()), run: () => side.stateFromBytes(sBytes()) },
    B1: { prepare: () => round++, run: () => side.blockWrites(round) },
    B2: { prepare: noop, run: () => void side.commitRoot() },
    E1: { prepare: () => round++, run: () => side.epochWrites(round) },
    E2: { prepare: noop, run: () => void side.commitRoot() },
  });
}

// ------------------------------------------------------------------- memory
function heapBytes(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

async function memoryReport(which: 'ours' | 'peer'): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  // In a function of their own, so that their inputs (2^18 validator values, ~200 MB of heap) are
  // garbage before the block loop's first figure: a local of this async function could stay live.
  listMemory(which, out);
  await blocksMemory(which, out);
  return out;
}

function listMemory(which: 'ours' | 'peer', out: Record<string, number>): void {
  // Balances first, then validators, both kept alive: neither measurement can reuse pages the other freed.
  const balBytes = Balances.serialize(makeBalances(NS));
  let base = heapBytes();
  const balances: Dyn = which === 'ours' ? Balances.deserializeToView(balBytes) : PeerBalances.deserializeToViewDU(balBytes);
  balances.hashTreeRoot();
  defaultStore.collect();
  out['bytesPerBalance'] = (heapBytes() - base) / NS;
  if (which === 'ours') out['ours: node bytes per balance (view.memory())'] = balances.memory().bytes / NS;
  const values = makeValidators(NV);
  base = heapBytes();
  const validators: Dyn = which === 'ours' ? Validators.toView(values) : PeerValidators.toViewDU(values);
  validators.hashTreeRoot();
  defaultStore.collect();
  out['bytesPerValidator'] = (heapBytes() - base) / NV;
  if (which === 'ours') {
    out['ours: node bytes per validator (view.memory())'] = validators.memory().bytes / NV;
    out['ours: preimage table bytes per validator'] = preimageBytes() / NV;
    validators.dispose();
    balances.dispose();
  }
}

async function blocksMemory(which: 'ours' | 'peer', out: Record<string, number>): Promise<void> {
  // 1000 blocks on a 2^18-validator state, each on a clone, the previous state dropped (ours: disposed).
  const stateBytes = State.serialize({ validators: makeValidators(NV), balances: makeBalances(NV) });
  let state: Dyn = which === 'ours' ? State.deserializeToView(stateBytes) : PeerState.deserializeToViewDU(stateBytes);
  state.hashTreeRoot();
  const r = prng(7);
  for (let b = 1; b <= 1000; b++) {
    const next = state.clone();
    for (let k = 0; k < 1024; k++) next.balances.set(Math.floor(r() * NV), BigInt(Math.floor(r() * 2 ** 35)));
    for (let k = 0; k < 128; k++) next.validators.get(Math.floor(r() * NV)).effective_balance = BigInt(Math.floor(r() * 2 ** 35));
    next.hashTreeRoot();
    if (which === 'ours') state.dispose();
    state = next;
    // Blocks arrive as separate tasks: let scheduled sweeps and finalizers run between them, as in a client.
    await new Promise((resolve) => setImmediate(resolve));
    if (b === 10 || b === 100 || b === 300 || b === 600 || b === 1000) {
      defaultStore.collect();
      out[`blocksMB@${b}`] = heapBytes() / 2 ** 20;
    }
  }
}

// ------------------------------------------------------------------- parent
function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const rounds = Number(arg('rounds') ?? 5);
  const warmup = Number(arg('warmup') ?? 2);
  const stateRounds = Number(arg('state-rounds') ?? 3);
  const script = fileURLToPath(import.meta.url);
  // Both sides must agree before anything is timed.
  const sample = makeValidators(1024);
  const a = toHex(Validators.toView(sample).hashTreeRoot());
  const b = toHex(PeerValidators.toViewDU(sample).hashTreeRoot());
  if (a !== b) throw new Error(`roots differ: ${a} vs ${b}`);
  // A group's steps run in order; a step's rows run back to back in one task of one side's process
  // (one request), then the other side runs the same step (which side goes first alternates by round).
  // A block's write loop and its commit are one step, as in a client, which computes the state root in
  // the same task right after processing the block: as separate steps, the other side's write loop ran
  // on the shared cores and caches between a side's writes and its commit, and as separate requests the
  // process sat idle between them, free to lose its core and caches — neither of which a client does.
  const groups: { title: string; steps: string[][]; rounds: number }[] = [
    { title: 'validators', steps: [['V1'], ['V2']], rounds },
    // Eight blocks per round after each build: a block's cost is steady-state work, not the first one after a build.
    // Three epochs per round likewise: the first epoch after a build also pays for that build's pool bookkeeping, so one sample per build was noisy.
    {
      title: 'state',
      steps: [['S1'], ...Array.from({ length: 8 }, () => ['B1', 'B2']), ...Array.from({ length: 3 }, () => ['E1', 'E2'])],
      rounds: stateRounds,
    },
  ];
  const names: Record<string, string> = {
    V1: 'List[Validator] 2^18: values → view + root',
    V2: 'List[Validator] 2^18: bytes → view + root',
    S1: 'state 2^20 validators: bytes → view + root',
    B1: 'block: write loop (1024 balances, 128 validators × 2 fields)',
    B2: 'block: commit + root',
    E1: 'epoch: write loop (2^20 balances)',
    E2: 'epoch: commit + root',
  };
  // --only: a subset of the rows (a quick paired look while optimising).
  const only = arg('only')?.split(',');
  if (only !== undefined) {
    if (process.argv.includes('--write')) throw new Error('--only and --write do not go together');
    // Block and epoch rows run on the state S1 builds: S1 still runs for them, untimed.
    const needsState = only.some((w) => /^[BE]/.test(w));
    // A step keeps its rows (a commit needs its writes); untimed rows of a kept step are just not reported.
    for (const g of groups) g.steps = g.steps.filter((step) => step.some((w) => only.includes(w) || (w === 'S1' && needsState)));
  }
  const reported = (w: string) => only === undefined || only.includes(w);
  const samples: Record<string, { ours: number[]; peer: number[] }> = {};
  for (const g of groups) {
    if (g.steps.length === 0) continue;
    const ours = new RowProcess(script, 'ours', ['--max-old-space-size=8192'], ['--threads', String(THREADS)]);
    const peer = new RowProcess(script, 'peer', ['--max-old-space-size=8192']);
    try {
      for (let round = 0; round < warmup + g.rounds; round++) {
        for (const step of g.steps) {
          const order: [string, RowProcess][] = round % 2 === 0 ? [['ours', ours], ['peer', peer]] : [['peer', peer], ['ours', ours]];
          for (const [who, proc] of order) {
            const reply = await proc.runAll(step);
            if (reply.kind === 'error') throw new Error(`${who} ${step.join('+')}: ${reply.message}`);
            step.forEach((w, k) => {
              if (round < warmup || !reported(w)) return;
              const s = (samples[w] ??= { ours: [], peer: [] });
              (who === 'ours' ? s.ours : s.peer).push(reply.ms[k]!);
            });
          }
        }
        console.error(`${g.title}: round ${round + 1}/${warmup + g.rounds} done`);
      }
    } finally {
      ours.close();
      peer.close();
    }
  }
  if (process.argv.includes('--samples')) {
    for (const w of ['B2', 'E2']) if (samples[w] !== undefined) console.error(`${w} samples (ms, in order): ours ${samples[w].ours.map((x) => x.toFixed(2)).join(' ')}; peer ${samples[w].peer.map((x) => x.toFixed(1)).join(' ')}`);
  }
  const memory: Record<string, Record<string, number>> = {};
  for (const who of ['ours', 'peer'] as const) {
    if (only !== undefined && !only.includes('M')) break;
    const outText = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', '--import', 'tsx', '--conditions=source', script, 'memory', who], { encoding: 'utf8' });
    memory[who] = JSON.parse(outText.trim().split('\n').at(-1) as string) as Record<string, number>;
  }

  const lines: string[] = [];
  const flags = (only !== undefined ? ` --only ${only.join(',')}` : ' --write') + (THREADS > 0 ? ` --threads ${THREADS}` : '');
  lines.push(`Command: \`npm run bench:views -- --rounds ${rounds} --warmup ${warmup} --state-rounds ${stateRounds}${flags}\` (${new Date().toISOString().slice(0, 10)}).`);
  lines.push(
    `Machine: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}, Node ${process.version}, our hasher backend \`${getHasher()}\` (${THREADS > 0 ? `threads ${THREADS}` : 'threads off'}), @chainsafe/ssz on hashtree; load average at the start of the report ${loadavg()[0]!.toFixed(1)} (the machine is shared).`,
  );
  lines.push('');
  lines.push('| workload | @ssztree views ms (median, min–max) | @chainsafe/ssz ViewDU ms | speed-up (paired) |');
  lines.push('| --- | --- | --- | --- |');
  for (const [w, s] of Object.entries(samples)) {
    const o = summarize(s.ours);
    const p = summarize(s.peer);
    const r = pairedRatio(s.peer, s.ours);
    lines.push(`| ${names[w]} | ${fmt(o.median, 2)} (${fmt(o.min, 2)}–${fmt(o.max, 2)}) | ${fmt(p.median, 1)} (${fmt(p.min, 1)}–${fmt(p.max, 1)}) | ${fmt(r.median, 1)}× (${fmt(r.min, 1)}–${fmt(r.max, 1)}) |`);
  }
  lines.push('');
  lines.push('Memory (process heap + array buffers after GC, delta over the inputs):');
  lines.push('');
  lines.push('| measure | @ssztree | @chainsafe/ssz |');
  lines.push('| --- | --- | --- |');
  for (const key of Object.keys(memory['ours'] ?? {})) {
    lines.push(`| ${key} | ${fmt(memory['ours']?.[key] ?? Number.NaN, 1)} | ${fmt(memory['peer']?.[key] ?? Number.NaN, 1)} |`);
  }
  const report = lines.join('\n');
  console.log(report);
  if (process.argv.includes('--write')) writeSection('Views', report);
}

const role = ROLE;
if (role === 'ours') serve(oursSide());
else if (role === 'peer') serve(peerSide());
else if (role === 'probe') {
  // Ours only, one pass of every workload (a quick look while optimising).
  const side = oursSide();
  const t = (name: string, fn: () => void) => {
    const start = performance.now();
    fn();
    console.log(name, (performance.now() - start).toFixed(1), 'ms');
  };
  const values = makeValidators(NV);
  const bytes = Validators.serialize(values);
  for (let k = 0; k < 2; k++) t('V1', () => side.validatorsFromValues(values));
  for (let k = 0; k < 2; k++) t('V2', () => side.validatorsFromBytes(bytes));
  const sb = State.serialize({ validators: makeValidators(NS), balances: makeBalances(NS) });
  t('S1', () => side.stateFromBytes(sb));
  for (let k = 0; k < 5; k++) {
    t('B1', () => side.blockWrites(k));
    t('B2', () => side.commitRoot());
  }
  for (let k = 0; k < 3; k++) {
    t('E1', () => side.epochWrites(k));
    t('E2', () => side.commitRoot());
  }
} else if (role === 'memory') void memoryReport(process.argv[3] as 'ours' | 'peer').then((r) => console.log(JSON.stringify(r)));
else void main();
