/**
 * What a flushed branch costs with the tree in cache and out of it: a tree
 * of 2^depth chunks, then rounds of 1024 random chunk writes (one sorted
 * `setChunksAtDepth`) and a flush; ns per pending branch of the flush
 * (hashing included), p50 and best over the rounds after 20 warm-up ones.
 * Ours only, one process; for the realistic block's notes in
 * docs/BENCHMARKS.md ("Realistic block and epoch: what the figures say").
 *
 * Usage: node --conditions=source --import tsx bench/flush-branches.ts [--depth 16] [--writes 1024] [--rounds 200]
 */
import { NodeStore } from '@ssztree/core';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const depth = arg('depth', 16);
const writes = arg('writes', 1024);
const rounds = arg('rounds', 200);
const n = 2 ** depth;
const store = new NodeStore();
const chunks = new Uint8Array(32 * n);
for (let i = 0; i < chunks.length; i++) chunks[i] = (i * 131) & 255;
let root = store.setChunksAtDepth(store.zero(depth), depth, Array.from({ length: n }, (_, i) => i), chunks);
store.retain(root);
const out = new Uint8Array(32);
store.hashInto(root, out);
let seed = 1;
const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
const perBranch: number[] = [];
for (let r = 0; r < rounds + 20; r++) {
  const indices = [...new Set(Array.from({ length: writes }, random))].sort((a, b) => a - b);
  const data = new Uint8Array(32 * indices.length);
  for (let i = 0; i < data.length; i++) data[i] = (i + r) & 255;
  const next = store.setChunksAtDepth(root, depth, indices, data);
  store.retain(next);
  const pending = store.stats().pending;
  const t = performance.now();
  store.hashInto(next, out);
  if (r >= 20) perBranch.push(((performance.now() - t) * 1e6) / pending);
  store.release(root);
  root = next;
}
perBranch.sort((a, b) => a - b);
console.log(`2^${depth} chunks, ${writes} random writes a round: flush ${perBranch[perBranch.length >> 1]!.toFixed(0)} ns a branch p50, ${perBranch[0]!.toFixed(0)} best (${rounds} rounds)`);
