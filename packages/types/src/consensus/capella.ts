/**
 * Capella types (consensus-specs `specs/capella/beacon-chain.md`,
 * `light-client/sync-protocol.md`): withdrawals, BLS-to-execution changes,
 * historical summaries; light-client headers gain the execution payload
 * header and its branch.
 * @module
 */
import { container, list, type SszType } from '../index.js';
import type { BellatrixTypes } from './bellatrix.js';
import { executionBranch, lightClientTypes } from './lightClient.js';
import type { Preset } from './preset.js';
import { BLSPubkey, BLSSignature, ExecutionAddress, Gwei, Root, ValidatorIndex, WithdrawalIndex } from './primitives.js';

/**
 * A fork's light-client types with the execution header (capella and
 * later), from that fork's state, body and payload header.
 * @internal
 */
export function executionLightClient<
  T extends { BeaconBlockHeader: SszType<unknown>; SyncCommittee: SszType<unknown>; SyncAggregate: SszType<unknown> },
  S extends SszType<unknown>,
  B extends SszType<unknown>,
  H extends SszType<unknown>,
>(t: T, BeaconState: S, BeaconBlockBody: B, ExecutionPayloadHeader: H) {
  const fresh = executionBranch(BeaconBlockBody);
  const before = (t as Record<string, unknown>)['ExecutionBranch'] as typeof fresh | undefined;
  const ExecutionBranch = before !== undefined && before.length === fresh.length ? before : fresh;
  return {
    ExecutionBranch,
    ...lightClientTypes(
      { BeaconState, SyncCommittee: t.SyncCommittee as T['SyncCommittee'], SyncAggregate: t.SyncAggregate as T['SyncAggregate'] },
      { beacon: t.BeaconBlockHeader as T['BeaconBlockHeader'], execution: ExecutionPayloadHeader, execution_branch: ExecutionBranch },
      t as Record<string, unknown>,
    ),
  };
}

export function capellaTypes(p: Preset, bellatrix: BellatrixTypes) {
  const Withdrawal = container(
    { index: WithdrawalIndex, validator_index: ValidatorIndex, address: ExecutionAddress, amount: Gwei },
    'Withdrawal',
  );
  const Withdrawals = list(Withdrawal, p.MAX_WITHDRAWALS_PER_PAYLOAD);
  const BLSToExecutionChange = container(
    { validator_index: ValidatorIndex, from_bls_pubkey: BLSPubkey, to_execution_address: ExecutionAddress },
    'BLSToExecutionChange',
  );
  const SignedBLSToExecutionChange = container({ message: BLSToExecutionChange, signature: BLSSignature }, 'SignedBLSToExecutionChange');
  const BLSToExecutionChanges = list(SignedBLSToExecutionChange, p.MAX_BLS_TO_EXECUTION_CHANGES);
  const HistoricalSummary = container({ block_summary_root: Root, state_summary_root: Root }, 'HistoricalSummary');
  const HistoricalSummaries = list(HistoricalSummary, p.HISTORICAL_ROOTS_LIMIT);

  const ExecutionPayload = container({ ...bellatrix.ExecutionPayload.fields, withdrawals: Withdrawals }, 'ExecutionPayload');
  const ExecutionPayloadHeader = container({ ...bellatrix.ExecutionPayloadHeader.fields, withdrawals_root: Root }, 'ExecutionPayloadHeader');
  const BeaconBlockBody = container(
    { ...bellatrix.bodyHead, execution_payload: ExecutionPayload, bls_to_execution_changes: BLSToExecutionChanges },
    'BeaconBlockBody',
  );
  const BeaconBlock = container({ ...bellatrix.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const SignedBeaconBlocks = list(SignedBeaconBlock, bellatrix.SignedBeaconBlocks.limit);
  const withdrawalState = {
    next_withdrawal_index: WithdrawalIndex,
    next_withdrawal_validator_index: ValidatorIndex,
    historical_summaries: HistoricalSummaries,
  };
  const BeaconState = container(
    { ...bellatrix.stateHead, latest_execution_payload_header: ExecutionPayloadHeader, ...withdrawalState },
    'BeaconState',
  );

  return {
    ...bellatrix,
    Withdrawal,
    Withdrawals,
    BLSToExecutionChange,
    SignedBLSToExecutionChange,
    BLSToExecutionChanges,
    HistoricalSummary,
    HistoricalSummaries,
    ExecutionPayload,
    ExecutionPayloadHeader,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    SignedBeaconBlocks,
    BeaconState,
    ...executionLightClient(bellatrix, BeaconState, BeaconBlockBody, ExecutionPayloadHeader),
    /** @internal */
    withdrawalState,
  };
}

export type CapellaTypes = ReturnType<typeof capellaTypes>;
