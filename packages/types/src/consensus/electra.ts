/**
 * Electra types (consensus-specs `specs/electra/beacon-chain.md`,
 * `validator.md`, `p2p-interface.md`, `light-client/sync-protocol.md`):
 * committee bits in attestations, execution-layer requests, pending
 * deposits/withdrawals/consolidations in the state (which outgrows 32 fields,
 * so the light-client branches grow by one), more blobs per request.
 * @module
 */
import { bitlist, bitvector, container, list, uint64 } from '../index.js';
import { executionLightClient } from './capella.js';
import { blobRequestLists, type DenebTypes } from './deneb.js';
import { P2P, type Preset } from './preset.js';
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
  const WithdrawalRequest = container({ source_address: ExecutionAddress, validator_pubkey: BLSPubkey, amount: Gwei }, 'WithdrawalRequest');
  const ConsolidationRequest = container(
    { source_address: ExecutionAddress, source_pubkey: BLSPubkey, target_pubkey: BLSPubkey },
    'ConsolidationRequest',
  );
  const DepositRequests = list(DepositRequest, p.MAX_DEPOSIT_REQUESTS_PER_PAYLOAD);
  const WithdrawalRequests = list(WithdrawalRequest, p.MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD);
  const ConsolidationRequests = list(ConsolidationRequest, p.MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD);
  const ExecutionRequests = container(
    { deposits: DepositRequests, withdrawals: WithdrawalRequests, consolidations: ConsolidationRequests },
    'ExecutionRequests',
  );
  const AggregationBits = bitlist(perSlot);
  const AttestingIndices = list(ValidatorIndex, perSlot);
  const CommitteeBits = bitvector(p.MAX_COMMITTEES_PER_SLOT);
  const IndexedAttestation = container(
    { attesting_indices: AttestingIndices, data: deneb.AttestationData, signature: BLSSignature },
    'IndexedAttestation',
  );
  const AttesterSlashing = container({ attestation_1: IndexedAttestation, attestation_2: IndexedAttestation }, 'AttesterSlashing');
  const Attestation = container(
    { aggregation_bits: AggregationBits, data: deneb.AttestationData, signature: BLSSignature, committee_bits: CommitteeBits },
    'Attestation',
  );
  const SingleAttestation = container(
    { committee_index: CommitteeIndex, attester_index: ValidatorIndex, data: deneb.AttestationData, signature: BLSSignature },
    'SingleAttestation',
  );
  const AttesterSlashings = list(AttesterSlashing, p.MAX_ATTESTER_SLASHINGS_ELECTRA);
  const Attestations = list(Attestation, p.MAX_ATTESTATIONS_ELECTRA);
  // validator.md
  const AggregateAndProof = container(
    { aggregator_index: ValidatorIndex, aggregate: Attestation, selection_proof: BLSSignature },
    'AggregateAndProof',
  );
  const SignedAggregateAndProof = container({ message: AggregateAndProof, signature: BLSSignature }, 'SignedAggregateAndProof');

  const BeaconBlockBody = container(
    { ...deneb.BeaconBlockBody.fields, attester_slashings: AttesterSlashings, attestations: Attestations, execution_requests: ExecutionRequests },
    'BeaconBlockBody',
  );
  const BeaconBlock = container({ ...deneb.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const SignedBeaconBlocks = list(SignedBeaconBlock, deneb.SignedBeaconBlocks.limit);
  const PendingDeposits = list(PendingDeposit, p.PENDING_DEPOSITS_LIMIT);
  const PendingPartialWithdrawals = list(PendingPartialWithdrawal, p.PENDING_PARTIAL_WITHDRAWALS_LIMIT);
  const PendingConsolidations = list(PendingConsolidation, p.PENDING_CONSOLIDATIONS_LIMIT);
  const BeaconState = container(
    {
      ...deneb.BeaconState.fields,
      deposit_requests_start_index: uint64,
      deposit_balance_to_consume: Gwei,
      exit_balance_to_consume: Gwei,
      earliest_exit_epoch: Epoch,
      consolidation_balance_to_consume: Gwei,
      earliest_consolidation_epoch: Epoch,
      pending_deposits: PendingDeposits,
      pending_partial_withdrawals: PendingPartialWithdrawals,
      pending_consolidations: PendingConsolidations,
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
    DepositRequests,
    WithdrawalRequests,
    ConsolidationRequests,
    ExecutionRequests,
    AggregationBits,
    AttestingIndices,
    CommitteeBits,
    IndexedAttestation,
    AttesterSlashing,
    Attestation,
    SingleAttestation,
    AttesterSlashings,
    Attestations,
    AggregateAndProof,
    SignedAggregateAndProof,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    SignedBeaconBlocks,
    PendingDeposits,
    PendingPartialWithdrawals,
    PendingConsolidations,
    BeaconState,
    ...blobRequestLists(deneb.BlobSidecar, deneb.BlobIdentifier, P2P.MAX_BLOBS_PER_BLOCK_ELECTRA),
    ...executionLightClient(deneb, BeaconState, BeaconBlockBody, deneb.ExecutionPayloadHeader),
  };
}

export type ElectraTypes = ReturnType<typeof electraTypes>;
