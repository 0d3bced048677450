/**
 * The slot of a serialized state, block, header or sidecar, read at its
 * fixed offset without decoding anything else: how a reader picks the fork
 * of bytes that do not say which fork they are. The offsets hold for every
 * fork phase0 … fulu and both presets:
 * - BeaconState: genesis_time (8) + genesis_validators_root (32) → 40;
 * - BeaconBlock, BeaconBlockHeader, SignedBeaconBlockHeader: 0;
 * - SignedBeaconBlock: the message starts after its 4-byte offset and the
 *   96-byte signature → 100 (the offset itself must say 100);
 * - DataColumnSidecar: index (8) + three offsets (12) → the header's slot at 20.
 * @module
 */
import { SszError } from '../index.js';
import { forkAt, type Network, type NetworkName, type ScheduledFork } from './schedule.js';

export const SLOT_OFFSETS = Object.freeze({
  BeaconState: 40,
  BeaconBlock: 0,
  BeaconBlockHeader: 0,
  SignedBeaconBlockHeader: 0,
  SignedBeaconBlock: 100,
  DataColumnSidecar: 20,
});
export type SlotCarrier = keyof typeof SLOT_OFFSETS;

export function isSlotCarrier(name: string): name is SlotCarrier {
  return Object.hasOwn(SLOT_OFFSETS, name);
}

/** The slot of serialized `kind` bytes; input too short for it is `SHORT_INPUT`, a block whose message offset is not 100 `BAD_OFFSET`. */
export function slotOf(kind: SlotCarrier, bytes: Uint8Array): bigint {
  const at = SLOT_OFFSETS[kind];
  if (!(bytes instanceof Uint8Array)) throw new SszError('INVALID_VALUE', 'slotOf expects a Uint8Array', -1, kind);
  if (bytes.length < at + 8) {
    throw new SszError('SHORT_INPUT', `${bytes.length} bytes hold no slot (it ends at byte ${at + 8})`, bytes.length, `${kind}.slot`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (kind === 'SignedBeaconBlock' && dv.getUint32(0, true) !== at) {
    throw new SszError('BAD_OFFSET', `offset ${dv.getUint32(0, true)} is not the fixed part's end ${at}`, 0, `${kind}.message`);
  }
  return dv.getBigUint64(at, true);
}

/** The fork of serialized `kind` bytes on `network`, from their slot. */
export function forkOfBytes(network: NetworkName | Network, kind: SlotCarrier, bytes: Uint8Array): ScheduledFork {
  return forkAt(network, slotOf(kind, bytes));
}
