/**
 * Generalized indices: 1 is the root, the children of g are 2g and 2g+1.
 * Numbers are accepted below 2^53 (exact doubles), bigints at any size.
 *
 * Internally a gindex becomes a depth and a path of bits read from the root
 * down; the bits are what navigation consumes, so number and bigint indices
 * share one code path.
 * @module
 */
import { CoreError } from './errors.js';

/** A generalized index (1 is the root; 2g and 2g + 1 are g's children): a number below 2^53 or a bigint. */
export type Gindex = number | bigint;

/** The depth of a valid gindex (floor(log2 g)); throws `GINDEX` otherwise. */
export function gindexDepth(gindex: Gindex): number {
  if (typeof gindex === 'number') {
    if (!Number.isSafeInteger(gindex) || gindex < 1) throw new CoreError('GINDEX', `invalid generalized index ${gindex}`);
    // Above 2^31, divide by 2^31 (exact for doubles) and measure the rest.
    return gindex < 0x80000000 ? 31 - Math.clz32(gindex) : 62 - Math.clz32(Math.floor(gindex / 0x80000000));
  }
  if (typeof gindex !== 'bigint' || gindex < 1n) throw new CoreError('GINDEX', `invalid generalized index ${String(gindex)}`);
  return gindex.toString(2).length - 1;
}

/** The path from the root to `gindex`: bit k (0 = left, 1 = right) at depth k+1. */
export function gindexBits(gindex: Gindex): Uint8Array {
  const depth = gindexDepth(gindex);
  const bits = new Uint8Array(depth);
  if (typeof gindex === 'number' && gindex < 0x80000000) {
    for (let k = 0; k < depth; k++) bits[k] = (gindex >>> (depth - 1 - k)) & 1;
  } else {
    const s = BigInt(gindex).toString(2);
    for (let k = 0; k < depth; k++) bits[k] = s.charCodeAt(k + 1) - 48;
  }
  return bits;
}

/** The generalized index of position `index` at `depth`: 2^depth + index. */
export function toGindex(depth: number, index: number | bigint): Gindex {
  checkDepth(depth, 0, 1024);
  const big = (1n << BigInt(depth)) + BigInt(index);
  if (BigInt(index) < 0n || BigInt(index) >= 1n << BigInt(depth)) {
    throw new CoreError('INDEX_RANGE', `index ${String(index)} out of range at depth ${depth}`);
  }
  return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
}

export function checkDepth(depth: number, min: number, max: number): void {
  if (!Number.isInteger(depth) || depth < min || depth > max) {
    throw new CoreError('DEPTH_RANGE', `depth must be an integer in ${min}..${max}, got ${depth}`);
  }
}

/** Throws `INDEX_RANGE` unless `index` is an integer in 0..2^depth-1 and below 2^53. */
export function checkIndex(depth: number, index: number): void {
  if (!Number.isSafeInteger(index) || index < 0 || (depth < 53 && index >= 2 ** depth)) {
    throw new CoreError('INDEX_RANGE', `index ${index} out of range at depth ${depth}`);
  }
}

/** Bit `shift` of a non-negative safe integer (shift may exceed 31). */
export function bitAt(index: number, shift: number): number {
  return shift < 31 ? (index >>> shift) & 1 : Math.floor(index / 2 ** shift) & 1;
}
