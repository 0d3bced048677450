/**
 * What the last commit of any packed view of a schema says of the next
 * version's writes (packed.ts `#lastBulk`): whether it rebuilt most pages
 * after writes at random places (a block's participation flags), so that a
 * view of that schema with no history of its own — made from bytes (a state
 * load) or for a value just assigned (an epoch's new participation list) —
 * loads every page at its first write, as a clone of a bulk-committed view
 * does, instead of loading an eighth of its pages one by one first.
 *
 * Invariant: only a prediction — it decides how fast a root is reached,
 * never which (every path commits the same bytes). Keyed by schema object
 * (a WeakMap: no schema is kept alive by it).
 * @module
 */

const bulkBySchema = new WeakMap<object, boolean>();

/** Records how a view of `schema` last committed: true after a rebuild of randomly written pages. */
export function rememberBulk(schema: object, bulk: boolean): void {
  if (bulkBySchema.get(schema) !== bulk) bulkBySchema.set(schema, bulk);
}

/** Whether the last commit of a view of `schema` was a rebuild of randomly written pages. */
export function rememberedBulk(schema: object): boolean {
  return bulkBySchema.get(schema) === true;
}
