/**
 * `FlushableStore`: what hashing reads and writes of a node store — its
 * pools, the lists of nodes waiting to be hashed and their counters, the
 * shared staging buffer, and `unlist` for the dead entries it drops. The
 * store (store/storeBase.ts) has every one of these members; hash/ owns the
 * interface so that the flush never imports the store that calls it.
 *
 * Invariant: hash/ touches a store only through these members.
 * @module
 */
import type { IdList } from '../nodes/idList.js';
import type { NodeId } from '../nodes/ids.js';
import type { Pool } from '../nodes/pool.js';

export interface FlushableStore {
  /** Pools indexed by kind tag. */
  readonly pools: Pool[];
  readonly branches: Pool;
  /** Unhashed branches by dirty height (index 0 unused). */
  readonly pendingByHeight: IdList[];
  /** Unhashed wide leaves by inner depth (index 0 unused). */
  readonly widePending: IdList[];
  /** Unhashed records by kind tag (indices below KIND_RECORD_BASE unused). */
  readonly recordPending: IdList[];
  maxPendingHeight: number;
  /** Entries across all pending lists, dead ones included. */
  pendingEntries: number;
  /** Pending entries whose node was freed before it was hashed. */
  deadPending: number;
  /** Shared staging buffer of the flush (grown per flush, trimmed after). */
  staging: Uint8Array;
  /** Takes a node off a list (`flag`); recycles its slot if it is free and listed nowhere else. */
  unlist(id: NodeId, flag: number): void;
}
