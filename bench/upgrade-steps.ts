/**
 * Where the electra → fulu upgrade's time goes, step by step, on a mainnet
 * state of 2^20 validators (the demo's synthetic state), optionally with
 * Lodestar's copy of the state loaded too (`--peer`, the memory the
 * benchmark's process holds). Three rounds, each after a forced GC, each
 * first timing the whole `upgradeState` + root and then the steps apart:
 * commit of the electra view, reading its field nodes, the two new subtrees
 * (`fork`, `proposer_lookahead`), the spine write, the fulu view, disposal,
 * the root. A profile, not a comparison (bench/upgrade.ts is that).
 *
 * Usage: node --import tsx --conditions=source --expose-gc --max-old-space-size=6144 bench/upgrade-steps.ts [--validators N] [--peer]
 */
import { loadavg } from 'node:os';
import { ssz } from '@lodestar/types';
import { mainnet, upgradeState } from '@ssztree/types/consensus';
import { generateState } from '../demo/state.js';

const args = process.argv.slice(2);
const i = args.indexOf('--validators');
const N = i < 0 ? 2 ** 20 : Number(args[i + 1]);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const value = generateState(N, 1);
const bytes = mainnet.electra.BeaconState.serialize(value);
const ours = mainnet.electra.BeaconState.deserializeToView(bytes);
ours.hashTreeRoot();
// biome-ignore lint: only held, to give the process the benchmark's memory.
const peer: any = args.includes('--peer') ? ssz.electra.BeaconState.deserializeToViewDU(bytes) : null;
peer?.hashTreeRoot();
const lookahead = new BigUint64Array(64).fill(3n);
const fork = { previous_version: new Uint8Array([5, 0, 0, 0]), current_version: new Uint8Array([6, 0, 0, 0]), epoch: 411_392n };
const small = mainnet.electra.BeaconState.toView(mainnet.electra.BeaconState.defaultValue());
for (let k = 0; k < 3; k++) {
  const f = upgradeState(small, 'fulu', { values: { proposer_lookahead: lookahead, fork } });
  f.hashTreeRoot();
  f.dispose();
}
console.log(`${N} validators${peer ? ', Lodestar’s state loaded too' : ''}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
const ms = (a: number, b: number) => (b - a).toFixed(2);
for (let r = 0; r < 3; r++) {
  gc();
  const t = performance.now();
  const whole = upgradeState(ours, 'fulu', { values: { proposer_lookahead: lookahead, fork } });
  whole.hashTreeRoot();
  const wholeMs = ms(t, performance.now());
  whole.dispose();
  const t0 = performance.now();
  const base = ours.commit();
  const t1 = performance.now();
  base.store.getNodesAtDepth(base.rootNode, 6, 0, 37);
  const t2 = performance.now();
  const tl = mainnet.fulu.ProposerLookahead.toTree(lookahead, base.store);
  const tf = mainnet.phase0.Fork.toTree(fork, base.store);
  const t3 = performance.now();
  const out = base.clone();
  out.setNodesAtDepth(6, [3, 37], [tf.rootNode, tl.rootNode]);
  const t4 = performance.now();
  const v = mainnet.fulu.BeaconState.viewOf(out);
  const t5 = performance.now();
  out.dispose();
  tl.dispose();
  tf.dispose();
  base.dispose();
  const t6 = performance.now();
  v.hashTreeRoot();
  const t7 = performance.now();
  v.dispose();
  console.log(
    `round ${r}: upgradeState + root ${wholeMs} ms; steps: commit ${ms(t0, t1)}, field nodes ${ms(t1, t2)}, new subtrees ${ms(t2, t3)}, spine ${ms(t3, t4)}, view ${ms(t4, t5)}, dispose ${ms(t5, t6)}, root ${ms(t6, t7)} ms`,
  );
}
