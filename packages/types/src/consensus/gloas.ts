/**
 * Gloas types (consensus-specs `specs/gloas/beacon-chain.md`): enshrined
 * proposer-builder separation (EIP-7732: builders, payload bids and
 * envelopes, the payload timeliness committee and its attestations) and
 * forward-compatible containers (EIP-7688): the state, the block body, the
 * execution payload and requests, attestations and the payload types are
 * ProgressiveContainers, and the lists they hold ProgressiveLists.
 *
 * Types the fork does not name but whose definition names a type it
 * changes are rebuilt with the new one, as the spec's executable form
 * resolves every name to the fork's newest definition (`AttesterSlashing`
 * holds the progressive `IndexedAttestation`, `SignedBeaconBlock` the new
 * body, `PendingAttestation` the progressive `AggregationBits`, …); every
 * other type is fulu's very object. The p2p, partial-column and
 * light-client types are in `gloasNetwork.ts`; the spec's explicit byte
 * bounds are set on the fork's own types here.
 * @module
 */
import { bitvector, boolean, container, list, progressiveBitlist, progressiveByteList, progressiveContainer, progressiveList, uint64, uint8, vector } from '../index.js';
import { applyByteBounds } from './bounds.js';
import type { FuluTypes } from './fulu.js';
import { gloasNetworkTypes } from './gloasNetwork.js';
import type { Preset } from './preset.js';
import {
  BLSPubkey,
  BLSSignature,
  BuilderIndex,
  Bytes32,
  Epoch,
  ExecutionAddress,
  Gwei,
  Hash32,
  KZGCommitment,
  ParticipationFlags,
  Root,
  Slot,
  ValidatorIndex,
} from './primitives.js';

/** `[1] * n`: the active-fields pattern of a progressive container whose fields were all there from the start. */
export function allActive(n: number): readonly number[] {
  return new Array<number>(n).fill(1);
}

export function gloasTypes(p: Preset, fulu: FuluTypes) {
  // Modified named lists (EIP-7688): each the spec's class of its own.
  const AggregationBits = progressiveBitlist();
  const AttestingIndices = progressiveList(ValidatorIndex);
  const Balances = progressiveList(Gwei);
  const BlobKZGCommitments = progressiveList(KZGCommitment);
  const BLSToExecutionChanges = progressiveList(fulu.SignedBLSToExecutionChange);
  const ConsolidationRequests = progressiveList(fulu.ConsolidationRequest);
  const DepositRequests = progressiveList(fulu.DepositRequest);
  const Deposits = progressiveList(fulu.Deposit);
  const EpochParticipation = progressiveList(ParticipationFlags);
  const InactivityScores = progressiveList(uint64);
  const PendingConsolidations = progressiveList(fulu.PendingConsolidation);
  const PendingDeposits = progressiveList(fulu.PendingDeposit);
  const PendingPartialWithdrawals = progressiveList(fulu.PendingPartialWithdrawal);
  const ProposerSlashings = progressiveList(fulu.ProposerSlashing);
  const Transaction = progressiveByteList();
  const Transactions = progressiveList(Transaction);
  const Validators = progressiveList(fulu.Validator);
  const VoluntaryExits = progressiveList(fulu.SignedVoluntaryExit);
  const WithdrawalRequests = progressiveList(fulu.WithdrawalRequest);
  const Withdrawals = progressiveList(fulu.Withdrawal);
  const BlockAccessList = progressiveByteList();

  // New containers (EIP-7732, EIP-8282)
  const Builder = container(
    { pubkey: BLSPubkey, version: uint8, execution_address: ExecutionAddress, balance: Gwei, deposit_epoch: Epoch, withdrawable_epoch: Epoch },
    'Builder',
  );
  const BuilderPendingWithdrawal = container({ fee_recipient: ExecutionAddress, amount: Gwei, builder_index: BuilderIndex }, 'BuilderPendingWithdrawal');
  const BuilderPendingPayment = container(
    { weight: Gwei, withdrawal: BuilderPendingWithdrawal, proposer_index: ValidatorIndex },
    'BuilderPendingPayment',
  );
  const BuilderDepositRequest = container(
    { pubkey: BLSPubkey, withdrawal_credentials: Bytes32, amount: Gwei, signature: BLSSignature },
    'BuilderDepositRequest',
  );
  const BuilderExitRequest = container({ source_address: ExecutionAddress, pubkey: BLSPubkey }, 'BuilderExitRequest');
  const BuilderDepositRequests = progressiveList(BuilderDepositRequest);
  const BuilderExitRequests = progressiveList(BuilderExitRequest);
  const BuilderPendingPayments = vector(BuilderPendingPayment, 2 * p.SLOTS_PER_EPOCH);
  const BuilderPendingWithdrawals = progressiveList(BuilderPendingWithdrawal);
  const Builders = progressiveList(Builder);
  const ExecutionPayloadAvailability = bitvector(p.SLOTS_PER_HISTORICAL_ROOT);
  const PTC = vector(ValidatorIndex, p.PTC_SIZE);
  const PTCAttestingIndices = list(ValidatorIndex, p.PTC_SIZE);
  const PTCBits = bitvector(p.PTC_SIZE);
  const PTCWindow = vector(PTC, (2 + p.MIN_SEED_LOOKAHEAD) * p.SLOTS_PER_EPOCH);

  const PayloadAttestationData = container(
    { beacon_block_root: Root, slot: Slot, payload_present: boolean, blob_data_available: boolean },
    'PayloadAttestationData',
  );
  const PayloadAttestation = progressiveContainer(
    { aggregation_bits: PTCBits, data: PayloadAttestationData, signature: BLSSignature },
    allActive(3),
    'PayloadAttestation',
  );
  const PayloadAttestations = progressiveList(PayloadAttestation);
  const PayloadAttestationMessage = container(
    { validator_index: ValidatorIndex, data: PayloadAttestationData, signature: BLSSignature },
    'PayloadAttestationMessage',
  );
  const IndexedPayloadAttestation = progressiveContainer(
    { attesting_indices: PTCAttestingIndices, data: PayloadAttestationData, signature: BLSSignature },
    allActive(3),
    'IndexedPayloadAttestation',
  );
  const ExecutionPayloadBid = progressiveContainer(
    {
      parent_block_hash: Hash32,
      parent_block_root: Root,
      block_hash: Hash32,
      prev_randao: Bytes32,
      fee_recipient: ExecutionAddress,
      gas_limit: uint64,
      builder_index: BuilderIndex,
      slot: Slot,
      value: Gwei,
      execution_payment: Gwei,
      blob_kzg_commitments: BlobKZGCommitments,
      execution_requests_root: Root,
    },
    allActive(12),
    'ExecutionPayloadBid',
  );
  const SignedExecutionPayloadBid = container({ message: ExecutionPayloadBid, signature: BLSSignature }, 'SignedExecutionPayloadBid');

  // Modified containers
  const ExecutionPayload = progressiveContainer(
    {
      ...fulu.payloadHead,
      transactions: Transactions,
      withdrawals: Withdrawals,
      blob_gas_used: uint64,
      excess_blob_gas: uint64,
      block_access_list: BlockAccessList,
      slot_number: uint64,
    },
    allActive(19),
    'ExecutionPayload',
  );
  const ExecutionRequests = progressiveContainer(
    {
      deposits: DepositRequests,
      withdrawals: WithdrawalRequests,
      consolidations: ConsolidationRequests,
      builder_deposits: BuilderDepositRequests,
      builder_exits: BuilderExitRequests,
    },
    allActive(5),
    'ExecutionRequests',
  );
  const ExecutionPayloadEnvelope = progressiveContainer(
    { payload: ExecutionPayload, execution_requests: ExecutionRequests, builder_index: BuilderIndex, beacon_block_root: Root, parent_beacon_block_root: Root },
    allActive(5),
    'ExecutionPayloadEnvelope',
  );
  const SignedExecutionPayloadEnvelope = container({ message: ExecutionPayloadEnvelope, signature: BLSSignature }, 'SignedExecutionPayloadEnvelope');

  const Attestation = progressiveContainer(
    { aggregation_bits: AggregationBits, data: fulu.AttestationData, signature: BLSSignature, committee_bits: fulu.CommitteeBits },
    allActive(4),
    'Attestation',
  );
  const IndexedAttestation = progressiveContainer(
    { attesting_indices: AttestingIndices, data: fulu.AttestationData, signature: BLSSignature },
    allActive(3),
    'IndexedAttestation',
  );
  const Attestations = progressiveList(Attestation);
  // Rebuilt: their definitions name the changed types.
  const AttesterSlashing = container({ attestation_1: IndexedAttestation, attestation_2: IndexedAttestation }, 'AttesterSlashing');
  const AttesterSlashings = progressiveList(AttesterSlashing);
  const AggregateAndProof = container(
    { aggregator_index: ValidatorIndex, aggregate: Attestation, selection_proof: BLSSignature },
    'AggregateAndProof',
  );
  const SignedAggregateAndProof = container({ message: AggregateAndProof, signature: BLSSignature }, 'SignedAggregateAndProof');
  const PendingAttestation = container(
    { aggregation_bits: AggregationBits, data: fulu.AttestationData, inclusion_delay: Slot, proposer_index: ValidatorIndex },
    'PendingAttestation',
  );
  const PendingAttestations = list(PendingAttestation, fulu.PendingAttestations.limit);

  const BeaconBlockBody = progressiveContainer(
    {
      randao_reveal: BLSSignature,
      eth1_data: fulu.Eth1Data,
      graffiti: Bytes32,
      proposer_slashings: ProposerSlashings,
      attester_slashings: AttesterSlashings,
      attestations: Attestations,
      deposits: Deposits,
      voluntary_exits: VoluntaryExits,
      sync_aggregate: fulu.SyncAggregate,
      bls_to_execution_changes: BLSToExecutionChanges,
      signed_execution_payload_bid: SignedExecutionPayloadBid,
      payload_attestations: PayloadAttestations,
      parent_execution_requests: ExecutionRequests,
    },
    allActive(13),
    'BeaconBlockBody',
  );
  const BeaconBlock = container({ ...fulu.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');

  const s = fulu.BeaconState.fields;
  const stateFields = {
    genesis_time: s.genesis_time,
    genesis_validators_root: s.genesis_validators_root,
    slot: s.slot,
    fork: s.fork,
    latest_block_header: s.latest_block_header,
    block_roots: s.block_roots,
    state_roots: s.state_roots,
    historical_roots: s.historical_roots,
    eth1_data: s.eth1_data,
    eth1_data_votes: s.eth1_data_votes,
    eth1_deposit_index: s.eth1_deposit_index,
    validators: Validators,
    balances: Balances,
    randao_mixes: s.randao_mixes,
    slashings: s.slashings,
    previous_epoch_participation: EpochParticipation,
    current_epoch_participation: EpochParticipation,
    justification_bits: s.justification_bits,
    previous_justified_checkpoint: s.previous_justified_checkpoint,
    current_justified_checkpoint: s.current_justified_checkpoint,
    finalized_checkpoint: s.finalized_checkpoint,
    inactivity_scores: InactivityScores,
    current_sync_committee: s.current_sync_committee,
    next_sync_committee: s.next_sync_committee,
    latest_block_hash: Hash32,
    next_withdrawal_index: s.next_withdrawal_index,
    next_withdrawal_validator_index: s.next_withdrawal_validator_index,
    historical_summaries: s.historical_summaries,
    deposit_requests_start_index: s.deposit_requests_start_index,
    deposit_balance_to_consume: s.deposit_balance_to_consume,
    exit_balance_to_consume: s.exit_balance_to_consume,
    earliest_exit_epoch: s.earliest_exit_epoch,
    consolidation_balance_to_consume: s.consolidation_balance_to_consume,
    earliest_consolidation_epoch: s.earliest_consolidation_epoch,
    pending_deposits: PendingDeposits,
    pending_partial_withdrawals: PendingPartialWithdrawals,
    pending_consolidations: PendingConsolidations,
    proposer_lookahead: s.proposer_lookahead,
    builders: Builders,
    next_withdrawal_builder_index: BuilderIndex,
    execution_payload_availability: ExecutionPayloadAvailability,
    builder_pending_payments: BuilderPendingPayments,
    builder_pending_withdrawals: BuilderPendingWithdrawals,
    latest_execution_payload_bid: ExecutionPayloadBid,
    payload_expected_withdrawals: Withdrawals,
    ptc_window: PTCWindow,
  };
  const BeaconState = progressiveContainer(stateFields, allActive(46), 'BeaconState');

  const chain = {
    AggregationBits,
    AttestingIndices,
    Balances,
    BlobKZGCommitments,
    BLSToExecutionChanges,
    ConsolidationRequests,
    DepositRequests,
    Deposits,
    EpochParticipation,
    InactivityScores,
    PendingConsolidations,
    PendingDeposits,
    PendingPartialWithdrawals,
    ProposerSlashings,
    Transaction,
    Transactions,
    Validators,
    VoluntaryExits,
    WithdrawalRequests,
    Withdrawals,
    BlockAccessList,
    Builder,
    BuilderPendingWithdrawal,
    BuilderPendingPayment,
    BuilderDepositRequest,
    BuilderExitRequest,
    BuilderDepositRequests,
    BuilderExitRequests,
    BuilderPendingPayments,
    BuilderPendingWithdrawals,
    Builders,
    ExecutionPayloadAvailability,
    PTC,
    PTCAttestingIndices,
    PTCBits,
    PTCWindow,
    PayloadAttestationData,
    PayloadAttestation,
    PayloadAttestations,
    PayloadAttestationMessage,
    IndexedPayloadAttestation,
    ExecutionPayloadBid,
    SignedExecutionPayloadBid,
    ExecutionPayload,
    ExecutionRequests,
    ExecutionPayloadEnvelope,
    SignedExecutionPayloadEnvelope,
    Attestation,
    IndexedAttestation,
    Attestations,
    AttesterSlashing,
    AttesterSlashings,
    AggregateAndProof,
    SignedAggregateAndProof,
    PendingAttestation,
    PendingAttestations,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    BeaconState,
  };
  const types = { ...fulu, ...chain, ...gloasNetworkTypes(fulu, chain) };
  applyByteBounds(types, 'gloas', p);
  return types;
}

export type GloasTypes = ReturnType<typeof gloasTypes>;
