/**
 * The presets as the containers use them: one flat, frozen object per preset
 * holding every constant of every fork's preset file (phase0 … heze), plus
 * the spec constants that no preset changes but that shape types (tree
 * depths, subnet counts, the req/resp list limits of the p2p specs).
 *
 * Invariant: `MAINNET` and `MINIMAL` hold exactly the names of the pinned
 * `presets/<preset>/<fork>.yaml` files (no name is in two forks' files), with
 * their values; `presetOf(name).byFork[fork]` gives one file's constants.
 * @module
 */
import { MAINNET_BY_FORK, MINIMAL_CHANGES, PRESET_FORKS, type PresetFork } from './presetValues.js';

export { PRESET_FORKS, type PresetFork } from './presetValues.js';

export type PresetName = 'mainnet' | 'minimal';
export const PRESET_NAMES: readonly PresetName[] = ['mainnet', 'minimal'];

type Numbers<T> = { readonly [K in keyof T]: number };
/** The constants of one fork's preset file. */
export type ForkPreset<F extends PresetFork> = Numbers<(typeof MAINNET_BY_FORK)[F]>;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type AllConstants = UnionToIntersection<{ [F in PresetFork]: ForkPreset<F> }[PresetFork]>;

/** Every constant of one preset, all forks together, and the same split by fork. */
export type Preset = AllConstants & {
  readonly name: PresetName;
  readonly byFork: { readonly [F in PresetFork]: ForkPreset<F> };
};

function build(name: PresetName): Preset {
  const byFork = {} as Record<PresetFork, Record<string, number>>;
  const flat: Record<string, number> = {};
  for (const fork of PRESET_FORKS) {
    const values: Record<string, number> = { ...MAINNET_BY_FORK[fork], ...(name === 'minimal' ? MINIMAL_CHANGES[fork] : {}) };
    byFork[fork] = Object.freeze(values);
    for (const [k, v] of Object.entries(values)) {
      if (k in flat) throw new Error(`preset constant ${k} appears in two forks`);
      flat[k] = v;
    }
  }
  return Object.freeze({ ...flat, name, byFork: Object.freeze(byFork) }) as unknown as Preset;
}

export const MAINNET: Preset = /* @__PURE__ */ build('mainnet');
export const MINIMAL: Preset = /* @__PURE__ */ build('minimal');

/** The preset of that name. */
export function presetOf(name: PresetName): Preset {
  return name === 'minimal' ? MINIMAL : MAINNET;
}

// Constants that no preset changes (spec constant tables, not preset files).
/** `specs/phase0/beacon-chain.md` */
export const DEPOSIT_CONTRACT_TREE_DEPTH = 32;
/** `specs/phase0/beacon-chain.md` */
export const JUSTIFICATION_BITS_LENGTH = 4;
/** `specs/altair/validator.md` */
export const SYNC_COMMITTEE_SUBNET_COUNT = 4;
/** `specs/deneb/beacon-chain.md` */
export const BYTES_PER_FIELD_ELEMENT = 32;

/**
 * The req/resp and gossip constants that shape p2p types
 * (`specs/*\/p2p-interface.md` at the pin; the same values are in both
 * `configs/*.yaml`, which a test checks). `MAX_PAYLOAD_SIZE` is the byte
 * bound of every uncompressed gossip and req/resp payload.
 */
export const P2P = Object.freeze({
  MAX_PAYLOAD_SIZE: 10 * 2 ** 20,
  MAX_REQUEST_BLOCKS: 2 ** 10,
  MAX_REQUEST_BLOCKS_DENEB: 2 ** 7,
  ATTESTATION_SUBNET_COUNT: 64,
  MAX_REQUEST_LIGHT_CLIENT_UPDATES: 2 ** 7,
  /** Deneb's blob limit per block, in `compute_max_request_blob_sidecars` (deneb). */
  MAX_BLOBS_PER_BLOCK: 6,
  /** Electra's, in `compute_max_request_blob_sidecars` (electra and later). */
  MAX_BLOBS_PER_BLOCK_ELECTRA: 9,
  /** `specs/phase0/p2p-interface.md`, the `ErrorMessage` byte limit. */
  MAX_ERROR_MESSAGE_LENGTH: 256,
  /** `specs/gloas/p2p-interface.md`: payload envelopes per request. */
  MAX_REQUEST_PAYLOADS: 2 ** 7,
  /** `specs/heze/p2p-interface.md`: inclusion lists per request. */
  MAX_REQUEST_INCLUSION_LIST: 2 ** 4,
});
