/**
 * Fulu types (consensus-specs `specs/fulu/beacon-chain.md`, `das-core.md`,
 * `p2p-interface.md`, `partial-columns/p2p-interface.md`, `validator.md`):
 * the proposer lookahead in the state (EIP-7917), data column sidecars and
 * their cells and proofs (PeerDAS, EIP-7594), the req/resp types that carry
 * them, and the new Status and Metadata. Blocks and the light-client types
 * are electra's.
 * @module
 */
import { bitlist, byteVector, container, list, uint64, vector } from '../index.js';
import type { ElectraTypes } from './electra.js';
import { BYTES_PER_FIELD_ELEMENT, P2P, type Preset } from './preset.js';
import { Bytes32, ColumnIndex, ForkDigest, KZGProof, Root, RowIndex, Slot, ValidatorIndex, Epoch } from './primitives.js';

export function fuluTypes(p: Preset, electra: ElectraTypes) {
  const ProposerIndices = vector(ValidatorIndex, p.SLOTS_PER_EPOCH);
  const ProposerLookahead = vector(ValidatorIndex, (p.MIN_SEED_LOOKAHEAD + 1) * p.SLOTS_PER_EPOCH);
  const BeaconState = container({ ...electra.BeaconState.fields, proposer_lookahead: ProposerLookahead }, 'BeaconState');

  // das-core.md
  const Cell = byteVector(BYTES_PER_FIELD_ELEMENT * p.FIELD_ELEMENTS_PER_CELL);
  const Cells = vector(Cell, p.CELLS_PER_EXT_BLOB);
  const DataColumn = list(Cell, p.MAX_BLOB_COMMITMENTS_PER_BLOCK);
  // = floorlog2(gindex of blob_kzg_commitments in the body); a test derives it.
  const KZGCommitmentsInclusionProof = vector(Bytes32, p.KZG_COMMITMENTS_INCLUSION_PROOF_DEPTH);
  const Proofs = vector(KZGProof, p.CELLS_PER_EXT_BLOB);
  const DataColumnSidecar = container(
    {
      index: ColumnIndex,
      column: DataColumn,
      kzg_commitments: electra.BlobKZGCommitments,
      kzg_proofs: electra.KZGProofs,
      signed_block_header: electra.SignedBeaconBlockHeader,
      kzg_commitments_inclusion_proof: KZGCommitmentsInclusionProof,
    },
    'DataColumnSidecar',
  );
  const MatrixEntry = container({ cell: Cell, kzg_proof: KZGProof, column_index: ColumnIndex, row_index: RowIndex }, 'MatrixEntry');
  // validator.md
  const CellKZGProofs = list(KZGProof, p.FIELD_ELEMENTS_PER_EXT_BLOB * p.MAX_BLOB_COMMITMENTS_PER_BLOCK);

  // p2p-interface.md
  const DataColumnIndices = list(ColumnIndex, p.NUMBER_OF_COLUMNS);
  const DataColumnsByRootIdentifier = container({ block_root: Root, columns: DataColumnIndices }, 'DataColumnsByRootIdentifier');
  const DataColumnsByRootIdentifiers = list(DataColumnsByRootIdentifier, P2P.MAX_REQUEST_BLOCKS_DENEB);
  // compute_max_request_data_column_sidecars() = MAX_REQUEST_BLOCKS_DENEB × NUMBER_OF_COLUMNS
  const DataColumnSidecars = list(DataColumnSidecar, P2P.MAX_REQUEST_BLOCKS_DENEB * p.NUMBER_OF_COLUMNS);
  const DataColumnSidecarsByRangeRequest = container(
    { start_slot: Slot, count: uint64, columns: DataColumnIndices },
    'DataColumnSidecarsByRangeRequest',
  );
  const BeaconBlocksByHeadRequest = container({ beacon_root: Root, count: uint64 }, 'BeaconBlocksByHeadRequest');
  const Metadata = container({ ...electra.Metadata.fields, custody_group_count: uint64 }, 'Metadata');
  const Status = container(
    { fork_digest: ForkDigest, finalized_root: Root, finalized_epoch: Epoch, head_root: Root, head_slot: Slot, earliest_available_slot: Slot },
    'Status',
  );

  // partial-columns/p2p-interface.md
  const CellsBitList = bitlist(p.MAX_BLOB_COMMITMENTS_PER_BLOCK);
  const PartialDataColumnHeader = container(
    {
      kzg_commitments: electra.BlobKZGCommitments,
      signed_block_header: electra.SignedBeaconBlockHeader,
      kzg_commitments_inclusion_proof: KZGCommitmentsInclusionProof,
    },
    'PartialDataColumnHeader',
  );
  const OptionalPartialDataColumnHeader = list(PartialDataColumnHeader, 1);
  const PartialDataColumnSidecar = container(
    { cells_present_bitmap: CellsBitList, partial_column: DataColumn, kzg_proofs: electra.KZGProofs, header: OptionalPartialDataColumnHeader },
    'PartialDataColumnSidecar',
  );
  const PartialDataColumnPartsMetadata = container({ available: CellsBitList, requests: CellsBitList }, 'PartialDataColumnPartsMetadata');
  const PartialDataColumnGroupID = container({ beacon_block_root: Root }, 'PartialDataColumnGroupID');

  return {
    ...electra,
    ProposerIndices,
    ProposerLookahead,
    BeaconState,
    Cell,
    Cells,
    DataColumn,
    KZGCommitmentsInclusionProof,
    Proofs,
    DataColumnSidecar,
    MatrixEntry,
    CellKZGProofs,
    DataColumnIndices,
    DataColumnsByRootIdentifier,
    DataColumnsByRootIdentifiers,
    DataColumnSidecars,
    DataColumnSidecarsByRangeRequest,
    BeaconBlocksByHeadRequest,
    Metadata,
    Status,
    CellsBitList,
    PartialDataColumnHeader,
    OptionalPartialDataColumnHeader,
    PartialDataColumnSidecar,
    PartialDataColumnPartsMetadata,
    PartialDataColumnGroupID,
  };
}

export type FuluTypes = ReturnType<typeof fuluTypes>;
