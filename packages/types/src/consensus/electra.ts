/**
 * Electra containers (consensus-specs `specs/electra/beacon-chain.md`):
 * committee bits in attestations, execution-layer requests, pending
 * deposits/withdrawals/consolidations in the state.
 * @module
 */
import { bitlist, bitvector, container, list, uint64 } from '../index.js';
import type { DenebTypes } from './deneb.js';
import type { Preset } from './preset.js';
import { BLSPubkey, BLSSignature, Bytes32, CommitteeIndex, Epoch, ExecutionAddress, Gwei, Slot, ValidatorIndex } from './primitives.js';

export function electraTypes(p: Preset, deneb: DenebTypes) {
  const perSlot = p.MAX_VALIDATORS_PER_COMMITTEE * p.MAX_COMMITTEES_PER_SLOT;
  const PendingDeposit = container(
    { pubkey: BLSPubkey, withdrawal_credentials: Bytes32, amount: Gwei, signature: BLSSignature, slot: Slot },
    'PendingDeposit',
  );
  const PendingPartialWithdrawal = container(
    { validator_index: ValidatorIndex, amount: Gwei, withdrawable_epoch: Epoch },
    'PendingPartialWithdrawal',
  );
  const PendingConsolidation = container({ source_index: ValidatorIndex, target_index: ValidatorIndex }, 'PendingConsolidation');
  const DepositRequest = container(
    { pubkey: BLSPubkey, withdrawal_credentials: Bytes32, amount: Gwei, signature: BLSSignature, index: uint64 },
    'DepositRequest',
  );
  const WithdrawalRequest = container(
    { source_address: ExecutionAddress, validator_pubkey: BLSPubkey, amount: Gwei },
    'WithdrawalRequest',
  );
  const ConsolidationRequest = container(
    { source_address: ExecutionAddress, source_pubkey: BLSPubkey, target_pubkey: BLSPubkey },
    'ConsolidationRequest',
  );
  const ExecutionRequests = container(
    {
      deposits: list(DepositRequest, p.MAX_DEPOSIT_REQUESTS_PER_PAYLOAD),
      withdrawals: list(WithdrawalRequest, p.MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD),
      consolidations: list(ConsolidationRequest, p.MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD),
    },
    'ExecutionRequests',
  );
  const IndexedAttestation = container(
    { attesting_indices: list(ValidatorIndex, perSlot), data: deneb.AttestationData, signature: BLSSignature },
    'IndexedAttestation',
  );
  const AttesterSlashing = container({ attestation_1: IndexedAttestation, attestation_2: IndexedAttestation }, 'AttesterSlashing');
  const Attestation = container(
    {
      aggregation_bits: bitlist(perSlot),
      data: deneb.AttestationData,
      signature: BLSSignature,
      committee_bits: bitvector(p.MAX_COMMITTEES_PER_SLOT),
    },
    'Attestation',
  );
  const SingleAttestation = container(
    { committee_index: CommitteeIndex, attester_index: ValidatorIndex, data: deneb.AttestationData, signature: BLSSignature },
    'SingleAttestation',
  );
  const AggregateAndProof = container(
    { aggregator_index: ValidatorIndex, aggregate: Attestation, selection_proof: BLSSignature },
    'AggregateAndProof',
  );
  const SignedAggregateAndProof = container({ message: AggregateAndProof, signature: BLSSignature }, 'SignedAggregateAndProof');

  const BeaconBlockBody = container(
    {
      ...deneb.BeaconBlockBody.fields,
      attester_slashings: list(AttesterSlashing, p.MAX_ATTESTER_SLASHINGS_ELECTRA),
      attestations: list(Attestation, p.MAX_ATTESTATIONS_ELECTRA),
      execution_requests: ExecutionRequests,
    },
    'BeaconBlockBody',
  );
  const BeaconBlock = container({ ...deneb.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const BeaconState = container(
    {
      ...deneb.BeaconState.fields,
      deposit_requests_start_index: uint64,
      deposit_balance_to_consume: Gwei,
      exit_balance_to_consume: Gwei,
      earliest_exit_epoch: Epoch,
      consolidation_balance_to_consume: Gwei,
      earliest_consolidation_epoch: Epoch,
      pending_deposits: list(PendingDeposit, p.PENDING_DEPOSITS_LIMIT),
      pending_partial_withdrawals: list(PendingPartialWithdrawal, p.PENDING_PARTIAL_WITHDRAWALS_LIMIT),
      pending_consolidations: list(PendingConsolidation, p.PENDING_CONSOLIDATIONS_LIMIT),
    },
    'BeaconState',
  );

  return {
    ...deneb,
    PendingDeposit,
    PendingPartialWithdrawal,
    PendingConsolidation,
    DepositRequest,
    WithdrawalRequest,
    ConsolidationRequest,
    ExecutionRequests,
    IndexedAttestation,
    AttesterSlashing,
    Attestation,
    SingleAttestation,
    AggregateAndProof,
    SignedAggregateAndProof,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    BeaconState,
  };
}

export type ElectraTypes = ReturnType<typeof electraTypes>;
