/**
 * A List[uint64] of 2^20 balances from bytes: `deserializeToView` (packed
 * pages built by core `fromPages`, hashed as built) and the first
 * `hashTreeRoot` after it, median of rounds 3–12 in one process.
 *
 *   node --conditions=source --import tsx bench/packed-build.ts
 *
 * For an A/B, run it alternately from two worktrees (see docs/VIEWS.md).
 */
import { defaultStore } from '@ssztree/core';
import { list, uint64 } from '@ssztree/types';

const Balances = list(uint64, 2 ** 40);
const n = 2 ** 20;
const values = new BigUint64Array(n);
for (let i = 0; i < n; i++) values[i] = 32_000_000_000n + BigInt(i % 1000);
const bytes = Balances.serialize(values);
const build: number[] = [];
const root: number[] = [];
for (let r = 0; r < 12; r++) {
  const t0 = performance.now();
  const view = Balances.deserializeToView(bytes);
  const t1 = performance.now();
  view.hashTreeRoot();
  const t2 = performance.now();
  if (r >= 2) {
    build.push(t1 - t0);
    root.push(t2 - t1);
  }
  view.dispose();
  defaultStore.collect();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(1);
console.log(`List[uint64] 2^20 from bytes: deserializeToView ${median(build)} ms, hashTreeRoot ${median(root)} ms (median of ${build.length})`);
