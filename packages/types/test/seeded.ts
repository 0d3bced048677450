/** Deterministic test inputs shared by the view tests: xorshift indices. */

/** `count` deterministic indices in [0, n) from `seed` (xorshift32). */
export function indices(seed: number, count: number, n: number): number[] {
  let x = seed | 1;
  const out: number[] = [];
  for (let k = 0; k < count; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push((x >>> 0) % n);
  }
  return out;
}
