/**
 * Applies block and epoch plans to a beacon state through a view. Written
 * once against the small structural interface both libraries' views offer
 * (typed properties on containers, get/set on sequences), so our views and
 * `@chainsafe/ssz` ViewDUs run the same code; the only difference, how a
 * whole list field is replaced, is passed in by the caller.
 */
import type { BlockPlan, EpochPlan } from './workload.js';
import { ValidatorChange } from './workload.js';

interface Seq<T> {
  get(i: number): T;
  set(i: number, value: T): void;
}
interface ValidatorFields {
  effective_balance: bigint;
  slashed: boolean;
  exit_epoch: bigint;
  withdrawable_epoch: bigint;
}
interface HeaderFields {
  slot: bigint;
  proposer_index: bigint;
  parent_root: Uint8Array;
  state_root: Uint8Array;
  body_root: Uint8Array;
}
interface CheckpointFields {
  epoch: bigint;
  root: Uint8Array;
}

/** The fields of a BeaconState view the simulation reads and writes. */
export interface StateLike {
  slot: bigint;
  latest_block_header: HeaderFields;
  block_roots: Seq<Uint8Array>;
  state_roots: Seq<Uint8Array>;
  randao_mixes: Seq<Uint8Array>;
  slashings: Seq<bigint>;
  balances: Seq<bigint>;
  inactivity_scores: Seq<bigint>;
  current_epoch_participation: Seq<number>;
  previous_epoch_participation: unknown;
  validators: { get(i: number): ValidatorFields };
  previous_justified_checkpoint: CheckpointFields;
  current_justified_checkpoint: CheckpointFields;
}

/** Library-specific: rotate participation (previous ← current, current ← all zero). */
export type RotateParticipation = (state: StateLike, validatorCount: number) => void;

const HISTORY = 8192;
const MIXES = 65536;
const ZERO_ROOT = new Uint8Array(32);

/**
 * One block: `previousStateRoot` is the root of the state before it (the
 * caller's last commit), recorded in state_roots and the previous header as
 * process_slots does.
 */
export function applyBlock(s: StateLike, plan: BlockPlan, previousStateRoot: Uint8Array): void {
  const previousSlot = Number(s.slot);
  const header = s.latest_block_header;
  s.state_roots.set(previousSlot % HISTORY, previousStateRoot);
  s.block_roots.set(previousSlot % HISTORY, plan.parentRoot);
  s.slot = plan.slot;
  header.slot = plan.slot;
  header.proposer_index = plan.proposer;
  header.parent_root = plan.parentRoot;
  header.state_root = ZERO_ROOT;
  header.body_root = plan.bodyRoot;
  s.randao_mixes.set(plan.epoch % MIXES, plan.randaoMix);

  const balances = s.balances;
  for (let k = 0; k < plan.balanceIndex.length; k++) balances.set(plan.balanceIndex[k]!, plan.balanceValue[k]!);

  const validators = s.validators;
  for (let k = 0; k < plan.validatorIndex.length; k++) {
    const v = validators.get(plan.validatorIndex[k]!);
    const value = plan.validatorValue[k]!;
    switch (plan.validatorChange[k]) {
      case ValidatorChange.Slashed:
        v.slashed = true;
        v.withdrawable_epoch = BigInt(plan.epoch + HISTORY);
        break;
      case ValidatorChange.Exit:
        v.exit_epoch = value;
        v.withdrawable_epoch = value + 256n;
        break;
      default:
        v.effective_balance = value;
    }
  }

  // Attestations: each attester's flags OR-ed into its current participation byte.
  const flags = s.current_epoch_participation;
  for (let k = 0; k < plan.participationIndex.length; k++) {
    const i = plan.participationIndex[k]!;
    flags.set(i, flags.get(i) | plan.participationFlags[k]!);
  }
}

/** One epoch transition (after the last block of `plan.epoch`). */
export function applyEpoch(s: StateLike, plan: EpochPlan, rotate: RotateParticipation): void {
  const n = plan.balances.length;
  const balances = s.balances;
  const scores = s.inactivity_scores;
  for (let i = 0; i < n; i++) {
    balances.set(i, plan.balances[i]!);
    scores.set(i, plan.inactivityScores[i]!);
  }
  const validators = s.validators;
  for (let k = 0; k < plan.effectiveIndex.length; k++) validators.get(plan.effectiveIndex[k]!).effective_balance = plan.effectiveValue[k]!;
  rotate(s, n);
  // Justification moves one epoch on; the next epoch's randao mix starts as this one's; its slashings slot is cleared.
  const justified = s.current_justified_checkpoint;
  s.previous_justified_checkpoint.epoch = justified.epoch;
  s.previous_justified_checkpoint.root = justified.root;
  justified.epoch = BigInt(plan.epoch);
  justified.root = plan.nextRandaoMix;
  s.randao_mixes.set((plan.epoch + 1) % MIXES, plan.nextRandaoMix);
  s.slashings.set((plan.epoch + 1) % HISTORY, 0n);
}
