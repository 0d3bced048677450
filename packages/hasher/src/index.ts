/**
 * `@ssztree/hasher`: SHA-256 specialised for the 64-byte inputs of SSZ
 * merkle trees — one digest, a pair, a whole layer, merkleize with virtual
 * padding, zero hashes — over several byte-identical backends chosen at run
 * time. It knows nothing of trees or SSZ types.
 * @module @ssztree/hasher
 */
export type { HasherBackend, HasherName } from './backend.js';
export { HasherError, type HasherErrorCode } from './errors.js';
export { digest64, hashInto, hashIntoAsync, hashPair, hashPairInto } from './hash.js';
export { configureThreads, defaultThreadCount, poolStats, threadCount, type PoolStats } from './parallel/pool.js';
export { configureWorkerUrl } from './parallel/browserApi.js';
export { depthForLimit, merkleize, mixInLength } from './merkleize.js';
export { hashSubtreesInto, MAX_SUBTREE_HEIGHT, startSubtrees, type PendingSubtrees } from './subtrees.js';
export {
  getBackend,
  getHasher,
  hasherNotice,
  hasherReport,
  initHasher,
  listHashers,
  setHasher,
  type DispatchReport,
  type HasherInfo,
  type HasherReport,
} from './registry.js';
export type { SizeTiming } from './dispatch/calibrate.js';
export type { Threshold } from './dispatch/auto.js';
export { MAX_DEPTH, zeroHash, zeroHashInto } from './zeroHashes.js';
