/**
 * Phase 0 types (consensus-specs `specs/phase0/beacon-chain.md`,
 * `validator.md`, `p2p-interface.md`), built for one preset. Field names and
 * order are the spec's; they fix the serialization and the root. Named list
 * and vector types (`Validators`, `BlockRoots`, …) are the spec's classes,
 * and the containers use them.
 * @module
 */
import { bitlist, bitvector, boolean, byteList, container, list, uint64, vector } from '../index.js';
import { DEPOSIT_CONTRACT_TREE_DEPTH, JUSTIFICATION_BITS_LENGTH, P2P, type Preset } from './preset.js';
import {
  BLSPubkey,
  BLSSignature,
  Bytes32,
  CommitteeIndex,
  Domain,
  Epoch,
  ForkDigest,
  Gwei,
  Hash32,
  Root,
  Slot,
  ValidatorIndex,
  Version,
} from './primitives.js';

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
  const Eth1Data = container({ deposit_root: Root, deposit_count: uint64, block_hash: Hash32 }, 'Eth1Data');
  const DepositMessage = container({ pubkey: BLSPubkey, withdrawal_credentials: Bytes32, amount: Gwei }, 'DepositMessage');
  const DepositData = container(
    { pubkey: BLSPubkey, withdrawal_credentials: Bytes32, amount: Gwei, signature: BLSSignature },
    'DepositData',
  );
  const DepositDataList = list(DepositData, 2 ** DEPOSIT_CONTRACT_TREE_DEPTH);
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
  const DepositProof = vector(Bytes32, DEPOSIT_CONTRACT_TREE_DEPTH + 1);
  const Deposit = container({ proof: DepositProof, data: DepositData }, 'Deposit');
  const VoluntaryExit = container({ epoch: Epoch, validator_index: ValidatorIndex }, 'VoluntaryExit');
  const SignedVoluntaryExit = container({ message: VoluntaryExit, signature: BLSSignature }, 'SignedVoluntaryExit');
  const Eth1Block = container({ timestamp: uint64, deposit_root: Root, deposit_count: uint64 }, 'Eth1Block');
  const JustificationBits = bitvector(JUSTIFICATION_BITS_LENGTH);
  // p2p-interface.md
  const Attnets = bitvector(P2P.ATTESTATION_SUBNET_COUNT);
  const ENRForkID = container({ fork_digest: ForkDigest, next_fork_version: Version, next_fork_epoch: Epoch }, 'ENRForkID');
  const Status = container(
    { fork_digest: ForkDigest, finalized_root: Root, finalized_epoch: Epoch, head_root: Root, head_slot: Slot },
    'Status',
  );
  const Metadata = container({ seq_number: uint64, attnets: Attnets }, 'Metadata');
  const BeaconBlocksByRangeRequest = container({ start_slot: Slot, count: uint64, step: uint64 }, 'BeaconBlocksByRangeRequest');
  const BeaconBlockRoots = list(Root, P2P.MAX_REQUEST_BLOCKS);
  const ErrorMessage = byteList(P2P.MAX_ERROR_MESSAGE_LENGTH);
  return {
    Fork,
    ForkData,
    Checkpoint,
    Validator,
    AttestationData,
    Eth1Data,
    DepositMessage,
    DepositData,
    DepositDataList,
    BeaconBlockHeader,
    SigningData,
    SignedBeaconBlockHeader,
    ProposerSlashing,
    DepositProof,
    Deposit,
    VoluntaryExit,
    SignedVoluntaryExit,
    Eth1Block,
    JustificationBits,
    Attnets,
    ENRForkID,
    Status,
    Metadata,
    BeaconBlocksByRangeRequest,
    BeaconBlockRoots,
    ErrorMessage,
  };
}

export function phase0Types(p: Preset) {
  const base = presetFree();
  const { AttestationData, Checkpoint, Deposit, Eth1Data, Fork, BeaconBlockHeader, JustificationBits, ProposerSlashing, SignedVoluntaryExit, Validator } = base;

  const AggregationBits = bitlist(p.MAX_VALIDATORS_PER_COMMITTEE);
  const AttestingIndices = list(ValidatorIndex, p.MAX_VALIDATORS_PER_COMMITTEE);
  const IndexedAttestation = container({ attesting_indices: AttestingIndices, data: AttestationData, signature: BLSSignature }, 'IndexedAttestation');
  const PendingAttestation = container(
    { aggregation_bits: AggregationBits, data: AttestationData, inclusion_delay: Slot, proposer_index: ValidatorIndex },
    'PendingAttestation',
  );
  const BlockRoots = vector(Root, p.SLOTS_PER_HISTORICAL_ROOT);
  const StateRoots = vector(Root, p.SLOTS_PER_HISTORICAL_ROOT);
  const HistoricalBatch = container({ block_roots: BlockRoots, state_roots: StateRoots }, 'HistoricalBatch');
  const AttesterSlashing = container({ attestation_1: IndexedAttestation, attestation_2: IndexedAttestation }, 'AttesterSlashing');
  const Attestation = container({ aggregation_bits: AggregationBits, data: AttestationData, signature: BLSSignature }, 'Attestation');
  const ProposerSlashings = list(ProposerSlashing, p.MAX_PROPOSER_SLASHINGS);
  const AttesterSlashings = list(AttesterSlashing, p.MAX_ATTESTER_SLASHINGS);
  const Attestations = list(Attestation, p.MAX_ATTESTATIONS);
  const Deposits = list(Deposit, p.MAX_DEPOSITS);
  const VoluntaryExits = list(SignedVoluntaryExit, p.MAX_VOLUNTARY_EXITS);
  const BeaconBlockBody = container(
    {
      randao_reveal: BLSSignature,
      eth1_data: Eth1Data,
      graffiti: Bytes32,
      proposer_slashings: ProposerSlashings,
      attester_slashings: AttesterSlashings,
      attestations: Attestations,
      deposits: Deposits,
      voluntary_exits: VoluntaryExits,
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
  const SignedBeaconBlocks = list(SignedBeaconBlock, P2P.MAX_REQUEST_BLOCKS);

  const HistoricalRoots = list(Root, p.HISTORICAL_ROOTS_LIMIT);
  const Eth1DataVotes = list(Eth1Data, p.EPOCHS_PER_ETH1_VOTING_PERIOD * p.SLOTS_PER_EPOCH);
  const Validators = list(Validator, p.VALIDATOR_REGISTRY_LIMIT);
  const Balances = list(Gwei, p.VALIDATOR_REGISTRY_LIMIT);
  const RandaoMixes = vector(Bytes32, p.EPOCHS_PER_HISTORICAL_VECTOR);
  const Slashings = vector(Gwei, p.EPOCHS_PER_SLASHINGS_VECTOR);
  const PendingAttestations = list(PendingAttestation, p.MAX_ATTESTATIONS * p.SLOTS_PER_EPOCH);
  /** The state fields every later fork keeps, in order, up to `slashings`. */
  const stateHead = {
    genesis_time: uint64,
    genesis_validators_root: Root,
    slot: Slot,
    fork: Fork,
    latest_block_header: BeaconBlockHeader,
    block_roots: BlockRoots,
    state_roots: StateRoots,
    historical_roots: HistoricalRoots,
    eth1_data: Eth1Data,
    eth1_data_votes: Eth1DataVotes,
    eth1_deposit_index: uint64,
    validators: Validators,
    balances: Balances,
    randao_mixes: RandaoMixes,
    slashings: Slashings,
  };
  const finality = {
    justification_bits: JustificationBits,
    previous_justified_checkpoint: Checkpoint,
    current_justified_checkpoint: Checkpoint,
    finalized_checkpoint: Checkpoint,
  };
  const BeaconState = container(
    { ...stateHead, previous_epoch_attestations: PendingAttestations, current_epoch_attestations: PendingAttestations, ...finality },
    'BeaconState',
  );

  return {
    ...base,
    AggregationBits,
    AttestingIndices,
    IndexedAttestation,
    PendingAttestation,
    BlockRoots,
    StateRoots,
    HistoricalBatch,
    AttesterSlashing,
    Attestation,
    ProposerSlashings,
    AttesterSlashings,
    Attestations,
    Deposits,
    VoluntaryExits,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    AggregateAndProof,
    SignedAggregateAndProof,
    SignedBeaconBlocks,
    HistoricalRoots,
    Eth1DataVotes,
    Validators,
    Balances,
    RandaoMixes,
    Slashings,
    PendingAttestations,
    BeaconState,
    /** @internal Field groups later forks reuse to extend the state in spec order. */
    stateHead,
    /** @internal */
    finality,
  };
}

export type Phase0Types = ReturnType<typeof phase0Types>;
