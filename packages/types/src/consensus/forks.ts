/**
 * The forks with types here, oldest first: the names `typesOf`, the
 * schedules and the CLI accept. A leaf module, so the schedule data and the
 * fork catalog (index.ts) can both name forks without importing each other.
 * @module
 */

/** The forks with types here, oldest first (the keys of `ForkTypes`). */
export const FORKS = ['phase0', 'altair', 'bellatrix', 'capella', 'deneb', 'electra', 'fulu', 'gloas', 'heze'] as const;
export type ForkName = (typeof FORKS)[number];

/** True when `name` is a fork with types here. */
export function isForkName(name: string): name is ForkName {
  return (FORKS as readonly string[]).includes(name);
}
