/**
 * Compatible merkleization (the SSZ spec's rule for the options of a
 * `CompatibleUnion`, EIP-8016): two types are compatible when values of
 * either have the same tree positions for what they share.
 *
 * - a type is compatible with itself — with any schema of the same SSZ
 *   definition (`sameShape`): `uint8` is the spec's Byte, ByteList[N] is
 *   List[Byte, N], a bitlist or bitvector of the same capacity, two
 *   progressive bitlists;
 * - List[T, N] and Vector[T, N]: the same N and compatible T;
 *   ProgressiveList[T]: compatible T;
 * - Container: the same field names in the same order, compatible types;
 * - ProgressiveContainer: where both patterns have a 1 the fields have the
 *   same name and compatible types, and a name both have sits at the same
 *   position;
 * - CompatibleUnion: every option of one compatible with every option of the
 *   other;
 * - nothing else.
 *
 * A compatible union is recognised by its options (`CompatibleOptions`) so
 * that this module names no union class (compatibleUnion.ts imports it).
 * @module
 */
import { sameShape } from '../shape.js';
import type { SszType } from '../type.js';
import { ContainerType } from './container.js';
import { ListBasicType, ListCompositeType } from './list.js';
import { ProgressiveContainerType } from './progressiveContainer.js';
import { ProgressiveListBasicType, ProgressiveListCompositeType } from './progressiveList.js';
import { VectorBasicType, VectorCompositeType } from './vector.js';
import type { Fields } from '../type.js';

/** What a compatible union shows of itself to the rule: its options. */
export interface CompatibleOptions {
  readonly _compatibleOptions: readonly SszType<unknown>[];
}

function optionsOf(t: SszType<unknown>): readonly SszType<unknown>[] | null {
  return (t as Partial<CompatibleOptions>)._compatibleOptions ?? null;
}

type AnySchema = SszType<unknown>;

/** True when `a` and `b` have compatible merkleization (see the module comment). */
export function compatible(a: AnySchema, b: AnySchema): boolean {
  if (sameShape(a, b)) return true;
  const oa = optionsOf(a);
  const ob = optionsOf(b);
  if (oa !== null || ob !== null) return oa !== null && ob !== null && oa.every((x) => ob.every((y) => compatible(x, y)));
  if ((a instanceof ListBasicType || a instanceof ListCompositeType) && (b instanceof ListBasicType || b instanceof ListCompositeType)) {
    return a.limit === b.limit && compatible(a.elementType as AnySchema, b.elementType as AnySchema);
  }
  if ((a instanceof VectorBasicType || a instanceof VectorCompositeType) && (b instanceof VectorBasicType || b instanceof VectorCompositeType)) {
    return a.length === b.length && compatible(a.elementType as AnySchema, b.elementType as AnySchema);
  }
  const progressiveList = (t: AnySchema): t is ProgressiveListBasicType<unknown, never> | ProgressiveListCompositeType<unknown> =>
    t instanceof ProgressiveListBasicType || t instanceof ProgressiveListCompositeType;
  if (progressiveList(a) && progressiveList(b)) return compatible(a.elementType as AnySchema, b.elementType as AnySchema);
  if (a instanceof ContainerType && b instanceof ContainerType) return containersCompatible(a, b);
  if (a instanceof ProgressiveContainerType && b instanceof ProgressiveContainerType) return progressiveContainersCompatible(a, b);
  return false;
}

function containersCompatible(a: ContainerType<Fields>, b: ContainerType<Fields>): boolean {
  const na = a.fieldNames;
  const nb = b.fieldNames;
  return na.length === nb.length && na.every((n, i) => n === nb[i] && compatible(a.fields[n] as AnySchema, b.fields[n] as AnySchema));
}

function progressiveContainersCompatible(a: ProgressiveContainerType<Fields>, b: ProgressiveContainerType<Fields>): boolean {
  const at = new Map(a.fieldNames.map((n, i) => [n, a._chunks[i] as number]));
  const bt = new Map(b.fieldNames.map((n, i) => [n, b._chunks[i] as number]));
  const nameAt = (t: ProgressiveContainerType<Fields>, chunk: number): string => t.fieldNames[t._chunks.indexOf(chunk)] as string;
  // Where both patterns are active: one name, compatible types.
  for (let j = 0; j < Math.min(a.activeFields.length, b.activeFields.length); j++) {
    if (!a.activeFields[j] || !b.activeFields[j]) continue;
    const name = nameAt(a, j);
    if (nameAt(b, j) !== name || !compatible(a.fields[name] as AnySchema, b.fields[name] as AnySchema)) return false;
  }
  // A name both have is at one position.
  for (const [name, chunk] of at) if (bt.has(name) && bt.get(name) !== chunk) return false;
  return true;
}
