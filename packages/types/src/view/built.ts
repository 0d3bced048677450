/**
 * Tables a build from bytes makes on its way (`deserializeToView`): the
 * page ids of a packed list (packedPages.ts `packedContents`) and where a
 * list of records put its records (core `RecordRuns`), so that the views
 * of the new value start with their page and element tables known instead
 * of walking the tree for each page and element their first blocks touch.
 *
 * A table is recorded under the node of the list it describes while a
 * `collectBuilt` call runs, and taken by the view made of that node
 * (`takeBuilt`). Invariant: the registry is empty outside `collectBuilt`
 * (emptied when the outermost call ends, even on a throw), so an entry is
 * only ever taken by a view of the value built in the same call, while the
 * node it names is the one built (a node id freed later and reused never
 * finds a stale entry).
 * @module
 */
import type { NodeId } from '@ssztree/core';
import type { TreeView } from '../type.js';

const built = new Map<NodeId, unknown>();
let depth = 0;
/** Every table a build recorded: read-only, so one may be handed to several views (`isBuiltTable`). */
const madeByBuilds = new WeakSet<object>();

/** Runs `build` with tables recorded (calls nest: the outermost empties the registry at its end). */
export function collectBuilt<T>(build: () => T): T {
  depth++;
  try {
    return build();
  } finally {
    if (--depth === 0) built.clear();
  }
}

/** Whether tables are being recorded (a build need not make them otherwise). */
export function collectingBuilt(): boolean {
  return depth > 0;
}

/** Records the table of the list at `node` (ignored outside `collectBuilt`). */
export function recordBuilt(node: NodeId, table: object): void {
  if (depth === 0) return;
  built.set(node, table);
  madeByBuilds.add(table);
}

/**
 * Whether `table` was made by a build: never written by the views that take
 * it (a page table is copied when taken, an element table's runs only
 * read), so a field's view never made may pass it on to each clone (view
 * container.ts `_respawn`); a clone's hint from a view (`_inheritance`) is
 * taken once.
 */
export function isBuiltTable(table: unknown): boolean {
  return typeof table === 'object' && table !== null && madeByBuilds.has(table);
}

/** The table recorded for `node`, removed from the registry, or undefined. */
export function takeBuilt(node: NodeId): unknown {
  if (built.size === 0) return undefined;
  const table = built.get(node);
  if (table !== undefined) built.delete(node);
  return table;
}

/** Whether any table is waiting to be taken. */
export function anyBuilt(): boolean {
  return built.size > 0;
}

/** Hands `view` the table recorded for its root, if any (the view checks it names its root: `_inherit`). */
export function takeBuiltTable<T extends TreeView<unknown>>(view: T): T {
  const table = takeBuilt(view._tree.rootNode);
  if (table !== undefined) view._inherit(table);
  return view;
}
