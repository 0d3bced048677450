/**
 * Phase 0 containers (consensus-specs `specs/phase0/beacon-chain.md` and
 * `validator.md`), built for one preset. Field names and order are the
 * spec's; they fix the serialization and the root.
 * @module
 */
import { bitlist, bitvector, boolean, container, list, uint64, vector } from '../index.js';
import { DEPOSIT_CONTRACT_TREE_DEPTH, JUSTIFICATION_BITS_LENGTH, type Preset } from './preset.js';
import { BLSPubkey, BLSSignature, Bytes32, CommitteeIndex, Domain, Epoch, Gwei, Root, Slot, ValidatorIndex, Version } from './primitives.js';

/** Containers that no preset constant touches. */
function presetFree() {
  const Fork = container({ previous_version: Version, current_version: Version, epoch: Epoch }, 'Fork');
  const ForkData = container({ current_version: Version, genesis_validators_root: Root }, 'ForkData');
  const Checkpoint = container({ epoch: Epoch, root: Root }, 'Checkpoint');
  const Validator = container(
    {
      pubkey: BLSPubkey,
      withdrawal_credentials: Bytes32,
      effective_balance: Gwei,
      slashed: boolean,
      activation_eligibility_epoch: Epoch,
      activation_epoch: Epoch,
      exit_epoch: Epoch,
      withdrawable_epoch: Epoch,
    },
    'Validator',
  );
  const AttestationData = container(
    { slot: Slot, index: CommitteeIndex, beacon_block_root: Root, source: Checkpoint, target: Checkpoint },
    'AttestationData',
  );
  const Eth1Data = container({ deposit_root: Root, deposit_count: uint64, block_hash: Bytes32 }, 'Eth1Data');
  const DepositMessage = container({ pubkey: BLSPubkey, withdrawal_credentials: Bytes32, amount: Gwei }, 'DepositMessage');
  const DepositData = container(
    { pubkey: BLSPubkey, withdrawal_credentials: Bytes32, amount: Gwei, signature: BLSSignature },
    'DepositData',
  );
  const BeaconBlockHeader = container(
    { slot: Slot, proposer_index: ValidatorIndex, parent_root: Root, state_root: Root, body_root: Root },
    'BeaconBlockHeader',
  );
  const SigningData = container({ object_root: Root, domain: Domain }, 'SigningData');
  const SignedBeaconBlockHeader = container({ message: BeaconBlockHeader, signature: BLSSignature }, 'SignedBeaconBlockHeader');
  const ProposerSlashing = container(
    { signed_header_1: SignedBeaconBlockHeader, signed_header_2: SignedBeaconBlockHeader },
    'ProposerSlashing',
  );
  const Deposit = container({ proof: vector(Bytes32, DEPOSIT_CONTRACT_TREE_DEPTH + 1), data: DepositData }, 'Deposit');
  const VoluntaryExit = container({ epoch: Epoch, validator_index: ValidatorIndex }, 'VoluntaryExit');
  const SignedVoluntaryExit = container({ message: VoluntaryExit, signature: BLSSignature }, 'SignedVoluntaryExit');
  const Eth1Block = container({ timestamp: uint64, deposit_root: Root, deposit_count: uint64 }, 'Eth1Block');
  return {
    Fork,
    ForkData,
    Checkpoint,
    Validator,
    AttestationData,
    Eth1Data,
    DepositMessage,
    DepositData,
    BeaconBlockHeader,
    SigningData,
    SignedBeaconBlockHeader,
    ProposerSlashing,
    Deposit,
    VoluntaryExit,
    SignedVoluntaryExit,
    Eth1Block,
  };
}

export function phase0Types(p: Preset) {
  const base = presetFree();
  const { AttestationData, BeaconBlockHeader, Checkpoint, Deposit, Eth1Data, Fork, ProposerSlashing, SignedVoluntaryExit, Validator } = base;

  const IndexedAttestation = container(
    {
      attesting_indices: list(ValidatorIndex, p.MAX_VALIDATORS_PER_COMMITTEE),
      data: AttestationData,
      signature: BLSSignature,
    },
    'IndexedAttestation',
  );
  const PendingAttestation = container(
    {
      aggregation_bits: bitlist(p.MAX_VALIDATORS_PER_COMMITTEE),
      data: AttestationData,
      inclusion_delay: Slot,
      proposer_index: ValidatorIndex,
    },
    'PendingAttestation',
  );
  const HistoricalBatch = container(
    { block_roots: vector(Root, p.SLOTS_PER_HISTORICAL_ROOT), state_roots: vector(Root, p.SLOTS_PER_HISTORICAL_ROOT) },
    'HistoricalBatch',
  );
  const AttesterSlashing = container({ attestation_1: IndexedAttestation, attestation_2: IndexedAttestation }, 'AttesterSlashing');
  const Attestation = container(
    { aggregation_bits: bitlist(p.MAX_VALIDATORS_PER_COMMITTEE), data: AttestationData, signature: BLSSignature },
    'Attestation',
  );
  const BeaconBlockBody = container(
    {
      randao_reveal: BLSSignature,
      eth1_data: Eth1Data,
      graffiti: Bytes32,
      proposer_slashings: list(ProposerSlashing, p.MAX_PROPOSER_SLASHINGS),
      attester_slashings: list(AttesterSlashing, p.MAX_ATTESTER_SLASHINGS),
      attestations: list(Attestation, p.MAX_ATTESTATIONS),
      deposits: list(Deposit, p.MAX_DEPOSITS),
      voluntary_exits: list(SignedVoluntaryExit, p.MAX_VOLUNTARY_EXITS),
    },
    'BeaconBlockBody',
  );
  const BeaconBlock = container(
    { slot: Slot, proposer_index: ValidatorIndex, parent_root: Root, state_root: Root, body: BeaconBlockBody },
    'BeaconBlock',
  );
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const AggregateAndProof = container(
    { aggregator_index: ValidatorIndex, aggregate: Attestation, selection_proof: BLSSignature },
    'AggregateAndProof',
  );
  const SignedAggregateAndProof = container({ message: AggregateAndProof, signature: BLSSignature }, 'SignedAggregateAndProof');

  /** The state fields every later fork keeps, in order, up to `slashings`. */
  const stateHead = {
    genesis_time: uint64,
    genesis_validators_root: Root,
    slot: Slot,
    fork: Fork,
    latest_block_header: BeaconBlockHeader,
    block_roots: vector(Root, p.SLOTS_PER_HISTORICAL_ROOT),
    state_roots: vector(Root, p.SLOTS_PER_HISTORICAL_ROOT),
    historical_roots: list(Root, p.HISTORICAL_ROOTS_LIMIT),
    eth1_data: Eth1Data,
    eth1_data_votes: list(Eth1Data, p.EPOCHS_PER_ETH1_VOTING_PERIOD * p.SLOTS_PER_EPOCH),
    eth1_deposit_index: uint64,
    validators: list(Validator, p.VALIDATOR_REGISTRY_LIMIT),
    balances: list(Gwei, p.VALIDATOR_REGISTRY_LIMIT),
    randao_mixes: vector(Bytes32, p.EPOCHS_PER_HISTORICAL_VECTOR),
    slashings: vector(Gwei, p.EPOCHS_PER_SLASHINGS_VECTOR),
  };
  const finality = {
    justification_bits: bitvector(JUSTIFICATION_BITS_LENGTH),
    previous_justified_checkpoint: Checkpoint,
    current_justified_checkpoint: Checkpoint,
    finalized_checkpoint: Checkpoint,
  };
  const BeaconState = container(
    {
      ...stateHead,
      previous_epoch_attestations: list(PendingAttestation, p.MAX_ATTESTATIONS * p.SLOTS_PER_EPOCH),
      current_epoch_attestations: list(PendingAttestation, p.MAX_ATTESTATIONS * p.SLOTS_PER_EPOCH),
      ...finality,
    },
    'BeaconState',
  );

  return {
    ...base,
    IndexedAttestation,
    PendingAttestation,
    HistoricalBatch,
    AttesterSlashing,
    Attestation,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    AggregateAndProof,
    SignedAggregateAndProof,
    BeaconState,
    /** @internal Field groups later forks reuse to extend the state in spec order. */
    stateHead,
    /** @internal */
    finality,
  };
}

export type Phase0Types = ReturnType<typeof phase0Types>;
