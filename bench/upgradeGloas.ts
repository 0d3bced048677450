/**
 * Fork upgrade benchmark, fulu → gloas: a mainnet fulu BeaconState of 2^20
 * validators (the demo's synthetic state) turned into a gloas one, the SSZ
 * half of `upgrade_to_gloas` — 8 binary lists rebuilt as progressive lists
 * (`fromBinaryView`), 29 fields carried, the new fields initialised as the
 * spec says — then its root. No peer row: @lodestar/types has the gloas
 * types but the upgrade itself lives in @lodestar/state-transition (a
 * CachedBeaconState, BLS), which this repository does not depend on.
 *
 *   G1  upgrade + root with the caller's `ptc_window` (`initialize_ptc_window`
 *       is state-transition work: the window's value is built before the
 *       clock starts, its tree inside the upgrade);
 *   G2  the same without `ptc_window` (defaulted): the upgrade's own SSZ work;
 *   G3  bytes of the gloas state shared with the fulu one (`sharedWith`),
 *       and the root against the value API's root of the same upgrade done
 *       on values;
 *   G4  the validators list alone converted (`gloas.Validators.fromBinaryView`)
 *       and its root: the part of the upgrade every validator is hashed in;
 *   G5  the same progressive list built from its bytes
 *       (`gloas.Validators.deserializeToView(bytes)`) and its root: a rebuild
 *       that hashes every validator too, the floor G4 is compared with.
 * The first G1 is the first fulu → gloas upgrade in the process (no
 * warm-up: what a node pays at the fork); then rounds interleave G1 and G2,
 * alternating which goes first, each after a forced GC, each from the same
 * loaded fulu view; the upgraded views are dropped after each round.
 *
 * bench/upgrade.ts runs this after its electra → fulu rows (in a process
 * of its own, so the two states are never held at once).
 * Usage: npm run bench:upgrade -- [--validators N] [--rounds 15] [--write]
 *        (or node --import tsx --conditions=source --expose-gc bench/upgradeGloas.ts …)
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { getHasher } from '@ssztree/hasher';
import { BitArray, toHex } from '@ssztree/types';
import { mainnet, MAINNET, upgradeState } from '@ssztree/types/consensus';
import { generateState } from '../demo/state.js';
import { writeSection } from './lib/docs.js';
import { fmt, summarize } from './lib/stats.js';

const args = process.argv.slice(2);
const arg = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? def : Number(args[i + 1]);
};
const N = arg('validators', 2 ** 20);
const ROUNDS = arg('rounds', 15);
const WRITE = args.includes('--write');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

function cpuModel(): string {
  try {
    const line = execFileSync('lscpu', { encoding: 'utf8' }).split('\n').find((l) => l.startsWith('Model name:'));
    if (line) return line.slice('Model name:'.length).trim();
  } catch {
    // no lscpu: os.cpus() names the model too
  }
  return cpus()[0]?.model ?? 'unknown';
}

console.error(`building a mainnet fulu state of ${N} validators…`);
const value = generateState(N, 1, () => {}, 'fulu') as unknown as ReturnType<typeof mainnet.fulu.BeaconState.defaultValue>;
const bytes = mainnet.fulu.BeaconState.serialize(value);
const fulu = mainnet.fulu.BeaconState.deserializeToView(bytes);
fulu.hashTreeRoot();
const version = new Uint8Array([7, 0, 0, 0]);
const ptcWindow = Array.from({ length: (2 + MAINNET.MIN_SEED_LOOKAHEAD) * MAINNET.SLOTS_PER_EPOCH }, (_, s) =>
  s < MAINNET.SLOTS_PER_EPOCH ? new BigUint64Array(MAINNET.PTC_SIZE) : BigUint64Array.from({ length: MAINNET.PTC_SIZE }, (_, i) => BigInt((s * 7919 + i * 104_729) % N)),
);

function run(withPtc: boolean): { ms: number; root: string; shared: number; bytes: number } {
  const t0 = performance.now();
  const gloas = upgradeState(fulu, 'gloas', { network: 'mainnet', values: withPtc ? { ptc_window: ptcWindow } : {} });
  const root = gloas.hashTreeRoot();
  const ms = performance.now() - t0;
  const s = gloas.sharedWith(fulu);
  gloas.dispose();
  return { ms, root: toHex(root), shared: s.sharedBytes, bytes: s.bytes };
}

const Validators = mainnet.gloas.Validators;
const validatorBytes = mainnet.fulu.BeaconState.fields.validators.serialize(value.validators);
/** G4 (`convert`) or G5: the validators list alone, converted or built from its bytes, then its root. */
function list(convert: boolean): { ms: number; root: string } {
  const t0 = performance.now();
  const view = convert ? Validators.fromBinaryView(fulu.validators) : Validators.deserializeToView(validatorBytes, fulu.store);
  const root = view.hashTreeRoot();
  const ms = performance.now() - t0;
  view.dispose();
  return { ms, root: toHex(root) };
}

gc();
const first = run(true);
const withPtc: number[] = [];
const without: number[] = [];
const converted: number[] = [];
const fromBytes: number[] = [];
const listRoots = new Set<string>();
let last = first;
const kinds = ['g1', 'g2', 'g4', 'g5'] as const;
for (let r = 0; r < ROUNDS; r++) {
  for (let j = 0; j < kinds.length; j++) {
    const kind = kinds[(r + j) % kinds.length]!;
    gc();
    if (kind === 'g4' || kind === 'g5') {
      const o = list(kind === 'g4');
      (kind === 'g4' ? converted : fromBytes).push(o.ms);
      listRoots.add(o.root);
      continue;
    }
    const o = run(kind === 'g1');
    (kind === 'g1' ? withPtc : without).push(o.ms);
    if (kind === 'g1') last = o;
  }
}

// The same upgrade on values (the spec's text, field by field), for the root check.
const availability = BitArray.fromBitLen(MAINNET.SLOTS_PER_HISTORICAL_ROOT);
availability.uint8Array.fill(0xff);
const g = mainnet.gloas;
const header = value.latest_execution_payload_header;
const { latest_execution_payload_header: _dropped, ...kept } = value;
const expected = toHex(
  g.BeaconState.hashTreeRoot({
    ...kept,
    fork: { previous_version: value.fork.current_version, current_version: version, epoch: value.slot / BigInt(MAINNET.SLOTS_PER_EPOCH) },
    latest_block_hash: header.block_hash,
    builders: [],
    next_withdrawal_builder_index: 0n,
    execution_payload_availability: availability,
    builder_pending_payments: Array.from({ length: 2 * MAINNET.SLOTS_PER_EPOCH }, () => g.BuilderPendingPayment.defaultValue()),
    builder_pending_withdrawals: [],
    latest_execution_payload_bid: {
      ...g.ExecutionPayloadBid.defaultValue(),
      block_hash: header.block_hash,
      gas_limit: header.gas_limit,
      execution_requests_root: g.ExecutionRequests.hashTreeRoot(g.ExecutionRequests.defaultValue()),
    },
    payload_expected_withdrawals: [],
    ptc_window: ptcWindow,
  }),
);
const listRoot = toHex(Validators.hashTreeRoot(value.validators));
const rootsAgree = first.root === expected && last.root === expected && listRoots.size === 1 && listRoots.has(listRoot);
const a = summarize(withPtc);
const b = summarize(without);
const c = summarize(converted);
const d = summarize(fromBytes);
const ratios = converted.map((x, i) => x / fromBytes[i]!).sort((p, q) => p - q);
const ratio = ratios[Math.floor(ratios.length / 2)]!;
const load = loadavg().map((x) => x.toFixed(2)).join(' ');
let uptime = '';
try {
  uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
} catch {
  uptime = `load average ${load}`;
}
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const report = `\`npm run bench:upgrade -- --rounds ${ROUNDS}${N === 2 ** 20 ? '' : ` --validators ${N}`}\` (its second part, bench/upgradeGloas.ts)
(Machine: ${cpuModel()} × ${cpus().length}, Node ${process.version}; hasher \`${getHasher()}\`; ${date} UTC; \`uptime\`: ${uptime}; shared 2-core machine, other engineers' jobs running)

A mainnet fulu BeaconState of ${N} validators upgraded to gloas (\`upgradeState(view, 'gloas', { network: 'mainnet', values })\`), then its root.
The first row is the first fulu → gloas upgrade in the process (no warm-up); the medians are of ${ROUNDS} rounds after it, G1, G2, G4 and G5 interleaved; min–max in brackets.

| row | time |
| --- | --- |
| G1 upgrade + root, the caller's \`ptc_window\` given, first in the process | ${fmt(first.ms, 1)} ms |
| G1 upgrade + root, the caller's \`ptc_window\` given, median | ${fmt(a.median, 1)} ms [${fmt(a.min, 1)}–${fmt(a.max, 1)}] |
| G2 upgrade + root, \`ptc_window\` defaulted, median | ${fmt(b.median, 1)} ms [${fmt(b.min, 1)}–${fmt(b.max, 1)}] |
| G3 bytes shared with the fulu state | ${fmt((100 * last.shared) / last.bytes, 1)} % of ${fmt(last.bytes / 2 ** 20, 1)} MiB |
| G3 root = the value API's root of the same upgrade | ${rootsAgree ? 'yes' : 'NO'} |
| G4 the validators list alone: \`gloas.Validators.fromBinaryView\` + root, median | ${fmt(c.median, 1)} ms [${fmt(c.min, 1)}–${fmt(c.max, 1)}] |
| G5 the same list built from its bytes: \`deserializeToView\` + root, median | ${fmt(d.median, 1)} ms [${fmt(d.min, 1)}–${fmt(d.max, 1)}] |
| G4 / G5, paired by round, median | ${fmt(ratio, 2)}× [${fmt(ratios[0]!, 2)}–${fmt(ratios[ratios.length - 1]!, 2)}] |
`;
console.log(report);
if (!rootsAgree) {
  console.error(`roots differ: ours ${first.root} / ${last.root}, value API ${expected}`);
  process.exitCode = 1;
}
if (WRITE && rootsAgree) writeSection('Fork upgrade (fulu → gloas)', report);
