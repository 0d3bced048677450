/**
 * Heze types (consensus-specs `specs/heze/beacon-chain.md`,
 * `p2p-interface.md`): fork-choice enforced inclusion lists (EIP-7805).
 * The bid gains `inclusion_list_bits` (a 13th active field), so the signed
 * bid, the block body that carries it, the block and the state change with
 * it; inclusion lists, their committee and the req/resp types are new.
 * Everything else — light-client types included, whose gindices the bid's
 * new last field does not move — is gloas's very object.
 * @module
 */
import { bitvector, container, list, progressiveContainer, vector } from '../index.js';
import { applyByteBounds } from './bounds.js';
import { allActive, type GloasTypes } from './gloas.js';
import { P2P, type Preset } from './preset.js';
import { BLSSignature, Root, Slot, ValidatorIndex } from './primitives.js';

export function hezeTypes(p: Preset, gloas: GloasTypes) {
  const InclusionListBits = bitvector(p.INCLUSION_LIST_COMMITTEE_SIZE);
  const InclusionListCommittee = vector(ValidatorIndex, p.INCLUSION_LIST_COMMITTEE_SIZE);
  const InclusionList = container(
    { slot: Slot, validator_index: ValidatorIndex, dependent_root: Root, transactions: gloas.Transactions },
    'InclusionList',
  );
  const SignedInclusionList = container({ message: InclusionList, signature: BLSSignature }, 'SignedInclusionList');
  const ExecutionPayloadBid = progressiveContainer(
    { ...gloas.ExecutionPayloadBid.fields, inclusion_list_bits: InclusionListBits },
    allActive(13),
    'ExecutionPayloadBid',
  );
  const SignedExecutionPayloadBid = container({ message: ExecutionPayloadBid, signature: BLSSignature }, 'SignedExecutionPayloadBid');
  // Rebuilt: their definitions name the new bid.
  const BeaconBlockBody = progressiveContainer(
    { ...gloas.BeaconBlockBody.fields, signed_execution_payload_bid: SignedExecutionPayloadBid },
    gloas.BeaconBlockBody.activeFields,
    'BeaconBlockBody',
  );
  const BeaconBlock = container({ ...gloas.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const SignedBeaconBlocks = list(SignedBeaconBlock, gloas.SignedBeaconBlocks.limit);
  const BeaconState = progressiveContainer(
    { ...gloas.BeaconState.fields, latest_execution_payload_bid: ExecutionPayloadBid },
    gloas.BeaconState.activeFields,
    'BeaconState',
  );
  // p2p-interface.md
  const SignedInclusionLists = list(SignedInclusionList, P2P.MAX_REQUEST_INCLUSION_LIST);
  const InclusionListsByIndicesRequest = container(
    { slot: Slot, dependent_root: Root, indices: InclusionListBits },
    'InclusionListsByIndicesRequest',
  );

  const types = {
    ...gloas,
    InclusionListBits,
    InclusionListCommittee,
    InclusionList,
    SignedInclusionList,
    ExecutionPayloadBid,
    SignedExecutionPayloadBid,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    SignedBeaconBlocks,
    BeaconState,
    SignedInclusionLists,
    InclusionListsByIndicesRequest,
  };
  applyByteBounds(types, 'heze', p);
  return types;
}

export type HezeTypes = ReturnType<typeof hezeTypes>;
