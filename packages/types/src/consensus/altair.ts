/**
 * Altair containers (consensus-specs `specs/altair/beacon-chain.md`,
 * `validator.md`): sync committees, participation flags in the state.
 * @module
 */
import { bitvector, container, list, uint64, vector } from '../index.js';
import type { Phase0Types } from './phase0.js';
import { SYNC_COMMITTEE_SUBNET_COUNT, type Preset } from './preset.js';
import { BLSPubkey, BLSSignature, ParticipationFlags, Root, Slot, ValidatorIndex } from './primitives.js';

export function altairTypes(p: Preset, phase0: Phase0Types) {
  const SyncAggregate = container(
    { sync_committee_bits: bitvector(p.SYNC_COMMITTEE_SIZE), sync_committee_signature: BLSSignature },
    'SyncAggregate',
  );
  const SyncCommittee = container(
    { pubkeys: vector(BLSPubkey, p.SYNC_COMMITTEE_SIZE), aggregate_pubkey: BLSPubkey },
    'SyncCommittee',
  );
  const SyncCommitteeMessage = container(
    { slot: Slot, beacon_block_root: Root, validator_index: ValidatorIndex, signature: BLSSignature },
    'SyncCommitteeMessage',
  );
  const SyncCommitteeContribution = container(
    {
      slot: Slot,
      beacon_block_root: Root,
      subcommittee_index: uint64,
      aggregation_bits: bitvector(p.SYNC_COMMITTEE_SIZE / SYNC_COMMITTEE_SUBNET_COUNT),
      signature: BLSSignature,
    },
    'SyncCommitteeContribution',
  );
  const ContributionAndProof = container(
    { aggregator_index: ValidatorIndex, contribution: SyncCommitteeContribution, selection_proof: BLSSignature },
    'ContributionAndProof',
  );
  const SignedContributionAndProof = container({ message: ContributionAndProof, signature: BLSSignature }, 'SignedContributionAndProof');
  const SyncAggregatorSelectionData = container({ slot: Slot, subcommittee_index: uint64 }, 'SyncAggregatorSelectionData');

  /** The block body fields every later fork keeps, in order. */
  const bodyHead = {
    ...phase0.BeaconBlockBody.fields,
    sync_aggregate: SyncAggregate,
  };
  const BeaconBlockBody = container(bodyHead, 'BeaconBlockBody');
  const BeaconBlock = container({ ...phase0.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');

  const stateHead = {
    ...phase0.stateHead,
    previous_epoch_participation: list(ParticipationFlags, p.VALIDATOR_REGISTRY_LIMIT),
    current_epoch_participation: list(ParticipationFlags, p.VALIDATOR_REGISTRY_LIMIT),
    ...phase0.finality,
    inactivity_scores: list(uint64, p.VALIDATOR_REGISTRY_LIMIT),
    current_sync_committee: SyncCommittee,
    next_sync_committee: SyncCommittee,
  };
  const BeaconState = container(stateHead, 'BeaconState');

  return {
    ...phase0,
    SyncAggregate,
    SyncCommittee,
    SyncCommitteeMessage,
    SyncCommitteeContribution,
    ContributionAndProof,
    SignedContributionAndProof,
    SyncAggregatorSelectionData,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    BeaconState,
    /** @internal */
    bodyHead,
    /** @internal */
    stateHead,
  };
}

export type AltairTypes = ReturnType<typeof altairTypes>;
