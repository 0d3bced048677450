/**
 * Proofs by path: a path is a list of field names and indices
 * (`['validators', 5, 'effective_balance']`), mapped through the schema to a
 * generalized index (container field: its index at the fields' depth; list
 * element: the contents child, then the element's index; basic elements:
 * their chunk; `'length'` of a list, `'selector'`/`'value'` of a union),
 * then proven with core's single proofs or multiproofs.
 *
 * Invariant: a path the schema does not have is `SszError('BAD_PATH')`
 * before anything is read; the proof's leaves are exactly the 32 bytes at
 * each gindex of the committed tree.
 * @module
 */
import { type Gindex, type Multiproof, type SingleProof, type Tree, verifyMultiproof, verifySingleProof } from '@ssztree/core';
import { SszError } from '../errors.js';

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
    throw new SszError('BAD_PATH', `${String(segment)} is not an index in 0..${count - 1}`);
  }
  return segment;
}

/** The `length` step of a length-mixed type (lists, bitlists, byte lists). */
export const LENGTH_STEP: PathStep = { depth: 1, index: 1, next: null };

/** The generalized index of `path` below a value of `type` (the schema alone decides). */
export function gindexOfPath(type: PathType, path: Path): bigint {
  return walkPath(type, path);
}

/** Walks `path` to its gindex; `atElement` sees each element step (the list's gindex, the index, the path to the list). */
function walkPath(type: PathType, path: Path, atElement?: (listGindex: bigint, element: number, prefix: Path) => void): bigint {
  let g = 1n;
  let cur: PathType | null = type;
  for (let k = 0; k < path.length; k++) {
    if (cur === null) throw new SszError('BAD_PATH', `${formatPath(path.slice(0, k))} is a packed chunk: nothing below it`, -1, type.typeName);
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
  return path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
}

/** What `T.createProof` returns: a single proof for one path, a multiproof for several (verify with `verifyProof`). */
export type ViewProof = ({ readonly kind: 'single' } & SingleProof) | ({ readonly kind: 'multi' } & Multiproof);

/**
 * A proof of the values at `paths` in the tree `treeOf()` returns (a view's
 * committed tree, or a tree): single for one path, a multiproof for several.
 * `treeOf` runs once every path is known to exist.
 */
export function createProof(type: PathType, treeOf: () => Tree, paths: readonly Path[]): ViewProof {
  if (paths.length === 0) throw new SszError('BAD_PATH', 'no paths to prove', -1, type.typeName);
  for (const p of paths) walkPath(type, p);
  const tree = treeOf();
  tree.store.flush();
  // Past a list's length there is nothing to prove (element steps are checked against the stored length).
  const gindices: Gindex[] = paths.map((p) => walkPath(type, p, (g, element, prefix) => checkLength(type, tree, g, element, prefix)));
  if (gindices.length === 1) return { kind: 'single', ...tree.singleProof(gindices[0] as Gindex) };
  return { kind: 'multi', ...tree.multiproof(gindices) };
}

/** Fails unless element `element` of the list at `listGindex` is below the length `tree` stores there. */
function checkLength(type: PathType, tree: Tree, listGindex: bigint, element: number, prefix: Path): void {
  const where = `${type.typeName}${formatPath(prefix)}`;
  let chunk: Uint8Array;
  try {
    chunk = tree.getChunk((listGindex << 1n) | 1n);
  } catch (e) {
    throw new SszError('BAD_TREE', e instanceof Error ? e.message : String(e), -1, where);
  }
  const dv = new DataView(chunk.buffer, chunk.byteOffset, 32);
  const length = dv.getUint32(0, true) + dv.getUint32(4, true) * 2 ** 32;
  if (element >= length) {
    const detail = `index ${element} is past the list's length ${length}: nothing there to prove (prove its 'length' to show the element is absent)`;
    throw new SszError('BAD_PATH', detail, -1, where);
  }
}

/** True when `proof` proves its leaves against `root`. */
export function verifyProof(root: Uint8Array, proof: ViewProof): boolean {
  if (proof.kind === 'single') return verifySingleProof(root, proof.gindex, proof.leaf, proof.branch);
  return verifyMultiproof(root, proof.gindices, proof.leaves, proof.proof);
}
