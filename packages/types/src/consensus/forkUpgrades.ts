/**
 * The upgrade plan of each fork pair, built from one preset's types: which
 * fields of the next fork's BeaconState are carried, converted or new, and
 * the new fields' initial values as the fork's `upgrade_to_*` gives them
 * (`upgrade.ts` runs a plan).
 *
 * - electra → fulu (`specs/fulu/fork.md`): all 37 electra fields carried,
 *   `proposer_lookahead` new (the caller's `initialize_proposer_lookahead`).
 * - fulu → gloas (`specs/gloas/fork.md`): the 8 binary lists that became
 *   progressive (validators, balances, both participations, inactivity
 *   scores, the three pending queues) converted with `fromBinaryView`;
 *   `latest_execution_payload_header` dropped; `latest_block_hash` and the
 *   bid's `block_hash`/`gas_limit` taken from the old header; the bid's
 *   `execution_requests_root` = hash_tree_root(ExecutionRequests());
 *   `execution_payload_availability` all ones; builders, their payments
 *   and withdrawals, `next_withdrawal_builder_index` and
 *   `payload_expected_withdrawals` empty or zero. `ptc_window`
 *   (`initialize_ptc_window`, which needs `compute_ptc`) and the effect of
 *   `onboard_builders_from_pending_deposits` (signature checks) are the
 *   caller's `values`.
 * - gloas → heze (`specs/heze/fork.md`): all fields carried except
 *   `latest_execution_payload_bid`, whose 12 field subtrees are reused under
 *   the heze bid with an empty `inclusion_list_bits` as its 13th.
 * @module
 */
import { BitArray, type ContainerView, type Fields } from '../index.js';
import type { ElectraTypes } from './electra.js';
import type { FuluTypes } from './fulu.js';
import type { GloasTypes } from './gloas.js';
import type { HezeTypes } from './heze.js';
import { planUpgrade, type FieldInitial } from './upgrade.js';

/** The BeaconStates of the forks the plans join (a preset's fork types). */
export interface StatesByFork {
  readonly electra: ElectraTypes;
  readonly fulu: FuluTypes;
  readonly gloas: GloasTypes;
  readonly heze: HezeTypes;
}

/** Reads field `name` of a view's value-or-view field (composite fields are views; `toValue()` gives the value). */
function read(pre: ContainerView<Fields>, ...path: string[]): unknown {
  let at: unknown = pre;
  for (const name of path) at = (at as Record<string, unknown>)[name];
  return at;
}

export function forkUpgradePlans(types: StatesByFork) {
  const { electra, fulu, gloas, heze } = types;
  const requestsRoot = gloas.ExecutionRequests.hashTreeRoot(gloas.ExecutionRequests.defaultValue());
  const slotsPerHistoricalRoot = gloas.ExecutionPayloadAvailability.length;
  const gloasInitial: Partial<Record<keyof GloasTypes['BeaconState']['fields'], FieldInitial>> = {
    latest_block_hash: (pre) => read(pre, 'latest_execution_payload_header', 'block_hash'),
    execution_payload_availability: () => {
      const bits = BitArray.fromBitLen(slotsPerHistoricalRoot);
      bits.uint8Array.fill(0xff);
      return bits;
    },
    latest_execution_payload_bid: (pre) => ({
      ...gloas.ExecutionPayloadBid.defaultValue(),
      block_hash: read(pre, 'latest_execution_payload_header', 'block_hash') as Uint8Array,
      gas_limit: read(pre, 'latest_execution_payload_header', 'gas_limit') as bigint,
      execution_requests_root: requestsRoot.slice(),
    }),
  };
  const hezeBid = heze.ExecutionPayloadBid;
  const gloasBid = gloas.ExecutionPayloadBid;
  const noInclusionBits = heze.InclusionListBits.defaultValue();
  return {
    /** electra → fulu (`specs/fulu/fork.md`, `upgrade_to_fulu`). */
    fulu: planUpgrade(electra.BeaconState, fulu.BeaconState),
    /** fulu → gloas (`specs/gloas/fork.md`, `upgrade_to_gloas`). */
    gloas: planUpgrade(fulu.BeaconState, gloas.BeaconState, {}, gloasInitial),
    /** gloas → heze (`specs/heze/fork.md`, `upgrade_to_heze`). */
    heze: planUpgrade(gloas.BeaconState, heze.BeaconState, {
      // The 12 gloas fields' subtrees, shared, then the new field: the heze bid's tree over them.
      latest_execution_payload_bid: (store, node) =>
        hezeBid._treeOf(store, [...gloasBid._fieldNodesOf(store, node), heze.InclusionListBits._toNode(noInclusionBits, store)]),
    }),
  };
}

/** The upgrade plans of one preset's fork types. */
export type ForkUpgradePlans = ReturnType<typeof forkUpgradePlans>;
/** The forks a state can be upgraded to. */
export type UpgradeTarget = keyof ForkUpgradePlans;
