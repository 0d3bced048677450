/**
 * Fork upgrade benchmark: a mainnet electra BeaconState of 2^20 validators
 * (the demo's synthetic state) turned into a fulu BeaconState, the SSZ half
 * of `upgrade_to_fulu`, side by side with @lodestar/types 1.50 on
 * @chainsafe/ssz ViewDU (hashtree hasher), the way Lodestar's
 * `upgradeStateToFulu` does it: `ssz.fulu.BeaconState.getViewDU(electraNode)`,
 * then the new fork and `proposer_lookahead` set, commit, root.
 *
 *   U1  upgrade + root: ours `upgradeState(view, 'fulu', { values })` then
 *       `hashTreeRoot()`; the peer's getViewDU + two writes + commit + root.
 *       Each round starts from the same loaded electra view (hashed once,
 *       untimed); the upgraded views are dropped after each round.
 *   U2  bytes shared with the electra state (`sharedWith`), and the
 *       upgraded root against the value API's and the peer's.
 *
 * Rounds interleave the two sides, alternating which goes first; the first
 * round on the big state is reported apart from the median of the rest.
 * Before it, both sides upgrade a small default state three times (code
 * warm-up); `--cold` skips that, so the first round also pays for the code
 * first used in the process.
 *
 * Then the fulu → gloas rows (bench/upgradeGloas.ts, in a child process;
 * `--skip-gloas` leaves them out).
 *
 * Usage: npm run bench:upgrade -- [--validators N] [--rounds 15] [--write] [--skip-gloas]
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher as hashtreeHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import { getHasher } from '@ssztree/hasher';
import { toHex } from '@ssztree/types';
import { mainnet, upgradeState } from '@ssztree/types/consensus';
import { ssz } from '@lodestar/types';
import { generateState } from '../demo/state.js';
import { writeSection } from './lib/docs.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';

const args = process.argv.slice(2);
const arg = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? def : Number(args[i + 1]);
};
const N = arg('validators', 2 ** 20);
const ROUNDS = arg('rounds', 15);
const WRITE = args.includes('--write');

setHasher(hashtreeHasher);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

// biome-ignore lint: Lodestar's ViewDU types are generic per schema; the bench drives them structurally.
type PeerView = any;

console.error(`building a mainnet electra state of ${N} validators…`);
const value = generateState(N, 1);
const bytes = mainnet.electra.BeaconState.serialize(value);
const lookahead = new BigUint64Array(64).map((_, i) => BigInt((i * 7919) % N));
const fork = { previous_version: new Uint8Array([5, 0, 0, 0]), current_version: new Uint8Array([6, 0, 0, 0]), epoch: 411_392n };

const ours = mainnet.electra.BeaconState.deserializeToView(bytes);
ours.hashTreeRoot();
const peer: PeerView = ssz.electra.BeaconState.deserializeToViewDU(bytes);
peer.hashTreeRoot();
const peerNode = ssz.electra.BeaconState.commitViewDU(peer);

function runOurs(): { ms: number; root: Uint8Array; shared: number; bytes: number } {
  const t0 = performance.now();
  const fulu = upgradeState(ours, 'fulu', { values: { proposer_lookahead: lookahead, fork } });
  const root = fulu.hashTreeRoot();
  const ms = performance.now() - t0;
  const shared = fulu.sharedWith(ours);
  fulu.dispose();
  return { ms, root, shared: shared.sharedBytes, bytes: shared.bytes };
}

function runPeer(): { ms: number; root: Uint8Array } {
  const t0 = performance.now();
  const fulu: PeerView = ssz.fulu.BeaconState.getViewDU(peerNode);
  fulu.fork = ssz.phase0.Fork.toViewDU({ previousVersion: fork.previous_version, currentVersion: fork.current_version, epoch: Number(fork.epoch) });
  fulu.proposerLookahead = ssz.fulu.ProposerLookahead.toViewDU(Array.from(lookahead, Number));
  fulu.commit();
  const root = fulu.hashTreeRoot();
  return { ms: performance.now() - t0, root };
}

// Where the first round's time goes: the same upgrade of a small default state first (untimed
// against the big one) warms the code both sides run, so the big state's first round shows what
// is left. `--cold` skips it: then the first round also pays for code first used in the process.
if (!args.includes('--cold')) {
  const small = mainnet.electra.BeaconState.toView(mainnet.electra.BeaconState.defaultValue());
  for (let i = 0; i < 3; i++) {
    const f = upgradeState(small, 'fulu', { values: { proposer_lookahead: lookahead, fork } });
    f.hashTreeRoot();
    f.dispose();
    const pv: PeerView = ssz.fulu.BeaconState.getViewDU(ssz.electra.BeaconState.commitViewDU(ssz.electra.BeaconState.defaultViewDU()));
    pv.proposerLookahead = ssz.fulu.ProposerLookahead.toViewDU(Array.from(lookahead, Number));
    pv.commit();
    pv.hashTreeRoot();
  }
  small.dispose();
}

const oursMs: number[] = [];
const peerMs: number[] = [];
let first = { ours: 0, peer: 0 };
let check = { ours: '', peer: '', shared: 0, bytes: 0 };
for (let r = 0; r < ROUNDS + 1; r++) {
  gc();
  const sides = r % 2 === 0 ? (['ours', 'peer'] as const) : (['peer', 'ours'] as const);
  const got: { ours?: number; peer?: number } = {};
  for (const side of sides) {
    if (side === 'ours') {
      const o = runOurs();
      got.ours = o.ms;
      check = { ...check, ours: toHex(o.root), shared: o.shared, bytes: o.bytes };
    } else {
      const p = runPeer();
      got.peer = p.ms;
      check.peer = toHex(p.root);
    }
  }
  if (r === 0) first = { ours: got.ours!, peer: got.peer! };
  else {
    oursMs.push(got.ours!);
    peerMs.push(got.peer!);
  }
}

const expected = toHex(mainnet.fulu.BeaconState.hashTreeRoot({ ...value, fork, proposer_lookahead: lookahead }));
const rootsAgree = check.ours === expected && check.peer === expected;
const o = summarize(oursMs);
const p = summarize(peerMs);
const ratio = pairedRatio(peerMs, oursMs);
const load = loadavg().map((x) => x.toFixed(2)).join(' ');
const report = `\`npm run bench:upgrade -- --rounds ${ROUNDS}${N === 2 ** 20 ? '' : ` --validators ${N}`}${args.includes('--cold') ? ' --cold' : ''}\`
(Machine: ${cpus()[0]?.model ?? "unknown"} × ${cpus().length}, Node ${process.version}; hasher: ours \`${getHasher()}\`, the peer's hashtree; @lodestar/types 1.50 on @chainsafe/ssz ViewDU; load average ${load}; shared 2-core machine; ${new Date().toISOString().slice(0, 10)})

A mainnet electra BeaconState of ${N} validators upgraded to fulu (new \`fork\` and \`proposer_lookahead\`), then its root.
Median of ${ROUNDS} interleaved rounds after a first one${args.includes('--cold') ? ' (cold: the first upgrade in the process)' : ' (after three upgrades of a small default state warmed the code)'}; min–max in brackets; ratio = peer / ours, paired by round.

| row | ours | @lodestar/types (ChainSafe ViewDU) | ratio |
| --- | --- | --- | --- |
| U1 upgrade + root, first round | ${fmt(first.ours, 2)} ms | ${fmt(first.peer, 2)} ms | ${fmt(first.peer / first.ours, 1)}× |
| U1 upgrade + root, median | ${fmt(o.median, 2)} ms [${fmt(o.min, 2)}–${fmt(o.max, 2)}] | ${fmt(p.median, 2)} ms [${fmt(p.min, 2)}–${fmt(p.max, 2)}] | ${fmt(ratio.median, 1)}× [${fmt(ratio.min, 1)}–${fmt(ratio.max, 1)}] |
| U2 bytes shared with the electra state | ${fmt((100 * check.shared) / check.bytes, 3)} % of ${fmt(check.bytes / 2 ** 20, 1)} MiB | – | – |
| U2 root = value API's = peer's | ${rootsAgree ? 'yes' : 'NO'} | | |
`;
console.log(report);
if (!rootsAgree) {
  console.error(`roots differ: ours ${check.ours}, peer ${check.peer}, value API ${expected}`);
  process.exitCode = 1;
}
if (WRITE && rootsAgree) writeSection(args.includes('--cold') ? 'Fork upgrade (electra → fulu), first in a cold process' : 'Fork upgrade (electra → fulu)', report);

// fulu → gloas in a process of its own (bench/upgradeGloas.ts), so the electra states above are not held
// beside the fulu one; `--skip-gloas` leaves it out.
if (!args.includes('--skip-gloas')) {
  const gloasRun = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(new URL('./upgradeGloas.ts', import.meta.url)), ...args.filter((a) => a !== '--cold')], { stdio: 'inherit' });
  if (gloasRun.status !== 0) process.exitCode = gloasRun.status ?? 1;
}
