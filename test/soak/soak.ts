/**
 * Soak test (issue #8): a state of many validators goes through thousands of
 * simulated blocks and epochs through tree-backed views; old states are
 * disposed, some are kept as forks (a bounded cache of the last few); memory
 * is sampled after a forced GC and must stay within a stated bound and not
 * trend upward; at the end every kept fork's root is re-verified against a
 * full recomputation from its value.
 *
 * The state is a reduced container built from the consensus `Validator`
 * (mainnet phase0, the same container in every fork):
 *   { slot, validators: List[Validator, 2^40], balances: List[uint64, 2^40],
 *     randao_mixes: Vector[Bytes32, 65536], block_roots: Vector[Bytes32, 8192] }
 * (the full electra BeaconState adds fields no block here writes; building
 * and fully re-hashing it at 2^16 validators costs time without exercising
 * anything more of the view machinery).
 *
 * Usage (needs --expose-gc):
 *   npm run soak -- --validators 65536 --blocks 2000 --epoch-every 32 --keep-every 16 --seed 1
 * Other options: --forks N (forks kept, default 8), --sample-every N
 * (blocks between memory samples, default = --epoch-every), --json (print
 * the result as one JSON line at the end, for the CI test), --in-place (the
 * head view takes every block itself instead of a clone of it: between the
 * forks it keeps it is its version's only holder, so its commits go in
 * place, core docs/CORE.md "In-place writes").
 * Exits 1 when a verdict fails.
 */
import { NodeStore } from '@ssztree/core';
import { byteVector, container, list, toHex, uint64, vector, type ViewOf } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';

// ------------------------------------------------------------------ options
function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return def;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} needs a non-negative integer`);
  return v;
}

const N = arg('validators', 2 ** 16);
const BLOCKS = arg('blocks', 2000);
const EPOCH_EVERY = Math.max(1, arg('epoch-every', 32));
const KEEP_EVERY = Math.max(1, arg('keep-every', 16));
const SEED = arg('seed', 1);
const FORKS = Math.max(1, arg('forks', 8));
const SAMPLE_EVERY = Math.max(1, arg('sample-every', EPOCH_EVERY));
const JSON_OUT = process.argv.includes('--json');
const IN_PLACE = process.argv.includes('--in-place');

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('soak: run with --expose-gc (npm run soak does)');
  process.exit(2);
}

// ------------------------------------------------------------------ schema
const Validator = mainnet.phase0.Validator;
const Bytes32 = byteVector(32);
const State = container(
  {
    slot: uint64,
    validators: list(Validator, 2 ** 40),
    balances: list(uint64, 2 ** 40),
    randao_mixes: vector(Bytes32, 65536),
    block_roots: vector(Bytes32, 8192),
  },
  'SoakState',
);
type StateView = ViewOf<typeof State>;
const FAR = 2n ** 64n - 1n;

/** xorshift32: deterministic per seed. */
function prng(seed: number): () => number {
  let s = (seed * 2654435761) >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
const rnd = prng(SEED);
const randInt = (n: number) => Math.floor(rnd() * n);
function randBytes32(): Uint8Array {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i += 4) new DataView(b.buffer).setUint32(i, (rnd() * 2 ** 32) >>> 0);
  return b;
}

function initialValue(n: number): ReturnType<typeof State.defaultValue> {
  const value = State.defaultValue();
  const validators: typeof value.validators = [];
  const balances = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    const pubkey = new Uint8Array(48);
    pubkey[0] = i & 255;
    pubkey[1] = (i >>> 8) & 255;
    pubkey[2] = (i >>> 16) & 255;
    pubkey[3] = SEED & 255;
    pubkey[47] = 0xaa;
    validators.push({
      pubkey,
      withdrawal_credentials: new Uint8Array(32).fill(i % 7),
      effective_balance: 32_000_000_000n,
      slashed: false,
      activation_eligibility_epoch: BigInt(i >>> 4),
      activation_epoch: BigInt(i >>> 3),
      exit_epoch: FAR,
      withdrawable_epoch: FAR,
    });
    balances[i] = 32_000_000_000n + BigInt(i % 1000);
  }
  // Every root slot filled from the start, so the state's size is constant
  // and the live-node count can only grow through a leak.
  const filled = (len: number, tag: number) =>
    Array.from({ length: len }, (_, i) => {
      const b = new Uint8Array(32);
      new DataView(b.buffer).setUint32(0, i);
      b[4] = tag;
      b[5] = SEED & 255;
      return b;
    });
  return { ...value, validators, balances, randao_mixes: filled(65536, 1), block_roots: filled(8192, 2) };
}

// ------------------------------------------------------------------ blocks
const BALANCE_WRITES = 1024;
const VALIDATOR_WRITES = 16;

function applyBlock(s: StateView, epochNo: number): void {
  const slot = s.slot + 1n;
  s.slot = slot;
  const balances = s.balances;
  for (let k = 0; k < BALANCE_WRITES; k++) balances.set(randInt(N), 31_000_000_000n + BigInt(randInt(2 ** 31)));
  const validators = s.validators;
  for (let k = 0; k < VALIDATOR_WRITES; k++) {
    const v = validators.get(randInt(N));
    const which = k % 3;
    if (which === 0) v.effective_balance = BigInt(randInt(33)) * 1_000_000_000n;
    else if (which === 1) v.slashed = !v.slashed;
    else v.exit_epoch = BigInt(epochNo + 256 + randInt(1024));
  }
  s.block_roots.set(Number(slot % 8192n), randBytes32());
  s.randao_mixes.set(epochNo % 65536, randBytes32());
}

function applyEpoch(s: StateView, epochNo: number): void {
  const balances = s.balances;
  const add = BigInt(epochNo);
  for (let i = 0; i < N; i++) balances.set(i, 32_000_000_000n + add + BigInt((i * 7 + epochNo) & 1023));
}

// ------------------------------------------------------------------ memory
interface Sample {
  block: number;
  heapUsedMB: number;
  arrayBuffersMB: number;
  processMB: number;
  storeMB: number;
  nodes: number;
}
const MB = 2 ** 20;

function sample(store: NodeStore, block: number): Sample {
  store.collect();
  gc!();
  gc!();
  const m = process.memoryUsage();
  const st = store.stats();
  return {
    block,
    heapUsedMB: m.heapUsed / MB,
    arrayBuffersMB: m.arrayBuffers / MB,
    processMB: (m.heapUsed + m.arrayBuffers) / MB,
    storeMB: st.bytes / MB,
    nodes: st.nodes,
  };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

// ------------------------------------------------------------------ run
interface Fork {
  view: StateView;
  block: number;
  root: string;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const store = new NodeStore();
  let head: StateView = State.toView(initialValue(N), store);
  head.hashTreeRoot();
  const balancesBytes = head.balances.memory().bytes;
  const buildMs = performance.now() - t0;

  const forks: Fork[] = [];
  const samples: Sample[] = [];
  // Warm-up: the fork cache is full and at least two epochs have passed,
  // so the steady-state working set (head + FORKS forks) exists.
  const warmupBlocks = Math.min(BLOCKS, Math.max(FORKS * KEEP_EVERY, 2 * EPOCH_EVERY));
  let epochs = 0;
  let inPlaceBlocks = 0;
  let blockMs = 0;
  const t1 = performance.now();
  for (let b = 1; b <= BLOCKS; b++) {
    const tb = performance.now();
    // --in-place: the head itself takes the block; between the forks it keeps, it is their only holder
    // and commits in place. Otherwise each block goes on a clone and the previous head is disposed.
    const next = IN_PLACE ? head : head.clone();
    const rootBefore = next.rootNode;
    const epochNo = Math.floor(b / EPOCH_EVERY);
    applyBlock(next, epochNo);
    if (b % EPOCH_EVERY === 0) {
      applyEpoch(next, epochNo);
      epochs++;
    }
    const root = toHex(next.hashTreeRoot());
    // The same root node with a new root hash: the commit went in place.
    if (next.rootNode === rootBefore) inPlaceBlocks++;
    if (next !== head) head.dispose();
    head = next;
    if (b % KEEP_EVERY === 0) {
      forks.push({ view: head.clone(), block: b, root });
      while (forks.length > FORKS) forks.shift()!.view.dispose();
    }
    blockMs += performance.now() - tb;
    // Blocks arrive as separate tasks: scheduled sweeps and finalizers run between them.
    await new Promise((resolve) => setImmediate(resolve));
    if (b >= warmupBlocks && ((b - warmupBlocks) % SAMPLE_EVERY === 0 || b === BLOCKS)) samples.push(sample(store, b));
  }
  const loopMs = performance.now() - t1;

  // -------------------------------------------------------------- verdicts
  const failures: string[] = [];
  const base = samples[0]!;
  const last = samples[samples.length - 1]!;
  // Bound: the post-warm-up sample plus (a) the unshared nodes the kept forks
  // and the head can hold beyond what they held at warm-up: at most one
  // balances tree each (an epoch rewrites every page), (b) 10% of the
  // baseline for V8 (JIT code, old-space fragmentation, the store's page
  // pools keeping freed slots) and (c) 8 MB fixed slack.
  const marginMB = ((FORKS + 1) * balancesBytes) / MB + 0.1 * base.processMB + 8;
  const boundMB = base.processMB + marginMB;
  if (last.processMB > boundMB) failures.push(`memory: ${last.processMB.toFixed(1)} MB at the end > bound ${boundMB.toFixed(1)} MB`);
  const storeBoundMB = base.storeMB + ((FORKS + 1) * balancesBytes) / MB + 0.1 * base.storeMB + 1;
  if (last.storeMB > storeBoundMB) failures.push(`store: ${last.storeMB.toFixed(1)} MB at the end > bound ${storeBoundMB.toFixed(1)} MB`);
  // Trend: the last third's mean must not exceed the first third's by more
  // than a small tolerance (growth per block would show here).
  const third = Math.max(1, Math.floor(samples.length / 3));
  const firstThird = samples.slice(0, third);
  const lastThird = samples.slice(samples.length - third);
  const trend = {
    processFirstMB: mean(firstThird.map((s) => s.processMB)),
    processLastMB: mean(lastThird.map((s) => s.processMB)),
    nodesFirst: mean(firstThird.map((s) => s.nodes)),
    nodesLast: mean(lastThird.map((s) => s.nodes)),
  };
  const trendTolMB = 0.05 * trend.processFirstMB + 4;
  if (samples.length >= 3) {
    if (trend.processLastMB > trend.processFirstMB + trendTolMB)
      failures.push(`memory trends up: first third ${trend.processFirstMB.toFixed(1)} MB, last third ${trend.processLastMB.toFixed(1)} MB (tolerance ${trendTolMB.toFixed(1)})`);
    if (trend.nodesLast > trend.nodesFirst * 1.1)
      failures.push(`live nodes trend up: first third ${trend.nodesFirst.toFixed(0)}, last third ${trend.nodesLast.toFixed(0)}`);
  } else failures.push(`too few memory samples (${samples.length}) for a trend: run more blocks`);

  // Roots: every kept fork (and the head) against its recorded root and a full recomputation.
  const t2 = performance.now();
  const checked: { block: number; root: string; ok: boolean }[] = [];
  const headRoot = toHex(head.hashTreeRoot());
  for (const f of [...forks, { view: head, block: BLOCKS, root: headRoot }]) {
    const viewRoot = toHex(f.view.hashTreeRoot());
    const full = toHex(State.hashTreeRoot(f.view.toValue()));
    const ok = viewRoot === f.root && full === f.root;
    if (!ok) failures.push(`root of the state at block ${f.block}: recorded ${f.root}, view ${viewRoot}, full recomputation ${full}`);
    checked.push({ block: f.block, root: f.root, ok });
  }
  if (forks.length === 0) failures.push('no fork was kept (--keep-every larger than --blocks)');
  const verifyMs = performance.now() - t2;

  // -------------------------------------------------------------- report
  const result = {
    options: { validators: N, blocks: BLOCKS, epochEvery: EPOCH_EVERY, keepEvery: KEEP_EVERY, forks: FORKS, seed: SEED, sampleEvery: SAMPLE_EVERY, inPlace: IN_PLACE },
    epochs,
    inPlaceBlocks,
    warmupBlocks,
    buildMs: Math.round(buildMs),
    loopMs: Math.round(loopMs),
    msPerBlock: blockMs / BLOCKS,
    verifyMs: Math.round(verifyMs),
    balancesMB: balancesBytes / MB,
    bound: { baseMB: base.processMB, marginMB, boundMB, endMB: last.processMB, storeBaseMB: base.storeMB, storeBoundMB, storeEndMB: last.storeMB },
    trend: { ...trend, toleranceMB: trendTolMB },
    memoryOk: !failures.some((f) => f.startsWith('memory') || f.startsWith('store') || f.startsWith('live') || f.startsWith('too few')),
    rootsOk: checked.length > 1 && checked.every((c) => c.ok),
    rootsChecked: checked.length,
    samples,
    failures,
    pass: failures.length === 0,
  };
  const f1 = (x: number) => x.toFixed(1);
  console.log(`soak: ${N} validators, ${BLOCKS} blocks (${epochs} epochs every ${EPOCH_EVERY}), a fork kept every ${KEEP_EVERY} (last ${FORKS}), seed ${SEED}`);
  if (IN_PLACE) console.log(`--in-place: ${inPlaceBlocks} of ${BLOCKS} blocks committed in place (the others followed a fork's clone)`);
  console.log(`build + root ${(buildMs / 1000).toFixed(1)} s; loop ${(loopMs / 1000).toFixed(1)} s (${result.msPerBlock.toFixed(2)} ms/block incl. epochs); verify ${(verifyMs / 1000).toFixed(1)} s`);
  console.log('');
  console.log('| block | heapUsed MB | arrayBuffers MB | heap+AB MB | store MB | live nodes |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
  const step = Math.max(1, Math.ceil(samples.length / 16));
  samples.forEach((s, i) => {
    if (i % step === 0 || i === samples.length - 1)
      console.log(`| ${s.block} | ${f1(s.heapUsedMB)} | ${f1(s.arrayBuffersMB)} | ${f1(s.processMB)} | ${f1(s.storeMB)} | ${s.nodes} |`);
  });
  console.log('');
  console.log(`bound: heap+AB at the end ${f1(last.processMB)} MB ≤ ${f1(base.processMB)} (after warm-up, block ${base.block}) + ${f1(marginMB)} = ${f1(boundMB)} MB: ${last.processMB <= boundMB ? 'ok' : 'FAIL'}`);
  console.log(`store: ${f1(last.storeMB)} MB ≤ ${f1(storeBoundMB)} MB: ${last.storeMB <= storeBoundMB ? 'ok' : 'FAIL'}`);
  console.log(`trend: heap+AB first third ${f1(trend.processFirstMB)} MB, last third ${f1(trend.processLastMB)} MB; live nodes ${trend.nodesFirst.toFixed(0)} → ${trend.nodesLast.toFixed(0)}`);
  console.log(`roots: ${checked.length} states (${forks.length} forks + head) re-verified against a full recomputation: ${result.rootsOk ? 'ok' : 'FAIL'}`);
  console.log(failures.length === 0 ? 'verdict: PASS' : `verdict: FAIL\n  ${failures.join('\n  ')}`);
  if (JSON_OUT) console.log(JSON.stringify(result));
  for (const f of forks) f.view.dispose();
  head.dispose();
  process.exitCode = failures.length === 0 ? 0 : 1;
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
