/**
 * Building the subtree of a plain value from the subtree of a base value it
 * was derived from (typically the previous `immer` result): only the
 * children that differ are rebuilt, and written into the base's tree in one
 * sorted batch per collection; the store hashes the dirty paths in batches
 * at the next root computation.
 *
 * What "differs" means, per schema:
 * - containers (not stored as packed records): a field differs unless it is
 *   the very same value (`===`); differing composite fields recurse with the
 *   base's field as their base, so one changed validator inside
 *   `state.validators` costs one element, not a new list;
 * - lists and vectors of composites: an element differs unless identical;
 *   differing elements are rebuilt (in one batch through `_toNodes`);
 * - lists and vectors of uints/booleans: compared by value, element by
 *   element; each differing 32-byte chunk is repacked and written.
 * A value that shares less than half with its base is built from scratch.
 *
 * Invariants: identity is only trusted for children of a trusted base (see
 * `trust.ts`), so the result always equals `type._toNode(value)` in root;
 * a result is reported trusted only if the value is deeply frozen; the base
 * tree is never changed (core writes are persistent).
 * @module
 */
import type { NodeId, NodeStore } from '@ssztree/core';
import { Tree } from '@ssztree/core';
import { depthForLimit } from '@ssztree/hasher';
import { withPath } from '../errors.js';
import type { AnyType, BasicArray, BasicType } from '../type.js';
import { treeError } from '../tree/nodes.js';
import { cachedTree, rememberTree } from './cache.js';
import { isDeepFrozen } from './trust.js';

/** A built subtree (floating or held) and whether its value may be cached by identity. */
export interface Built {
  readonly node: NodeId;
  readonly trusted: boolean;
}

/** The trusted value a new value is compared with, and its subtree. */
export interface Base {
  readonly value: unknown;
  readonly node: NodeId;
}

// The schema shapes, read structurally: importing the schema classes here would close an import cycle through type.ts.
interface ContainerShape {
  readonly fields: Readonly<Record<string, AnyType>>;
  readonly _recordDepth: number;
}
interface SequenceShape {
  readonly elementType: AnyType;
  readonly limit?: number;
  readonly length?: number;
}

type Kind = 'container' | 'composite' | 'packed' | null;

/** How values of `type` are diffed; null for schemas built whole (records, bytes, bitfields, unions, basics). */
export function kindOf(type: AnyType): Kind {
  const t = type as Partial<ContainerShape & SequenceShape>;
  if (t.fields !== undefined && t._recordDepth === 0) return 'container';
  if (t.elementType !== undefined && (typeof t.limit === 'number' || typeof t.length === 'number')) {
    return t.elementType.isBasic ? 'packed' : 'composite';
  }
  return null;
}

/** A full build when the value has nothing to share with its base (or its base is unusable). */
function fresh(type: AnyType, value: unknown, store: NodeStore): Built {
  return { node: type._toNode(value, store), trusted: isDeepFrozen(value) };
}

/**
 * The subtree of `value` under `type`, reusing `base` where the value shares
 * with it, and cached trees of identical trusted values. Diffable values
 * found trusted are remembered for next time.
 */
export function build(type: AnyType, value: unknown, base: Base | null, store: NodeStore): Built {
  const isObject = typeof value === 'object' && value !== null;
  if (isObject) {
    const hit = cachedTree(type, value);
    if (hit !== undefined && !hit.disposed) return { node: hit.rootNode, trusted: true };
  }
  if (base !== null && value === base.value) return { node: base.node, trusted: true };
  const kind = kindOf(type);
  let built: Built | null = null;
  if (base !== null && kind !== null && isObject) {
    if (kind === 'container') built = diffContainer(type, value as Record<string, unknown>, base, store);
    else if (kind === 'composite') built = diffComposite(type, value, base, store);
    else built = diffPacked(type, value, base, store);
  }
  built ??= fresh(type, value, store);
  if (built.trusted && kind !== null && isObject) rememberTree(type, value, new Tree(built.node, store));
  return built;
}

function diffContainer(type: AnyType, value: Record<string, unknown>, base: Base, store: NodeStore): Built | null {
  const old = base.value;
  if (typeof old !== 'object' || old === null) return null;
  const fields = (type as unknown as ContainerShape).fields;
  const names = Object.keys(fields);
  const depth = depthForLimit(names.length);
  const indices: number[] = [];
  const nodes: NodeId[] = [];
  let trusted = Object.isFrozen(value);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const v = value[name];
    const b = (old as Record<string, unknown>)[name];
    if (v === b) continue;
    const fieldType = fields[name] as AnyType;
    try {
      const childBase = kindOf(fieldType) !== null && typeof b === 'object' && b !== null ? { value: b, node: store.getNodeAtDepth(base.node, depth, i) } : null;
      const child = build(fieldType, v, childBase, store);
      trusted &&= child.trusted;
      indices.push(i);
      nodes.push(child.node);
    } catch (e) {
      throw withPath(treeError(e), `.${name}`);
    }
  }
  return { node: store.setNodesAtDepth(base.node, depth, indices, nodes), trusted };
}

/** Element subtrees in one batch; on a bad element, its own index in the error path. */
function elementNodes(elem: AnyType, values: readonly unknown[], indices: readonly number[], store: NodeStore): NodeId[] {
  try {
    return elem._toNodes(values, store);
  } catch (batchError) {
    for (let k = 0; k < values.length; k++) {
      try {
        elem._toNode(values[k], store);
      } catch (e) {
        throw withPath(treeError(e), `[${indices[k]}]`);
      }
    }
    throw batchError;
  }
}

/** The sequence's bound: a list's limit or a vector's length; values past it are left to the full build's error. */
function sequenceBounds(type: AnyType, n: number): { isList: boolean; max: number } | null {
  const t = type as unknown as SequenceShape;
  const isList = typeof t.limit === 'number';
  const max = (isList ? t.limit : t.length) as number;
  return (isList ? n <= max : n === max) ? { isList, max } : null;
}

function diffComposite(type: AnyType, value: unknown, base: Base, store: NodeStore): Built | null {
  const old = base.value;
  if (!Array.isArray(value) || !Array.isArray(old)) return null;
  const n = value.length;
  const bounds = sequenceBounds(type, n);
  if (bounds === null) return null;
  const bn = old.length;
  const common = Math.min(n, bn);
  const indices: number[] = [];
  for (let i = 0; i < common; i++) if (value[i] !== old[i]) indices.push(i);
  if (indices.length + Math.abs(n - bn) > (n >>> 1) + 64) return null;
  for (let i = common; i < n; i++) indices.push(i);
  const values = indices.map((i) => value[i] as unknown);
  const elem = (type as unknown as SequenceShape).elementType;
  const nodes = elementNodes(elem, values, indices, store);
  let trusted = Object.isFrozen(value);
  for (let k = 0; trusted && k < values.length; k++) trusted = isDeepFrozen(values[k]);
  for (let i = n; i < bn; i++) {
    indices.push(i); // removed elements: back to zero chunks
    nodes.push(store.zero(0));
  }
  const depth = (bounds.isList ? 1 : 0) + depthForLimit(bounds.max);
  let node = store.setNodesAtDepth(base.node, depth, indices, nodes);
  if (bounds.isList && n !== bn) node = store.withLength(store.getNodeAtDepth(node, 1, 0), n);
  return { node, trusted };
}

/** Ascending indices of the 32-byte chunks where plain arrays differ in their first `count` elements. */
function changedChunksOfValues(value: BasicArray<unknown>, old: BasicArray<unknown>, count: number, per: number): number[] {
  const out: number[] = [];
  let last = -1;
  for (let i = 0; i < count; i++) {
    if (value[i] !== old[i]) {
      const c = Math.floor(i / per);
      if (c !== last) out.push((last = c));
    }
  }
  return out;
}

/**
 * The same for typed arrays, compared as bytes (32-bit words when aligned):
 * reading a `BigUint64Array` element by element would allocate a bigint per
 * read.
 */
function changedChunksOfBytes(value: ArrayBufferView, old: ArrayBufferView, bytes: number): number[] {
  const out: number[] = [];
  let last = -1;
  let from = 0;
  if (value.byteOffset % 4 === 0 && old.byteOffset % 4 === 0) {
    const words = bytes >>> 2;
    const a = new Uint32Array(value.buffer, value.byteOffset, words);
    const b = new Uint32Array(old.buffer, old.byteOffset, words);
    for (let w = 0; w < words; w++) {
      if (a[w] !== b[w]) {
        const c = w >>> 3;
        if (c !== last) out.push((last = c));
      }
    }
    from = words << 2;
  }
  const a8 = new Uint8Array(value.buffer, value.byteOffset, bytes);
  const b8 = new Uint8Array(old.buffer, old.byteOffset, bytes);
  for (let k = from; k < bytes; k++) {
    if (a8[k] !== b8[k]) {
      const c = Math.floor(k / 32);
      if (c !== last) out.push((last = c));
    }
  }
  return out;
}

function diffPacked(type: AnyType, value: unknown, base: Base, store: NodeStore): Built | null {
  const elem = (type as unknown as SequenceShape).elementType as unknown as BasicType<unknown, BasicArray<unknown>>;
  const old = base.value;
  if (!elem._isArray(value) || !elem._isArray(old)) return null;
  const n = value.length;
  const bounds = sequenceBounds(type, n);
  if (bounds === null) return null;
  const per = 32 / elem.byteLength;
  const bn = old.length;
  const common = Math.min(n, bn);
  const chunkIndices = ArrayBuffer.isView(value) && ArrayBuffer.isView(old) ? changedChunksOfBytes(value, old, common * elem.byteLength) : changedChunksOfValues(value, old, common, per);
  let last = chunkIndices.length > 0 ? (chunkIndices[chunkIndices.length - 1] as number) : -1;
  // Growth or truncation: every chunk from the first one past the common part is rewritten (padding included).
  for (let c = Math.floor(common / per), end = Math.ceil(Math.max(n, bn) / per); n !== bn && c < end; c++) {
    if (c > last) chunkIndices.push((last = c));
  }
  if (chunkIndices.length > (Math.ceil(n / per) >>> 1) + 64) return null;
  const values = elem._newArray(chunkIndices.length * per);
  for (let k = 0; k < chunkIndices.length; k++) {
    const first = (chunkIndices[k] as number) * per;
    for (let j = 0; j < per && first + j < n; j++) values[k * per + j] = value[first + j];
  }
  let chunks: Uint8Array;
  try {
    chunks = elem._pack(values);
  } catch (packError) {
    const scratch = new Uint8Array(32);
    for (let k = 0; k < chunkIndices.length; k++) {
      const first = (chunkIndices[k] as number) * per;
      for (let j = 0; j < per && first + j < n; j++) {
        try {
          elem._rootInto(value[first + j], scratch, 0);
        } catch (e) {
          throw withPath(e, `[${first + j}]`);
        }
      }
    }
    throw packError;
  }
  const depth = (bounds.isList ? 1 : 0) + depthForLimit(Math.ceil((bounds.max * elem.byteLength) / 32));
  let node = store.setChunksAtDepth(base.node, depth, chunkIndices, chunks);
  if (bounds.isList && n !== bn) node = store.withLength(store.getNodeAtDepth(node, 1, 0), n);
  // Typed arrays cannot be frozen; like byte fields they count as replaced-not-mutated values (trust.ts).
  return { node, trusted: Object.isFrozen(value) || ArrayBuffer.isView(value) };
}
