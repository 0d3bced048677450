/**
 * The first blocks after a state load, with and without the tables a build
 * from bytes hands to a progressive list's subtree views (page tables,
 * element runs: schema/progressiveList.ts, view/built.ts). One process, two
 * gloas-shaped states of 2^20 validators built from the same bytes: one
 * loaded by `deserializeToView` (its lists' segments start with their
 * tables), one viewed with `viewOf` over another such build (its segments
 * start with none and walk from each subtree's root until they fill their
 * tables). Blocks (bench/lib/stateWorkload.ts) alternate between the two,
 * which side goes first alternating, caches evicted before the writes and
 * again before the commit (as bench/progressive.ts's peer runs evict them);
 * printed: process CPU time of the write loops and of the commits + roots,
 * summed over the first blocks, and medians from block `--from` on.
 *
 *   node --conditions=source --expose-gc --import tsx bench/progressive-first-blocks.ts [--blocks 16] [--from 0] [--thrash 64]
 */
import { progressiveContainer, progressiveList, uint8, uint64 } from '@ssztree/types';
import { makeBalances, NS } from './progressiveBinary.js';
import { writeBlock } from './lib/stateWorkload.js';
import { makeValidators, prng, Validator } from './lib/validator.js';
import { cpuMs } from './lib/cachedState.js';
import { median } from './lib/stats.js';
import { cacheThrasher } from './lib/thrash.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : fallback;
}

const GloasState = progressiveContainer(
  { slot: uint64, validators: progressiveList(Validator), balances: progressiveList(uint64), participation: progressiveList(uint8) },
  [1, 0, 1, 1, 1],
  'GloasShapedState',
);
// biome-ignore lint: the state's views are driven by field name.
type Dyn = any;

const blocks = Number(arg('blocks', '16'));
const from = Number(arg('from', '0'));
const thrash = cacheThrasher(Number(arg('thrash', '64')));
const cpu = cpuMs;

const bytes = GloasState.serialize({ slot: 1n, validators: makeValidators(NS), balances: makeBalances(NS), participation: new Uint8Array(NS).fill(7) } as Dyn);
const loaded: Dyn = GloasState.deserializeToView(bytes);
loaded.hashTreeRoot();
const other: Dyn = GloasState.deserializeToView(bytes);
const version = other.commit();
const bare: Dyn = GloasState.viewOf(version);
version.dispose();
other.dispose();
bare.hashTreeRoot();

const sides = { tables: loaded, none: bare } as const;
type Side = keyof typeof sides;
const writes: Record<Side, number[]> = { tables: [], none: [] };
const commits: Record<Side, number[]> = { tables: [], none: [] };
for (let b = 0; b < blocks; b++) {
  for (const side of (b % 2 === 0 ? ['tables', 'none'] : ['none', 'tables']) as Side[]) {
    const view = sides[side];
    thrash();
    const c0 = cpu();
    writeBlock(view, NS, prng(1000 + b));
    const c1 = cpu();
    thrash();
    const c2 = cpu();
    view.hashTreeRoot();
    commits[side].push(cpu() - c2);
    writes[side].push(c1 - c0);
    await new Promise((resolve) => setImmediate(resolve));
  }
}
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
for (const side of ['tables', 'none'] as Side[]) {
  console.log(
    `${side}: first ${blocks} blocks, cpu ms summed: writes ${sum(writes[side]).toFixed(1)}, commit + root ${sum(commits[side]).toFixed(1)}; ` +
      `blocks ${from}+ medians: writes ${median(writes[side].slice(from)).toFixed(2)}, commit + root ${median(commits[side].slice(from)).toFixed(2)}`,
  );
}
if (toHexRoot(loaded) !== toHexRoot(bare)) throw new Error('the two states disagree');

function toHexRoot(view: Dyn): string {
  return Buffer.from(view.hashTreeRoot()).toString('hex');
}
