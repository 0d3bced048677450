/**
 * What a block's copied slab commit costs, with the tree in cache and out
 * of it: a list-like tree of 2^pages wide-leaf pages (8 chunks) at level
 * `level`, then rounds of `writes` random page writes on a clone of the
 * head (one sorted `setWidesAtDepth`: the fused copy of
 * core write/copiedWides.ts) and a flush, the old head disposed after, as a
 * client's state cache does. Prints the CPU ms of the commit + flush, p50
 * and best, over the rounds after 20 warm-up ones.
 *
 * `--evict MiB` reads and writes a buffer that size before each commit (the
 * rest of a block's work leaves little of the tree in cache); `--ballast L`
 * adds a tree of 2^L leaves to the store and `--churn W` rewrites W random
 * leaves of it each round, so the store is large and its free slots are
 * scattered, as on a 2^20-validator state. `--ballast 21 --churn 4096
 * --evict 64` gives about the pass-by-pass split of the realistic block's
 * balances commit (bench/profile-realistic.ts --phases).
 *
 * Usage: node --conditions=source --import tsx bench/copied-wides.ts [--pages 15] [--level 35] [--writes 1024] [--rounds 200] [--evict 0] [--ballast 0] [--churn 0]
 */
import { NodeStore, Tree } from '@ssztree/core';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const logPages = arg('pages', 15);
const level = arg('level', 35);
const writes = arg('writes', 1024);
const rounds = arg('rounds', 200);
const evictMiB = arg('evict', 0);
const ballastLog = arg('ballast', 0);
const churn = arg('churn', 0);
const inner = 3;
const pageBytes = 32 << inner;
const pages = 2 ** logPages;
const store = new NodeStore();
const data = new Uint8Array(pages * pageBytes);
for (let i = 0; i < data.length; i++) data[i] = (i * 131) & 255;
let head = new Tree(store.fromPages({ data }, pages, inner, level), store);
head.root;
let ballast: Tree | null = null;
if (ballastLog > 0) {
  const chunks = new Uint8Array(32 << ballastLog);
  for (let i = 0; i < chunks.length; i += 7) chunks[i] = i & 255;
  ballast = new Tree(store.fromChunks(chunks, ballastLog), store);
  ballast.root;
}
const evict = new Int32Array((evictMiB << 20) >>> 2);
/** xorshift32: the low bits of an LCG repeat with a short period, which made the pages' positions far from random. */
function rng(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
}
const random = rng(1);
const ballastRandom = rng(99);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const times: number[] = [];
const slab = new Uint8Array(writes * pageBytes);
let sink = 0;
for (let r = 0; r < rounds + 20; r++) {
  const indices = [...new Set(Array.from({ length: writes }, () => random() % pages))].sort((a, b) => a - b);
  for (let i = 0; i < indices.length * pageBytes; i++) slab[i] = (i + r) & 255;
  const offsets = indices.map((_, k) => k * pageBytes);
  if (ballast !== null && churn > 0) {
    const at = [...new Set(Array.from({ length: churn }, () => ballastRandom() % 2 ** ballastLog))].sort((a, b) => a - b);
    const next = ballast.clone();
    next.setChunksAtDepth(ballastLog, at, new Uint8Array(32 * at.length).fill(r & 255));
    next.root;
    ballast.dispose();
    ballast = next;
  }
  const next = head.clone();
  for (let i = 0; i < evict.length; i += 16) sink += evict[i]++;
  const t = cpu();
  next.setWidesAtDepth(level, indices, inner, slab, offsets, []);
  store.flush();
  if (r >= 20) times.push(cpu() - t);
  head.dispose();
  head = next;
}
times.sort((a, b) => a - b);
console.log(
  `2^${logPages} pages at level ${level}, ${writes} writes, evict ${evictMiB} MiB, ballast ${ballastLog > 0 ? `2^${ballastLog}, churn ${churn}` : 'none'}: commit + flush CPU ${times[times.length >> 1]!.toFixed(2)} ms p50, ${times[0]!.toFixed(2)} best (${rounds} rounds)${sink === 0.5 ? '' : ''}`,
);
