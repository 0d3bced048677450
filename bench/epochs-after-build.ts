/**
 * The epochs right after a state build, ours only, one process: four times
 * (dispose the last state, build bench/views.ts's 2^20-validator state from
 * bytes, eight blocks, three epochs), printing each epoch's commit + root
 * and, after them, the eight blocks' (the first after a build is where the
 * build's leftovers show).
 * bench/views.ts's E2 row is made of exactly these epochs, and the first
 * ones after a build are where it is slow (deoptimised code, cold paths);
 * `bench/profile-views.ts` shows steady epochs instead.
 *
 *   node --conditions=source --import tsx bench/epochs-after-build.ts [--threads 0]
 *
 * Every build, write loop and commit is followed by a task turn, as the
 * bench's rows are separate tasks (the store frees released versions in
 * such turns, store.settle); the last state is disposed untimed, as the
 * bench does.
 *
 * With MARK=1 it prints a line before and after each commit, to bracket
 * `--trace-deopt` / `--trace-gc` output. For an A/B, run it alternately
 * from two worktrees.
 */
import { configureThreads } from '@ssztree/hasher';
import { container, list, uint64 } from '@ssztree/types';
import { writeBlock, writeEpoch } from './lib/stateWorkload.js';
import { makeValidators, prng, Validator } from './lib/validator.js';

const at = process.argv.indexOf('--threads');
configureThreads(at >= 0 ? Number(process.argv[at + 1]) : 0);
const mark = process.env['MARK'] === '1';
const NS = 2 ** 20;
const State = container({ validators: list(Validator, 2 ** 40), balances: list(uint64, 2 ** 40) }, 'State');
const balances = new BigUint64Array(NS);
for (let k = 0; k < NS; k++) balances[k] = 32_000_000_000n + BigInt(k % 1000);
const bytes = State.serialize({ validators: makeValidators(NS, 0xaa), balances });

type StateView = ReturnType<typeof State.deserializeToView>;
let state: StateView | null = null;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
let round = 0;
for (let build = 0; build < 4; build++) {
  state?.dispose();
  await turn();
  if (mark) console.log(`### build ${build}`);
  const s = State.deserializeToView(bytes);
  state = s;
  s.hashTreeRoot();
  await turn();
  const blockTimes: string[] = [];
  for (let b = 0; b < 8; b++) {
    writeBlock(s, NS, prng(1000 + ++round));
    await turn();
    const t = performance.now();
    s.hashTreeRoot();
    blockTimes.push((performance.now() - t).toFixed(1));
    await turn();
  }
  const times: string[] = [];
  for (let e = 0; e < 3; e++) {
    writeEpoch(s, NS, BigInt(++round + 1));
    await turn();
    if (mark) console.log(`### build ${build} epoch ${e}: commit`);
    const t = performance.now();
    s.hashTreeRoot();
    times.push((performance.now() - t).toFixed(1));
    if (mark) console.log(`### build ${build} epoch ${e}: done, ${times.at(-1)} ms`);
    await turn();
  }
  console.log(`build ${build}: epoch commit + root ${times.join(' / ')} ms; the blocks before them ${blockTimes.join(' ')} ms`);
}
