/**
 * The hashing primitives over the active backend: one 64-byte digest, a pair
 * of chunks, and a whole layer.
 *
 * Invariant: every backend receives `input.length === 2 * output.length`, a
 * multiple of 64, and — when the two views share memory — an `output` that
 * starts at or before `input`, so reading message i before writing digest i
 * is always safe. Other overlaps are resolved here by copying the input.
 * @module
 */
import { HasherError } from './errors.js';
import { parallelHashInto, parallelHashIntoAsync } from './parallel/pool.js';
import { activeBackend } from './registry.js';

/** SHA-256 of exactly 64 bytes. */
export function digest64(input: Uint8Array): Uint8Array {
  if (input.length !== 64) {
    throw new HasherError('INPUT_LENGTH', `digest64: expected 64 bytes, got ${input.length}`);
  }
  const output = new Uint8Array(32);
  activeBackend().hashInto(input, output);
  return output;
}

const pairScratch = new Uint8Array(64);

/** SHA-256(left ‖ right) of two 32-byte chunks. */
export function hashPair(left: Uint8Array, right: Uint8Array): Uint8Array {
  const output = new Uint8Array(32);
  hashPairInto(left, right, output);
  return output;
}

/** SHA-256(left ‖ right) written into `output` (32 bytes); `output` may alias either chunk. */
export function hashPairInto(left: Uint8Array, right: Uint8Array, output: Uint8Array): void {
  if (left.length !== 32 || right.length !== 32) {
    throw new HasherError('INPUT_LENGTH', `hashPair: expected two 32-byte chunks, got ${left.length} and ${right.length}`);
  }
  if (output.length !== 32) {
    throw new HasherError('OUTPUT_LENGTH', `hashPairInto: expected a 32-byte output, got ${output.length}`);
  }
  pairScratch.set(left, 0);
  pairScratch.set(right, 32);
  activeBackend().hashInto(pairScratch, output);
}

/**
 * Hashes a whole layer: `output[32i, 32i+32) = SHA-256(input[64i, 64i+64))`
 * for every i. `input.length` must be a multiple of 64 and equal
 * `2 * output.length`. Works on subarrays, and in place when `output` is the
 * front half of `input`'s own memory (a fold from one tree level to the next).
 */
export function hashInto(input: Uint8Array, output: Uint8Array): void {
  checkLayer(input, output);
  if (input.length === 0) return;
  const backend = activeBackend();
  const source = overlapsAhead(input, output) ? input.slice() : input;
  // Large layers are shared with the worker pool (when it is on).
  if (!parallelHashInto(backend, source, output)) backend.hashInto(source, output);
}

/**
 * `hashInto` for callers that must not block while worker threads hash their
 * shares (a browser main thread, a busy server): the main thread hashes its
 * own share, then awaits the workers. Same results, same contract.
 */
export async function hashIntoAsync(input: Uint8Array, output: Uint8Array): Promise<void> {
  checkLayer(input, output);
  if (input.length === 0) return;
  const backend = activeBackend();
  const source = overlapsAhead(input, output) ? input.slice() : input;
  if (!(await parallelHashIntoAsync(backend, source, output))) backend.hashInto(source, output);
}

function checkLayer(input: Uint8Array, output: Uint8Array): void {
  if (input.length % 64 !== 0) {
    throw new HasherError('INPUT_LENGTH', `hashInto: input length ${input.length} is not a multiple of 64`);
  }
  if (output.length * 2 !== input.length) {
    throw new HasherError('OUTPUT_LENGTH', `hashInto: output length ${output.length} must be half of input length ${input.length}`);
  }
}

/** True when writing `output` front to back could clobber input not yet read. */
function overlapsAhead(input: Uint8Array, output: Uint8Array): boolean {
  if (input.buffer !== output.buffer) return false;
  const inStart = input.byteOffset;
  const outStart = output.byteOffset;
  const disjoint = outStart + output.byteLength <= inStart || inStart + input.byteLength <= outStart;
  return !disjoint && outStart > inStart;
}
