/**
 * The structure of one valid encoding: where its offsets sit, what they
 * point to, and where the byte ranges that carry a length (lists, byte
 * lists, bitlists) or a constrained value (booleans, bitvector padding,
 * union selectors) lie. Mutators use it to rewrite offsets and to resize a
 * list in place while keeping every enclosing offset consistent.
 *
 * Walked from the schema over bytes known to be valid (a seed), so the walk
 * itself trusts the offsets it reads.
 */
import {
  BitlistType,
  BitvectorType,
  BooleanType,
  ByteListType,
  CompatibleUnionType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
  ProgressiveBitlistType,
  ProgressiveByteListType,
  ProgressiveContainerType,
  ProgressiveListBasicType,
  ProgressiveListCompositeType,
  UnionType,
  VectorBasicType,
  VectorCompositeType,
  type SszType,
} from '@ssztree/types';

type AnyType = SszType<unknown>;

export type RegionKind = 'list' | 'bitlist' | 'bitvector' | 'boolean' | 'union' | 'composite';

export interface Region {
  readonly kind: RegionKind;
  readonly type: AnyType;
  readonly start: number;
  readonly end: number;
  /** Index of the enclosing region, -1 at the top. */
  readonly parent: number;
  /** For lists: the element count limit and the element's fixed size (bytes per element). */
  readonly limit: number;
  readonly elemSize: number;
}

/** One 4-byte offset in an offset table (a container's fixed part, or a composite list/vector's table). */
export interface OffsetSlot {
  /** Absolute position of the 4 offset bytes. */
  readonly pos: number;
  /** Absolute start of the enclosing composite: offsets are relative to it. */
  readonly base: number;
  /** Absolute end of the enclosing composite. */
  readonly end: number;
  /** Absolute end of the fixed part (the offset table) of the enclosing composite. */
  readonly fixedEnd: number;
  /** Index of the region the offset points to. */
  readonly region: number;
  /** Index of this table (slots of one table share it) and position in it. */
  readonly table: number;
  readonly index: number;
}

export interface Layout {
  readonly size: number;
  readonly regions: Region[];
  readonly slots: OffsetSlot[];
}

const interestingCache = new WeakMap<object, boolean>();

/** True when a fixed-size type holds something a mutator targets (booleans, bitvector padding). */
function interesting(type: AnyType): boolean {
  const hit = interestingCache.get(type);
  if (hit !== undefined) return hit;
  const t = type as unknown;
  let v = false;
  if (t instanceof BooleanType) v = true;
  else if (t instanceof BitvectorType) v = t.length % 8 !== 0;
  else if (t instanceof VectorBasicType) v = t.elementType instanceof BooleanType;
  else if (t instanceof VectorCompositeType) v = interesting(t.elementType as AnyType);
  else if (t instanceof ContainerType || t instanceof ProgressiveContainerType) v = Object.values(t.fields as Record<string, AnyType>).some(interesting);
  else if (type.fixedSize === null) v = true;
  interestingCache.set(type, v);
  return v;
}

/** Walks a valid encoding of `type`. At most `maxRegions` regions are recorded (huge vectors stop early). */
export function layoutOf(type: AnyType, bytes: Uint8Array, maxRegions = 20_000): Layout {
  const regions: Region[] = [];
  const slots: OffsetSlot[] = [];
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let tables = 0;

  const add = (kind: RegionKind, t: AnyType, start: number, end: number, parent: number, limit = 0, elemSize = 0): number => {
    regions.push({ kind, type: t, start, end, parent, limit, elemSize });
    return regions.length - 1;
  };

  const walkSequence = (elem: AnyType, start: number, end: number, me: number, count: number | null): void => {
    const fixed = elem.fixedSize;
    if (fixed !== null) {
      if (!interesting(elem)) return;
      const n = (end - start) / fixed;
      for (let i = 0; i < n && regions.length < maxRegions; i++) walk(elem, start + i * fixed, start + (i + 1) * fixed, me);
      return;
    }
    if (end === start) return;
    const n = count ?? dv.getUint32(start, true) / 4;
    const table = tables++;
    const targets: number[] = [];
    for (let i = 0; i < n; i++) targets.push(start + dv.getUint32(start + 4 * i, true));
    for (let i = 0; i < n && regions.length < maxRegions; i++) {
      const from = targets[i] as number;
      const to = i + 1 < n ? (targets[i + 1] as number) : end;
      const child = walk(elem, from, to, me);
      slots.push({ pos: start + 4 * i, base: start, end, fixedEnd: start + 4 * n, region: child, table, index: i });
    }
  };

  function walk(t: AnyType, start: number, end: number, parent: number): number {
    const u = t as unknown;
    if (u instanceof BooleanType) return add('boolean', t, start, end, parent);
    if (u instanceof BitvectorType) return add('bitvector', t, start, end, parent);
    if (u instanceof BitlistType) return add('bitlist', t, start, end, parent, u.limit, 0);
    if (u instanceof ProgressiveBitlistType) return add('bitlist', t, start, end, parent, u.limit, 0);
    if (u instanceof ByteListType || u instanceof ProgressiveByteListType) return add('list', t, start, end, parent, u.limit, 1);
    if (u instanceof ProgressiveListBasicType) return add('list', t, start, end, parent, u.maxLength, (u.elementType as unknown as { byteLength: number }).byteLength);
    if (u instanceof ProgressiveListCompositeType) {
      const elem = u.elementType as AnyType;
      const me = add('list', t, start, end, parent, u.maxLength, elem.fixedSize ?? 0);
      walkSequence(elem, start, end, me, null);
      return me;
    }
    // A progressive container is laid out as the plain container of its fields.
    if (u instanceof ProgressiveContainerType) return walk(u._codec as AnyType, start, end, parent);
    if (u instanceof CompatibleUnionType) {
      const me = add('union', t, start, end, parent);
      const option = (u.options as Record<number, AnyType>)[bytes[start] as number];
      if (option) walk(option, start + 1, end, me);
      return me;
    }
    if (u instanceof ListBasicType) return add('list', t, start, end, parent, u.limit, (u.elementType as unknown as { byteLength: number }).byteLength);
    if (u instanceof VectorBasicType) {
      const me = add('composite', t, start, end, parent);
      if (u.elementType instanceof BooleanType) for (let i = start; i < end && regions.length < maxRegions; i++) add('boolean', u.elementType as unknown as AnyType, i, i + 1, me);
      return me;
    }
    if (u instanceof ListCompositeType) {
      const elem = u.elementType as AnyType;
      const me = add('list', t, start, end, parent, u.limit, elem.fixedSize ?? 0);
      walkSequence(elem, start, end, me, null);
      return me;
    }
    if (u instanceof VectorCompositeType) {
      const me = add('composite', t, start, end, parent);
      walkSequence(u.elementType as AnyType, start, end, me, u.length);
      return me;
    }
    if (u instanceof UnionType) {
      const me = add('union', t, start, end, parent);
      const option = (u.options as readonly (AnyType | null)[])[bytes[start] as number];
      if (option) walk(option, start + 1, end, me);
      return me;
    }
    if (u instanceof ContainerType) {
      const me = add('composite', t, start, end, parent);
      const fields = Object.values(u.fields as Record<string, AnyType>);
      const fixedEnd = start + u.fixedPartSize;
      let pos = start;
      const vars: { pos: number; type: AnyType }[] = [];
      for (const f of fields) {
        if (f.fixedSize === null) {
          vars.push({ pos, type: f });
          pos += 4;
        } else {
          if (interesting(f) && regions.length < maxRegions) walk(f, pos, pos + f.fixedSize, me);
          pos += f.fixedSize;
        }
      }
      const table = tables++;
      vars.forEach((v, i) => {
        const from = start + dv.getUint32(v.pos, true);
        const next = vars[i + 1];
        const to = next ? start + dv.getUint32(next.pos, true) : end;
        const child = walk(v.type, from, to, me);
        slots.push({ pos: v.pos, base: start, end, fixedEnd, region: child, table, index: i });
      });
      return me;
    }
    return add('composite', t, start, end, parent);
  }

  walk(type, 0, bytes.length, -1);
  return { size: bytes.length, regions, slots };
}

/**
 * Replaces the bytes of region `index` (a list, byte list, bitlist or union,
 * whose own offsets are dropped with its bytes) by `body`, and moves every
 * offset that points past it so the rest of the encoding stays consistent.
 * Offsets count from the start of their composite, so only those whose
 * composite starts before the change and whose target lies after it move.
 */
export function replaceRegion(bytes: Uint8Array, layout: Layout, index: number, body: Uint8Array): Uint8Array {
  const r = layout.regions[index] as Region;
  const delta = body.length - (r.end - r.start);
  const out = new Uint8Array(bytes.length + delta);
  out.set(bytes.subarray(0, r.start), 0);
  out.set(body, r.start);
  out.set(bytes.subarray(r.end), r.start + body.length);
  const dv = new DataView(out.buffer);
  const src = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const p = r.end;
  for (const s of layout.slots) {
    if (s.pos >= r.start && s.pos < r.end) continue; // inside the replaced bytes (cannot happen for lists of fixed elements)
    const value = src.getUint32(s.pos, true);
    const target = s.base + value;
    const pos = s.pos >= p ? s.pos + delta : s.pos;
    // Offsets to regions after this one move; regions are numbered in document order, which
    // tells an empty region just before this one (same target, lower number) from one after it.
    if (s.base < p && (target > p || (target === p && s.region > index))) dv.setUint32(pos, value + delta, true);
  }
  return out;
}
