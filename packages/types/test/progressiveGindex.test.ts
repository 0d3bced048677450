/**
 * Generalized indices through progressive containers, held to the gloas
 * light-client constants (specs/gloas/light-client/sync-protocol.md at the
 * pinned consensus-specs version), which the spec computes on the
 * progressive BeaconState and BeaconBlockBody. A gindex depends only on the
 * field positions along the path (and the containers it passes), so the
 * fields off the path stand in as uint64 here; the consensus containers
 * check the same constants on the real types.
 */
import { describe, expect, it } from 'vitest';
import { byteVector, container, progressiveContainer, uint64, type SszType } from '../src/index.js';

/** A progressive container of the given field names, all active, with `typed` fields given real types and the rest uint64. */
function allActive(names: readonly string[], typed: Record<string, SszType<unknown>>, name: string) {
  const fields = Object.fromEntries(names.map((n) => [n, typed[n] ?? uint64])) as Record<string, SszType<unknown>>;
  return progressiveContainer(fields, new Array<number>(names.length).fill(1), name);
}

/** gloas BeaconState's 46 fields, in order (specs/gloas/beacon-chain.md). */
const STATE_FIELDS = [
  'genesis_time', 'genesis_validators_root', 'slot', 'fork', 'latest_block_header', 'block_roots', 'state_roots', 'historical_roots',
  'eth1_data', 'eth1_data_votes', 'eth1_deposit_index', 'validators', 'balances', 'randao_mixes', 'slashings',
  'previous_epoch_participation', 'current_epoch_participation', 'justification_bits', 'previous_justified_checkpoint',
  'current_justified_checkpoint', 'finalized_checkpoint', 'inactivity_scores', 'current_sync_committee', 'next_sync_committee',
  'latest_block_hash', 'next_withdrawal_index', 'next_withdrawal_validator_index', 'historical_summaries',
  'deposit_requests_start_index', 'deposit_balance_to_consume', 'exit_balance_to_consume', 'earliest_exit_epoch',
  'consolidation_balance_to_consume', 'earliest_consolidation_epoch', 'pending_deposits', 'pending_partial_withdrawals',
  'pending_consolidations', 'proposer_lookahead', 'builders', 'next_withdrawal_builder_index', 'execution_payload_availability',
  'builder_pending_payments', 'builder_pending_withdrawals', 'latest_execution_payload_bid', 'payload_expected_withdrawals', 'ptc_window',
];

/** gloas BeaconBlockBody's 13 fields, in order. */
const BODY_FIELDS = [
  'randao_reveal', 'eth1_data', 'graffiti', 'proposer_slashings', 'attester_slashings', 'attestations', 'deposits', 'voluntary_exits',
  'sync_aggregate', 'bls_to_execution_changes', 'signed_execution_payload_bid', 'payload_attestations', 'parent_execution_requests',
];

/** gloas ExecutionPayloadBid's 12 fields, in order. */
const BID_FIELDS = [
  'parent_block_hash', 'parent_block_root', 'block_hash', 'prev_randao', 'fee_recipient', 'gas_limit', 'builder_index', 'slot', 'value',
  'execution_payment', 'blob_kzg_commitments', 'execution_requests_root',
];

describe('gindexOf through progressive containers: the gloas light-client constants', () => {
  const Checkpoint = container({ epoch: uint64, root: byteVector(32) }, 'Checkpoint');
  const SyncCommittee = container({ pubkeys: byteVector(32), aggregate_pubkey: byteVector(48) }, 'SyncCommitteeStandIn');
  const BeaconState = allActive(STATE_FIELDS, { finalized_checkpoint: Checkpoint, current_sync_committee: SyncCommittee, next_sync_committee: SyncCommittee }, 'BeaconState');
  const ExecutionPayloadBid = allActive(BID_FIELDS, { parent_block_hash: byteVector(32) }, 'ExecutionPayloadBid');
  const SignedExecutionPayloadBid = container({ message: ExecutionPayloadBid, signature: byteVector(96) }, 'SignedExecutionPayloadBid');
  const BeaconBlockBody = allActive(BODY_FIELDS, { signed_execution_payload_bid: SignedExecutionPayloadBid }, 'BeaconBlockBody');

  it('FINALIZED_ROOT_GINDEX_GLOAS = 735, CURRENT_SYNC_COMMITTEE_GINDEX_GLOAS = 2945, NEXT_SYNC_COMMITTEE_GINDEX_GLOAS = 2946', () => {
    expect(BeaconState.gindexOf(['finalized_checkpoint', 'root'])).toBe(735n);
    expect(BeaconState.gindexOf(['current_sync_committee'])).toBe(2945n);
    expect(BeaconState.gindexOf(['next_sync_committee'])).toBe(2946n);
  });

  it('EXECUTION_BLOCK_HASH_GINDEX_GLOAS = 2856', () => {
    expect(BeaconBlockBody.gindexOf(['signed_execution_payload_bid', 'message', 'parent_block_hash'])).toBe(2856n);
  });

  it('the light-client branches have the depths the spec derives from them (floorlog2)', () => {
    const depth = (g: bigint) => g.toString(2).length - 1;
    expect(depth(BeaconState.gindexOf(['finalized_checkpoint', 'root']))).toBe(9);
    expect(depth(BeaconState.gindexOf(['current_sync_committee']))).toBe(11);
    expect(depth(BeaconBlockBody.gindexOf(['signed_execution_payload_bid', 'message', 'parent_block_hash']))).toBe(11);
  });
});
