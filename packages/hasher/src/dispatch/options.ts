/**
 * The environment's say in the size dispatch: `SSZTREE_HASHER_CALIBRATE=0`
 * (or `off`, `false`, `no`) skips the start-up measurements, so `auto`
 * hashes every size with its first candidate. (`SSZTREE_HASHER=<name>`, read
 * by the registry, bypasses `auto` altogether.)
 * @module
 */

const OFF = new Set(['0', 'off', 'false', 'no']);

/** Why the calibration is switched off, or undefined when it runs. */
export function calibrationOverride(): string | undefined {
  const raw = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SSZTREE_HASHER_CALIBRATE;
  return raw !== undefined && OFF.has(raw.trim().toLowerCase()) ? `SSZTREE_HASHER_CALIBRATE=${raw}` : undefined;
}
