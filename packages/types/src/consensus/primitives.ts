/**
 * The consensus aliases (Slot, Epoch, Root, BLSPubkey, …) over the generic
 * schemas. uint64 aliases are bigint-valued: the official vectors hold
 * random uint64 values far above 2^53 in every field, so a number-valued
 * alias would reject valid data (see `uint64Number` for hot paths that
 * know their range).
 * @module
 */
import { byteVector, uint64, uint8, uint256 } from '../index.js';

export const Slot = uint64;
export const Epoch = uint64;
export const CommitteeIndex = uint64;
export const ValidatorIndex = uint64;
export const Gwei = uint64;
/** phase0 weak-subjectivity.md: an amount in Ether. */
export const Ether = uint64;
export const WithdrawalIndex = uint64;
export const BlobIndex = uint64;
export const ColumnIndex = uint64;
export const RowIndex = uint64;
export const CellIndex = uint64;
export const CustodyIndex = uint64;
/** gloas: the index of a builder in the builder registry. */
export const BuilderIndex = uint64;
export const SubnetID = uint64;
export const ParticipationFlags = uint8;
/** gloas fork-choice.md: one of the PAYLOAD_STATUS_* values. */
export const PayloadStatus = uint8;
/** bellatrix p2p-interface.md: the status of a payload's validation by the execution engine. */
export const PayloadValidationStatus = uint8;
export const Uint256 = uint256;
export const NodeID = uint256;
export const Root = byteVector(32);
export const Bytes32 = Root;
export const Hash32 = Root;
export const VersionedHash = Root;
export const Version = byteVector(4);
export const DomainType = byteVector(4);
export const ForkDigest = byteVector(4);
export const Domain = Root;
export const BLSPubkey = byteVector(48);
export const BLSSignature = byteVector(96);
export const KZGCommitment = BLSPubkey;
export const KZGProof = BLSPubkey;
export const ExecutionAddress = byteVector(20);
export const PayloadId = byteVector(8);
