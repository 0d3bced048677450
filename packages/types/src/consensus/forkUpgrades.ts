/**
 * The upgrade plan of each fork pair, built from one preset's types: which
 * fields of the next fork's BeaconState are carried, converted or new
 * (`upgrade.ts`). electra → fulu carries all 37 electra fields and adds
 * `proposer_lookahead`. A later pair (fulu → gloas, whose lists become
 * progressive) adds its entry with `convert` steps for the fields that
 * change shape.
 * @module
 */
import type { ForkTypes } from './index.js';
import { planUpgrade } from './upgrade.js';

export function forkUpgradePlans(types: ForkTypes) {
  return {
    /** electra → fulu (`specs/fulu/fork.md`, `upgrade_to_fulu`). */
    fulu: planUpgrade(types.electra.BeaconState, types.fulu.BeaconState),
  };
}

export type ForkUpgradePlans = ReturnType<typeof forkUpgradePlans>;
/** The forks a state can be upgraded to. */
export type UpgradeTarget = keyof ForkUpgradePlans;
