/**
 * Building the subtree of a plain value from the subtree of a base value it
 * was derived from (typically the previous `immer` result): only the
 * children that differ are rebuilt, and written into the base's tree in one
 * sorted batch per collection; the store hashes the dirty paths in batches
 * at the next root computation.
 *
 * There may be several candidate bases (the heads of the cache's chains,
 * see `cache.ts`), indexed alike at every level (`null` where a candidate
 * has nothing usable). A container takes an unchanged field from whichever
 * candidate holds the identical value; a sequence is diffed against the
 * candidate it was derived from, or failing that the one it differs least
 * from (`scan.ts`). A sequence diffed against a candidate it was derived
 * from adds its length to that candidate's `votes`, so the caller knows
 * which chain head the value continues.
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
import type { AnyCodec } from '../codec.js';
import { treeError } from '../tree/nodes.js';
import { cachedTree, rememberTree } from './cache.js';
import { noteChanges, passSnapshot, scanCandidates } from './scan.js';
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

// The schema shapes, read structurally: frozen/ lies below the schema classes (type.ts calls it), so it names none of them.
interface ContainerShape {
  readonly fields: Readonly<Record<string, AnyCodec>>;
  readonly _recordDepth: number;
}
interface SequenceShape {
  readonly elementType: AnyCodec;
  readonly limit?: number;
  readonly length?: number;
}
/** A packed sequence's array form (basicType.ts `BasicArray`). */
interface PackedArray {
  readonly length: number;
  [index: number]: unknown;
}
/** The element type of a packed sequence: what diffing one needs of a `BasicType`. */
interface PackedElement {
  readonly byteLength: number;
  _isArray(a: unknown): a is PackedArray;
  _newArray(n: number): PackedArray;
  _pack(a: PackedArray): Uint8Array;
  _rootInto(value: unknown, out: Uint8Array, offset: number): void;
}

type Kind = 'container' | 'composite' | 'packed' | null;

/** How values of `type` are diffed; null for schemas built whole (records, bytes, bitfields, unions, basics). */
export function kindOf(type: AnyCodec): Kind {
  const t = type as Partial<ContainerShape & SequenceShape>;
  if (t.fields !== undefined && t._recordDepth === 0) return 'container';
  if (t.elementType !== undefined && (typeof t.limit === 'number' || typeof t.length === 'number')) {
    return t.elementType.isBasic ? 'packed' : 'composite';
  }
  return null;
}

/** A full build when the value has nothing to share with its base (or its base is unusable). */
function fresh(type: AnyCodec, value: unknown, store: NodeStore): Built {
  return { node: type._toNode(value, store), trusted: isDeepFrozen(value) };
}

/**
 * The subtree of `value` under `type`, reusing `base` where the value shares
 * with it, and cached trees of identical trusted values. Diffable values
 * found trusted are remembered for next time.
 */
export function build(type: AnyCodec, value: unknown, bases: readonly (Base | null)[], store: NodeStore, votes: number[]): Built {
  const isObject = typeof value === 'object' && value !== null;
  if (isObject) {
    const hit = cachedTree(type, value);
    if (hit !== undefined && !hit.disposed) return { node: hit.rootNode, trusted: true };
  }
  let usable = 0;
  for (let j = 0; j < bases.length; j++) {
    const b = bases[j];
    if (b === null || b === undefined) continue;
    if (value === b.value) return { node: b.node, trusted: true };
    usable++;
  }
  const kind = kindOf(type);
  let built: Built | null = null;
  if (usable > 0 && kind !== null && isObject) {
    if (kind === 'container') built = diffContainer(type, value as Record<string, unknown>, bases, store, votes);
    else if (kind === 'composite') built = diffComposite(type, value, bases, store, votes);
    else built = diffPacked(type, value, bases, store, votes);
  }
  built ??= fresh(type, value, store);
  if (built.trusted && kind !== null && isObject) rememberTree(type, value, new Tree(built.node, store));
  return built;
}

function diffContainer(type: AnyCodec, value: Record<string, unknown>, bases: readonly (Base | null)[], store: NodeStore, votes: number[]): Built | null {
  // The container's own node comes from the first candidate that is an object; other candidates only lend fields.
  const root = bases.findIndex((b) => b !== null && typeof b.value === 'object' && b.value !== null);
  if (root < 0) return null;
  const rootBase = bases[root] as Base;
  const fields = (type as unknown as ContainerShape).fields;
  const names = Object.keys(fields);
  const depth = depthForLimit(names.length);
  const indices: number[] = [];
  const nodes: NodeId[] = [];
  let trusted = Object.isFrozen(value);
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    const v = value[name];
    if (v === (rootBase.value as Record<string, unknown>)[name]) continue;
    const fieldType = fields[name] as AnyCodec;
    const diffable = kindOf(fieldType) !== null;
    try {
      // Per candidate: its field subtree when it holds the identical value (taken as is) or a diffable object.
      const childBases = bases.map((b) => {
        if (b === null || typeof b.value !== 'object' || b.value === null) return null;
        const f = (b.value as Record<string, unknown>)[name];
        return f === v || (diffable && typeof f === 'object' && f !== null) ? { value: f, node: store.getNodeAtDepth(b.node, depth, i) } : null;
      });
      const child = build(fieldType, v, childBases, store, votes);
      trusted &&= child.trusted;
      indices.push(i);
      nodes.push(child.node);
    } catch (e) {
      throw withPath(treeError(e), `.${name}`);
    }
  }
  return { node: store.setNodesAtDepth(rootBase.node, depth, indices, nodes), trusted };
}

/** Element subtrees in one batch; on a bad element, its own index in the error path. */
function elementNodes(elem: AnyCodec, values: readonly unknown[], indices: readonly number[], store: NodeStore): NodeId[] {
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
function sequenceBounds(type: AnyCodec, n: number): { isList: boolean; max: number } | null {
  const t = type as unknown as SequenceShape;
  const isList = typeof t.limit === 'number';
  const max = (isList ? t.limit : t.length) as number;
  return (isList ? n <= max : n === max) ? { isList, max } : null;
}

function diffComposite(type: AnyCodec, value: unknown, bases: readonly (Base | null)[], store: NodeStore, votes: number[]): Built | null {
  if (!Array.isArray(value)) return null;
  const n = value.length;
  const bounds = sequenceBounds(type, n);
  if (bounds === null) return null;
  const found = scanCandidates(value, bases.map((b) => (b !== null && Array.isArray(b.value) ? (b.value as readonly unknown[]) : null)), 1, true);
  if (found === null) return null;
  const base = bases[found.which] as Base;
  const old = base.value as readonly unknown[];
  const bn = old.length;
  const indices = found.units;
  if (indices.length + Math.abs(n - bn) > (n >>> 1) + 64) return null;
  if (found.derived) votes[found.which] = (votes[found.which] as number) + n;
  noteChanges(value, indices);
  passSnapshot(old, value, indices, 1);
  for (let i = Math.min(n, bn); i < n; i++) indices.push(i);
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

/**
 * The changed 32-byte chunks of typed arrays, compared as bytes (32-bit words when aligned):
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

function diffPacked(type: AnyCodec, value: unknown, bases: readonly (Base | null)[], store: NodeStore, votes: number[]): Built | null {
  const elem = (type as unknown as SequenceShape).elementType as unknown as PackedElement;
  if (!elem._isArray(value)) return null;
  const n = value.length;
  const bounds = sequenceBounds(type, n);
  if (bounds === null) return null;
  const per = 32 / elem.byteLength;
  let which = -1;
  let derived = true;
  let chunkIndices: number[];
  if (ArrayBuffer.isView(value)) {
    // Typed arrays: the first typed candidate, compared as bytes.
    which = bases.findIndex((b) => b !== null && elem._isArray(b.value) && ArrayBuffer.isView(b.value));
    if (which < 0) return null;
    const o = (bases[which] as Base).value as ArrayBufferView & PackedArray;
    chunkIndices = changedChunksOfBytes(value, o, Math.min(n, o.length) * elem.byteLength);
  } else {
    const olds = bases.map((b) => (b !== null && elem._isArray(b.value) && !ArrayBuffer.isView(b.value) ? (b.value as ArrayLike<unknown>) : null));
    const found = scanCandidates(value as ArrayLike<unknown>, olds, per, false);
    if (found === null) return null;
    which = found.which;
    derived = found.derived;
    chunkIndices = found.units;
    noteChanges(value, chunkIndices);
  }
  const base = bases[which] as Base;
  const old = base.value as PackedArray;
  const bn = old.length;
  const common = Math.min(n, bn);
  let last = chunkIndices.length > 0 ? (chunkIndices[chunkIndices.length - 1] as number) : -1;
  // Growth or truncation: every chunk from the first one past the common part is rewritten (padding included).
  for (let c = Math.floor(common / per), end = Math.ceil(Math.max(n, bn) / per); n !== bn && c < end; c++) {
    if (c > last) chunkIndices.push((last = c));
  }
  if (chunkIndices.length > (Math.ceil(n / per) >>> 1) + 64) return null;
  if (derived) votes[which] = (votes[which] as number) + n;
  if (!ArrayBuffer.isView(value)) passSnapshot(old as ArrayLike<unknown>, value as ArrayLike<unknown>, chunkIndices, per);
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
