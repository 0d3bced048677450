/**
 * The core half of an epoch commit, in isolation: a list of 2^20 uint64
 * (2^15 pages) whose contents are rebuilt from one contiguous 8 MiB source
 * each round (`fromPages`, as a packed view's bulk commit does) and swapped
 * in, the old contents freed. Reports per phase, median (min–max) of rounds
 * 3–N, in one process:
 *
 *   node --conditions=source --import tsx bench/epoch-core.ts [--rounds 20] [--threads 0]
 *
 * For an A/B of core changes, run it alternately from two worktrees.
 */
import { NodeStore, Tree } from '@ssztree/core';
import { configureThreads } from '@ssztree/hasher';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

configureThreads(arg('threads', 0));
const rounds = arg('rounds', 20);
const PAGES = 2 ** 15;
const store = new NodeStore();
const data = new Uint8Array(PAGES * 256);
const tree = new Tree(store.withLength(store.fromPages({ data }, PAGES, 3, 37), PAGES * 32), store);
const ids = new Int32Array(PAGES);
const build: number[] = [];
const swap: number[] = [];
for (let r = 0; r < rounds; r++) {
  const words = new Int32Array(data.buffer);
  for (let i = 0; i < words.length; i += 2) words[i] = r * 7 + i;
  const t0 = performance.now();
  const contents = store.fromPages({ data }, PAGES, 3, 37, ids);
  const t1 = performance.now();
  tree.rootNode = store.withLength(contents, PAGES * 32); // frees the old contents
  const t2 = performance.now();
  if (r >= 2) {
    build.push(t1 - t0);
    swap.push(t2 - t1);
  }
}
const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `${s[s.length >> 1]!.toFixed(2)} (${s[0]!.toFixed(2)}–${s[s.length - 1]!.toFixed(2)})`;
};
console.log(`threads ${arg('threads', 0)}: fromPages ${stat(build)} ms, swap+free ${stat(swap)} ms (median (min–max) of ${build.length})`);
tree.dispose();
