/**
 * The @chainsafe/ssz type equivalent to one of our schemas (field names,
 * lengths and limits carried over), built from a ChainSafe module the caller
 * passes in: the demo loads it dynamically (it may be missing), the
 * differential tests import it statically. One builder for both, so the two
 * can never map a schema differently.
 */
import {
  BitlistType,
  BitvectorType,
  BooleanType,
  ByteListType,
  ByteVectorType,
  CompatibleUnionType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
  ProgressiveBitlistType,
  ProgressiveByteListType,
  ProgressiveContainerType,
  ProgressiveListBasicType,
  ProgressiveListCompositeType,
  Uint64NumberType,
  Uint64Type,
  UintBigType,
  UintNumberType,
  UnionType,
  VectorBasicType,
  VectorCompositeType,
  type SszType,
} from '@ssztree/types';

export type ChainSafeModule = typeof import('@chainsafe/ssz');
export type PeerType = import('@chainsafe/ssz').Type<unknown>;
type AnyOurs = SszType<unknown>;

/** The ChainSafe type equivalent to `type`, memoised in `cache` (one ChainSafe type per schema object). */
export function peerTypeOf(cs: ChainSafeModule, type: AnyOurs, cache: WeakMap<object, PeerType>): PeerType {
  const hit = cache.get(type);
  if (hit !== undefined) return hit;
  const made = build(cs, type, cache);
  cache.set(type, made);
  return made;
}

function build(cs: ChainSafeModule, type: AnyOurs, cache: WeakMap<object, PeerType>): PeerType {
  const t = type as unknown;
  const inner = (x: unknown) => peerTypeOf(cs, x as AnyOurs, cache) as never;
  if (t instanceof UintNumberType) return new cs.UintNumberType(t.byteLength as 1 | 2 | 4) as PeerType;
  if (t instanceof Uint64Type) return new cs.UintBigintType(8) as PeerType;
  if (t instanceof UintBigType) return new cs.UintBigintType(t.byteLength as 16 | 32) as PeerType;
  if (t instanceof Uint64NumberType) return new cs.UintNumberType(8, { clipInfinity: true }) as PeerType;
  if (t instanceof BooleanType) return new cs.BooleanType() as PeerType;
  if (t instanceof ByteVectorType) return new cs.ByteVectorType(t.length) as PeerType;
  if (t instanceof ByteListType) return new cs.ByteListType(t.limit) as PeerType;
  if (t instanceof BitvectorType) return new cs.BitVectorType(t.length) as PeerType;
  if (t instanceof BitlistType) return new cs.BitListType(t.limit) as PeerType;
  if (t instanceof VectorBasicType) return new cs.VectorBasicType(inner(t.elementType), t.length) as PeerType;
  if (t instanceof ListBasicType) return new cs.ListBasicType(inner(t.elementType), t.limit) as PeerType;
  if (t instanceof VectorCompositeType) return new cs.VectorCompositeType(inner(t.elementType), t.length) as PeerType;
  if (t instanceof ListCompositeType) return new cs.ListCompositeType(inner(t.elementType), t.limit) as PeerType;
  if (t instanceof ContainerType) {
    const fields: Record<string, PeerType> = {};
    for (const [name, f] of Object.entries(t.fields as Record<string, AnyOurs>)) fields[name] = inner(f);
    return new cs.ContainerType(fields as never, { typeName: t.typeName }) as unknown as PeerType;
  }
  if (t instanceof ProgressiveByteListType) return new cs.ProgressiveByteListType() as PeerType;
  if (t instanceof ProgressiveBitlistType) return new cs.ProgressiveBitListType() as PeerType;
  if (t instanceof ProgressiveListBasicType) return new cs.ProgressiveListBasicType(inner(t.elementType)) as PeerType;
  if (t instanceof ProgressiveListCompositeType) return new cs.ProgressiveListCompositeType(inner(t.elementType)) as PeerType;
  if (t instanceof ProgressiveContainerType) {
    const fields: Record<string, PeerType> = {};
    for (const [name, f] of Object.entries(t.fields as Record<string, AnyOurs>)) fields[name] = inner(f);
    return new cs.ProgressiveContainerType(fields as never, [...t.activeFields], { typeName: t.typeName }) as unknown as PeerType;
  }
  if (t instanceof CompatibleUnionType) {
    const options: Record<number, PeerType> = {};
    for (const s of t.selectors) options[s] = inner((t.options as Record<number, AnyOurs>)[s]);
    return new cs.CompatibleUnionType(options as never) as unknown as PeerType;
  }
  if (t instanceof UnionType) {
    const options = (t.options as readonly (AnyOurs | null)[]).map((o) => (o === null ? new cs.NoneType() : inner(o)));
    return new cs.UnionType(options as never) as unknown as PeerType;
  }
  throw new Error(`no @chainsafe/ssz equivalent for ${type.typeName}`);
}
