/**
 * The slot of a serialized state, block, header, sidecar, bid or inclusion
 * list, read at its fixed offset without decoding anything else: how a
 * reader picks the fork of bytes that do not say which fork they are.
 *
 * Each kind has one or more layouts (`SLOT_LAYOUTS`), each the slot's byte
 * offset, optionally the first offset the layout must have (a signed
 * message's offset is always 100, after itself and the signature; the data
 * column sidecar's first offset is the end of its fixed part, which tells
 * the fulu layout from the gloas one), and the slot's path in the JSON form.
 * The offsets hold for both presets:
 * - BeaconState: genesis_time (8) + genesis_validators_root (32) → 40, in
 *   every fork (the gloas state is a progressive container, serialized as a
 *   container of the same fields);
 * - BeaconBlock, BeaconBlockHeader, SignedBeaconBlockHeader: 0;
 * - SignedBeaconBlock: after the message offset and the signature → 100;
 * - DataColumnSidecar: fulu — index (8) + three offsets (12) → the header's
 *   slot at 20, the fixed part ending at 356; gloas and later — index (8) +
 *   two offsets (8) → 16, the fixed part ending at 56;
 * - ExecutionPayloadBid (gloas, heze): four roots (128) + fee recipient (20)
 *   + gas limit and builder index (16) → 164; signed: 264;
 * - PayloadAttestationMessage (gloas on): validator index + block root → 40;
 * - InclusionList (heze): 0; signed: 100.
 * @module
 */
import { SszError } from '../index.js';
import { forkAt, type Network, type NetworkName, type ScheduledFork } from './schedule.js';

export interface SlotLayout {
  /** The byte offset of the slot. */
  readonly at: number;
  /** The uint32 offset this layout has at byte `at`: the end of its fixed part, where its first variable `field` starts. */
  readonly offset?: { readonly at: number; readonly is: number; readonly field: string };
  /** The forks with this layout (for messages). */
  readonly forks: string;
  /** The slot's path in the JSON form. */
  readonly json: readonly string[];
}

const every = 'every fork';
const signed = { at: 0, is: 100, field: 'message' };

export const SLOT_LAYOUTS = Object.freeze({
  BeaconState: [{ at: 40, forks: every, json: ['slot'] }],
  BeaconBlock: [{ at: 0, forks: every, json: ['slot'] }],
  BeaconBlockHeader: [{ at: 0, forks: every, json: ['slot'] }],
  SignedBeaconBlockHeader: [{ at: 0, forks: every, json: ['message', 'slot'] }],
  SignedBeaconBlock: [{ at: 100, offset: signed, forks: every, json: ['message', 'slot'] }],
  DataColumnSidecar: [
    { at: 20, offset: { at: 8, is: 356, field: 'column' }, forks: 'fulu', json: ['signed_block_header', 'message', 'slot'] },
    { at: 16, offset: { at: 8, is: 56, field: 'column' }, forks: 'gloas and later', json: ['slot'] },
  ],
  ExecutionPayloadBid: [{ at: 164, forks: 'gloas and later', json: ['slot'] }],
  SignedExecutionPayloadBid: [{ at: 264, offset: signed, forks: 'gloas and later', json: ['message', 'slot'] }],
  PayloadAttestationMessage: [{ at: 40, forks: 'gloas and later', json: ['data', 'slot'] }],
  InclusionList: [{ at: 0, forks: 'heze and later', json: ['slot'] }],
  SignedInclusionList: [{ at: 100, offset: signed, forks: 'heze and later', json: ['message', 'slot'] }],
} satisfies Record<string, readonly SlotLayout[]>) as Readonly<Record<SlotCarrierName, readonly SlotLayout[]>>;

type SlotCarrierName =
  | 'BeaconState'
  | 'BeaconBlock'
  | 'BeaconBlockHeader'
  | 'SignedBeaconBlockHeader'
  | 'SignedBeaconBlock'
  | 'DataColumnSidecar'
  | 'ExecutionPayloadBid'
  | 'SignedExecutionPayloadBid'
  | 'PayloadAttestationMessage'
  | 'InclusionList'
  | 'SignedInclusionList';
export type SlotCarrier = SlotCarrierName;

export function isSlotCarrier(name: string): name is SlotCarrier {
  return Object.hasOwn(SLOT_LAYOUTS, name);
}

/** The bytes `slotOf(kind, …)` reads at most: a prefix of this length is enough to pick the fork. */
export function slotPrefixLength(kind: SlotCarrier): number {
  return Math.max(...SLOT_LAYOUTS[kind].map((l) => l.at + 8));
}

/**
 * The slot of serialized `kind` bytes. Input too short for it is
 * `SHORT_INPUT`; a first offset that fits none of the kind's layouts (a
 * signed message whose offset is not 100, a sidecar of neither layout) is
 * `BAD_OFFSET`.
 */
export function slotOf(kind: SlotCarrier, bytes: Uint8Array): bigint {
  if (!(bytes instanceof Uint8Array)) throw new SszError('INVALID_VALUE', 'slotOf expects a Uint8Array', -1, kind);
  const layouts = SLOT_LAYOUTS[kind];
  const shortest = Math.min(...layouts.map((l) => l.at + 8));
  const short = (end: number) =>
    new SszError('SHORT_INPUT', `${bytes.length} bytes hold no slot (it ends at byte ${end})`, bytes.length, `${kind}.slot`);
  if (bytes.length < shortest) throw short(shortest);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (const layout of layouts) {
    if (layout.offset !== undefined && dv.getUint32(layout.offset.at, true) !== layout.offset.is) continue;
    if (bytes.length < layout.at + 8) throw short(layout.at + 8);
    return dv.getBigUint64(layout.at, true);
  }
  const first = layouts[0]?.offset as NonNullable<SlotLayout['offset']>;
  const expected = layouts.map((l) => (layouts.length > 1 ? `${l.offset?.is} (${l.forks})` : `${l.offset?.is}`)).join(' or ');
  throw new SszError('BAD_OFFSET', `offset ${dv.getUint32(first.at, true)} is not the fixed part's end ${expected}`, first.at, `${kind}.${first.field}`);
}

/** The fork of serialized `kind` bytes on `network`, from their slot. */
export function forkOfBytes(network: NetworkName | Network, kind: SlotCarrier, bytes: Uint8Array): ScheduledFork {
  return forkAt(network, slotOf(kind, bytes));
}
