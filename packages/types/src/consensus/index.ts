/**
 * `@ssztree/types/consensus`: the beacon-chain containers of phase0, altair,
 * bellatrix, capella, deneb and electra, for the mainnet and minimal presets,
 * with the spec's snake_case field names. Each fork's object holds every
 * container of that fork (unchanged ones carried over from earlier forks).
 *
 *   import { mainnet } from '@ssztree/types/consensus';
 *   mainnet.deneb.BeaconState.hashTreeRoot(state);
 * @module @ssztree/types/consensus
 */
import { altairTypes } from './altair.js';
import { bellatrixTypes } from './bellatrix.js';
import { capellaTypes } from './capella.js';
import { denebTypes } from './deneb.js';
import { electraTypes } from './electra.js';
import { phase0Types } from './phase0.js';
import { MAINNET, MINIMAL, type Preset } from './preset.js';

export { MAINNET, MINIMAL, type Preset } from './preset.js';
export * as primitives from './primitives.js';
export { phase0Types, type Phase0Types } from './phase0.js';
export { altairTypes, type AltairTypes } from './altair.js';
export { bellatrixTypes, type BellatrixTypes } from './bellatrix.js';
export { capellaTypes, type CapellaTypes } from './capella.js';
export { denebTypes, type DenebTypes } from './deneb.js';
export { electraTypes, type ElectraTypes } from './electra.js';

/** Every fork's containers for one preset. */
export function forkTypes(p: Preset) {
  const phase0 = phase0Types(p);
  const altair = altairTypes(p, phase0);
  const bellatrix = bellatrixTypes(p, altair);
  const capella = capellaTypes(p, bellatrix);
  const deneb = denebTypes(p, capella);
  const electra = electraTypes(p, deneb);
  return { phase0, altair, bellatrix, capella, deneb, electra };
}

/** The containers of every fork for one preset: `ForkTypes['electra']['BeaconState']`, … */
export type ForkTypes = ReturnType<typeof forkTypes>;
/** The fork names, oldest first (the keys of `ForkTypes`). */
export const FORKS = ['phase0', 'altair', 'bellatrix', 'capella', 'deneb', 'electra'] as const;

/** Every fork's containers for the mainnet preset, e.g. `mainnet.electra.BeaconState`. */
export const mainnet: ForkTypes = /* @__PURE__ */ forkTypes(MAINNET);
/** Every fork's containers for the minimal preset (the spec tests' small sizes). */
export const minimal: ForkTypes = /* @__PURE__ */ forkTypes(MINIMAL);
