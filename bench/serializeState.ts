/**
 * Serialize benchmark on the demo's synthetic mainnet electra BeaconState
 * (default 2^20 validators): the state as a view built from bytes, then,
 * rounds interleaved in one process (full GC before each sample):
 *
 *   tree        view.serialize()  — straight from the tree
 *   tree into   view.serializeInto(buffer, 0) into one buffer reused across
 *               samples: `tree` without a fresh output
 *   old         T.serialize(T.fromTree(tree)) — what view.serialize() did before
 *   value       T.serialize(value) — the plain value, for scale
 *   value into  T.serializeInto(value, buffer, 0) into one buffer reused
 *               across samples: `value` without a fresh output
 *   toValue     view.toValue() — bytes out of the tree, then one decode
 *   fromTree    T.fromTree(tree) — what view.toValue() did before
 *   decode      T.deserialize(bytes) — bytes to a plain value
 *   decode nocopy  T.deserialize(bytes, { copy: false }) — without the
 *               private copy of the input
 *   peer tree / peer value / peer decode — the same on Lodestar's
 *               `ssz.electra.BeaconState` (@chainsafe/ssz: ViewDU serialize,
 *               value serialize, value deserialize)
 *
 * Bytes and values are checked equal before timing. Each sample records wall
 * time, the process's CPU time (all threads; steadier on a shared machine) and
 * the main-thread pauses of major (mark-compact) collections that ran inside
 * it, from `perf_hooks` gc entries. A fresh output (or input copy) of this
 * size is external memory enough to start a major collection (docs/TYPES.md
 * "Where the time goes"); its concurrent marking runs on helper threads, so
 * it shows in the CPU time, and its final pause can land after the sample:
 * the column shows only the pauses inside it.
 *
 * Usage: node --max-old-space-size=6144 --expose-gc --conditions=source --import tsx \
 *          bench/serializeState.ts [--validators 1048576] [--rounds 3]
 */
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher as hashtreeHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import { ssz } from '@lodestar/types';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { mainnet } from '@ssztree/types/consensus';
import { generateState } from '../demo/state.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const n = Number(arg('validators') ?? 2 ** 20);
const rounds = Number(arg('rounds') ?? 3);
const gc = (globalThis as { gc?: () => void }).gc;
const T = mainnet.electra.BeaconState;

const value = generateState(n, 1);
const bytes = T.serialize(value);
const view = T.deserializeToView(bytes);
view.hashTreeRoot();
const tree = view.commit();
setHasher(hashtreeHasher);
const P = ssz.electra.BeaconState;
const peerValue = P.deserialize(bytes);
const peerView = P.deserializeToViewDU(bytes);
peerView.hashTreeRoot();

const reused = new Uint8Array(bytes.length);
const rows: Record<string, () => unknown> = {
  tree: () => view.serialize(),
  'tree into': () => view.serializeInto(reused, 0),
  old: () => T.serialize(T.fromTree(tree)),
  value: () => T.serialize(value),
  'value into': () => T.serializeInto(value, reused, 0),
  toValue: () => view.toValue(),
  fromTree: () => T.fromTree(tree),
  decode: () => T.deserialize(bytes),
  'decode nocopy': () => T.deserialize(bytes, { copy: false }),
  'peer tree': () => peerView.serialize(),
  'peer value': () => P.serialize(peerValue),
  'peer decode': () => P.deserialize(bytes),
};
if (Buffer.compare(view.serialize(), bytes) !== 0) throw new Error('tree bytes differ');
if (view.serializeInto(reused, 0) !== bytes.length || Buffer.compare(reused, bytes) !== 0) throw new Error('view serializeInto bytes differ');
if (T.serializeInto(value, reused, 0) !== bytes.length || Buffer.compare(reused, bytes) !== 0) throw new Error('serializeInto bytes differ');
if (!T.equals(T.deserialize(bytes, { copy: false }), value)) throw new Error('deserialize without copy differs');
if (!T.equals(view.toValue(), value)) throw new Error('toValue differs');
if (!T.equals(T.deserialize(bytes), value)) throw new Error('deserialize differs');
if (Buffer.compare(P.serialize(peerValue), bytes) !== 0 || Buffer.compare(peerView.serialize(), bytes) !== 0) throw new Error('peer bytes differ');

// Major collections, by time; entries arrive asynchronously (later than the next setImmediate), so each sample waits a little before reading them.
const majors: PerformanceEntry[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors.push(e);
});
observer.observe({ entryTypes: ['gc'] });
const majorMs = (t0: number, t1: number): number => majors.filter((e) => e.startTime >= t0 && e.startTime < t1).reduce((s, e) => s + e.duration, 0);

const names = Object.keys(rows);
const samples: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
const cpu: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
const major: Record<string, number[]> = Object.fromEntries(names.map((k) => [k, []]));
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + r) % names.length]!;
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 20)); // the full collection's own entry is delivered before t0
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    rows[name]!();
    const t1 = performance.now();
    samples[name]!.push(t1 - t0);
    const c = process.cpuUsage(c0);
    cpu[name]!.push((c.user + c.system) / 1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    major[name]!.push(majorMs(t0, t1));
  }
}
observer.disconnect();
console.log(`electra BeaconState, ${n} validators, ${(bytes.length / 2 ** 20).toFixed(1)} MiB; rounds ${rounds}, gc between samples: ${gc !== undefined}`);
for (const name of names) {
  const s = summarize(samples[name]!);
  const sc = summarize(cpu[name]!);
  const sm = summarize(major[name]!);
  console.log(
    `${name.padEnd(13)} median ${fmt(s.median, 0)} ms (${fmt(s.min, 0)}–${fmt(s.max, 0)})  ${fmt(bytes.length / s.median / 1e3, 0)} MB/s   cpu ${fmt(sc.median, 0)} ms (${fmt(sc.min, 0)}–${fmt(sc.max, 0)})   major gc ${fmt(sm.median, 0)} ms (${fmt(sm.min, 0)}–${fmt(sm.max, 0)})`,
  );
}
const ratio = (a: string, b: string): string => {
  const p = pairedRatio(samples[a]!, samples[b]!);
  const q = pairedRatio(cpu[a]!, cpu[b]!);
  return `${fmt(p.median, 2)}× (${fmt(p.min, 2)}–${fmt(p.max, 2)}), cpu ${fmt(q.median, 2)}×`;
};
console.log(`old / tree ${ratio('old', 'tree')}; tree / value ${ratio('tree', 'value')}; fromTree / toValue ${ratio('fromTree', 'toValue')}`);
console.log(`tree / tree into ${ratio('tree', 'tree into')}; value / value into ${ratio('value', 'value into')}; decode / decode nocopy ${ratio('decode', 'decode nocopy')}`);
console.log(`peer / ours: view serialize ${ratio('peer tree', 'tree')}; value serialize ${ratio('peer value', 'value')}; value deserialize ${ratio('peer decode', 'decode')}`);
