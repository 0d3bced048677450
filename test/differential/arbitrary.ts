/**
 * fast-check arbitraries derived from our schemas: any schema yields an
 * arbitrary of its values. Lengths are capped (lists at a few elements, byte
 * lists and bitlists at tens of bytes) so whole beacon states stay cheap;
 * long vectors draw their elements from a small random pool by a seeded
 * generator instead of one arbitrary per element, and long byte vectors
 * (blobs, cells) are filled by a seeded generator in one pass.
 *
 * `{ uint64Max }` caps uint64 values (the @lodestar/types comparison: its
 * Slot, Epoch and index types hold uint64 as a JS number, exact to 2^53).
 */
import fc from 'fast-check';
import {
  BitArray,
  BitlistType,
  BitvectorType,
  BooleanType,
  ByteListType,
  CompatibleUnionType,
  ByteVectorType,
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
  type BasicType,
  type SszType,
} from '@ssztree/types';

type AnyOurs = SszType<unknown>;
type Arb = fc.Arbitrary<unknown>;

const MAX_COMPOSITE_ITEMS = 4;
const MAX_BASIC_ITEMS = 40;
const MAX_BYTES = 64;
const MAX_BITS = 100;
/** Vectors longer than this draw from a pool. */
const POOL_AFTER = 64;

const bits = (n: number): fc.Arbitrary<BitArray> => fc.array(fc.boolean(), { minLength: n, maxLength: n }).map((b) => BitArray.fromBoolArray(b));

function pooled(elem: Arb, length: number): fc.Arbitrary<unknown[]> {
  return fc.tuple(fc.array(elem, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 0x7fffffff })).map(([pool, seed]) => {
    let s = seed;
    const out = new Array<unknown>(length);
    for (let i = 0; i < length; i++) {
      s = (s * 48271) % 0x7fffffff;
      out[i] = pool[s % pool.length];
    }
    return out;
  });
}

export interface ArbitraryOptions {
  /** Largest uint64 drawn (default 2^64 − 1). */
  readonly uint64Max?: bigint;
  /**
   * The most elements (bits, bytes) drawn for a progressive list of this
   * type object, where a peer enforces a limit the spec does not have
   * (@lodestar/types 1.50 validates limits on its progressive lists).
   */
  readonly progressiveCap?: (type: AnyOurs) => number | undefined;
}

/** A byte array of `length` filled from one seed (xorshift32), so a 128 KiB blob costs one draw. */
function seededBytes(length: number): fc.Arbitrary<Uint8Array> {
  return fc.integer({ min: 1, max: 0x7fffffff }).map((seed) => {
    const out = new Uint8Array(length);
    const words = new Uint32Array(out.buffer, 0, length >>> 2);
    let x = seed;
    for (let i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      words[i] = x >>> 0;
    }
    for (let i = words.length * 4; i < length; i++) out[i] = (seed >>> (8 * (i & 3))) & 0xff;
    return out;
  });
}

/**
 * Counts for progressive kinds (`units` per chunk): any up to `max`, or one
 * next to a subtree boundary — 1, 5, 21, 85, 341 chunks filled, ± 1 — so the
 * edges of each subtree are drawn often.
 */
function progressiveCount(units: number, max: number): fc.Arbitrary<number> {
  const edges = [0, 1, 5, 21, 85, 341].flatMap((c) => [c * units - 1, c * units, c * units + 1]).filter((n) => n >= 0 && n <= max);
  return fc.oneof(fc.integer({ min: 0, max }), fc.constantFrom(...edges));
}

export function arbitrary(type: AnyOurs, opts: ArbitraryOptions = {}): Arb {
  const t = type as unknown;
  const arbitrary = (inner: AnyOurs): Arb => arbitraryOf(inner, opts);
  if (t instanceof UintNumberType) return fc.integer({ min: 0, max: 2 ** (8 * t.byteLength) - 1 });
  if (t instanceof Uint64Type) return fc.bigInt({ min: 0n, max: opts.uint64Max ?? 2n ** 64n - 1n });
  if (t instanceof UintBigType) return fc.bigInt({ min: 0n, max: 2n ** BigInt(8 * t.byteLength) - 1n });
  if (t instanceof Uint64NumberType) return fc.oneof(fc.integer({ min: 0, max: 2 ** 32 }), fc.maxSafeNat(), fc.constant(2 ** 53), fc.constant(Infinity));
  if (t instanceof BooleanType) return fc.boolean();
  if (t instanceof ByteVectorType) return t.length > POOL_AFTER ? seededBytes(t.length) : fc.uint8Array({ minLength: t.length, maxLength: t.length });
  if (t instanceof ByteListType) return fc.uint8Array({ maxLength: Math.min(t.limit, MAX_BYTES) });
  if (t instanceof BitvectorType) return bits(t.length);
  if (t instanceof BitlistType) return fc.integer({ min: 0, max: Math.min(t.limit, MAX_BITS) }).chain(bits);
  const cap = (max: number) => Math.min(max, opts.progressiveCap?.(type) ?? max);
  if (t instanceof ProgressiveByteListType) return progressiveCount(32, cap(700)).chain((n) => fc.uint8Array({ minLength: n, maxLength: n }));
  if (t instanceof ProgressiveBitlistType) return progressiveCount(256, cap(3000)).chain(bits);
  if (t instanceof ProgressiveListBasicType) {
    const elem = t.elementType as BasicType<unknown, never>;
    return progressiveCount(t._perChunk, cap(24 * t._perChunk))
      .chain((n) => fc.array(arbitrary(elem as AnyOurs), { minLength: n, maxLength: n }))
      .map((values) => elem._arrayFrom(values as never[]));
  }
  if (t instanceof ProgressiveListCompositeType) {
    return progressiveCount(1, cap(24)).chain((n) => fc.array(arbitrary(t.elementType as AnyOurs), { minLength: n, maxLength: n }));
  }
  if (t instanceof ProgressiveContainerType) {
    const fields: Record<string, Arb> = {};
    for (const [name, f] of Object.entries(t.fields as Record<string, AnyOurs>)) fields[name] = arbitrary(f);
    return fc.record(fields);
  }
  if (t instanceof CompatibleUnionType) {
    const options = t.options as Record<number, AnyOurs>;
    return fc.oneof(...t.selectors.map((selector) => arbitrary(options[selector] as AnyOurs).map((data) => ({ selector, data }))));
  }
  if (t instanceof VectorBasicType || t instanceof ListBasicType) {
    const elem = t.elementType as BasicType<unknown, never>;
    const n = t instanceof VectorBasicType ? t.length : null;
    const items =
      n === null
        ? fc.array(arbitrary(elem as AnyOurs), { maxLength: Math.min((t as ListBasicType<unknown, never>).limit, MAX_BASIC_ITEMS) })
        : n > POOL_AFTER
          ? pooled(arbitrary(elem as AnyOurs), n)
          : fc.array(arbitrary(elem as AnyOurs), { minLength: n, maxLength: n });
    return items.map((values) => elem._arrayFrom(values as never[]));
  }
  if (t instanceof VectorCompositeType) {
    const elem = arbitrary(t.elementType as AnyOurs);
    return t.length > POOL_AFTER ? pooled(elem, t.length) : fc.array(elem, { minLength: t.length, maxLength: t.length });
  }
  if (t instanceof ListCompositeType) return fc.array(arbitrary(t.elementType as AnyOurs), { maxLength: Math.min(t.limit, MAX_COMPOSITE_ITEMS) });
  if (t instanceof ContainerType) {
    const fields: Record<string, Arb> = {};
    for (const [name, f] of Object.entries(t.fields as Record<string, AnyOurs>)) fields[name] = arbitrary(f);
    return fc.record(fields);
  }
  if (t instanceof UnionType) {
    const options = t.options as readonly (AnyOurs | null)[];
    return fc.oneof(
      ...options.map((o, selector) => (o === null ? fc.constant({ selector, value: null }) : arbitrary(o).map((value) => ({ selector, value })))),
    );
  }
  throw new Error(`no arbitrary for ${type.typeName}`);
}

const arbitraryOf = arbitrary;
