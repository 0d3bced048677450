/**
 * Byte bounds of the consensus types. Every type refuses input longer than
 * its `byteBound` before decoding (`SszType.deserialize`); for the types of
 * phase0 … fulu that bound is the one the spec derives from the type's
 * limits (`specs/phase0/p2p-interface.md`, "What are SSZ type size
 * bounds?"). Gloas and heze give some types an explicit bound
 * ("type-specific SSZ bounds", `presets/*\/gloas.yaml`, `heze.yaml`) where
 * progressive lists no longer bound the size: `TYPE_BYTE_BOUNDS` names them,
 * and `applyByteBounds` sets them on a fork's freshly built types.
 * @module
 */
import { withByteBound, type SszType } from '../index.js';
import { P2P, type Preset } from './preset.js';

type BoundConstant =
  | 'MAX_SIGNED_AGGREGATE_AND_PROOF_SIZE'
  | 'MAX_ATTESTER_SLASHING_SIZE'
  | 'MAX_DATA_COLUMN_SIDECAR_SIZE'
  | 'MAX_PARTIAL_DATA_COLUMN_SIDECAR_SIZE'
  | 'MAX_SIGNED_EXECUTION_PAYLOAD_BID_SIZE'
  | 'MAX_SIGNED_EXECUTION_PAYLOAD_BID_SIZE_HEZE'
  | 'MAX_SIGNED_INCLUSION_LIST_SIZE';

/** The spec's explicit bounds, per fork: type name → preset constant (`specs/gloas/p2p-interface.md`, `partial-columns/`, `specs/heze/p2p-interface.md`). */
export const TYPE_BYTE_BOUNDS: Readonly<Record<'gloas' | 'heze', Readonly<Record<string, BoundConstant>>>> = Object.freeze({
  gloas: Object.freeze({
    SignedAggregateAndProof: 'MAX_SIGNED_AGGREGATE_AND_PROOF_SIZE',
    AttesterSlashing: 'MAX_ATTESTER_SLASHING_SIZE',
    DataColumnSidecar: 'MAX_DATA_COLUMN_SIDECAR_SIZE',
    PartialDataColumnSidecar: 'MAX_PARTIAL_DATA_COLUMN_SIDECAR_SIZE',
    SignedExecutionPayloadBid: 'MAX_SIGNED_EXECUTION_PAYLOAD_BID_SIZE',
  }),
  heze: Object.freeze({
    SignedExecutionPayloadBid: 'MAX_SIGNED_EXECUTION_PAYLOAD_BID_SIZE_HEZE',
    SignedInclusionList: 'MAX_SIGNED_INCLUSION_LIST_SIZE',
  }),
});

/**
 * Sets the spec's explicit bounds of `fork` on the fork's own types (those
 * it builds itself, not ones carried over from an earlier fork, which keep
 * theirs). Every named type must be there.
 */
export function applyByteBounds(types: Readonly<Record<string, unknown>>, fork: keyof typeof TYPE_BYTE_BOUNDS, p: Preset): void {
  for (const [name, constant] of Object.entries(TYPE_BYTE_BOUNDS[fork])) {
    const type = types[name] as SszType<unknown> | undefined;
    if (type === undefined) throw new Error(`${fork} has no type ${name} to bound`);
    withByteBound(type, p[constant]);
  }
}

/**
 * The largest payload of `type` a p2p message may carry: its byte bound or
 * `MAX_PAYLOAD_SIZE`, whichever is lower (`specs/phase0/p2p-interface.md`,
 * gossip and req/resp size limits).
 */
export function p2pPayloadBound(type: SszType<unknown>): number {
  return Math.min(type.byteBound, P2P.MAX_PAYLOAD_SIZE);
}
