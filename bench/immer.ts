/**
 * Immer benchmark (issue #6): a state value {validators: Validator[2^18],
 * balances: number[2^18]} kept immutable with immer. Each round one recipe
 * changes 100 random validators (effective_balance, slashed) and 1024 random
 * balances; then the new root is computed every way, rows interleaved in
 * one process (the row order is a fresh seeded shuffle each round: a
 * rotation would keep every row behind the same neighbour, whose garbage
 * and cache misses it would always inherit), on the same values:
 *
 *   cached   T.hashTreeRoot(next): the frozen-value cache (diff against the
 *            previous value's tree, rehash the dirty paths)
 *   full     T.hashTreeRoot of the same value, unfrozen at the top (a shallow
 *            copy), so the whole value is hashed: ours, then @chainsafe/ssz's
 *   view     our tree-backed view doing the same writes + hashTreeRoot
 *   viewdu   @chainsafe/ssz ViewDU doing the same writes + hashTreeRoot
 *   produce  `produce(T, prev, recipe)` from `@ssztree/types/immer` (runs the
 *            recipe, applies its patches to the view) + view root
 *   recipe   immer's own produce of the recipe (what every value-based
 *            approach pays before any root; context, not a competitor)
 *
 * Before timing, every row's root is checked equal. Ratios are paired
 * (round by round) medians. Usage:
 *   npm run bench:immer -- [--rounds 7] [--warmup 1] [--write]
 */
import { cpus, loadavg } from 'node:os';
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher as hashtreeHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import * as cs from '@chainsafe/ssz';
import { configureThreads, getHasher } from '@ssztree/hasher';
import { byteVector, container, list, toHex, uint64 } from '@ssztree/types';
import { produce } from '@ssztree/types/immer';
import { produce as immerProduce } from 'immer';
import { writeSection } from './lib/docs.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';
import { IMMER_N, ImmerState, type ImmerStateValue, makeImmerState } from './lib/immerState.js';
import { PeerValidator, prng, Validator } from './lib/validator.js';

setHasher(hashtreeHasher);
configureThreads(0);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const ROUNDS = Number(arg('rounds') ?? 7);
const WARMUP = Number(arg('warmup') ?? 1);
const N = IMMER_N;
const LIMIT = 2 ** 40;

const State = ImmerState;
type StateValue = ImmerStateValue;

const PeerState = new cs.ContainerType(
  { validators: new cs.ListCompositeType(PeerValidator, LIMIT), balances: new cs.ListBasicType(new cs.UintNumberType(8), LIMIT) },
  { typeName: 'State' },
);

const makeState = (): StateValue => makeImmerState();


/** A permutation of `items` (Fisher–Yates on the seeded generator). */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const r = prng(seed);
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** One round's writes: 100 validators and 1024 balances, the same for every row. */
interface Writes {
  readonly validators: { i: number; eb: bigint }[];
  readonly balances: { i: number; v: number }[];
}
function writesOf(round: number): Writes {
  const r = prng(7000 + round);
  const validators = Array.from({ length: 100 }, () => ({ i: Math.floor(r() * N), eb: BigInt(Math.floor(r() * 2 ** 35)) }));
  const balances = Array.from({ length: 1024 }, () => ({ i: Math.floor(r() * N), v: Math.floor(r() * 2 ** 40) }));
  return { validators, balances };
}

// biome-ignore lint: the drafts and both libraries' views are driven by field name here.
type Dyn = any;

function applyWrites(target: Dyn, w: Writes, isView: boolean): void {
  const validators = target.validators;
  const balances = target.balances;
  for (const { i, eb } of w.validators) {
    const v = isView ? validators.get(i) : validators[i];
    v.effective_balance = eb;
    v.slashed = true;
  }
  if (isView) for (const { i, v } of w.balances) balances.set(i, v);
  else for (const { i, v } of w.balances) balances[i] = v;
}

const ROWS = ['cached', 'full ours', 'full @chainsafe/ssz', 'view ours', 'ViewDU @chainsafe/ssz', 'produce ours'] as const;
type Row = (typeof ROWS)[number];

/**
 * The frozen check's cost on unfrozen values: `hashTreeRoot` (which checks
 * `Object.isFrozen` first) against the body hashTreeRoot had before (`_rootInto`
 * in a try, one shared call site), paired, interleaved.
 */
function rootWithoutCheck(type: Dyn, value: unknown): Uint8Array {
  // SszType.hashTreeRoot as it was before the cache: one shared call site for every schema, like the real one.
  try {
    const out = new Uint8Array(32);
    type._rootInto(value, out, 0);
    return out;
  } catch (e) {
    throw new Error(`${type.typeName}: ${String(e)}`);
  }
}

function unfrozenOverhead(): string[] {
  const Checkpoint = container({ epoch: uint64, root: byteVector(32) }, 'Checkpoint');
  const Small = container({ slot: uint64, validators: list(Validator, LIMIT) }, 'Small');
  const cases = [
    { name: 'Checkpoint', type: Checkpoint as Dyn, value: { epoch: 5n, root: new Uint8Array(32).fill(1) }, calls: 100_000 },
    { name: 'container of 16 validators', type: Small as Dyn, value: { slot: 1n, validators: makeState().validators.slice(0, 16) }, calls: 5_000 },
  ];
  const lines: string[] = [];
  for (const c of cases) {
    const a: number[] = [];
    const b: number[] = [];
    const out = new Uint8Array(32);
    const withCheck = () => {
      for (let i = 0; i < c.calls; i++) c.type.hashTreeRoot(c.value);
    };
    const direct = () => {
      for (let i = 0; i < c.calls; i++) rootWithoutCheck(c.type, c.value);
    };
    if (toHex(c.type.hashTreeRoot(c.value)) !== (c.type._rootInto(c.value, out, 0), toHex(out))) throw new Error('overhead: roots differ');
    for (let round = 0; round < 13; round++) {
      const order = round % 2 === 0 ? [withCheck, direct] : [direct, withCheck];
      for (const f of order) {
        const t = performance.now();
        f();
        const ns = ((performance.now() - t) * 1e6) / c.calls;
        if (round >= 2) (f === withCheck ? a : b).push(ns);
      }
    }
    const r = pairedRatio(a, b);
    lines.push(`| ${c.name} | ${fmt(summarize(a).median, 0)} | ${fmt(summarize(b).median, 0)} | ${fmt(r.median, 3)} (${fmt(r.min, 3)}–${fmt(r.max, 3)}) |`);
  }
  return lines;
}

function main(): void {
  console.log(`building the state (${N} validators), freezing it with immer, and the views...`);
  let cur = immerProduce(makeState(), () => {}) as StateValue;
  State.hashTreeRoot(cur); // the first root builds and caches the whole tree
  const ourView: Dyn = State.toView(cur);
  const peerView: Dyn = PeerState.toViewDU(cur as Dyn);
  let produced = produce(State, cur, () => {});
  const samples = new Map<Row | 'recipe', number[]>([...ROWS, 'recipe' as const].map((r) => [r, []]));

  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const w = writesOf(round);
    const recipe = (d: Dyn) => applyWrites(d, w, false);
    let t = performance.now();
    const next = immerProduce(cur, recipe) as StateValue;
    const recipeMs = performance.now() - t;
    const roots = new Map<Row, string>();
    const last = new Map<Row, number>();
    const run: Record<Row, () => Uint8Array> = {
      cached: () => State.hashTreeRoot(next),
      'full ours': () => State.hashTreeRoot({ ...next }),
      'full @chainsafe/ssz': () => PeerState.hashTreeRoot({ ...next } as Dyn),
      'view ours': () => {
        applyWrites(ourView, w, true);
        return ourView.hashTreeRoot();
      },
      'ViewDU @chainsafe/ssz': () => {
        applyWrites(peerView, w, true);
        return peerView.hashTreeRoot();
      },
      'produce ours': () => {
        produced = produce(State, produced, recipe);
        return produced.view.hashTreeRoot();
      },
    };
    const order = shuffled(ROWS, 9100 + round);
    for (const row of order) {
      t = performance.now();
      const root = run[row]();
      const ms = performance.now() - t;
      roots.set(row, toHex(root));
      last.set(row, ms);
      if (round >= WARMUP) samples.get(row)!.push(ms);
    }
    if (round >= WARMUP) samples.get('recipe')!.push(recipeMs);
    const want = roots.get('full ours');
    for (const [row, root] of roots) if (root !== want) throw new Error(`round ${round}: ${row} root ${root} differs from the full root ${want}`);
    cur = next;
    console.log(`round ${round}${round < WARMUP ? ' (warm-up)' : ''}: ${ROWS.map((r) => `${r} ${fmt(last.get(r) ?? Number.NaN)}`).join(', ')}, recipe ${fmt(recipeMs)} ms`);
  }

  const s = (r: Row | 'recipe') => summarize(samples.get(r)!);
  const line = (r: Row | 'recipe', what: string) => {
    const x = s(r);
    return `| ${what} | ${fmt(x.median, 2)} | ${fmt(x.min, 2)}–${fmt(x.max, 2)} |`;
  };
  const ratio = (a: Row, b: Row) => {
    const x = pairedRatio(samples.get(a)!, samples.get(b)!);
    return `${fmt(x.median, 1)}× (${fmt(x.min, 1)}–${fmt(x.max, 1)})`;
  };
  const cachedVsFull = pairedRatio(samples.get('full ours')!, samples.get('cached')!).median;
  const cachedVsView = pairedRatio(samples.get('cached')!, samples.get('view ours')!).median;
  const overhead = unfrozenOverhead();
  const report = [
    `Command: \`npm run bench:immer -- ${process.argv.slice(2).join(' ')}\` (bench/immer.ts). One process, rows interleaved in a fresh seeded shuffled order each round, ` +
      `${ROUNDS} rounds after ${WARMUP} warm-up; every row's root checked equal each round.`,
    '',
    `State value \`{validators: Validator[2^18], balances: number[2^18]}\` (\`list(uint64Number, 2^40)\`), kept with immer; each round one recipe changes 100 random validators (effective_balance, slashed) and 1024 random balances. Time to the new root:`,
    '',
    '| row | median ms | min–max ms |',
    '| --- | ---: | ---: |',
    line('cached', 'ours: `T.hashTreeRoot(next)` through the frozen-value cache'),
    line('full ours', 'ours: full value `hashTreeRoot` (top level unfrozen)'),
    line('full @chainsafe/ssz', '@chainsafe/ssz: full value `hashTreeRoot`'),
    line('view ours', 'ours: tree-backed view, the same writes + `hashTreeRoot()`'),
    line('ViewDU @chainsafe/ssz', '@chainsafe/ssz: ViewDU, the same writes + `hashTreeRoot()`'),
    line('produce ours', 'ours: `produce(T, prev, recipe)` (recipe + patches → view) + view root'),
    line('recipe', 'context: immer `produce` of the recipe alone (paid before any value root)'),
    '',
    'Paired ratios (median of per-round ratios, min–max):',
    '',
    `- full ours / cached: ${ratio('full ours', 'cached')} — target ≥ 20×: ${cachedVsFull >= 20 ? 'met' : 'NOT met'}`,
    `- full @chainsafe/ssz / cached: ${ratio('full @chainsafe/ssz', 'cached')}`,
    `- cached / view ours: ${ratio('cached', 'view ours')} — target ≤ 3×: ${cachedVsView <= 3 ? 'met' : 'NOT met'}`,
    `- ViewDU @chainsafe/ssz / cached: ${ratio('ViewDU @chainsafe/ssz', 'cached')}`,
    '',
    'Unfrozen values (not cached): `hashTreeRoot`, which checks `Object.isFrozen` first, against the body `hashTreeRoot` had before the cache (`_rootInto` in a try, one shared call site), 11 interleaved rounds after 2 warm-up:',
    '',
    '| value | ns per root, hashTreeRoot now | ns per root, the body before | paired ratio now / before (min–max) |',
    '| --- | ---: | ---: | ---: |',
    ...overhead,
    '',
    'Where the cached root\'s time goes: a plain value carries no record of what changed, so the cache scans both 2^18-element arrays against the base (identity for validators, value for balances) before it writes anything; the writes and the rehash of the dirty paths are the same work our view does. The scans are plain linear loops (2 × 2^18 comparisons per root) over frozen arrays, which V8 reads about 3× slower than plain ones; `bench/immer-profile.ts` profiles the cached rounds alone and puts the two loops at over half of the time. This bench runs two chains of one schema side by side (the cached row\'s values and the produce row\'s), so the cache keeps one head per chain and diffs each value against its own (docs/IMMER.md). `produce` knows the patches and skips the scans, but pays immer\'s recipe, which costs more than any root here.',
    '',
    `Machine: ${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}, Node ${process.version}, our hasher backend \`${getHasher()}\` (threads off), @chainsafe/ssz on hashtree; load average at the start of the report ${loadavg()[0]!.toFixed(1)} (the machine is shared); ${new Date().toISOString().slice(0, 10)}.`,
  ].join('\n');
  console.log(`\n${report}`);
  if (process.argv.includes('--write')) writeSection('Immer', report);
}

main();
