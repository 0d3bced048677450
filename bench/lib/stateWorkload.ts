/**
 * The benchmarks' block and epoch on a {validators, balances} state view,
 * written once so every row that measures them (bench/views.ts for both
 * libraries, profile-views, epochs-after-build, parallel) does the very same
 * writes: a block sets 1024 random balances and 128 random validators'
 * effective_balance and slashed; an epoch rewrites every balance.
 */

/** What the workloads touch: either library's state view has it. */
export interface WorkloadState {
  readonly balances: { set(index: number, value: bigint): void };
  readonly validators: { get(index: number): { effective_balance: bigint; slashed: boolean } };
}

/** Which half of a block to write (profiling one half alone); the same draws are made either way. */
export type BlockPart = 'both' | 'balances' | 'validators';

/** A block on a state of `count` validators, its indices and values drawn from `random` (a seeded `prng`). */
export function writeBlock(state: WorkloadState, count: number, random: () => number, part: BlockPart = 'both'): void {
  const balances = state.balances;
  const validators = state.validators;
  for (let k = 0; k < 1024; k++) {
    const index = Math.floor(random() * count);
    const value = BigInt(Math.floor(random() * 2 ** 35));
    if (part !== 'validators') balances.set(index, value);
  }
  for (let k = 0; k < 128; k++) {
    const index = Math.floor(random() * count);
    const value = BigInt(Math.floor(random() * 2 ** 35));
    if (part === 'balances') continue;
    const v = validators.get(index);
    v.effective_balance = value;
    v.slashed = true;
  }
}

/** An epoch on a state of `count` validators: balance i becomes 32 ETH (in Gwei) + `add` + (i mod 1024). */
export function writeEpoch(state: WorkloadState, count: number, add: bigint): void {
  const balances = state.balances;
  for (let i = 0; i < count; i++) balances.set(i, 32_000_000_000n + add + BigInt(i & 1023));
}
