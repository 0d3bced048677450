/**
 * Micro driver: one packed `set` / `get` on a progressive list of uint8 and
 * uint64 against a binary list of the same elements (2^20 by default), at
 * random indices (every subtree boundary crossed), ours only, one process,
 * interleaved, best of 5 passes of each row. Rows as bench/realistic.ts's
 * micro rows: `set` (pages first loaded), `set-hot` (pages already dirty),
 * `get` (dirty pages), and for uint64 `sweep` (an epoch's balances:
 * every element read, changed, written back, in order).
 *
 *   node --conditions=source --expose-gc --import tsx bench/progressive-set.ts [--n 1048576] [--calls 32768] [--only 'progressive uint8']
 */
import { list, progressiveList, uint8, uint64 } from '@ssztree/types';
import { prng } from './lib/validator.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : fallback;
}
const N = Number(arg('n', String(2 ** 20)));
const CALLS = Number(arg('calls', String(2 ** 15)));
/** Only the shapes whose name contains this (e.g. `progressive uint8`, for a CPU profile). */
const ONLY = arg('only', '');

// biome-ignore lint: the four lists' views are driven alike.
type Dyn = any;

const rand = prng(7);
const index = Array.from({ length: CALLS }, () => Math.floor(rand() * N));
const shapes: [string, Dyn, (k: number) => unknown, (n: number, f: (k: number) => unknown) => unknown][] = [
  ['progressive uint8', progressiveList(uint8), (k) => k & 0xff, (n, f) => Uint8Array.from({ length: n }, (_, k) => f(k) as number)],
  ['binary uint8', list(uint8, 2 ** 40), (k) => k & 0xff, (n, f) => Uint8Array.from({ length: n }, (_, k) => f(k) as number)],
  ['progressive uint64', progressiveList(uint64), (k) => BigInt(k), (n, f) => BigUint64Array.from({ length: n }, (_, k) => f(k) as bigint)],
  ['binary uint64', list(uint64, 2 ** 40), (k) => BigInt(k), (n, f) => BigUint64Array.from({ length: n }, (_, k) => f(k) as bigint)],
];
const heads = shapes.map(([, t, v, arr]) => t.toView(arr(N, v)));
for (const h of heads) h.commit();
const values = shapes.map(([, , v]) => Array.from({ length: CALLS }, (_, k) => v(k * 7 + 1)));

const best: Record<string, number> = {};
const note = (row: string, ns: number) => {
  best[row] = Math.min(best[row] ?? Infinity, ns);
};
for (let pass = 0; pass < 7; pass++) {
  for (let s = 0; s < shapes.length; s++) {
    if (!shapes[s][0].includes(ONLY)) continue;
    const view = heads[s].clone();
    const vals = values[s];
    let t = performance.now();
    for (let k = 0; k < CALLS; k++) view.set(index[k], vals[k]);
    note(`${shapes[s][0]} set`, ((performance.now() - t) * 1e6) / CALLS);
    t = performance.now();
    for (let k = 0; k < CALLS; k++) view.set(index[k], vals[CALLS - 1 - k]);
    note(`${shapes[s][0]} set-hot`, ((performance.now() - t) * 1e6) / CALLS);
    t = performance.now();
    let acc = 0;
    for (let k = 0; k < CALLS; k++) acc += Number(view.get(index[k]));
    note(`${shapes[s][0]} get`, ((performance.now() - t) * 1e6) / CALLS);
    if (acc < 0) throw new Error('unreachable');
    view.dispose();
    if (shapes[s][0].endsWith('uint64')) {
      // An epoch's balance sweep: every element read, changed and written back, in order.
      const sweep = heads[s].clone();
      t = performance.now();
      for (let i = 0; i < N; i++) sweep.set(i, sweep.get(i) + 1n);
      note(`${shapes[s][0]} sweep`, ((performance.now() - t) * 1e6) / N);
      sweep.dispose();
    }
  }
}
for (const [row, ns] of Object.entries(best)) console.log(`${row.padEnd(28)} ${ns.toFixed(1)} ns`);
