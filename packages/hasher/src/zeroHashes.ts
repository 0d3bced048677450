/**
 * Roots of all-zero subtrees: zeroHash(0) is the zero chunk, zeroHash(d+1) =
 * SHA-256(zeroHash(d) ‖ zeroHash(d)), for depths 0..64 (a 2^64-chunk limit).
 *
 * Computed once at load with the `js` backend (all backends are
 * byte-identical), kept in one private slab; callers get copies, so the slab
 * can never be corrupted from outside.
 * @module
 */
import { createJsBackend } from './backends/js.js';
import { HasherError } from './errors.js';

/** The deepest zero subtree supported: SSZ limits go up to 2^64 chunks. */
export const MAX_DEPTH = 64;

const SLAB = /* @__PURE__ */ (() => {
  const slab = new Uint8Array(32 * (MAX_DEPTH + 1));
  const js = createJsBackend();
  for (let d = 0; d < MAX_DEPTH; d++) {
    const pair = new Uint8Array(64);
    pair.set(slab.subarray(32 * d, 32 * d + 32), 0);
    pair.set(slab.subarray(32 * d, 32 * d + 32), 32);
    js.hashInto(pair, slab.subarray(32 * (d + 1), 32 * (d + 2)));
  }
  return slab;
})();

function checkDepth(depth: number): void {
  if (!Number.isInteger(depth) || depth < 0 || depth > MAX_DEPTH) {
    throw new HasherError('DEPTH_RANGE', `zeroHash: depth must be an integer in 0..${MAX_DEPTH}, got ${depth}`);
  }
}

/** The root of an all-zero subtree of the given depth (a fresh copy). */
export function zeroHash(depth: number): Uint8Array {
  checkDepth(depth);
  return SLAB.slice(32 * depth, 32 * depth + 32);
}

/** Writes zeroHash(depth) into `output` at `offset` without allocating. */
export function zeroHashInto(depth: number, output: Uint8Array, offset = 0): void {
  checkDepth(depth);
  output.set(SLAB.subarray(32 * depth, 32 * depth + 32), offset);
}
