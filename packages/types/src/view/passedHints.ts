/**
 * Hints a view passes on through versions that never made the view they
 * are for: a container's field whose view a version never made, a
 * progressive list's subtree whose segment view it never made. An epoch's
 * inactivity scores are read by no block, so without this every epoch's
 * view would start with no page table and fill it by a walk of the list.
 *
 * Invariant: what `passOn` returns may reach any number of views:
 * a build's table (view/built.ts, only ever read), a page table marked
 * shared (each view taking it copies it: packedPages.ts `sharedPageTable`),
 * or a progressive list's subtree hints made of those. Any other hint (an
 * element table's overlay, which the one view taking it writes into) is
 * not passed on.
 * @module
 */
import type { NodeId } from '@ssztree/core';
import { isBuiltTable } from './built.js';
import { sharedPageTable } from './packedPages.js';

/**
 * What a progressive list view takes over (view/progressive.ts `_inherit`):
 * hints for its segments, by subtree, valid for the list's root `root` — the
 * page and element tables of a clone's parent (`_inheritance`), or those a
 * build from bytes recorded for each subtree (schema/progressiveList.ts).
 */
export class SegmentHints {
  constructor(
    readonly root: NodeId,
    readonly hints: readonly unknown[],
  ) {}
}

/**
 * The hint at `holder[i]` as one any number of views may take, or undefined
 * when it is not one of the kinds that can be (see the module header).
 * `holder[i]` is left holding the shared form of every page table it shares
 * with what is returned, so that the holder's own view, made later, copies
 * those tables as every other taker does; a hint that cannot be passed on
 * (an element table's overlay) stays there for that view alone. A
 * `SegmentHints` in `holder` is its own (made for it by `_inheritance`), so
 * its entries are updated in place; the one returned holds only shared or
 * built entries and is never updated.
 */
export function passOn(holder: unknown[], i: number): unknown {
  const hint = holder[i];
  if (hint === undefined || isBuiltTable(hint)) return hint;
  if (hint instanceof SegmentHints) {
    const own = hint.hints as unknown[];
    let passed: unknown[] | null = null;
    for (let k = 0; k < own.length; k++) {
      const p = passOn(own, k);
      if (p !== own[k]) (passed ??= own.slice())[k] = p;
    }
    if (passed === null) return hint;
    return passed.some((h) => h !== undefined) ? new SegmentHints(hint.root, passed) : undefined;
  }
  const shared = sharedPageTable(hint);
  if (shared !== undefined) holder[i] = shared;
  return shared;
}
