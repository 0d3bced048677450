/**
 * `auto` from whatever candidates load here: the registry passes its
 * self-checking loader; a worker thread (which loads its backend by name)
 * uses the plain factories, unchecked as every worker backend is (the main
 * thread self-checked the same code). Both then run the same calibration.
 * @module
 */
import type { HasherBackend, HasherName } from '../backend.js';
import { createAvx512Backend } from '../backends/avx512.js';
import { createHashtreeBackend } from '../backends/hashtree.js';
import { createShaniBackend } from '../backends/shani.js';
import { HasherError } from '../errors.js';
import { AUTO_CANDIDATES, createAutoBackend, type AutoBackend } from './auto.js';
import { calibrationOverride } from './options.js';

export interface AutoHere {
  readonly backend: AutoBackend;
  /** Why each candidate that did not load was passed over. */
  readonly passedOver: readonly string[];
}

/** `auto` over the candidates `load` yields; throws HasherError when none does. */
export function autoFrom(load: (name: HasherName) => HasherBackend | HasherError): AutoHere {
  const candidates: HasherBackend[] = [];
  const passedOver: string[] = [];
  for (const name of AUTO_CANDIDATES) {
    const outcome = load(name);
    if (outcome instanceof HasherError) passedOver.push(outcome.message);
    else candidates.push(outcome);
  }
  return { backend: createAutoBackend(candidates, { uncalibrated: calibrationOverride() }), passedOver };
}

const FACTORIES: Partial<Record<HasherName, () => HasherBackend>> = {
  shani: createShaniBackend,
  avx512: createAvx512Backend,
  hashtree: createHashtreeBackend,
};

/** `auto` for a worker thread, from the plain factories. */
export function createAutoBackendHere(): AutoBackend {
  return autoFrom((name) => {
    try {
      return FACTORIES[name]!();
    } catch (cause) {
      return cause instanceof HasherError ? cause : new HasherError('HASHER_UNAVAILABLE', `${name}: ${String(cause)}`);
    }
  }).backend;
}
