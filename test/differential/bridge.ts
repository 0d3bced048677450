/**
 * The bridge to @chainsafe/ssz: builds the equivalent ChainSafe type from
 * one of our schemas, and converts our values to ChainSafe's value forms
 * (typed arrays to plain arrays, our BitArray to theirs). Values are
 * otherwise shared as they are: plain objects with the same keys, bigint
 * and number uints, Uint8Array bytes.
 */
import * as cs from '@chainsafe/ssz';
import {
  BitArray,
  BitlistType,
  BitvectorType,
  CompatibleUnionType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
  ProgressiveBitlistType,
  ProgressiveContainerType,
  ProgressiveListBasicType,
  ProgressiveListCompositeType,
  UnionType,
  VectorBasicType,
  VectorCompositeType,
  type SszType,
} from '@ssztree/types';
import { peerTypeOf, type PeerType } from '../../demo/peerType.js';

export type { PeerType };
type AnyOurs = SszType<unknown>;

const cache = new WeakMap<object, PeerType>();

/** The ChainSafe type equivalent to `type` (the builder the demo's --compare uses too). */
export function peerType(type: AnyOurs): PeerType {
  return peerTypeOf(cs, type, cache);
}

/** Our value in ChainSafe's value form. */
export function peerValue(type: AnyOurs, value: unknown): unknown {
  const t = type as unknown;
  if (t instanceof VectorBasicType || t instanceof ListBasicType || t instanceof ProgressiveListBasicType) return Array.from(value as ArrayLike<unknown>);
  if (t instanceof BitvectorType || t instanceof BitlistType || t instanceof ProgressiveBitlistType) {
    const bits = value as BitArray;
    return new cs.BitArray(bits.uint8Array.slice(), bits.bitLen);
  }
  if (t instanceof VectorCompositeType || t instanceof ListCompositeType || t instanceof ProgressiveListCompositeType) {
    const elem = t.elementType as AnyOurs;
    return (value as unknown[]).map((v) => peerValue(elem, v));
  }
  if (t instanceof CompatibleUnionType) {
    const { selector, data } = value as { selector: number; data: unknown };
    return { selector, data: peerValue((t.options as Record<number, AnyOurs>)[selector] as AnyOurs, data) };
  }
  if (t instanceof ContainerType || t instanceof ProgressiveContainerType) {
    const out: Record<string, unknown> = {};
    for (const [name, f] of Object.entries(t.fields as Record<string, AnyOurs>)) {
      out[name] = peerValue(f, (value as Record<string, unknown>)[name]);
    }
    return out;
  }
  if (t instanceof UnionType) {
    const { selector, value: inner } = value as { selector: number; value: unknown };
    const option = (t.options as readonly (AnyOurs | null)[])[selector];
    return { selector, value: option === null || option === undefined ? null : peerValue(option, inner) };
  }
  return value;
}
