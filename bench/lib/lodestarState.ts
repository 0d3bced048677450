/**
 * The demo's block and epoch (demo/workload.ts plans) applied to a Lodestar
 * BeaconState ViewDU (@lodestar/types, camelCase fields, numbers where
 * Lodestar's schemas use UintNum64), as Lodestar's state transition writes
 * them: the same indices and values as demo/apply.ts writes to ours, so
 * both sides' roots agree after every step. Plans are converted to numbers
 * before a step is timed (`lodestarBlock`), so the timed loop does no
 * conversion our side does not do either.
 */
import type { BlockPlan, EpochPlan } from '../../demo/workload.js';
import { ValidatorChange } from '../../demo/workload.js';

// biome-ignore lint: Lodestar's ViewDU is typed per schema; the benchmark drives it by field name.
type Dyn = any;

const HISTORY = 8192;
const MIXES = 65536;
const ZERO_ROOT = new Uint8Array(32);

/** A block plan with Lodestar's number values. */
export interface LodestarBlock {
  readonly plan: BlockPlan;
  readonly slot: number;
  readonly proposer: number;
  readonly balanceValue: Float64Array;
  readonly validatorValue: Float64Array;
}

export function lodestarBlock(plan: BlockPlan): LodestarBlock {
  return { plan, slot: Number(plan.slot), proposer: Number(plan.proposer), balanceValue: Float64Array.from(plan.balanceValue, Number), validatorValue: Float64Array.from(plan.validatorValue, Number) };
}

export function applyLodestarBlock(s: Dyn, b: LodestarBlock, previousStateRoot: Uint8Array): void {
  const plan = b.plan;
  const previousSlot = s.slot as number;
  const header = s.latestBlockHeader;
  s.stateRoots.set(previousSlot % HISTORY, previousStateRoot);
  s.blockRoots.set(previousSlot % HISTORY, plan.parentRoot);
  s.slot = b.slot;
  header.slot = b.slot;
  header.proposerIndex = b.proposer;
  header.parentRoot = plan.parentRoot;
  header.stateRoot = ZERO_ROOT;
  header.bodyRoot = plan.bodyRoot;
  s.randaoMixes.set(plan.epoch % MIXES, plan.randaoMix);
  const balances = s.balances;
  for (let k = 0; k < plan.balanceIndex.length; k++) balances.set(plan.balanceIndex[k]!, b.balanceValue[k]!);
  const validators = s.validators;
  for (let k = 0; k < plan.validatorIndex.length; k++) {
    const v = validators.get(plan.validatorIndex[k]!);
    const value = b.validatorValue[k]!;
    switch (plan.validatorChange[k]) {
      case ValidatorChange.Slashed:
        v.slashed = true;
        v.withdrawableEpoch = plan.epoch + HISTORY;
        break;
      case ValidatorChange.Exit:
        v.exitEpoch = value;
        v.withdrawableEpoch = value + 256;
        break;
      default:
        v.effectiveBalance = value;
    }
  }
  const flags = s.currentEpochParticipation;
  for (let k = 0; k < plan.participationIndex.length; k++) {
    const i = plan.participationIndex[k]!;
    flags.set(i, flags.get(i) | plan.participationFlags[k]!);
  }
}

/** An epoch plan with Lodestar's number values. */
export interface LodestarEpoch {
  readonly plan: EpochPlan;
  readonly balances: Float64Array;
  readonly inactivityScores: Float64Array;
  readonly effectiveValue: Float64Array;
}

export function lodestarEpoch(plan: EpochPlan): LodestarEpoch {
  return { plan, balances: Float64Array.from(plan.balances, Number), inactivityScores: Float64Array.from(plan.inactivityScores, Number), effectiveValue: Float64Array.from(plan.effectiveValue, Number) };
}

/** The epoch: per-index balance and score writes, 1/64 effective balances, participation rotated as Lodestar does (a fresh all-zero list view), checkpoints moved. */
export function applyLodestarEpoch(s: Dyn, e: LodestarEpoch, zeroParticipation: () => Dyn): void {
  const plan = e.plan;
  const n = e.balances.length;
  const balances = s.balances;
  const scores = s.inactivityScores;
  for (let i = 0; i < n; i++) {
    balances.set(i, e.balances[i]!);
    scores.set(i, e.inactivityScores[i]!);
  }
  const validators = s.validators;
  for (let k = 0; k < plan.effectiveIndex.length; k++) validators.get(plan.effectiveIndex[k]!).effectiveBalance = e.effectiveValue[k]!;
  s.previousEpochParticipation = s.currentEpochParticipation;
  s.currentEpochParticipation = zeroParticipation();
  const justified = s.currentJustifiedCheckpoint;
  s.previousJustifiedCheckpoint.epoch = justified.epoch;
  s.previousJustifiedCheckpoint.root = justified.root;
  justified.epoch = plan.epoch;
  justified.root = plan.nextRandaoMix;
  s.randaoMixes.set((plan.epoch + 1) % MIXES, plan.nextRandaoMix);
  s.slashings.set((plan.epoch + 1) % HISTORY, 0);
}
