/**
 * `@ssztree/types/consensus`: the beacon-chain containers of phase0, altair,
 * bellatrix, capella, deneb and electra, for the mainnet and minimal presets,
 * with the spec's snake_case field names.
 *
 *   import { mainnet } from '@ssztree/types/consensus';
 *   mainnet.deneb.BeaconState.hashTreeRoot(state);
 * @module
 */
import { phase0Types } from './phase0.js';
import { MAINNET, MINIMAL, type Preset } from './preset.js';

export { MAINNET, MINIMAL, type Preset } from './preset.js';
export * as primitives from './primitives.js';
export { phase0Types, type Phase0Types } from './phase0.js';

/** Every fork's containers for one preset. */
export function forkTypes(p: Preset) {
  const phase0 = phase0Types(p);
  return { phase0 };
}

export const mainnet = /* @__PURE__ */ forkTypes(MAINNET);
export const minimal = /* @__PURE__ */ forkTypes(MINIMAL);
