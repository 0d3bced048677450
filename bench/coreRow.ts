/**
 * One row of the core benchmark, run in its own process by `core.ts`:
 * argv[2] names the row ('ssztree', 'ssztree nodes', 'merkleize',
 * 'pmt batched', 'pmt lazy'), or 'mem:ssztree' / 'mem:pmt' to print the
 * memory measurement (d) as JSON and exit. Every row derives the same inputs
 * from the same seeds, in the same order, so paired rounds see equal inputs.
 */
import * as pmt from '@chainsafe/persistent-merkle-tree';
import { merkleize, setHasher } from '@ssztree/hasher';
import { NodeStore, Tree } from '@ssztree/core';
import { serveRow } from './lib/rowProcess.js';

export const DEPTH = 20;
const N = 2 ** DEPTH;
const K = 1024;
/** Versions per (a) sample: one version is a few milliseconds. */
export const A_REPEAT = 16;

const maybeGc = (globalThis as { gc?: () => void }).gc;
if (maybeGc === undefined) throw new Error('run with --expose-gc');
const gc: () => void = maybeGc;

// ------------------------------------------------------------------- inputs

function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
}
function randomBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  const words = new Uint32Array(out.buffer);
  const next = xorshift(seed);
  for (let i = 0; i < words.length; i++) words[i] = next();
  return out;
}
interface WriteInput {
  indices: number[];
  chunks: Uint8Array;
}
const ALL = Array.from({ length: N }, (_, i) => i);
function writes(k: number, seed: number): WriteInput {
  if (k === N) return { indices: ALL, chunks: randomBytes(32 * N, seed) };
  const next = xorshift(seed);
  const set = new Set<number>();
  while (set.size < k) set.add(next() % N);
  return { indices: [...set].sort((a, b) => a - b), chunks: randomBytes(32 * k, seed ^ 0x5bd1e995) };
}
const BASE = randomBytes(32 * N, 0xc0ffee);
const seedFor = (workload: string, round: number, i = 0): number => (workload.charCodeAt(0) * 1_000_003 + round * 7919 + i * 104_729) >>> 0;

// ---------------------------------------------------------------- hashers

async function useHashtree(): Promise<string> {
  try {
    setHasher('hashtree');
    const mod = await import('@chainsafe/persistent-merkle-tree/hasher/hashtree');
    pmt.setHasher(mod.hasher);
    return 'hashtree';
  } catch {
    setHasher('wasm');
    const mod = await import('@chainsafe/persistent-merkle-tree/hasher/as-sha256');
    pmt.setHasher(mod.hasher);
    return 'ssztree wasm, pmt as-sha256';
  }
}

// -------------------------------------------------------------------- rows

type Op = { prepare: () => void; run: () => void };

function oursRow(nodes: boolean): Record<string, Op> {
  const store = new NodeStore();
  const base = Tree.fromChunks(BASE, DEPTH, store);
  base.root;
  let live: Tree[] = [];
  const rounds = { a: 0, b: 0, c: 0 };
  let inputs: WriteInput[] = [];
  let chunks: Uint8Array = new Uint8Array(0);
  const drop = (): void => {
    for (const t of live) t.dispose();
    live = [];
    store.collect();
    gc();
  };
  const write = (w: WriteInput): void => {
    const tree = base.clone();
    if (nodes) {
      const leaves = new Array<number>(w.indices.length);
      for (let i = 0; i < leaves.length; i++) leaves[i] = store.leaf(w.chunks, 32 * i);
      tree.setNodesAtDepth(DEPTH, w.indices, leaves);
    } else {
      tree.setChunksAtDepth(DEPTH, w.indices, w.chunks);
    }
    tree.root;
    live.push(tree);
  };
  return {
    a: {
      prepare: () => {
        drop();
        const r = rounds.a++;
        inputs = Array.from({ length: A_REPEAT }, (_, i) => writes(K, seedFor('a', r, i)));
      },
      run: () => {
        for (const w of inputs) write(w);
      },
    },
    b: {
      prepare: () => {
        drop();
        inputs = [writes(N, seedFor('b', rounds.b++))];
      },
      run: () => write(inputs[0]!),
    },
    c: {
      prepare: () => {
        drop();
        chunks = randomBytes(32 * N, seedFor('c', rounds.c++));
      },
      run: () => {
        const tree = Tree.fromChunks(chunks, DEPTH, store);
        tree.root;
        live.push(tree);
      },
    },
  };
}

function merkleizeRow(): Record<string, Op> {
  let rounds = 0;
  let chunks: Uint8Array = new Uint8Array(0);
  return {
    c: {
      prepare: () => {
        chunks = randomBytes(32 * N, seedFor('c', rounds++));
        gc();
      },
      run: () => void merkleize(chunks, N),
    },
  };
}

function pmtRow(batched: boolean): Record<string, Op> {
  const base = pmt.packedRootsBytesToNode(DEPTH, new DataView(BASE.buffer), 0, BASE.length);
  base.root;
  let kept: pmt.Node[] = [];
  const rounds = { a: 0, b: 0, c: 0 };
  let inputs: WriteInput[] = [];
  let chunks: Uint8Array = new Uint8Array(0);
  const write = (w: WriteInput): void => {
    const leaves = new Array<pmt.Node>(w.indices.length);
    for (let i = 0; i < leaves.length; i++) leaves[i] = pmt.LeafNode.fromRoot(w.chunks.subarray(32 * i, 32 * i + 32));
    if (batched) {
      const hc: pmt.HashComputationLevel[] = [];
      const root = pmt.setNodesAtDepth(base, DEPTH, w.indices, leaves, 0, hc);
      pmt.executeHashComputations(hc);
      root.root;
      kept.push(root);
    } else {
      const root = pmt.setNodesAtDepth(base, DEPTH, w.indices, leaves);
      root.root;
      kept.push(root);
    }
  };
  const drop = (): void => {
    kept = [];
    gc();
  };
  return {
    a: {
      prepare: () => {
        drop();
        const r = rounds.a++;
        inputs = Array.from({ length: A_REPEAT }, (_, i) => writes(K, seedFor('a', r, i)));
      },
      run: () => {
        for (const w of inputs) write(w);
      },
    },
    b: {
      prepare: () => {
        drop();
        inputs = [writes(N, seedFor('b', rounds.b++))];
      },
      run: () => write(inputs[0]!),
    },
    c: {
      prepare: () => {
        drop();
        chunks = randomBytes(32 * N, seedFor('c', rounds.c++));
      },
      run: () => {
        const dv = new DataView(chunks.buffer, chunks.byteOffset, chunks.byteLength);
        if (batched) {
          const leaves = pmt.packedRootsBytesToLeafNodes(dv, 0, chunks.length);
          const hc: pmt.HashComputationLevel[] = [];
          const node = pmt.subtreeFillToContents(leaves, DEPTH, 0, hc);
          pmt.executeHashComputations(hc);
          node.root;
          kept.push(node);
        } else {
          const node = pmt.packedRootsBytesToNode(DEPTH, dv, 0, chunks.length);
          node.root;
          kept.push(node);
        }
      },
    },
  };
}

// ------------------------------------------------------------------ memory

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
    level = [...new Set(level.map((i) => Math.floor(i / 2)))];
    count += level.length;
  }
  return count;
}

export interface MemoryResult {
  perNode: number;
  perUnshared: number;
  nodes: number;
  unshared: number;
}

function memoryOurs(): MemoryResult {
  const m0 = memNow();
  const store = new NodeStore();
  const base = Tree.fromChunks(BASE, DEPTH, store);
  base.root;
  const m1 = memNow();
  const nodes = store.stats().nodes;
  const kept: Tree[] = [];
  let prev = base;
  for (let v = 0; v < 100; v++) {
    const w = writes(K, seedFor('d', v));
    const next = prev.clone();
    next.setChunksAtDepth(DEPTH, w.indices, w.chunks);
    next.root;
    kept.push(next);
    prev = next;
  }
  store.collect();
  const m2 = memNow();
  const unshared = store.stats().nodes - nodes;
  return { perNode: (m1 - m0) / nodes, perUnshared: (m2 - m1) / unshared, nodes, unshared };
}

function memoryPmt(): MemoryResult {
  const m0 = memNow();
  const leaves = pmt.packedRootsBytesToLeafNodes(new DataView(BASE.buffer), 0, BASE.length);
  const hc: pmt.HashComputationLevel[] = [];
  let root = pmt.subtreeFillToContents(leaves, DEPTH, 0, hc);
  pmt.executeHashComputations(hc);
  root.root;
  leaves.length = 0;
  const m1 = memNow();
  const nodes = 2 * N - 1;
  const kept: pmt.Node[] = [root];
  let unshared = 0;
  for (let v = 0; v < 100; v++) {
    const w = writes(K, seedFor('d', v));
    const hcv: pmt.HashComputationLevel[] = [];
    const fresh = w.indices.map((_, i) => pmt.LeafNode.fromRoot(w.chunks.subarray(32 * i, 32 * i + 32)));
    root = pmt.setNodesAtDepth(root, DEPTH, w.indices, fresh, 0, hcv);
    pmt.executeHashComputations(hcv);
    root.root;
    kept.push(root);
    unshared += unsharedNodes(w.indices);
  }
  const m2 = memNow();
  return { perNode: (m1 - m0) / nodes, perUnshared: (m2 - m1) / unshared, nodes, unshared };
}

// -------------------------------------------------------------------- main

async function main(): Promise<void> {
  const row = process.argv[2] ?? '';
  const hasher = await useHashtree();
  if (row.startsWith('mem:')) {
    const result = row === 'mem:ssztree' ? memoryOurs() : memoryPmt();
    process.stdout.write(`${JSON.stringify({ hasher, ...result })}\n`);
    return;
  }
  const operations: Record<string, Op> =
    row === 'ssztree' ? oursRow(false) : row === 'ssztree nodes' ? oursRow(true) : row === 'merkleize' ? merkleizeRow() : pmtRow(row === 'pmt batched');
  serveRow(operations);
}

await main();
