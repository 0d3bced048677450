/**
 * Bellatrix types (consensus-specs `specs/bellatrix/beacon-chain.md`,
 * `fork-choice.md`): the execution payload in blocks and its header in the
 * state. The light-client containers carry over from altair unchanged
 * (bellatrix has no light-client spec of its own).
 * @module
 */
import { byteList, byteVector, container, list, uint64 } from '../index.js';
import type { AltairTypes } from './altair.js';
import type { Preset } from './preset.js';
import { BLSSignature, Bytes32, ExecutionAddress, Hash32, Root, Uint256 } from './primitives.js';

export function bellatrixTypes(p: Preset, altair: AltairTypes) {
  const ExtraData = byteList(p.MAX_EXTRA_DATA_BYTES);
  const LogsBloom = byteVector(p.BYTES_PER_LOGS_BLOOM);
  const Transaction = byteList(p.MAX_BYTES_PER_TRANSACTION);
  const Transactions = list(Transaction, p.MAX_TRANSACTIONS_PER_PAYLOAD);
  /** Payload fields up to `block_hash`, shared by the payload and its header in every later fork. */
  const payloadHead = {
    parent_hash: Hash32,
    fee_recipient: ExecutionAddress,
    state_root: Bytes32,
    receipts_root: Bytes32,
    logs_bloom: LogsBloom,
    prev_randao: Bytes32,
    block_number: uint64,
    gas_limit: uint64,
    gas_used: uint64,
    timestamp: uint64,
    extra_data: ExtraData,
    base_fee_per_gas: Uint256,
    block_hash: Hash32,
  };
  const ExecutionPayload = container({ ...payloadHead, transactions: Transactions }, 'ExecutionPayload');
  const ExecutionPayloadHeader = container({ ...payloadHead, transactions_root: Root }, 'ExecutionPayloadHeader');
  const PowBlock = container({ block_hash: Hash32, parent_hash: Hash32, total_difficulty: Uint256 }, 'PowBlock');

  const BeaconBlockBody = container({ ...altair.bodyHead, execution_payload: ExecutionPayload }, 'BeaconBlockBody');
  const BeaconBlock = container({ ...altair.BeaconBlock.fields, body: BeaconBlockBody }, 'BeaconBlock');
  const SignedBeaconBlock = container({ message: BeaconBlock, signature: BLSSignature }, 'SignedBeaconBlock');
  const SignedBeaconBlocks = list(SignedBeaconBlock, altair.SignedBeaconBlocks.limit);
  const BeaconState = container({ ...altair.stateHead, latest_execution_payload_header: ExecutionPayloadHeader }, 'BeaconState');

  return {
    ...altair,
    ExtraData,
    LogsBloom,
    Transaction,
    Transactions,
    ExecutionPayload,
    ExecutionPayloadHeader,
    PowBlock,
    BeaconBlockBody,
    BeaconBlock,
    SignedBeaconBlock,
    SignedBeaconBlocks,
    BeaconState,
    /** @internal */
    payloadHead,
  };
}

export type BellatrixTypes = ReturnType<typeof bellatrixTypes>;
