/**
 * The consensus-specs version every type, preset and constant here follows.
 * @module
 */

/** The pinned ethereum/consensus-specs commit (after tag v1.7.0-alpha.13). */
export const SPEC_VERSION = Object.freeze({
  repository: 'ethereum/consensus-specs',
  commit: 'a08d8a6e2b45f0b8c0d379abc15583427c643689',
  date: '2026-08-07',
  after: 'v1.7.0-alpha.13',
});
