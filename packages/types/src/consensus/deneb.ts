/**
 * Deneb containers (consensus-specs `specs/deneb/beacon-chain.md`,
 * `p2p-interface.md`): blob gas in the payload, KZG commitments in the body,
 * blob sidecars.
 * @module
 */
import { byteVector, container, list, uint64, vector } from '../index.js';
import type { CapellaTypes } from './capella.js';
import { BYTES_PER_FIELD_ELEMENT, type Preset } from './preset.js';
import { BLSSignature, BlobIndex, Bytes32, KZGCommitment, KZGProof, Root } from './primitives.js';

/** ceil(log2(x)) for x >= 1. */
function ceilLog2(x: number): number {
  return x <= 1 ? 0 : Math.ceil(Math.log2(x));
}

export function denebTypes(p: Preset, capella: CapellaTypes) {
  const blobGas = { blob_gas_used: uint64, excess_blob_gas: uint64 };
  const ExecutionPayload = container({ ...capella.ExecutionPayload.fields, ...blobGas }, 'ExecutionPayload');
  const ExecutionPayloadHeader = container({ ...capella.ExecutionPayloadHeader.fields, ...blobGas }, 'ExecutionPayloadHeader');
  const blobKzgCommitments = list(KZGCommitment, p.MAX_BLOB_COMMITMENTS_PER_BLOCK);
  const BeaconBlockBody = container(
    {
      ...capella.BeaconBlockBody.fields,
      execution_payload: ExecutionPayload,
      blob_kzg_commitments: blobKzgCommitments,
    },
    'BeaconBlockBody',
  );
  const BeaconBlock = container({ ...capella.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const BeaconState = container(
    { ...capella.stateHead, latest_execution_payload_header: ExecutionPayloadHeader, ...capella.withdrawalState },
    'BeaconState',
  );
  const Blob = byteVector(BYTES_PER_FIELD_ELEMENT * p.FIELD_ELEMENTS_PER_BLOB);
  // floorlog2(gindex of blob_kzg_commitments in the body) + 1 + ceillog2(MAX_BLOB_COMMITMENTS_PER_BLOCK) = 4 + 1 + …
  const KZG_COMMITMENT_INCLUSION_PROOF_DEPTH = 5 + ceilLog2(p.MAX_BLOB_COMMITMENTS_PER_BLOCK);
  const BlobSidecar = container(
    {
      index: BlobIndex,
      blob: Blob,
      kzg_commitment: KZGCommitment,
      kzg_proof: KZGProof,
      signed_block_header: capella.SignedBeaconBlockHeader,
      kzg_commitment_inclusion_proof: vector(Bytes32, KZG_COMMITMENT_INCLUSION_PROOF_DEPTH),
    },
    'BlobSidecar',
  );
  const BlobIdentifier = container({ block_root: Root, index: BlobIndex }, 'BlobIdentifier');

  return {
    ...capella,
    ExecutionPayload,
    ExecutionPayloadHeader,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    BeaconState,
    Blob,
    BlobSidecar,
    BlobIdentifier,
  };
}

export type DenebTypes = ReturnType<typeof denebTypes>;
