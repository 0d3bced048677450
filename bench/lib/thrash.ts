/**
 * Evicting the caches before a timed step, without idle time: a benchmark
 * process that runs alone would otherwise start each block on caches its
 * last block left warm, where a client's (or the benchmark's other side's)
 * work in between leaves them cold.
 */

/** A function touching one word per 64-byte line of a buffer of `mib` MiB (64: twice the L3 of the 2-core AMD EPYC); a no-op for 0. */
export function cacheThrasher(mib: number): () => void {
  const words = mib * 262144;
  const junk = new Int32Array(words);
  return () => {
    for (let i = 0; i < words; i += 16) junk[i] = (junk[i] as number) + 1;
  };
}
