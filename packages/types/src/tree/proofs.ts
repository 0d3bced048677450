/**
 * Proofs by path: a path is a list of field names and indices
 * (`['validators', 5, 'effective_balance']`), mapped through the schema to a
 * generalized index (container field: its index at the fields' depth; list
 * element: the contents child, then the element's index; basic elements:
 * their chunk; `'length'` of a list, `'selector'`/`'value'` of a union),
 * then proven with core's single proofs or multiproofs.
 *
 * Invariants: a path the schema does not have is `SszError('BAD_PATH')`
 * before anything is read; `createProof` proves only what the tree holds (an
 * index past a list's length is `BAD_PATH` too, see `createProof`); nothing
 * but an `SszError` leaves this module; the proof's leaves are exactly the
 * 32 bytes at each gindex of the committed tree.
 * @module
 */
import { CoreError, type Gindex, type Multiproof, type SingleProof, type Tree, verifyMultiproof, verifySingleProof } from '@ssztree/core';
import { describeArg, SszError } from '../errors.js';
import { treeError } from './nodes.js';

/** One step of a path: a field name, an element index, or `'length'` / `'selector'` / `'value'`. */
export type PathSegment = string | number;
/** A path from a schema's root down, e.g. `['validators', 5, 'effective_balance']`. */
export type Path = readonly PathSegment[];

/** One step down the tree: `depth` levels to the child at `index` of that level; `next` is its type (null: a chunk holding basic values). */
export interface PathStep {
  readonly depth: number;
  readonly index: number;
  readonly next: PathType | null;
  /**
   * Set when the step is an element index of a list kind (elements, bits of
   * a bitlist, bytes of a byte list) whose length is the right child of the
   * node the step starts from: `createProof` checks the index against the
   * length the proven tree stores. `gindexOf` is bounded by the schema only.
   */
  readonly element?: number;
}

/** What a path is walked through: a schema's name and its steps (every `SszType` is one; this module owns the interface so that it imports no schema). */
export interface PathType {
  readonly typeName: string;
  _pathStep(segment: PathSegment): PathStep;
}

/** Checks an element index of a proof path against the number of positions. */
export function elementIndex(segment: PathSegment, count: number): number {
  if (typeof segment !== 'number' || !Number.isSafeInteger(segment) || segment < 0 || segment >= count) {
    const range = count === 0 ? 'no positions (its limit is 0)' : `positions 0..${count - 1}`;
    throw new SszError('BAD_PATH', `${describeArg(segment)} is not an index: it has ${range}`);
  }
  return segment;
}

/**
 * The step to position `segment` of a packed sequence — `positions` basic
 * values (elements, bits or bytes), `perChunk` to a chunk, chunks at
 * `chunkDepth` below the contents — whose root mixes in a length when
 * `isList` (then the step is an `element` step).
 */
export function packedStep(segment: PathSegment, positions: number, perChunk: number, chunkDepth: number, isList: boolean): PathStep {
  const i = elementIndex(segment, positions);
  const index = Math.floor(i / perChunk);
  return isList ? { depth: 1 + chunkDepth, index, next: null, element: i } : { depth: chunkDepth, index, next: null };
}

/** The `length` step of a length-mixed type (lists, bitlists, byte lists). */
export const LENGTH_STEP: PathStep = { depth: 1, index: 1, next: null };

/** The generalized index of `path` below a value of `type` (the schema alone decides: list indices go up to the limit). */
export function gindexOfPath(type: PathType, path: Path): bigint {
  return walkPath(type, path);
}

/**
 * Walks `path` below `type` to its generalized index. `atElement` sees each
 * list element step (the list's gindex, the index, the path up to the list)
 * before the walk goes on: `createProof` checks the index against the
 * length there.
 */
function walkPath(type: PathType, path: Path, atElement?: (listGindex: bigint, element: number, prefix: Path) => void): bigint {
  if (!Array.isArray(path)) {
    const hint = typeof path === 'string' ? ` (a path of one field is [${JSON.stringify(path)}])` : '';
    throw new SszError('BAD_PATH', `a path is an array of field names and indices, got ${describeArg(path)}${hint}`, -1, type.typeName);
  }
  let g = 1n;
  let cur: PathType | null = type;
  for (let k = 0; k < path.length; k++) {
    if (cur === null) throw new SszError('BAD_PATH', `a chunk of basic values has no position ${describeArg(path[k])}`, -1, `${type.typeName}${formatPath(path.slice(0, k))}`);
    let step: PathStep;
    try {
      step = cur._pathStep(path[k] as PathSegment);
    } catch (e) {
      if (e instanceof SszError) e.prefixPath(`${type.typeName}${formatPath(path.slice(0, k))}`);
      throw e;
    }
    if (step.element !== undefined) atElement?.(g, step.element, path.slice(0, k));
    g = (g << BigInt(step.depth)) | BigInt(step.index);
    cur = step.next;
  }
  return g;
}

function formatPath(path: Path): string {
  return path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${String(s)}`)).join('');
}

/** What `T.createProof` returns: a single proof for one path, a multiproof for several (verify with `verifyProof`). */
export type ViewProof = ({ readonly kind: 'single' } & SingleProof) | ({ readonly kind: 'multi' } & Multiproof);

/**
 * A proof of the values at `paths` in the tree `treeOf()` returns (a view's
 * committed tree, or a tree; the caller checks it is one of `type`): single
 * for one path, a multiproof for several. `treeOf` runs once every path is
 * known to exist in the schema.
 *
 * Past a list's length there is nothing to prove: an element index at or
 * past the length the tree stores (for every list kind: elements, bits of a
 * bitlist, bytes of a byte list) is `SszError('BAD_PATH')` naming the path
 * and the length, even where the index shares a chunk with present
 * elements. Absence is proven by the list's `'length'`.
 */
export function createProof(type: PathType, treeOf: () => Tree, paths: readonly Path[]): ViewProof {
  if (!Array.isArray(paths)) throw new SszError('BAD_PATH', `createProof takes an array of paths, got ${describeArg(paths)}`, -1, type.typeName);
  if (paths.length === 0) throw new SszError('BAD_PATH', 'no paths to prove', -1, type.typeName);
  // Every path against the schema first: a bad one fails before anything is committed or read.
  for (const p of paths) walkPath(type, p);
  const tree = treeOf();
  try {
    tree.store.flush();
  } catch (e) {
    throw inTree(e, type.typeName);
  }
  const gindices: Gindex[] = paths.map((p) => walkPath(type, p, (g, element, prefix) => checkLength(type, tree, g, element, prefix)));
  if (gindices.length > 1) checkDisjoint(type, paths, gindices as bigint[]);
  try {
    if (gindices.length === 1) return { kind: 'single', ...tree.singleProof(gindices[0] as Gindex) };
    return { kind: 'multi', ...tree.multiproof(gindices) };
  } catch (e) {
    throw inTree(e, type.typeName);
  }
}

/** A multiproof proves each position once, none inside another: a repeat or a nested pair of paths is `BAD_PATH`. */
function checkDisjoint(type: PathType, paths: readonly Path[], gindices: readonly bigint[]): void {
  const at = new Map<bigint, number>();
  gindices.forEach((g, i) => {
    const j = at.get(g);
    if (j !== undefined) throw new SszError('BAD_PATH', `paths ${j} and ${i} are the same position ${showPath(paths[i]!)}: give it once`, -1, type.typeName);
    at.set(g, i);
  });
  gindices.forEach((g, i) => {
    for (let up = g >> 1n; up >= 1n; up >>= 1n) {
      const j = at.get(up);
      if (j !== undefined) {
        const detail = `path ${i} ${showPath(paths[i]!)} lies inside path ${j} ${showPath(paths[j]!)}: a multiproof proves disjoint positions (drop one of them)`;
        throw new SszError('BAD_PATH', detail, -1, type.typeName);
      }
    }
  });
}

function showPath(path: Path): string {
  return `[${path.map(describeArg).join(', ')}]`;
}

/** A core error met in the proven tree (one of the wrong shape, a disposed one) as `BAD_TREE` at `where`. */
function inTree(e: unknown, where: string): unknown {
  const err = treeError(e);
  if (err instanceof SszError) err.prefixPath(where);
  return err;
}

/** Fails unless element `element` of the list at `listGindex` is present in `tree` (below the length it stores). */
function checkLength(type: PathType, tree: Tree, listGindex: bigint, element: number, prefix: Path): void {
  let chunk: Uint8Array;
  try {
    chunk = tree.getChunk((listGindex << 1n) | 1n);
  } catch (e) {
    throw inTree(e, `${type.typeName}${formatPath(prefix)}`);
  }
  const dv = new DataView(chunk.buffer, chunk.byteOffset, 32);
  const length = dv.getUint32(0, true) + dv.getUint32(4, true) * 2 ** 32;
  if (element >= length) {
    const detail = `index ${element} is past the list's length ${length}: nothing there to prove (prove its 'length' to show the element is absent)`;
    throw new SszError('BAD_PATH', detail, -1, `${type.typeName}${formatPath(prefix)}`);
  }
}

/**
 * True when `proof` proves its leaves against `root`. Anything that does not
 * (a malformed proof too: a gindex that is not one, a missing field,
 * overlapping multiproof indices) is false, never an exception.
 */
export function verifyProof(root: Uint8Array, proof: ViewProof): boolean {
  if (typeof proof !== 'object' || proof === null) return false;
  const p = proof as Partial<SingleProof & Multiproof> & { kind?: unknown };
  try {
    if (p.kind === 'single') return Array.isArray(p.branch) && verifySingleProof(root, p.gindex as Gindex, p.leaf as Uint8Array, p.branch);
    if (p.kind === 'multi') {
      return Array.isArray(p.gindices) && Array.isArray(p.leaves) && Array.isArray(p.proof) && verifyMultiproof(root, p.gindices, p.leaves, p.proof);
    }
    return false;
  } catch (e) {
    if (e instanceof CoreError) return false;
    throw e;
  }
}
