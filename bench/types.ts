/**
 * Types benchmark: @ssztree/types side by side with @chainsafe/ssz (on its
 * hashtree hasher), same inputs, one process.
 *
 *   W1  hashTreeRoot of List[uint64, 2^40] holding 2^20 values
 *   W2  hashTreeRoot of List[Validator, 2^40] holding 2^18 validators
 *   W3  serialize that validator list
 *   W4  deserialize it
 *
 * Validators come in two value forms, measured separately on both sides:
 * uint64 fields as numbers (our `uint64Number`, ChainSafe's UintNumberType —
 * how Lodestar defines Validator) and as bigints (our consensus `Validator`,
 * ChainSafe's UintBigintType). Both libraries read the very same value
 * objects. Before timing, every pair of rows is checked to agree on roots
 * and bytes. After a warm-up, each round runs a workload's rows interleaved,
 * rotating the order; reports medians, min–max, and speed-ups paired round
 * by round.
 *
 * Usage: npm run bench:types -- [--rounds 7] [--warmup 2] [--write]
 * `--write` records the report in docs/BENCHMARKS.md (the `## Types` section).
 */
import { cpus, loadavg } from 'node:os';
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher as hashtreeHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import * as cs from '@chainsafe/ssz';
import { getHasher } from '@ssztree/hasher';
import { boolean, byteVector, container, list, toHex, uint64, uint64Number } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { writeSection } from './lib/docs.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';

setHasher(hashtreeHasher);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const rounds = Number(arg('rounds') ?? 7);
const warmup = Number(arg('warmup') ?? 2);

const N64 = 2 ** 20;
const NV = 2 ** 18;
const LIMIT = 2 ** 40;
const FAR = 2n ** 64n - 1n;

// --- schemas ---
const ValidatorNum = container(
  {
    pubkey: byteVector(48),
    withdrawal_credentials: byteVector(32),
    effective_balance: uint64Number,
    slashed: boolean,
    activation_eligibility_epoch: uint64Number,
    activation_epoch: uint64Number,
    exit_epoch: uint64Number,
    withdrawable_epoch: uint64Number,
  },
  'Validator',
);
const ours = {
  u64: list(uint64, LIMIT),
  u64num: list(uint64Number, LIMIT),
  valNum: list(ValidatorNum, LIMIT),
  valBig: list(mainnet.phase0.Validator, LIMIT),
};
function csValidator(u64: cs.UintNumberType | cs.UintBigintType) {
  return new cs.ContainerType({
    pubkey: new cs.ByteVectorType(48),
    withdrawal_credentials: new cs.ByteVectorType(32),
    effective_balance: u64,
    slashed: new cs.BooleanType(),
    activation_eligibility_epoch: u64,
    activation_epoch: u64,
    exit_epoch: u64,
    withdrawable_epoch: u64,
  });
}
const csNum = new cs.UintNumberType(8, { clipInfinity: true });
const peer = {
  u64num: new cs.ListBasicType(csNum, LIMIT),
  valNum: new cs.ListCompositeType(csValidator(csNum), LIMIT),
  valBig: new cs.ListCompositeType(csValidator(new cs.UintBigintType(8)), LIMIT),
};

// --- inputs (deterministic) ---
let seed = 0x9e3779b9;
function rand32(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
}
const u64Numbers = Array.from({ length: N64 }, () => 32e9 + (rand32() % 1e9));
const u64Typed = BigUint64Array.from(u64Numbers, (n) => BigInt(n));
const valuesNum = Array.from({ length: NV }, (_, i) => {
  const pubkey = new Uint8Array(48);
  const withdrawal_credentials = new Uint8Array(32);
  for (let b = 0; b < 48; b++) pubkey[b] = rand32() & 0xff;
  for (let b = 0; b < 32; b++) withdrawal_credentials[b] = rand32() & 0xff;
  const active = i % 16 !== 0;
  return {
    pubkey,
    withdrawal_credentials,
    effective_balance: 32e9,
    slashed: i % 97 === 0,
    activation_eligibility_epoch: i >>> 4,
    activation_epoch: active ? (i >>> 4) + 5 : Infinity,
    exit_epoch: Infinity,
    withdrawable_epoch: Infinity,
  };
});
const big = (n: number) => (n === Infinity ? FAR : BigInt(n));
const valuesBig = valuesNum.map((v) => ({
  ...v,
  effective_balance: big(v.effective_balance),
  activation_eligibility_epoch: big(v.activation_eligibility_epoch),
  activation_epoch: big(v.activation_epoch),
  exit_epoch: big(v.exit_epoch),
  withdrawable_epoch: big(v.withdrawable_epoch),
}));
const bytesVal = ours.valNum.serialize(valuesNum);
// Reused output buffers for the serialize-into rows (no fresh allocation per run).
const outOurs = new Uint8Array(bytesVal.length);
const outPeer = { uint8Array: new Uint8Array(bytesVal.length), dataView: new DataView(new ArrayBuffer(bytesVal.length)) };
outPeer.uint8Array = new Uint8Array(outPeer.dataView.buffer);

// --- rows ---
type Workload = 'W1' | 'W2' | 'W3' | 'W3i' | 'W4';
const TITLE: Record<Workload, string> = {
  W1: `W1: hashTreeRoot of List[uint64, 2^40] holding 2^20 values`,
  W2: `W2: hashTreeRoot of List[Validator, 2^40] holding 2^18 validators`,
  W3: `W3: serialize List[Validator, 2^40] of 2^18 (${(bytesVal.length / 1e6).toFixed(1)} MB)`,
  W3i: `W3i: serialize into a reused buffer (ssztree serializeInto, chainsafe value_serializeToBytes), same list`,
  W4: `W4: deserialize List[Validator, 2^40] of 2^18 (${(bytesVal.length / 1e6).toFixed(1)} MB)`,
};
interface Row {
  readonly name: string;
  readonly peer: string | null;
  readonly run: () => unknown;
}
const ROWS: Record<Workload, Row[]> = {
  W1: [
    { name: 'ssztree, BigUint64Array', peer: 'chainsafe, number[]', run: () => ours.u64.hashTreeRoot(u64Typed) },
    { name: 'ssztree, number[] (uint64Number)', peer: 'chainsafe, number[]', run: () => ours.u64num.hashTreeRoot(u64Numbers) },
    { name: 'chainsafe, number[]', peer: null, run: () => peer.u64num.hashTreeRoot(u64Numbers) },
  ],
  W2: [
    { name: 'ssztree, number fields', peer: 'chainsafe, number fields', run: () => ours.valNum.hashTreeRoot(valuesNum) },
    { name: 'ssztree, bigint fields', peer: 'chainsafe, bigint fields', run: () => ours.valBig.hashTreeRoot(valuesBig) },
    { name: 'chainsafe, number fields', peer: null, run: () => peer.valNum.hashTreeRoot(valuesNum) },
    { name: 'chainsafe, bigint fields', peer: null, run: () => peer.valBig.hashTreeRoot(valuesBig) },
  ],
  W3: [
    { name: 'ssztree, number fields', peer: 'chainsafe, number fields', run: () => ours.valNum.serialize(valuesNum) },
    { name: 'ssztree, bigint fields', peer: 'chainsafe, bigint fields', run: () => ours.valBig.serialize(valuesBig) },
    { name: 'chainsafe, number fields', peer: null, run: () => peer.valNum.serialize(valuesNum) },
    { name: 'chainsafe, bigint fields', peer: null, run: () => peer.valBig.serialize(valuesBig) },
  ],
  W3i: [
    { name: 'ssztree, number fields', peer: 'chainsafe, number fields', run: () => ours.valNum.serializeInto(valuesNum, outOurs, 0) },
    { name: 'ssztree, bigint fields', peer: 'chainsafe, bigint fields', run: () => ours.valBig.serializeInto(valuesBig, outOurs, 0) },
    { name: 'chainsafe, number fields', peer: null, run: () => peer.valNum.value_serializeToBytes(outPeer, 0, valuesNum) },
    { name: 'chainsafe, bigint fields', peer: null, run: () => peer.valBig.value_serializeToBytes(outPeer, 0, valuesBig) },
  ],
  W4: [
    { name: 'ssztree, number fields', peer: 'chainsafe, number fields', run: () => ours.valNum.deserialize(bytesVal) },
    { name: 'ssztree, bigint fields', peer: 'chainsafe, bigint fields', run: () => ours.valBig.deserialize(bytesVal) },
    { name: 'chainsafe, number fields', peer: null, run: () => peer.valNum.deserialize(bytesVal) },
    { name: 'chainsafe, bigint fields', peer: null, run: () => peer.valBig.deserialize(bytesVal) },
  ],
};
const WORKLOADS = Object.keys(ROWS) as Workload[];

/** Every row of a workload must compute the same thing before any timing counts. */
function verify(): void {
  const same = (what: string, xs: Uint8Array[]) => {
    const [first, ...rest] = xs;
    for (const x of rest) {
      if (!Buffer.from(first!).equals(Buffer.from(x))) throw new Error(`${what}: rows disagree (${toHex(first!.subarray(0, 32))}… vs ${toHex(x.subarray(0, 32))}…)`);
    }
  };
  same('W1', [ours.u64.hashTreeRoot(u64Typed), ours.u64num.hashTreeRoot(u64Numbers), peer.u64num.hashTreeRoot(u64Numbers)]);
  same('W2', [ours.valNum.hashTreeRoot(valuesNum), ours.valBig.hashTreeRoot(valuesBig), peer.valNum.hashTreeRoot(valuesNum), peer.valBig.hashTreeRoot(valuesBig)]);
  same('W3', [bytesVal, ours.valBig.serialize(valuesBig), peer.valNum.serialize(valuesNum), peer.valBig.serialize(valuesBig)]);
  ours.valNum.serializeInto(valuesNum, outOurs, 0);
  peer.valNum.value_serializeToBytes(outPeer, 0, valuesNum);
  same('W3i', [bytesVal, outOurs, outPeer.uint8Array]);
  same('W4', [
    ours.valNum.serialize(ours.valNum.deserialize(bytesVal)),
    ours.valBig.serialize(ours.valBig.deserialize(bytesVal)),
    peer.valNum.serialize(peer.valNum.deserialize(bytesVal)),
    peer.valBig.serialize(peer.valBig.deserialize(bytesVal)),
  ]);
}

const samples = new Map<string, number[]>();
const key = (w: Workload, row: string) => `${w}|${row}`;

function time(row: Row): number {
  const start = performance.now();
  row.run();
  return performance.now() - start;
}

function main(): void {
  process.stdout.write(`ssztree hasher: ${getHasher()}; chainsafe hasher: hashtree\nverifying…\n`);
  verify();
  for (let i = 0; i < warmup; i++) for (const w of WORKLOADS) for (const r of ROWS[w]) time(r);
  for (let round = 0; round < rounds; round++) {
    process.stdout.write(`round ${round + 1}/${rounds}\r`);
    for (const w of WORKLOADS) {
      const rows = ROWS[w];
      for (let i = 0; i < rows.length; i++) {
        const r = rows[(i + round) % rows.length]!;
        const list = samples.get(key(w, r.name)) ?? [];
        list.push(time(r));
        samples.set(key(w, r.name), list);
      }
    }
  }
  const report = render();
  process.stdout.write(`\n${report}\n`);
  if (process.argv.includes('--write')) {
    writeSection('Types', report);
    process.stdout.write('wrote docs/BENCHMARKS.md\n');
  }
}

function render(): string {
  const lines: string[] = [];
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  lines.push(
    `Machine: ${cpus().length} × ${cpu}, Node ${process.version}, one thread, one process. ${new Date().toISOString().slice(0, 10)}; load average (1 min) ${loadavg()[0]!.toFixed(2)} at the end (the machine is shared). ${rounds} rounds after ${warmup} warm-up runs, rows interleaved (order rotated each round). ssztree on its default hasher (${getHasher()}), @chainsafe/ssz on persistent-merkle-tree's hashtree hasher.`,
  );
  lines.push(`Command: \`npm run bench:types -- --rounds ${rounds} --write\``);
  for (const w of WORKLOADS) {
    lines.push('', `### ${TITLE[w]}`, '');
    const mb = w === 'W3' || w === 'W3i' || w === 'W4';
    lines.push(`| row | median ms | min–max ms |${mb ? ' MB/s |' : ''} speed-up vs peer (median, min–max) |`);
    lines.push(`|---|---:|---:|${mb ? '---:|' : ''}---:|`);
    for (const r of ROWS[w]) {
      const s = summarize(samples.get(key(w, r.name))!);
      const rate = mb ? ` ${fmt(bytesVal.length / 1e6 / (s.median / 1e3), 0)} |` : '';
      let ratio = '–';
      if (r.peer !== null) {
        const q = pairedRatio(samples.get(key(w, r.peer))!, samples.get(key(w, r.name))!);
        ratio = `${fmt(q.median, 2)}× (${fmt(q.min, 2)}–${fmt(q.max, 2)}) vs ${r.peer}`;
      }
      lines.push(`| ${r.name} | ${fmt(s.median)} | ${fmt(s.min)}–${fmt(s.max)} |${rate} ${ratio} |`);
    }
  }
  lines.push('', "Speed-up is the peer's time divided by the row's, paired round by round; > 1 means ssztree is faster.");
  lines.push('', '### Targets (from this run)', '');
  const med = (w: Workload, row: string) => summarize(samples.get(key(w, row))!).median;
  const speedup = (w: Workload, row: string, p: string) => pairedRatio(samples.get(key(w, p))!, samples.get(key(w, row))!).median;
  const mbps = (w: Workload, row: string) => bytesVal.length / 1e6 / (med(w, row) / 1e3);
  const verdict = (ok: boolean) => (ok ? 'met' : 'not met');
  const w1 = med('W1', 'ssztree, BigUint64Array');
  const w2 = med('W2', 'ssztree, number fields');
  const w2x = speedup('W2', 'ssztree, number fields', 'chainsafe, number fields');
  const w3 = Math.max(mbps('W3', 'ssztree, number fields'), mbps('W3i', 'ssztree, number fields'));
  const w4 = mbps('W4', 'ssztree, number fields');
  const w4x = speedup('W4', 'ssztree, number fields', 'chainsafe, number fields');
  lines.push('| target | this run | verdict |', '|---|---:|---|');
  lines.push(`| uint64 list root ≤ 15 ms | ${fmt(w1)} ms (${fmt(speedup('W1', 'ssztree, BigUint64Array', 'chainsafe, number[]'), 2)}× chainsafe) | ${verdict(w1 <= 15)} |`);
  lines.push(`| validator list root ≤ 180 ms, 4× chainsafe | ${fmt(w2)} ms, ${fmt(w2x, 2)}× | absolute ${verdict(w2 <= 180)}, ratio ${verdict(w2x >= 4)} |`);
  lines.push(`| serialize ≥ 1.5 GB/s | ${fmt(w3 / 1e3, 2)} GB/s (best of W3/W3i) | ${verdict(w3 >= 1500)} |`);
  lines.push(`| deserialize ≥ 300 MB/s, 6× chainsafe | ${fmt(w4, 0)} MB/s, ${fmt(w4x, 2)}× | ${verdict(w4 >= 300 && w4x >= 6)} |`);
  return lines.join('\n');
}

main();
