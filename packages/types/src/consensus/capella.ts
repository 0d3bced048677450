/**
 * Capella containers (consensus-specs `specs/capella/beacon-chain.md`):
 * withdrawals, BLS-to-execution changes, historical summaries.
 * @module
 */
import { container, list } from '../index.js';
import type { BellatrixTypes } from './bellatrix.js';
import type { Preset } from './preset.js';
import { BLSPubkey, BLSSignature, ExecutionAddress, Gwei, Root, ValidatorIndex, WithdrawalIndex } from './primitives.js';

export function capellaTypes(p: Preset, bellatrix: BellatrixTypes) {
  const Withdrawal = container(
    { index: WithdrawalIndex, validator_index: ValidatorIndex, address: ExecutionAddress, amount: Gwei },
    'Withdrawal',
  );
  const BLSToExecutionChange = container(
    { validator_index: ValidatorIndex, from_bls_pubkey: BLSPubkey, to_execution_address: ExecutionAddress },
    'BLSToExecutionChange',
  );
  const SignedBLSToExecutionChange = container({ message: BLSToExecutionChange, signature: BLSSignature }, 'SignedBLSToExecutionChange');
  const HistoricalSummary = container({ block_summary_root: Root, state_summary_root: Root }, 'HistoricalSummary');

  const ExecutionPayload = container(
    { ...bellatrix.ExecutionPayload.fields, withdrawals: list(Withdrawal, p.MAX_WITHDRAWALS_PER_PAYLOAD) },
    'ExecutionPayload',
  );
  const ExecutionPayloadHeader = container(
    { ...bellatrix.ExecutionPayloadHeader.fields, withdrawals_root: Root },
    'ExecutionPayloadHeader',
  );
  const BeaconBlockBody = container(
    {
      ...bellatrix.bodyHead,
      execution_payload: ExecutionPayload,
      bls_to_execution_changes: list(SignedBLSToExecutionChange, p.MAX_BLS_TO_EXECUTION_CHANGES),
    },
    'BeaconBlockBody',
  );
  const BeaconBlock = container({ ...bellatrix.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const withdrawalState = {
    next_withdrawal_index: WithdrawalIndex,
    next_withdrawal_validator_index: ValidatorIndex,
    historical_summaries: list(HistoricalSummary, p.HISTORICAL_ROOTS_LIMIT),
  };
  const BeaconState = container(
    { ...bellatrix.stateHead, latest_execution_payload_header: ExecutionPayloadHeader, ...withdrawalState },
    'BeaconState',
  );

  return {
    ...bellatrix,
    Withdrawal,
    BLSToExecutionChange,
    SignedBLSToExecutionChange,
    HistoricalSummary,
    ExecutionPayload,
    ExecutionPayloadHeader,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    BeaconState,
    /** @internal */
    withdrawalState,
  };
}

export type CapellaTypes = ReturnType<typeof capellaTypes>;
