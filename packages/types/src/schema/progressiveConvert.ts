/**
 * Converting a list view between its binary and its progressive form —
 * List[T, N] ↔ ProgressiveList[T], as a fork upgrade turns the state's
 * lists — with the elements kept and only the new shape's inner nodes made
 * and hashed (level by level, in batches, by the store's flush or the bulk
 * builders):
 *
 * - composites stored as subtrees of their own (containers with lists,
 *   byte lists, …), and fixed containers stored as wide leaves of field
 *   roots: every element's subtree is shared by reference; only the
 *   branches above the elements are new;
 * - packed values (balances): the chunks are copied out in one bulk read
 *   and cut into the other form's pages (subtree k of a progressive list
 *   starts at chunk (4^k − 1)/3, never on an 8-chunk page boundary, so a
 *   page cannot be shared); the pages' and the upper levels' branches are
 *   hashed as they are built, the chunks themselves never;
 * - fixed-size containers stored as compact records (Validator): the other
 *   form's record trees are built run of slots by run of slots, each run's
 *   bytes copied straight from the source's records (core
 *   `copyRecordLevel`: one native copy per run of neighbouring source
 *   slots, no per-element id or copy), and hashed in the batched record
 *   pass a build from bytes uses. A record pair holds two neighbours
 *   (elements 2i, 2i + 1) and only their joint root, while a progressive
 *   subtree starts at an odd element: no pair and no element root survives
 *   the change of shape, so every element is hashed again (8 hashes a
 *   Validator, most of the conversion's time). Keeping each element's root
 *   in its pair would spare that at 32 more bytes per element in every
 *   state. A source level holding other nodes where its records are (a
 *   wide leaf of chunks written into it) falls back to sharing the element
 *   subtrees.
 *
 * Invariants: the result's root equals the root of the same value under the
 * target schema; the source view is committed first and left as it was (a
 * new version is made, the old one shared where it can be); every error is
 * an `SszError` (`INVALID_VALUE` for a view of another element type or
 * store, `LIMIT_EXCEEDED` for a binary limit below the length).
 * @module
 */
import { registerRecordPairs, type NodeId, type NodeStore, type Tree } from '@ssztree/core';
import { SszError, withPath } from '../errors.js';
import { sameShape } from '../shape.js';
import { type SszType, TreeView } from '../type.js';
import { treeError } from '../tree/nodes.js';

/** What the conversion reads and builds of a packed list schema (PackedListBase and its subclasses). */
interface PackedListKind extends SszType<unknown> {
  readonly elementType: SszType<unknown> & { readonly byteLength: number };
  _lengthOf(store: NodeStore, node: NodeId): { length: number; contents: NodeId };
  _checkLength(length: number, offset: number): void;
  _copyContents(store: NodeStore, contents: NodeId, bytes: number, out: Uint8Array, offset: number): void;
  _viewNodeOfChunks(store: NodeStore, chunks: Uint8Array, length: number): NodeId;
  _view(store: NodeStore, node: NodeId, tree?: Tree): TreeView<unknown>;
}

/** Thrown through a record build when the source holds other nodes than records where its elements are. */
const NOT_RECORDS = new Error('not a level of records');

/** What the conversion reads and builds of a composite list schema (CompositeListBase and its subclasses). */
interface CompositeListKind extends SszType<unknown> {
  readonly elementType: SszType<unknown> & { _compactKind?(): number };
  _lengthOf(store: NodeStore, node: NodeId): { length: number; contents: NodeId };
  _checkLength(length: number, offset: number): void;
  _elementNodes(store: NodeStore, contents: NodeId, length: number): NodeId[];
  _copyRecordRange(store: NodeStore, contents: NodeId, length: number, kind: number, start: number, count: number, out: Uint8Array): boolean;
  _treeOfRecords(store: NodeStore, kind: number, length: number, read: (start: number, count: number, out: Uint8Array) => void): NodeId;
  _treeOfElementNodes(store: NodeStore, nodes: readonly NodeId[]): NodeId;
  _view(store: NodeStore, node: NodeId, tree?: Tree): TreeView<unknown>;
}

/** The committed root of `view` after checking it is a view of `from`'s kind with `to`'s element type. */
function sourceRoot(view: unknown, to: PackedListKind | CompositeListKind, isFrom: (t: SszType<unknown>) => boolean): { store: NodeStore; root: NodeId; from: SszType<unknown> } {
  if (!(view instanceof TreeView)) throw new SszError('INVALID_VALUE', 'expected a list view to convert', -1, to.typeName);
  const from = view.type as SszType<unknown>;
  const elem = (from as Partial<{ elementType: SszType<unknown> }>).elementType;
  if (!isFrom(from) || elem === undefined || !sameShape(elem, to.elementType)) {
    throw new SszError('INVALID_VALUE', `expected a view of a list of ${to.elementType.typeName} in the other form, got a view of ${from.typeName}`, -1, to.typeName);
  }
  view._commitNow();
  return { store: view.store, root: view._tree.rootNode, from };
}

/**
 * The view of `to` holding the packed list that `view` (of the other form)
 * holds: chunks copied out in one read, pages of `to`'s shape built and
 * hashed from them.
 */
export function convertPacked(view: unknown, to: PackedListKind, isFrom: (t: SszType<unknown>) => boolean): TreeView<unknown> {
  const { store, root, from } = sourceRoot(view, to, isFrom);
  try {
    const source = from as PackedListKind;
    const { length, contents } = source._lengthOf(store, root);
    to._checkLength(length, -1);
    const bytes = length * to.elementType.byteLength;
    const chunks = new Uint8Array(32 * Math.ceil(bytes / 32));
    source._copyContents(store, contents, bytes, chunks, 0);
    return to._view(store, to._viewNodeOfChunks(store, chunks, length));
  } catch (e) {
    throw withPath(treeError(e), to.typeName);
  }
}

/**
 * The view of `to` holding the composite list that `view` (of the other
 * form) holds: element subtrees shared, or, for elements stored as records,
 * compact records copied into `to`'s record trees.
 */
export function convertComposite(view: unknown, to: CompositeListKind, isFrom: (t: SszType<unknown>) => boolean): TreeView<unknown> {
  const { store, root, from } = sourceRoot(view, to, isFrom);
  try {
    const source = from as CompositeListKind;
    const { length, contents } = source._lengthOf(store, root);
    to._checkLength(length, -1);
    const elem = to.elementType;
    const kind = elem._compactKind?.() ?? -1;
    if (kind >= 0) {
      // Compact records: the new shape's record trees built and hashed run by run, each run's bytes copied
      // straight from the source's records into the new slots (one native copy per run of neighbouring slots).
      registerRecordPairs(kind);
      try {
        return to._view(store, to._treeOfRecords(store, kind, length, (start, count, out) => {
          if (!source._copyRecordRange(store, contents, length, kind, start, count, out)) throw NOT_RECORDS;
        }));
      } catch (e) {
        // A build whose fill throws is undone: what was built of other subtrees floats until the next sweep.
        if (e !== NOT_RECORDS) throw e;
      }
    }
    // Anything else, wide-leaf records among them: the element subtrees themselves.
    return to._view(store, to._treeOfElementNodes(store, source._elementNodes(store, contents, length)));
  } catch (e) {
    throw withPath(treeError(e), to.typeName);
  }
}
