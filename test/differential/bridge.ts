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
  BooleanType,
  ByteListType,
  ByteVectorType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
  Uint64NumberType,
  Uint64Type,
  UintBigType,
  UintNumberType,
  UnionType,
  VectorBasicType,
  VectorCompositeType,
  type SszType,
} from '@ssztree/types';

export type PeerType = cs.Type<unknown>;
type AnyOurs = SszType<unknown>;

const cache = new WeakMap<object, PeerType>();

/** The ChainSafe type equivalent to `type`. */
export function peerType(type: AnyOurs): PeerType {
  const hit = cache.get(type);
  if (hit) return hit;
  const made = build(type);
  cache.set(type, made);
  return made;
}

function build(type: AnyOurs): PeerType {
  const t = type as unknown;
  if (t instanceof UintNumberType) return new cs.UintNumberType(t.byteLength as 1 | 2 | 4) as PeerType;
  if (t instanceof Uint64Type) return new cs.UintBigintType(8) as PeerType;
  if (t instanceof UintBigType) return new cs.UintBigintType(t.byteLength as 16 | 32) as PeerType;
  if (t instanceof Uint64NumberType) return new cs.UintNumberType(8, { clipInfinity: true }) as PeerType;
  if (t instanceof BooleanType) return new cs.BooleanType() as PeerType;
  if (t instanceof ByteVectorType) return new cs.ByteVectorType(t.length) as PeerType;
  if (t instanceof ByteListType) return new cs.ByteListType(t.limit) as PeerType;
  if (t instanceof BitvectorType) return new cs.BitVectorType(t.length) as PeerType;
  if (t instanceof BitlistType) return new cs.BitListType(t.limit) as PeerType;
  if (t instanceof VectorBasicType) return new cs.VectorBasicType(peerType(t.elementType as AnyOurs) as never, t.length) as PeerType;
  if (t instanceof ListBasicType) return new cs.ListBasicType(peerType(t.elementType as AnyOurs) as never, t.limit) as PeerType;
  if (t instanceof VectorCompositeType) return new cs.VectorCompositeType(peerType(t.elementType as AnyOurs) as never, t.length) as PeerType;
  if (t instanceof ListCompositeType) return new cs.ListCompositeType(peerType(t.elementType as AnyOurs) as never, t.limit) as PeerType;
  if (t instanceof ContainerType) {
    const fields: Record<string, PeerType> = {};
    for (const [name, f] of Object.entries(t.fields as Record<string, AnyOurs>)) fields[name] = peerType(f);
    return new cs.ContainerType(fields as never, { typeName: t.typeName }) as unknown as PeerType;
  }
  if (t instanceof UnionType) {
    const options = (t.options as readonly (AnyOurs | null)[]).map((o) => (o === null ? new cs.NoneType() : peerType(o)));
    return new cs.UnionType(options as never) as unknown as PeerType;
  }
  throw new Error(`no ChainSafe equivalent for ${type.typeName}`);
}

/** Our value in ChainSafe's value form. */
export function peerValue(type: AnyOurs, value: unknown): unknown {
  const t = type as unknown;
  if (t instanceof VectorBasicType || t instanceof ListBasicType) return Array.from(value as ArrayLike<unknown>);
  if (t instanceof BitvectorType || t instanceof BitlistType) {
    const bits = value as BitArray;
    return new cs.BitArray(bits.uint8Array.slice(), bits.bitLen);
  }
  if (t instanceof VectorCompositeType || t instanceof ListCompositeType) {
    const elem = t.elementType as AnyOurs;
    return (value as unknown[]).map((v) => peerValue(elem, v));
  }
  if (t instanceof ContainerType) {
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
