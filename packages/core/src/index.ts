/**
 * `@ssztree/core`: persistent merkle trees over a compact typed-array node
 * store, with batched incremental rehashing (one `hashInto` per dirty level),
 * wide leaves, reference-counted reclamation and proofs. It knows nothing of
 * SSZ types; `@ssztree/types` builds on it.
 * @module @ssztree/core
 */
export type { InPlaceWrite } from './write/batchWrite.js';
export { CoreError, type CoreErrorCode } from './errors.js';
export { gindexDepth, toGindex, type Gindex } from './gindex.js';
export { MAX_WIDE_DEPTH, MAX_ZERO_DEPTH, type NodeId, type NodeKind } from './nodes/ids.js';
export { lengthChunk } from './build/list.js';
export { MAX_PATH_DEPTH } from './write/navigate.js';
export { defaultStore, NodeStore } from './nodeStore.js';
export { nodeByteSize, recordPairKind, registerRecordLayout, registerRecordPairs, type RecordLayout } from './nodes/recordLayouts.js';
export type { RecordFill, RecordRuns } from './build/recordTrees.js';
export { helperIndices, multiproofRoot, verifyMultiproof, verifySingleProof, type Multiproof, type SingleProof } from './read/proofs.js';
export type { StoreStats } from './store/storeCore.js';
export { Tree } from './tree.js';
export type { PageSource } from './build/pages.js';
