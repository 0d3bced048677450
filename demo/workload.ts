/**
 * Simulated blocks and epoch transitions, as plans: every index and value a
 * block or an epoch writes, drawn from the seeded generator before anything
 * is timed. A plan is library-neutral, so `--compare` applies the very same
 * writes to both libraries, and the timed loop measures the writes, not the
 * random number generation.
 *
 * Sizes follow mainnet: a block writes its header, one block root, one state
 * root, the epoch's randao mix, ~1024 balances (rewards, penalties,
 * withdrawals), 128 validators' fields (effective balance, slashing, exit)
 * and the participation flags of one slot's committees (validators / 32,
 * random indices, flags OR-ed in as attestations are). An epoch rewrites
 * every balance and inactivity score, 1/64 of the effective balances,
 * rotates participation, and moves the randao mix and slashings cursors.
 */
import { Rng } from './rng.js';

export const SLOTS_PER_EPOCH = 32;
export const BALANCE_WRITES = 1024;
export const VALIDATOR_WRITES = 128;

/** What a validator write changes. */
export const ValidatorChange = { EffectiveBalance: 0, Slashed: 1, Exit: 2 } as const;

export interface BlockPlan {
  readonly slot: bigint;
  readonly epoch: number;
  readonly proposer: bigint;
  readonly parentRoot: Uint8Array;
  readonly bodyRoot: Uint8Array;
  readonly randaoMix: Uint8Array;
  readonly balanceIndex: Uint32Array;
  readonly balanceValue: BigUint64Array;
  readonly validatorIndex: Uint32Array;
  readonly validatorChange: Uint8Array;
  readonly validatorValue: BigUint64Array;
  readonly participationIndex: Uint32Array;
  readonly participationFlags: Uint8Array;
}

export interface EpochPlan {
  readonly epoch: number;
  readonly balances: BigUint64Array;
  readonly inactivityScores: BigUint64Array;
  readonly effectiveIndex: Uint32Array;
  readonly effectiveValue: BigUint64Array;
  readonly nextRandaoMix: Uint8Array;
}

const GWEI = 1_000_000_000n;

/** The seed of the plans' generator for the demo's --seed: demo/main.ts and demo/peerRow.ts draw the same plans from it. */
export const planSeed = (seed: number): number => seed ^ 0x5eed;

export function planBlock(rng: Rng, n: number, slot: number): BlockPlan {
  const balanceIndex = new Uint32Array(BALANCE_WRITES);
  const balanceValue = new BigUint64Array(BALANCE_WRITES);
  for (let k = 0; k < BALANCE_WRITES; k++) {
    balanceIndex[k] = rng.int(n);
    balanceValue[k] = 31n * GWEI + BigInt(rng.int(2_000_000_000));
  }
  const validatorIndex = new Uint32Array(VALIDATOR_WRITES);
  const validatorChange = new Uint8Array(VALIDATOR_WRITES);
  const validatorValue = new BigUint64Array(VALIDATOR_WRITES);
  const epoch = Math.floor(slot / SLOTS_PER_EPOCH);
  for (let k = 0; k < VALIDATOR_WRITES; k++) {
    validatorIndex[k] = rng.int(n);
    const roll = rng.int(16);
    const change = roll === 0 ? ValidatorChange.Slashed : roll === 1 ? ValidatorChange.Exit : ValidatorChange.EffectiveBalance;
    validatorChange[k] = change;
    validatorValue[k] = change === ValidatorChange.Exit ? BigInt(epoch + 5 + rng.int(256)) : BigInt(16 + rng.int(17)) * GWEI;
  }
  const committee = Math.max(1, Math.floor(n / SLOTS_PER_EPOCH));
  const participationIndex = new Uint32Array(committee);
  const participationFlags = new Uint8Array(committee);
  for (let k = 0; k < committee; k++) {
    participationIndex[k] = rng.int(n);
    participationFlags[k] = 1 + rng.int(7); // timely source / target / head, some subset
  }
  return {
    slot: BigInt(slot),
    epoch,
    proposer: BigInt(rng.int(n)),
    parentRoot: rng.bytes(32),
    bodyRoot: rng.bytes(32),
    randaoMix: rng.bytes(32),
    balanceIndex,
    balanceValue,
    validatorIndex,
    validatorChange,
    validatorValue,
    participationIndex,
    participationFlags,
  };
}

export function planEpoch(rng: Rng, n: number, epoch: number): EpochPlan {
  const balances = new BigUint64Array(n);
  const inactivityScores = new BigUint64Array(n);
  for (let i = 0; i < n; i++) {
    balances[i] = 31n * GWEI + BigInt(rng.int(2_000_000_000));
    inactivityScores[i] = rng.int(16) === 0 ? BigInt(rng.int(64)) : 0n;
  }
  const updates = Math.max(1, Math.floor(n / 64));
  const effectiveIndex = new Uint32Array(updates);
  const effectiveValue = new BigUint64Array(updates);
  for (let k = 0; k < updates; k++) {
    effectiveIndex[k] = rng.int(n);
    effectiveValue[k] = BigInt(16 + rng.int(17)) * GWEI;
  }
  return { epoch, balances, inactivityScores, effectiveIndex, effectiveValue, nextRandaoMix: rng.bytes(32) };
}
