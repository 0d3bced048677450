/**
 * Mainnet-realistic benchmark: the demo's block and epoch (demo/workload.ts,
 * demo/apply.ts) on a mainnet fulu (or electra, or gloas) BeaconState of 2^20
 * validators (demo/state.ts), ours side by side with Lodestar's own types
 * (@lodestar/types `ssz.fulu.BeaconState`, @chainsafe/ssz ViewDU on
 * hashtree), each side in a child process of its own, every step run by
 * both sides in one run, the order alternating by round, and every root
 * compared across the sides.
 *
 * A round: load the state from bytes (+ root), then 8 blocks (the first
 * blocks after a load), 24 blocks (steady state), an epoch, 8 more steady
 * blocks and a second epoch. Each block is applied to a clone of the head
 * the previous block left (a state cache keeps the pre-block state), as the
 * demo does; a block's writes and its commit + root run back to back in one
 * task. After the blocks, the micro rows (ns per call, on a clone dropped
 * afterwards; the best of five passes, each on a fresh clone):
 *   set       one slot's participation flags (n/32 `set` calls) at random
 *             indices (the block's pages first loaded by these calls)
 *   set-hot   the same calls again, every page already dirty
 *   field     2^14 container field writes round-robin over 128 validators
 *             already held (`v.effective_balance = x`, each a new value)
 *   header    2^14 writes of the block header's slot (a small container)
 * and, ours only, the hashing floor of a block: the messages its commit
 * hashes (counted by wrapping the active backend), and the time the hasher
 * alone takes for the same layer sizes.
 *
 * Usage: npm run bench:realistic -- [--rounds 3] [--warmup 1] [--fork fulu|electra|gloas]
 *        [--validators 1048576] [--threads N (our side's pool)] [--write]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setHasher as setPeerHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher as hashtreeHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import { ssz } from '@lodestar/types';
import { configureThreads, getBackend, getHasher, hashInto } from '@ssztree/hasher';
import { toHex, type ViewOf } from '@ssztree/types';
import { applyBlock, applyEpoch, type RotateParticipation, type StateLike } from '../demo/apply.js';
import { Rng } from '../demo/rng.js';
import { type BeaconState as ElectraState, generateState, START_SLOT, STATE_TYPES, type DemoFork } from '../demo/state.js';
import { planBlock, planEpoch, SLOTS_PER_EPOCH, type BlockPlan, type EpochPlan } from '../demo/workload.js';
import { writeSection } from './lib/docs.js';
import { applyLodestarBlock, applyLodestarEpoch, lodestarBlock, lodestarEpoch } from './lib/lodestarState.js';
import { RowProcess, serveRow, type RowOperation } from './lib/rowProcess.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const ROLE = process.argv[2];
const FORK = (arg('fork') ?? 'fulu') as DemoFork;
if (!(FORK in STATE_TYPES)) throw new Error(`--fork: ${Object.keys(STATE_TYPES).join(', ')}; got ${FORK}`);
const N = Number(arg('validators') ?? 2 ** 20);
const THREADS = Number(arg('threads') ?? 0);
const SEED = 1;
const MICRO_FIELDS = 1 << 14;

/** The block of number k (1-based) of any round: the same plan on both sides. */
const blockPlan = (k: number): BlockPlan => planBlock(new Rng(SEED * 1000 + k), N, START_SLOT + k);
const epochPlan = (e: number): EpochPlan => planEpoch(new Rng(SEED * 7919 + e), N, Math.floor(START_SLOT / SLOTS_PER_EPOCH) + e);

// --------------------------------------------------------- one side's rows
type StateView = ViewOf<typeof ElectraState>;
// biome-ignore lint: Lodestar's ViewDU is typed per schema; the benchmark drives it by field name.
type Dyn = any;

/** What a side does: load, clone, the block's and epoch's writes, commit + root, the micro rows. */
interface Side {
  load(bytes: Uint8Array): void;
  /** The head's clone the next step writes (`next`), the head kept. */
  begin(): void;
  block(plan: BlockPlan): () => void;
  epoch(plan: EpochPlan): () => void;
  /** Commits `next`, makes it the head (the old head released) and returns its root. */
  commitRoot(): Uint8Array;
  /**
   * Ours: frees now what the old head's release deferred (`store.settle()`, which otherwise runs in the
   * next macrotask, after the block). The peer has nothing to run: its garbage collector frees the old
   * head whenever it runs.
   */
  release(): void;
  /** Micro rows on a fresh clone: each returns the loop to time. */
  micro(kind: string, plan: BlockPlan): () => void;
  dropMicro(): void;
}

const rotateOurs: RotateParticipation = (state, n) => {
  const s = state as unknown as StateView;
  s.previous_epoch_participation = s.current_epoch_participation;
  s.setField('current_epoch_participation', new Uint8Array(n));
};

function oursSide(): Side {
  const T = STATE_TYPES[FORK] as unknown as typeof ElectraState;
  let head: StateView | null = null;
  let next: StateView | null = null;
  let micro: StateView | null = null;
  let headRoot: Uint8Array = new Uint8Array(32);
  return {
    load(bytes) {
      head?.dispose();
      head = T.deserializeToView(bytes);
      headRoot = head.hashTreeRoot();
    },
    begin() {
      next = head!.clone();
    },
    block(plan) {
      const s = next as unknown as StateLike;
      const prev = headRoot;
      return () => applyBlock(s, plan, prev);
    },
    epoch(plan) {
      const s = next as unknown as StateLike;
      return () => applyEpoch(s, plan, rotateOurs);
    },
    commitRoot() {
      const root = next!.hashTreeRoot();
      head!.dispose();
      head = next;
      next = null;
      headRoot = root;
      return root;
    },
    release() {
      head!._tree.store.settle();
    },
    micro(kind, plan) {
      micro?.dispose();
      const m = (micro = head!.clone());
      return microLoop(kind, plan, m as unknown as Dyn, 'ours');
    },
    dropMicro() {
      micro?.dispose();
      micro = null;
    },
  };
}

function peerSide(): Side {
  setPeerHasher(hashtreeHasher);
  const T = (ssz as Dyn)[FORK].BeaconState;
  // The fork's own participation list type: gloas makes it a progressive list.
  const Participation = T.fields.currentEpochParticipation;
  let head: Dyn = null;
  let next: Dyn = null;
  let headRoot: Uint8Array = new Uint8Array(32);
  return {
    load(bytes) {
      head = T.deserializeToViewDU(bytes);
      headRoot = head.hashTreeRoot();
    },
    begin() {
      next = head.clone();
    },
    block(plan) {
      const b = lodestarBlock(plan);
      const s = next;
      const prev = headRoot;
      return () => applyLodestarBlock(s, b, prev);
    },
    epoch(plan) {
      const e = lodestarEpoch(plan);
      const s = next;
      return () => applyLodestarEpoch(s, e, () => Participation.toViewDU(new Array<number>(N).fill(0)));
    },
    commitRoot() {
      const root = next.hashTreeRoot() as Uint8Array;
      head = next;
      next = null;
      headRoot = root;
      return root;
    },
    release() {},
    micro(kind, plan) {
      return microLoop(kind, plan, head.clone(), 'peer');
    },
    dropMicro() {},
  };
}

/** The loop of one micro row on state view `s` (ours: snake_case and bigints; Lodestar: camelCase and numbers). */
function microLoop(kind: string, plan: BlockPlan, s: Dyn, who: 'ours' | 'peer'): () => void {
  const index = plan.participationIndex;
  const flags = plan.participationFlags;
  const participation = who === 'ours' ? s.current_epoch_participation : s.currentEpochParticipation;
  const sets = () => {
    for (let k = 0; k < index.length; k++) participation.set(index[k]!, flags[k]! ^ (k & 1 ? 8 : 16));
  };
  if (kind === 'set') return sets;
  if (kind === 'set-hot') {
    sets();
    return () => {
      for (let k = 0; k < index.length; k++) participation.set(index[k]!, flags[k]! ^ (k & 1 ? 32 : 64));
    };
  }
  if (kind === 'field') {
    const views = Array.from(plan.validatorIndex, (i) => s.validators.get(i));
    const ours = who === 'ours';
    const big = Array.from({ length: MICRO_FIELDS }, (_, k) => BigInt(1_000_000_000 + k));
    return () => {
      for (let k = 0; k < MICRO_FIELDS; k++) {
        const v = views[k & 127];
        if (ours) v.effective_balance = big[k];
        else v.effectiveBalance = 1_000_000_000 + k;
      }
    };
  }
  if (kind === 'header') {
    const h = who === 'ours' ? s.latest_block_header : s.latestBlockHeader;
    const big = Array.from({ length: MICRO_FIELDS }, (_, k) => BigInt(k + 1));
    if (who === 'ours')
      return () => {
        for (let k = 0; k < MICRO_FIELDS; k++) h.slot = big[k];
      };
    return () => {
      for (let k = 0; k < MICRO_FIELDS; k++) h.slot = k + 1;
    };
  }
  throw new Error(`no micro row ${kind}`);
}

/** Workloads: L (load), Bw:k / Bc (block k's writes, commit + root), Ew:e / Ec, M:kind (micro), H (our hashing floor). */
function serve(who: 'ours' | 'peer', file: string): void {
  const side = who === 'ours' ? oursSide() : peerSide();
  const bytes = readFileSync(file);
  let loop: () => void = () => {};
  const resolve = (w: string): RowOperation | undefined => {
    const [name, param] = w.split(':');
    const k = Number(param);
    switch (name) {
      case 'L':
        return { prepare: () => {}, run: () => side.load(bytes) };
      case 'Bw':
        return { prepare: () => (side.begin(), (loop = side.block(blockPlan(k)))), run: () => loop() };
      case 'Ew':
        return { prepare: () => (side.begin(), (loop = side.epoch(epochPlan(k)))), run: () => loop() };
      case 'Bc':
      case 'Ec':
        return { prepare: () => {}, run: () => toHex(side.commitRoot()) };
      case 'R':
        return { prepare: () => {}, run: () => side.release() };
      case 'M':
        // Five passes, each on a fresh clone (set up untimed); the reply carries the best pass in ms.
        return {
          prepare: () => {},
          run: () => {
            let best = Number.POSITIVE_INFINITY;
            for (let rep = 0; rep < 5; rep++) {
              loop = side.micro(param!, blockPlan(1 + rep));
              const t = performance.now();
              loop();
              best = Math.min(best, performance.now() - t);
              side.dropMicro();
            }
            return String(best);
          },
        };
      case 'H':
        return { prepare: () => {}, run: () => JSON.stringify(hashFloor(side, k)) };
      default:
        return undefined;
    }
  };
  serveRow(resolve);
}

/**
 * Our hashing floor of block k: its commit's hashInto calls recorded (every
 * hash of a commit goes through the active backend's hashInto), then the
 * same layer sizes hashed alone, best of 9.
 */
function hashFloor(side: Side, k: number): { messages: number; calls: number; floorMs: number } {
  const backend = getBackend(getHasher()) as { hashInto: (i: Uint8Array, o: Uint8Array) => void };
  const sizes: number[] = [];
  const original = backend.hashInto;
  side.begin();
  side.block(blockPlan(k))();
  backend.hashInto = function (this: unknown, input: Uint8Array, output: Uint8Array) {
    sizes.push(input.length >>> 6);
    original.call(this, input, output);
  };
  try {
    side.commitRoot();
  } finally {
    backend.hashInto = original;
  }
  const messages = sizes.reduce((a, b) => a + b, 0);
  const input = new Uint8Array(64 * Math.max(...sizes, 1));
  for (let i = 0; i < input.length; i++) input[i] = i * 31;
  const output = new Uint8Array(input.length / 2);
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < 9; r++) {
    const t = performance.now();
    for (const m of sizes) hashInto(input.subarray(0, 64 * m), output.subarray(0, 32 * m));
    best = Math.min(best, performance.now() - t);
  }
  return { messages, calls: sizes.length, floorMs: best };
}

// ------------------------------------------------------------------- parent
async function main(): Promise<void> {
  const rounds = Number(arg('rounds') ?? 3);
  const warmup = Number(arg('warmup') ?? 1);
  const script = fileURLToPath(import.meta.url);
  const file = join(tmpdir(), `ssztree-realistic-${FORK}-${N}-${SEED}.ssz`);
  if (!existsSync(file)) {
    console.error(`generating the ${FORK} state of ${N} validators into ${file}`);
    const T = STATE_TYPES[FORK] as unknown as typeof ElectraState;
    writeFileSync(file, T.serialize(generateState(N, SEED, () => {}, FORK)));
  }
  const ours = new RowProcess(script, 'ours', ['--max-old-space-size=6144'], [file, '--fork', FORK, '--validators', String(N), '--threads', String(THREADS)]);
  const peer = new RowProcess(script, 'peer', ['--max-old-space-size=6144'], [file, '--fork', FORK, '--validators', String(N)]);
  const samples: Record<string, { ours: number[]; peer: number[] }> = {};
  const add = (row: string, who: string, ms: number) => {
    const s = (samples[row] ??= { ours: [], peer: [] });
    (who === 'ours' ? s.ours : s.peer).push(ms);
  };
  let floor: { messages: number; calls: number; floorMs: number; commitMs: number } | undefined;
  let mismatches = 0;
  let checks = 0;
  /** Ours: the deferred release of the old head after each block and epoch (outside their rows; see `Side.release`). */
  const release: number[] = [];
  const epochRelease: number[] = [];
  const blocksPerRound = 40;
  try {
    for (let round = 0; round < warmup + rounds; round++) {
      const measured = round >= warmup;
      const order: [string, RowProcess][] = round % 2 === 0 ? [['ours', ours], ['peer', peer]] : [['peer', peer], ['ours', ours]];
      const step = async (workloads: string[], record: (who: string, ms: readonly number[]) => void) => {
        const roots: string[] = [];
        for (const [who, proc] of order) {
          const reply = await proc.runAll(workloads);
          if (reply.kind === 'error') throw new Error(`${who} ${workloads.join('+')}: ${reply.message}`);
          if (measured) record(who, reply.ms);
          roots.push((reply.out ?? []).join(','));
        }
        checks++;
        if (roots[0] !== roots[1]) {
          mismatches++;
          console.error(`roots differ after ${workloads.join('+')}`);
        }
      };
      await step(['L'], (who, ms) => add('load', who, ms[0]!));
      let k = round * blocksPerRound;
      const block = async (row: string) => {
        k++;
        await step([`Bw:${k}`, 'Bc', 'R'], (who, ms) => {
          add(`${row} writes`, who, ms[0]!);
          add(`${row} commit + root`, who, ms[1]!);
          add(`${row} total`, who, ms[0]! + ms[1]!);
          if (who === 'ours') release.push(ms[2]!);
        });
      };
      const epoch = async (e: number) =>
        step([`Ew:${e}`, 'Ec', 'R'], (who, ms) => {
          add('epoch writes', who, ms[0]!);
          add('epoch commit + root', who, ms[1]!);
          add('epoch total', who, ms[0]! + ms[1]!);
          if (who === 'ours') epochRelease.push(ms[2]!);
        });
      for (let b = 0; b < 8; b++) await block('first8');
      for (let b = 0; b < 24; b++) await block('block');
      await epoch(2 * round);
      for (let b = 0; b < 8; b++) await block('block');
      await epoch(2 * round + 1);
      for (const kind of ['set', 'set-hot', 'field', 'header']) {
        for (const [who, proc] of order) {
          const reply = await proc.runAll([`M:${kind}`]);
          if (reply.kind === 'error') throw new Error(`${who} M:${kind}: ${reply.message}`);
          const per = kind.startsWith('set') ? blockPlan(1).participationIndex.length : MICRO_FIELDS;
          if (measured) add(`micro ${kind}`, who, (Number(reply.out![0]) * 1e6) / per);
        }
      }
      if (round === warmup + rounds - 1) {
        const reply = await ours.runAll(['H:999999']);
        if (reply.kind === 'error') throw new Error(`ours H: ${reply.message}`);
        floor = { ...(JSON.parse(reply.out![0]!) as { messages: number; calls: number; floorMs: number }), commitMs: reply.ms[0]! };
      }
      console.error(`round ${round + 1}/${warmup + rounds} done (load ${loadavg()[0]!.toFixed(1)})`);
    }
  } finally {
    ours.close();
    peer.close();
  }
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
  };
  const names: Record<string, string> = {
    load: 'bytes → view + root (a state load)',
    'first8 writes': 'first 8 blocks after a load: writes',
    'first8 commit + root': 'first 8 blocks after a load: commit + root',
    'first8 total': 'first 8 blocks after a load: writes + commit + root',
    'block writes': 'block (steady): writes',
    'block commit + root': 'block (steady): commit + root',
    'block total': 'block (steady): writes + commit + root',
    'epoch writes': 'epoch: writes',
    'epoch commit + root': 'epoch: commit + root',
    'epoch total': 'epoch: writes + commit + root',
    'micro set': 'one packed `set` (participation, pages first loaded), ns',
    'micro set-hot': 'one packed `set` (page already dirty), ns',
    'micro field': 'one validator field write (view held), ns',
    'micro header': 'one header field write, ns',
  };
  const lines: string[] = [];
  const flags = `--rounds ${rounds} --warmup ${warmup} --fork ${FORK}${N !== 2 ** 20 ? ` --validators ${N}` : ''}${THREADS > 0 ? ` --threads ${THREADS}` : ''}`;
  lines.push(`Command: \`npm run bench:realistic -- ${flags}\` (${new Date().toISOString().slice(0, 10)}); mainnet ${FORK} BeaconState of ${N} validators (demo/state.ts), the demo's block and epoch.`);
  lines.push(
    `Machine: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length} (shared), Node ${process.version}, our hasher \`${getHasher()}\` (${THREADS > 0 ? `pool ${THREADS} threads` : 'pool off'}), @lodestar/types ${lodestarVersion()} on @chainsafe/ssz ViewDU + hashtree; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the end; roots compared after ${checks} steps: ${mismatches === 0 ? 'all agree' : `${mismatches} DIFFER`}.`,
  );
  lines.push('');
  lines.push('| row | ours p50 (p95; min–max) | Lodestar p50 (p95) | speed-up (paired p50, min–max) |');
  lines.push('| --- | --- | --- | --- |');
  for (const [row, s] of Object.entries(samples)) {
    const o = summarize(s.ours);
    const p = summarize(s.peer);
    const r = pairedRatio(s.peer, s.ours);
    const d = row.startsWith('micro') ? 0 : 2;
    lines.push(`| ${names[row] ?? row} | ${fmt(o.median, d)} (${fmt(pct(s.ours, 95), d)}; ${fmt(o.min, d)}–${fmt(o.max, d)}) | ${fmt(p.median, d === 0 ? 0 : 1)} (${fmt(pct(s.peer, 95), d === 0 ? 0 : 1)}) | ${fmt(r.median, 1)}× (${fmt(r.min, 1)}–${fmt(r.max, 1)}) |`);
  }
  if (release.length > 0)
    lines.push(
      '',
      `The old head's release (ours, after each block and epoch, outside the rows above: \`dispose()\` defers freeing a version's exclusive nodes to the store's next settle, which a client's next task turn runs; here it is run and timed right after the commit): block p50 ${fmt(summarize(release).median, 2)} ms (p95 ${fmt(pct(release, 95), 2)}), epoch p50 ${fmt(summarize(epochRelease).median, 2)} ms.`,
    );
  if (floor)
    lines.push(
      '',
      `Hashing floor of one steady block (ours): its commit hashed ${floor.messages} messages in ${floor.calls} hashInto calls; the hasher alone takes ${fmt(floor.floorMs, 2)} ms for those layer sizes (best of 9), of the block's ${fmt(floor.commitMs, 2)} ms commit + root measured with the counter on.`,
    );
  const report = lines.join('\n');
  console.log(report);
  if (mismatches > 0) process.exitCode = 1;
  if (process.argv.includes('--write')) writeSection(`Realistic block and epoch (${FORK})${THREADS > 0 ? `, pool ${THREADS} threads` : ''}`, report);
}

function lodestarVersion(): string {
  try {
    const file = fileURLToPath(new URL('../node_modules/@lodestar/types/package.json', import.meta.url));
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return '?';
  }
}

if (ROLE === 'ours' || ROLE === 'peer') {
  configureThreads(ROLE === 'ours' ? THREADS : 0);
  serve(ROLE, process.argv[3]!);
} else {
  configureThreads(0);
  void main();
}
