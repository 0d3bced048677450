/**
 * Validator element views of a mainnet-sized BeaconState (the file
 * bench/profile-realistic.ts writes, fulu, 2^20 validators): per round, on a
 * clone of the head, `state.validators.get(i).effective_balance = x` for
 * 128 random i (a block) and for 16384 random i (an epoch's 1/64), each
 * timed as writes and as the validators' commit + store flush, in CPU ms
 * (process.cpuUsage: the machine is shared). The clone becomes the head, as
 * between a client's blocks.
 *
 *   node --conditions=source --import tsx --expose-gc bench/validator-writes.ts [--rounds 20] [--fork fulu]
 */
import { Rng } from '../demo/rng.js';
import { type DemoFork } from '../demo/state.js';
import { cpuMs, loadCachedState, PhaseSamples, turn, type StateView } from './lib/cachedState.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const FORK = (arg('fork') ?? 'fulu') as DemoFork;
const N = 2 ** 20;
const ROUNDS = Number(arg('rounds') ?? 20);
let head: StateView = loadCachedState(FORK, N);
const rng = new Rng(42);
const samples = new PhaseSamples();
const rows = samples.rows;
const note = (name: string, ms: number) => samples.note(name, ms);
for (let r = 0; r < ROUNDS; r++) {
  for (const count of [128, 128, 128, 16384]) {
    const s = head.clone();
    const validators = s.validators;
    const index = new Uint32Array(count);
    const value = new BigUint64Array(count);
    for (let k = 0; k < count; k++) {
      index[k] = rng.int(N);
      value[k] = 32_000_000_000n + BigInt(rng.int(1000)) * 1_000_000_000n;
    }
    let t = cpuMs();
    for (let k = 0; k < count; k++) validators.get(index[k]!).effective_balance = value[k]!;
    note(`writes: ${count} validators`, cpuMs() - t);
    t = cpuMs();
    validators._commitNow();
    s._tree.store.flush();
    note(`commit: ${count} validators (commit, flush)`, cpuMs() - t);
    s.hashTreeRoot();
    head.dispose();
    head = s;
    await turn();
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log(`CPU ms, median (min–max) of the rounds after the first ${ROUNDS > 4 ? 2 : 0}:`);
for (const [name, xs] of rows) {
  const steady = xs.length > 8 ? xs.slice(xs.length / ROUNDS * 2) : xs;
  console.log(`  ${name}: ${med(steady).toFixed(3)} (${Math.min(...steady).toFixed(3)}–${Math.max(...steady).toFixed(3)})`);
}
