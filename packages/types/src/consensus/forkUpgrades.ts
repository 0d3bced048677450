/**
 * The upgrade plan of each fork pair, built from one preset's types: which
 * fields of the next fork's BeaconState are carried, converted or new
 * (`upgrade.ts`). electra → fulu carries all 37 electra fields and adds
 * `proposer_lookahead`. A later pair (fulu → gloas, whose lists become
 * progressive) adds its entry with `convert` steps for the fields that
 * change shape.
 * @module
 */
import type { ContainerType, Fields } from '../index.js';
import { planUpgrade, type UpgradePlan } from './upgrade.js';

/** The BeaconStates of the forks the plans join (a preset's fork types; declared here so this module needs nothing of index.ts). */
export interface StatesByFork<E extends Fields, F extends Fields> {
  readonly electra: { readonly BeaconState: ContainerType<E> };
  readonly fulu: { readonly BeaconState: ContainerType<F> };
}

export function forkUpgradePlans<E extends Fields, F extends Fields>(types: StatesByFork<E, F>): { fulu: UpgradePlan<E, F> } {
  return {
    /** electra → fulu (`specs/fulu/fork.md`, `upgrade_to_fulu`). */
    fulu: planUpgrade(types.electra.BeaconState, types.fulu.BeaconState),
  };
}

/** The upgrade plans of one preset's fork types (`S`: that preset's types, e.g. `typeof mainnet`). */
export type ForkUpgradePlans<S extends { readonly electra: { readonly BeaconState: unknown }; readonly fulu: { readonly BeaconState: unknown } }> = {
  fulu: UpgradePlan<FieldsOf<S['electra']['BeaconState']>, FieldsOf<S['fulu']['BeaconState']>>;
};
/** The forks a state can be upgraded to. */
export type UpgradeTarget = keyof ReturnType<typeof forkUpgradePlans>;

type FieldsOf<C> = C extends ContainerType<infer F extends Fields> ? F : never;
