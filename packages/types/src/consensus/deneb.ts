/**
 * Deneb types (consensus-specs `specs/deneb/beacon-chain.md`,
 * `p2p-interface.md`, `validator.md`): blob gas in the payload, KZG
 * commitments in the body, blob sidecars and their req/resp types.
 * @module
 */
import { byteVector, container, list, uint64, vector, type SszType } from '../index.js';
import type { CapellaTypes } from './capella.js';
import { executionLightClient } from './capella.js';
import { BYTES_PER_FIELD_ELEMENT, P2P, type Preset } from './preset.js';
import { BLSSignature, BlobIndex, Bytes32, KZGCommitment, KZGProof, Root, Slot } from './primitives.js';

/**
 * Blob sidecar req/resp lists: `compute_max_request_blob_sidecars()` =
 * MAX_REQUEST_BLOCKS_DENEB × the fork's blob limit per block (deneb 6,
 * electra and later 9).
 * @internal
 */
export function blobRequestLists<S extends SszType<unknown>, I extends SszType<unknown>>(BlobSidecar: S, BlobIdentifier: I, maxBlobsPerBlock: number) {
  const limit = P2P.MAX_REQUEST_BLOCKS_DENEB * maxBlobsPerBlock;
  return { BlobIdentifiers: list(BlobIdentifier, limit), BlobSidecars: list(BlobSidecar, limit) };
}

export function denebTypes(p: Preset, capella: CapellaTypes) {
  const blobGas = { blob_gas_used: uint64, excess_blob_gas: uint64 };
  const ExecutionPayload = container({ ...capella.ExecutionPayload.fields, ...blobGas }, 'ExecutionPayload');
  const ExecutionPayloadHeader = container({ ...capella.ExecutionPayloadHeader.fields, ...blobGas }, 'ExecutionPayloadHeader');
  const BlobKZGCommitments = list(KZGCommitment, p.MAX_BLOB_COMMITMENTS_PER_BLOCK);
  const BeaconBlockBody = container(
    { ...capella.BeaconBlockBody.fields, execution_payload: ExecutionPayload, blob_kzg_commitments: BlobKZGCommitments },
    'BeaconBlockBody',
  );
  const BeaconBlock = container({ ...capella.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const BeaconState = container(
    { ...capella.stateHead, latest_execution_payload_header: ExecutionPayloadHeader, ...capella.withdrawalState },
    'BeaconState',
  );
  const Blob = byteVector(BYTES_PER_FIELD_ELEMENT * p.FIELD_ELEMENTS_PER_BLOB);
  // = floorlog2(gindex of blob_kzg_commitments in the body) + 1 + ceillog2(MAX_BLOB_COMMITMENTS_PER_BLOCK); a test derives it.
  const KZGCommitmentInclusionProof = vector(Bytes32, p.KZG_COMMITMENT_INCLUSION_PROOF_DEPTH);
  const BlobSidecar = container(
    {
      index: BlobIndex,
      blob: Blob,
      kzg_commitment: KZGCommitment,
      kzg_proof: KZGProof,
      signed_block_header: capella.SignedBeaconBlockHeader,
      kzg_commitment_inclusion_proof: KZGCommitmentInclusionProof,
    },
    'BlobSidecar',
  );
  const BlobIdentifier = container({ block_root: Root, index: BlobIndex }, 'BlobIdentifier');
  // validator.md
  const Blobs = list(Blob, p.MAX_BLOB_COMMITMENTS_PER_BLOCK);
  const KZGProofs = list(KZGProof, p.MAX_BLOB_COMMITMENTS_PER_BLOCK);
  // p2p-interface.md
  const BeaconBlockRoots = list(Root, P2P.MAX_REQUEST_BLOCKS_DENEB);
  const SignedBeaconBlocks = list(SignedBeaconBlock, P2P.MAX_REQUEST_BLOCKS_DENEB);
  const BlobSidecarsByRangeRequest = container({ start_slot: Slot, count: uint64 }, 'BlobSidecarsByRangeRequest');

  return {
    ...capella,
    ExecutionPayload,
    ExecutionPayloadHeader,
    BlobKZGCommitments,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    BeaconState,
    Blob,
    KZGCommitmentInclusionProof,
    BlobSidecar,
    BlobIdentifier,
    Blobs,
    KZGProofs,
    BeaconBlockRoots,
    SignedBeaconBlocks,
    BlobSidecarsByRangeRequest,
    ...blobRequestLists(BlobSidecar, BlobIdentifier, P2P.MAX_BLOBS_PER_BLOCK),
    ...executionLightClient(capella, BeaconState, BeaconBlockBody, ExecutionPayloadHeader),
  };
}

export type DenebTypes = ReturnType<typeof denebTypes>;
