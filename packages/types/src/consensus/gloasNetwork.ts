/**
 * Gloas network and light-client types (consensus-specs
 * `specs/gloas/p2p-interface.md`, `partial-columns/p2p-interface.md`,
 * `light-client/sync-protocol.md`): the reshaped data column sidecar
 * (commitments and header gone; slot and block root instead), proposer
 * preferences, payload envelope requests, partial columns over progressive
 * bits, and light-client headers that carry only the execution block hash
 * with its branch into the progressive body.
 *
 * Branch lengths are `floorlog2` of the gindices on the gloas BeaconState
 * and BeaconBlockBody (735, 2945, 2946, 2856 → 9, 11, 11, 11); a test checks
 * them against the constants the spec prints.
 * @module
 */
import { container, list, progressiveBitlist, progressiveList, uint64, vector, type SszType } from '../index.js';
import type { FuluTypes } from './fulu.js';
import { lightClientTypes } from './lightClient.js';
import { P2P } from './preset.js';
import { BLSSignature, Bytes32, ColumnIndex, ExecutionAddress, Hash32, KZGProof, Root, Slot, ValidatorIndex } from './primitives.js';

/** The gloas types the network types are built from. */
export interface GloasChainTypes {
  readonly BeaconState: SszType<unknown>;
  readonly BeaconBlockBody: SszType<unknown>;
  readonly SignedBeaconBlock: SszType<unknown>;
  readonly SignedExecutionPayloadEnvelope: SszType<unknown>;
  readonly BlobKZGCommitments: SszType<unknown>;
}

function floorLog2(g: bigint): number {
  return g.toString(2).length - 1;
}

/** `EXECUTION_BLOCK_HASH_GINDEX_GLOAS`: the bid's parent block hash in the body (what a light-client header proves). */
export const EXECUTION_BLOCK_HASH_PATH = ['signed_execution_payload_bid', 'message', 'parent_block_hash'] as const;

export function gloasNetworkTypes<C extends GloasChainTypes>(fulu: FuluTypes, chain: C) {
  // p2p-interface.md
  const DataColumn = progressiveList(fulu.Cell);
  const KZGProofs = progressiveList(KZGProof);
  const DataColumnSidecar = container(
    { index: ColumnIndex, column: DataColumn, kzg_proofs: KZGProofs, slot: Slot, beacon_block_root: Root },
    'DataColumnSidecar',
  );
  const DataColumnSidecars = list(DataColumnSidecar, fulu.DataColumnSidecars.limit);
  const ProposerPreferences = container(
    { dependent_root: Root, proposal_slot: Slot, validator_index: ValidatorIndex, fee_recipient: ExecutionAddress, target_gas_limit: uint64 },
    'ProposerPreferences',
  );
  const SignedProposerPreferences = container({ message: ProposerPreferences, signature: BLSSignature }, 'SignedProposerPreferences');
  const ExecutionPayloadEnvelopeRoots = list(Root, P2P.MAX_REQUEST_PAYLOADS);
  const SignedExecutionPayloadEnvelopes = list(chain.SignedExecutionPayloadEnvelope, P2P.MAX_REQUEST_PAYLOADS);
  const ExecutionPayloadEnvelopesByRangeRequest = container({ start_slot: Slot, count: uint64 }, 'ExecutionPayloadEnvelopesByRangeRequest');
  const SignedBeaconBlocks = list(chain.SignedBeaconBlock, fulu.SignedBeaconBlocks.limit);

  // partial-columns/p2p-interface.md
  const CellsBitList = progressiveBitlist();
  const PartialDataColumnSidecar = container(
    { cells_present_bitmap: CellsBitList, partial_column: DataColumn, kzg_proofs: KZGProofs },
    'PartialDataColumnSidecar',
  );
  const PartialDataColumnPartsMetadata = container({ available: CellsBitList, requests: CellsBitList }, 'PartialDataColumnPartsMetadata');
  const PartialDataColumnGroupID = container({ beacon_block_root: Root, slot: Slot }, 'PartialDataColumnGroupID');
  // Fulu's partial header, which gloas no longer sends, rebuilt over the progressive commitments (its definition names them).
  const PartialDataColumnHeader = container(
    {
      kzg_commitments: chain.BlobKZGCommitments,
      signed_block_header: fulu.SignedBeaconBlockHeader,
      kzg_commitments_inclusion_proof: fulu.KZGCommitmentsInclusionProof,
    },
    'PartialDataColumnHeader',
  );
  const OptionalPartialDataColumnHeader = list(PartialDataColumnHeader, 1);

  // light-client/sync-protocol.md
  const ExecutionBranch = vector(Bytes32, floorLog2(chain.BeaconBlockBody.gindexOf([...EXECUTION_BLOCK_HASH_PATH])));
  const lightClient = lightClientTypes(
    { BeaconState: chain.BeaconState, SyncCommittee: fulu.SyncCommittee, SyncAggregate: fulu.SyncAggregate },
    { beacon: fulu.BeaconBlockHeader, execution_block_hash: Hash32, execution_branch: ExecutionBranch },
    fulu,
  );
  return {
    DataColumn,
    KZGProofs,
    DataColumnSidecar,
    DataColumnSidecars,
    ProposerPreferences,
    SignedProposerPreferences,
    ExecutionPayloadEnvelopeRoots,
    SignedExecutionPayloadEnvelopes,
    ExecutionPayloadEnvelopesByRangeRequest,
    SignedBeaconBlocks,
    CellsBitList,
    PartialDataColumnSidecar,
    PartialDataColumnPartsMetadata,
    PartialDataColumnGroupID,
    PartialDataColumnHeader,
    OptionalPartialDataColumnHeader,
    ExecutionBranch,
    ...lightClient,
  };
}
