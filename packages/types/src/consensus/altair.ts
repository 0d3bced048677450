/**
 * Altair types (consensus-specs `specs/altair/beacon-chain.md`,
 * `validator.md`, `p2p-interface.md`, `light-client/*`): sync committees,
 * participation flags in the state, the first light-client containers.
 * @module
 */
import { bitvector, container, list, uint64, vector } from '../index.js';
import { lightClientTypes } from './lightClient.js';
import type { Phase0Types } from './phase0.js';
import { SYNC_COMMITTEE_SUBNET_COUNT, type Preset } from './preset.js';
import { BLSPubkey, BLSSignature, ParticipationFlags, Root, Slot, ValidatorIndex } from './primitives.js';

export function altairTypes(p: Preset, phase0: Phase0Types) {
  const SyncCommitteeBits = bitvector(p.SYNC_COMMITTEE_SIZE);
  const SyncCommitteePubkeys = vector(BLSPubkey, p.SYNC_COMMITTEE_SIZE);
  const SyncAggregate = container({ sync_committee_bits: SyncCommitteeBits, sync_committee_signature: BLSSignature }, 'SyncAggregate');
  const SyncCommittee = container({ pubkeys: SyncCommitteePubkeys, aggregate_pubkey: BLSPubkey }, 'SyncCommittee');
  // validator.md
  const SyncSubcommitteeBits = bitvector(p.SYNC_COMMITTEE_SIZE / SYNC_COMMITTEE_SUBNET_COUNT);
  const SyncCommitteeMessage = container(
    { slot: Slot, beacon_block_root: Root, validator_index: ValidatorIndex, signature: BLSSignature },
    'SyncCommitteeMessage',
  );
  const SyncCommitteeContribution = container(
    { slot: Slot, beacon_block_root: Root, subcommittee_index: uint64, aggregation_bits: SyncSubcommitteeBits, signature: BLSSignature },
    'SyncCommitteeContribution',
  );
  const ContributionAndProof = container(
    { aggregator_index: ValidatorIndex, contribution: SyncCommitteeContribution, selection_proof: BLSSignature },
    'ContributionAndProof',
  );
  const SignedContributionAndProof = container({ message: ContributionAndProof, signature: BLSSignature }, 'SignedContributionAndProof');
  const SyncAggregatorSelectionData = container({ slot: Slot, subcommittee_index: uint64 }, 'SyncAggregatorSelectionData');
  // p2p-interface.md
  const Syncnets = bitvector(SYNC_COMMITTEE_SUBNET_COUNT);
  const Metadata = container({ seq_number: uint64, attnets: phase0.Attnets, syncnets: Syncnets }, 'Metadata');

  /** The block body fields every later fork keeps, in order. */
  const bodyHead = { ...phase0.BeaconBlockBody.fields, sync_aggregate: SyncAggregate };
  const BeaconBlockBody = container(bodyHead, 'BeaconBlockBody');
  const BeaconBlock = container({ ...phase0.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const SignedBeaconBlocks = list(SignedBeaconBlock, phase0.SignedBeaconBlocks.limit);

  const EpochParticipation = list(ParticipationFlags, p.VALIDATOR_REGISTRY_LIMIT);
  const InactivityScores = list(uint64, p.VALIDATOR_REGISTRY_LIMIT);
  const stateHead = {
    ...phase0.stateHead,
    previous_epoch_participation: EpochParticipation,
    current_epoch_participation: EpochParticipation,
    ...phase0.finality,
    inactivity_scores: InactivityScores,
    current_sync_committee: SyncCommittee,
    next_sync_committee: SyncCommittee,
  };
  const BeaconState = container(stateHead, 'BeaconState');
  const lightClient = lightClientTypes({ BeaconState, SyncCommittee, SyncAggregate }, { beacon: phase0.BeaconBlockHeader });

  return {
    ...phase0,
    SyncCommitteeBits,
    SyncCommitteePubkeys,
    SyncAggregate,
    SyncCommittee,
    SyncSubcommitteeBits,
    SyncCommitteeMessage,
    SyncCommitteeContribution,
    ContributionAndProof,
    SignedContributionAndProof,
    SyncAggregatorSelectionData,
    Syncnets,
    Metadata,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    SignedBeaconBlocks,
    EpochParticipation,
    InactivityScores,
    BeaconState,
    ...lightClient,
    /** @internal */
    bodyHead,
    /** @internal */
    stateHead,
  };
}

export type AltairTypes = ReturnType<typeof altairTypes>;
