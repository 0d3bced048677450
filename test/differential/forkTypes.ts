/**
 * The consensus types of each fork for the differential tests, each schema
 * object once: forks share every type they do not change, so a fork's list
 * holds only the types it adds or changes (the whole set of phase0's).
 * `Blob` alone is left out (128 KiB of one byte vector; blob sidecars and
 * lists of blobs carry it).
 */
import { SszType } from '@ssztree/types';
import { FORKS, mainnet, minimal, type ForkName } from '@ssztree/types/consensus';

export function newTypesByFork(preset: 'mainnet' | 'minimal'): Record<ForkName, [string, SszType<unknown>][]> {
  const all = preset === 'minimal' ? minimal : mainnet;
  const seen = new Set<unknown>();
  const out = {} as Record<ForkName, [string, SszType<unknown>][]>;
  for (const fork of FORKS) {
    out[fork] = Object.entries(all[fork]).filter((e): e is [string, SszType<unknown>] => {
      if (!(e[1] instanceof SszType) || !/^[A-Z]/.test(e[0]) || e[0] === 'Blob' || seen.has(e[1])) return false;
      seen.add(e[1]);
      return true;
    });
  }
  return out;
}

/** Above this many bytes a sampled value counts as heavy (blob sidecars, lists of blobs or cells): fewer runs. */
const HEAVY_BYTES = 64 * 1024;
const heavyCache = new WeakMap<object, boolean>();

/**
 * `runs` random values for a type, or 2 for a heavy one (a sampled value
 * serializes to more than 64 KiB): the structure they exercise is the same
 * in every run, and each costs milliseconds to build, hash and compare.
 */
export function runsFor(type: SszType<unknown>, runs: number, sample: (type: SszType<unknown>) => unknown): number {
  let heavy = heavyCache.get(type);
  if (heavy === undefined) {
    heavy = type.minSize > HEAVY_BYTES || type.sizeOf(sample(type)) > HEAVY_BYTES;
    heavyCache.set(type, heavy);
  }
  return heavy ? Math.min(runs, 2) : runs;
}
