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

/** A block on a state of `count` validators, its indices and values drawn from `random` (a seeded `prng`). */
export function writeBlock(state: WorkloadState, count: number, random: () => number): void {
  const balances = state.balances;
  const validators = state.validators;
  for (let k = 0; k < 1024; k++) balances.set(Math.floor(random() * count), BigInt(Math.floor(random() * 2 ** 35)));
  for (let k = 0; k < 128; k++) {
    const v = validators.get(Math.floor(random() * count));
    v.effective_balance = BigInt(Math.floor(random() * 2 ** 35));
    v.slashed = true;
  }
}

/** An epoch on a state of `count` validators: balance i becomes 32 ETH (in Gwei) + `add` + (i mod 1024). */
export function writeEpoch(state: WorkloadState, count: number, add: bigint): void {
  const balances = state.balances;
  for (let i = 0; i < count; i++) balances.set(i, 32_000_000_000n + add + BigInt(i & 1023));
}
