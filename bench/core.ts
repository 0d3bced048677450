/**
 * Core benchmark: `@ssztree/core` side by side with
 * `@chainsafe/persistent-merkle-tree` (pmt), both on the hashtree hasher
 * where it loads (as-sha256 / wasm otherwise), on a depth-20 tree of 2^20
 * leaves:
 *   (a) write 1024 random leaves, then root
 *   (b) write all 2^20 leaves, then root
 *   (c) build from 2^20 packed chunks, then root (and `merkleize` of them)
 *   (d) bytes per node (heap + array buffers after gc), and the extra bytes
 *       of 100 successive versions each differing by 1024 random leaves,
 *       per node they do not share.
 * Same inputs for every row; after a warm-up, rounds run the rows
 * interleaved (rotating the order), with a gc before each run; medians,
 * min–max, and ratios paired round by round. pmt is measured both with its
 * batched hashing (setNodesAtDepth + hcByLevel + executeHashComputations)
 * and with its lazy `node.root`; the ratio is against the faster of the two.
 *
 *   npx tsx --conditions=source --expose-gc bench/core.ts [--rounds 7] [--write]
 * `--write` records the report in docs/BENCHMARKS.md (`## Core`).
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import * as pmt from '@chainsafe/persistent-merkle-tree';
import { getHasher, merkleize, setHasher } from '@ssztree/hasher';
import { NodeStore, Tree } from '../packages/core/src/index.js';
import { writeSection } from './lib/docs.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';

const DEPTH = 20;
const N = 2 ** DEPTH;
const K = 1024;
/** Runs of (a) averaged into one sample: one run is about a millisecond. */
const A_REPEAT = 16;

const maybeGc = (globalThis as { gc?: () => void }).gc;
if (maybeGc === undefined) throw new Error('run with --expose-gc');
const gc: () => void = maybeGc;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const rounds = Number(arg('rounds') ?? 7);
const warmup = Number(arg('warmup') ?? 2);
const write = process.argv.includes('--write');

// ------------------------------------------------------------------ hashers

async function chooseHashers(): Promise<string> {
  try {
    setHasher('hashtree');
    const mod = await import('@chainsafe/persistent-merkle-tree/hasher/hashtree');
    pmt.setHasher(mod.hasher);
    return 'hashtree (both)';
  } catch {
    setHasher('wasm');
    const mod = await import('@chainsafe/persistent-merkle-tree/hasher/as-sha256');
    pmt.setHasher(mod.hasher);
    return `ssztree ${getHasher()}, pmt as-sha256`;
  }
}

// ------------------------------------------------------------------- inputs

let seed = 0x9e3779b9;
function random32(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
}
function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 4) {
    const r = random32();
    out[i] = r;
    out[i + 1] = r >>> 8;
    out[i + 2] = r >>> 16;
    out[i + 3] = r >>> 24;
  }
  return out;
}
function randomIndices(k: number): number[] {
  const set = new Set<number>();
  while (set.size < k) set.add(random32() % N);
  return [...set].sort((a, b) => a - b);
}
const ALL = Array.from({ length: N }, (_, i) => i);

interface WriteInput {
  indices: number[];
  chunks: Uint8Array;
}
const newWrites = (k: number): WriteInput => ({ indices: k === N ? ALL : randomIndices(k), chunks: randomBytes(32 * k) });

// --------------------------------------------------------- the two libraries

const store = new NodeStore();
const baseChunks = randomBytes(32 * N);
let oursBase: Tree;
let pmtBase: pmt.Node;

/** Ours through the API made for packed writes: leaves come from the chunk bytes. */
function oursWrite(w: WriteInput): number {
  const t0 = performance.now();
  const tree = oursBase.clone();
  tree.setChunksAtDepth(DEPTH, w.indices, w.chunks);
  tree.root;
  const ms = performance.now() - t0;
  tree.dispose();
  return ms;
}

/** Ours with one leaf node per write, like the peer's API. */
function oursWriteNodes(w: WriteInput): number {
  const t0 = performance.now();
  const tree = oursBase.clone();
  const nodes = new Array<number>(w.indices.length);
  for (let i = 0; i < nodes.length; i++) nodes[i] = store.leaf(w.chunks, 32 * i);
  tree.setNodesAtDepth(DEPTH, w.indices, nodes);
  tree.root;
  const ms = performance.now() - t0;
  tree.dispose();
  return ms;
}

function pmtLeaves(w: WriteInput): pmt.Node[] {
  const nodes = new Array<pmt.Node>(w.indices.length);
  for (let i = 0; i < nodes.length; i++) nodes[i] = pmt.LeafNode.fromRoot(w.chunks.subarray(32 * i, 32 * i + 32));
  return nodes;
}

function pmtWriteBatched(w: WriteInput): number {
  const t0 = performance.now();
  const hcByLevel: pmt.HashComputationLevel[] = [];
  const root = pmt.setNodesAtDepth(pmtBase, DEPTH, w.indices, pmtLeaves(w), 0, hcByLevel);
  pmt.executeHashComputations(hcByLevel);
  root.root;
  return performance.now() - t0;
}

function pmtWriteLazy(w: WriteInput): number {
  const t0 = performance.now();
  const root = pmt.setNodesAtDepth(pmtBase, DEPTH, w.indices, pmtLeaves(w));
  root.root;
  return performance.now() - t0;
}

function repeatA(fn: (w: WriteInput) => number, inputs: WriteInput[]): number {
  let total = 0;
  for (const w of inputs) total += fn(w);
  return total / inputs.length;
}

function oursBuild(chunks: Uint8Array): number {
  const t0 = performance.now();
  const tree = Tree.fromChunks(chunks, DEPTH, store);
  tree.root;
  const ms = performance.now() - t0;
  tree.dispose();
  return ms;
}

function merkleizeRun(chunks: Uint8Array): number {
  const t0 = performance.now();
  merkleize(chunks, N);
  return performance.now() - t0;
}

function pmtBuildLazy(chunks: Uint8Array): number {
  const t0 = performance.now();
  const node = pmt.packedRootsBytesToNode(DEPTH, new DataView(chunks.buffer, chunks.byteOffset, chunks.byteLength), 0, chunks.length);
  node.root;
  return performance.now() - t0;
}

function pmtBuildBatched(chunks: Uint8Array): number {
  const t0 = performance.now();
  const leaves = pmt.packedRootsBytesToLeafNodes(new DataView(chunks.buffer, chunks.byteOffset, chunks.byteLength), 0, chunks.length);
  const hcByLevel: pmt.HashComputationLevel[] = [];
  const node = pmt.subtreeFillToContents(leaves, DEPTH, 0, hcByLevel);
  pmt.executeHashComputations(hcByLevel);
  node.root;
  return performance.now() - t0;
}

// ------------------------------------------------------------------- memory

function memNow(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Nodes a write of `indices` creates: the leaves plus every distinct ancestor. */
function unsharedNodes(indices: number[]): number {
  let count = indices.length;
  let level = indices;
  for (let d = 0; d < DEPTH; d++) {
    const up = [...new Set(level.map((i) => Math.floor(i / 2)))];
    count += up.length;
    level = up;
  }
  return count;
}

interface MemoryResult {
  perNode: number;
  perUnshared: number;
  nodes: number;
  unshared: number;
}

function memoryOurs(versions: WriteInput[]): MemoryResult {
  const s = new NodeStore();
  const m0 = memNow();
  const base = Tree.fromChunks(baseChunks, DEPTH, s);
  base.root;
  s.collect();
  const m1 = memNow();
  const nodes = s.stats().nodes;
  const kept: Tree[] = [];
  let prev = base;
  for (const w of versions) {
    const next = prev.clone();
    const leaves = w.indices.map((_, i) => s.leaf(w.chunks, 32 * i));
    next.setNodesAtDepth(DEPTH, w.indices, leaves);
    next.root;
    kept.push(next);
    prev = next;
  }
  s.collect();
  const m2 = memNow();
  const unshared = s.stats().nodes - nodes;
  const result = { perNode: (m1 - m0) / nodes, perUnshared: (m2 - m1) / unshared, nodes, unshared };
  for (const t of kept) t.dispose();
  base.dispose();
  return result;
}

function memoryPmt(versions: WriteInput[]): MemoryResult {
  const m0 = memNow();
  const dv = new DataView(baseChunks.buffer, baseChunks.byteOffset, baseChunks.byteLength);
  const leaves = pmt.packedRootsBytesToLeafNodes(dv, 0, baseChunks.length);
  const hc: pmt.HashComputationLevel[] = [];
  let root = pmt.subtreeFillToContents(leaves, DEPTH, 0, hc);
  pmt.executeHashComputations(hc);
  root.root;
  leaves.length = 0;
  const m1 = memNow();
  const nodes = 2 * N - 1;
  const kept: pmt.Node[] = [];
  let unshared = 0;
  for (const w of versions) {
    const hcv: pmt.HashComputationLevel[] = [];
    root = pmt.setNodesAtDepth(root, DEPTH, w.indices, pmtLeaves(w), 0, hcv);
    pmt.executeHashComputations(hcv);
    root.root;
    kept.push(root);
    unshared += unsharedNodes(w.indices);
  }
  const m2 = memNow();
  const result = { perNode: (m1 - m0) / nodes, perUnshared: (m2 - m1) / unshared, nodes, unshared };
  kept.length = 0;
  return result;
}

// -------------------------------------------------------------------- main

type Row = { name: string; run: () => number };

async function main(): Promise<void> {
  const hasherLine = await chooseHashers();
  const machine = `${cpus().length}-core ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
  process.stdout.write(`${machine}; hasher: ${hasherLine}\n`);

  // (d) first, in a quiet heap.
  const versionInputs = Array.from({ length: 100 }, () => newWrites(K));
  const memOurs = memoryOurs(versionInputs);
  const memPmt = memoryPmt(versionInputs);
  process.stdout.write(`memory: ours ${fmt(memOurs.perNode)} B/node, pmt ${fmt(memPmt.perNode)} B/node\n`);

  oursBase = Tree.fromChunks(baseChunks, DEPTH, store);
  oursBase.root;
  {
    const hc: pmt.HashComputationLevel[] = [];
    pmtBase = pmt.packedRootsBytesToNode(DEPTH, new DataView(baseChunks.buffer), 0, baseChunks.length);
    pmtBase.root;
    void hc;
  }

  const workloads: { key: string; title: string; rows: (inputs: { a: WriteInput[]; b: WriteInput; c: Uint8Array }) => Row[] }[] = [
    {
      key: 'a',
      title: '(a) write 1024 random leaves, then root (per version)',
      rows: ({ a }) => [
        { name: 'ssztree', run: () => repeatA(oursWrite, a) },
        { name: 'ssztree nodes', run: () => repeatA(oursWriteNodes, a) },
        { name: 'pmt batched', run: () => repeatA(pmtWriteBatched, a) },
        { name: 'pmt lazy', run: () => repeatA(pmtWriteLazy, a) },
      ],
    },
    {
      key: 'b',
      title: '(b) write all 2^20 leaves, then root',
      rows: ({ b }) => [
        { name: 'ssztree', run: () => oursWrite(b) },
        { name: 'ssztree nodes', run: () => oursWriteNodes(b) },
        { name: 'pmt batched', run: () => pmtWriteBatched(b) },
        { name: 'pmt lazy', run: () => pmtWriteLazy(b) },
      ],
    },
    {
      key: 'c',
      title: '(c) build from 2^20 packed chunks, then root',
      rows: ({ c }) => [
        { name: 'ssztree', run: () => oursBuild(c) },
        { name: 'merkleize', run: () => merkleizeRun(c) },
        { name: 'pmt batched', run: () => pmtBuildBatched(c) },
        { name: 'pmt lazy', run: () => pmtBuildLazy(c) },
      ],
    },
  ];

  const samples = new Map<string, number[]>();
  const total = warmup + rounds;
  for (let round = 0; round < total; round++) {
    process.stdout.write(`round ${round + 1}/${total}${round < warmup ? ' (warm-up)' : ''}\n`);
    const inputs = { a: Array.from({ length: A_REPEAT }, () => newWrites(K)), b: newWrites(N), c: randomBytes(32 * N) };
    for (const w of workloads) {
      const rows = w.rows(inputs);
      for (let i = 0; i < rows.length; i++) {
        const row = rows[(i + round) % rows.length]!;
        gc();
        const ms = row.run();
        store.collect();
        if (round >= warmup) {
          const key = `${w.key}|${row.name}`;
          samples.set(key, [...(samples.get(key) ?? []), ms]);
        }
      }
    }
  }

  const lines: string[] = [];
  lines.push(`Machine: ${machine}. Hasher: ${hasherLine}. Command: \`npx tsx --conditions=source --expose-gc bench/core.ts --rounds ${rounds} --write\` (\`npm run bench:core\`).`);
  lines.push('');
  lines.push(`${rounds} rounds after ${warmup} warm-up rounds; rows interleaved with a rotating order and a gc before each run; ms, median (min–max). Ratios are paired round by round (median, min–max): the peer's time divided by ours (higher is better for us), against each of pmt's modes. "ssztree" writes the chunks with \`setChunksAtDepth\` (leaves made from the bytes, only where they change); "ssztree nodes" makes one leaf node per write and calls \`setNodesAtDepth\`, like pmt's \`LeafNode.fromRoot\` + \`setNodesAtDepth\`. Timed: new leaves, the write, the root; not timed: dropping the version (ours: \`dispose()\`, which frees the unshared nodes; pmt: left to the GC, which runs before the next row).`);
  lines.push('');
  lines.push('| workload | row | ms | vs pmt batched | vs pmt lazy |');
  lines.push('| --- | --- | --- | --- | --- |');
  for (const w of workloads) {
    for (const name of w.rows({ a: [], b: newWrites(1), c: new Uint8Array(32) }).map((r) => r.name)) {
      const s = summarize(samples.get(`${w.key}|${name}`)!);
      let vsB = '';
      let vsL = '';
      if (name.startsWith('ssztree')) {
        const r1 = pairedRatio(samples.get(`${w.key}|pmt batched`)!, samples.get(`${w.key}|${name}`)!);
        const r2 = pairedRatio(samples.get(`${w.key}|pmt lazy`)!, samples.get(`${w.key}|${name}`)!);
        vsB = `${fmt(r1.median, 2)}× (${fmt(r1.min, 2)}–${fmt(r1.max, 2)})`;
        vsL = `${fmt(r2.median, 2)}× (${fmt(r2.min, 2)}–${fmt(r2.max, 2)})`;
      }
      lines.push(`| ${w.title} | ${name} | ${fmt(s.median, 2)} (${fmt(s.min, 2)}–${fmt(s.max, 2)}) | ${vsB} | ${vsL} |`);
    }
  }
  const cRatio = pairedRatio(samples.get('c|ssztree')!, samples.get('c|merkleize')!);
  lines.push('');
  lines.push(`(c) against \`merkleize\` of the same chunks: ssztree / merkleize = ${fmt(cRatio.median, 2)} (${fmt(cRatio.min, 2)}–${fmt(cRatio.max, 2)}).`);
  lines.push('');
  lines.push('(d) memory (heap used + array buffers after gc, divided by the stored nodes):');
  lines.push('');
  lines.push('| library | bytes per node, 2^20-leaf tree | nodes | bytes per unshared node, 100 versions × 1024 random leaves | unshared nodes |');
  lines.push('| --- | --- | --- | --- | --- |');
  lines.push(`| ssztree | ${fmt(memOurs.perNode)} | ${memOurs.nodes} | ${fmt(memOurs.perUnshared)} | ${memOurs.unshared} |`);
  lines.push(`| pmt | ${fmt(memPmt.perNode)} | ${memPmt.nodes} | ${fmt(memPmt.perUnshared)} | ${memPmt.unshared} |`);
  const report = lines.join('\n');
  process.stdout.write(`\n${report}\n`);
  if (write) writeSection('Core', report);
}

await main();
