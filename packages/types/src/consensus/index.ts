/**
 * `@ssztree/types/consensus`: the consensus types of phase0, altair,
 * bellatrix, capella, deneb, electra, fulu, gloas and heze for the mainnet and minimal
 * presets, as the pinned consensus-specs version (`SPEC_VERSION`) defines
 * them: beacon-chain, p2p, light-client and validator containers and the
 * spec's named list and vector types, with the spec's snake_case field
 * names. Each fork's object holds every type of that fork (unchanged ones
 * are the very objects of the fork before). Fork selection (`forkAt`,
 * `typesOf`, `forkOfBytes`) and state upgrades (`upgradeState`) sit on top.
 *
 *   import { mainnet, typesOf } from '@ssztree/types/consensus';
 *   mainnet.fulu.BeaconState.hashTreeRoot(state);
 *   typesOf('gloas', 'minimal').SignedExecutionPayloadEnvelope.deserialize(bytes);
 * @module @ssztree/types/consensus
 */
import { altairTypes, type AltairTypes } from './altair.js';
import { bellatrixTypes, type BellatrixTypes } from './bellatrix.js';
import { capellaTypes, type CapellaTypes } from './capella.js';
import { denebTypes, type DenebTypes } from './deneb.js';
import { electraTypes, type ElectraTypes } from './electra.js';
import { fuluTypes, type FuluTypes } from './fulu.js';
import { gloasTypes, type GloasTypes } from './gloas.js';
import { hezeTypes, type HezeTypes } from './heze.js';
import { phase0Types, type Phase0Types } from './phase0.js';
import { FORKS, isForkName, type ForkName } from './forks.js';
import { forkUpgradePlans, type ForkUpgradePlans as PlansOf, type UpgradeTarget } from './forkUpgrades.js';
import { networkOf, type NetworkName } from './schedule.js';
import { MAINNET, MINIMAL, type Preset, type PresetName } from './preset.js';
import { upgradeView, type StateContainer } from './upgrade.js';
import { fromHex, SszError, type ContainerValue, type ContainerView, type Fields, type TreeView } from '../index.js';

export { SPEC_VERSION } from './version.js';
export {
  MAINNET,
  MINIMAL,
  PRESET_NAMES,
  PRESET_FORKS,
  P2P,
  DEPOSIT_CONTRACT_TREE_DEPTH,
  JUSTIFICATION_BITS_LENGTH,
  SYNC_COMMITTEE_SUBNET_COUNT,
  BYTES_PER_FIELD_ELEMENT,
  presetOf,
  type Preset,
  type PresetName,
  type PresetFork,
  type ForkPreset,
} from './preset.js';
export * as primitives from './primitives.js';
export {
  NETWORKS,
  NETWORK_NAMES,
  SCHEDULE_FORKS,
  forkAt,
  forkAtEpoch,
  hasTypes,
  networkOf,
  type ForkActivation,
  type Network,
  type NetworkName,
  type ScheduledFork,
} from './schedule.js';
export { SLOT_LAYOUTS, forkOfBytes, isSlotCarrier, slotOf, slotPrefixLength, type SlotCarrier, type SlotLayout } from './slot.js';
export { binaryToProgressive, planUpgrade, upgradeView, type FieldConvert, type FieldInitial, type FieldStep, type StateContainer, type UpgradePlan } from './upgrade.js';
export type { UpgradeTarget } from './forkUpgrades.js';
export { FORKS, isForkName, type ForkName } from './forks.js';
export { TYPE_BYTE_BOUNDS, applyByteBounds, p2pPayloadBound } from './bounds.js';
export { phase0Types, type Phase0Types } from './phase0.js';
export { altairTypes, type AltairTypes } from './altair.js';
export { bellatrixTypes, type BellatrixTypes } from './bellatrix.js';
export { capellaTypes, type CapellaTypes } from './capella.js';
export { denebTypes, type DenebTypes } from './deneb.js';
export { electraTypes, type ElectraTypes } from './electra.js';
export { fuluTypes, type FuluTypes } from './fulu.js';
export { gloasTypes, type GloasTypes } from './gloas.js';
export { hezeTypes, type HezeTypes } from './heze.js';

/** The types of every fork for one preset: `ForkTypes['fulu']['BeaconState']`, … */
export interface ForkTypes {
  readonly phase0: Phase0Types;
  readonly altair: AltairTypes;
  readonly bellatrix: BellatrixTypes;
  readonly capella: CapellaTypes;
  readonly deneb: DenebTypes;
  readonly electra: ElectraTypes;
  readonly fulu: FuluTypes;
  readonly gloas: GloasTypes;
  readonly heze: HezeTypes;
}

/** Every fork's types for one preset. */
export function forkTypes(p: Preset): ForkTypes {
  const phase0 = phase0Types(p);
  const altair = altairTypes(p, phase0);
  const bellatrix = bellatrixTypes(p, altair);
  const capella = capellaTypes(p, bellatrix);
  const deneb = denebTypes(p, capella);
  const electra = electraTypes(p, deneb);
  const fulu = fuluTypes(p, electra);
  const gloas = gloasTypes(p, fulu);
  const heze = hezeTypes(p, gloas);
  return { phase0, altair, bellatrix, capella, deneb, electra, fulu, gloas, heze };
}

/** Every fork's types for the mainnet preset, e.g. `mainnet.fulu.BeaconState`. */
export const mainnet: ForkTypes = /* @__PURE__ */ forkTypes(MAINNET);
/** Every fork's types for the minimal preset (the spec tests' small sizes). */
export const minimal: ForkTypes = /* @__PURE__ */ forkTypes(MINIMAL);


/**
 * The types of a fork by name: `typesOf('gloas', 'mainnet').BeaconState`. An
 * unknown name throws a `RangeError` naming the known ones.
 */
export function typesOf<F extends ForkName>(fork: F, preset: PresetName = 'mainnet'): ForkTypes[F] {
  if (!isForkName(fork)) throw new RangeError(`no types for fork "${String(fork)}" (known: ${FORKS.join(', ')})`);
  return (preset === 'minimal' ? minimal : mainnet)[fork];
}

/** The upgrade plans of a preset's types: which fields each fork pair carries, converts or adds. */
export type ForkUpgradePlans = PlansOf;

const plans: Partial<Record<PresetName, ForkUpgradePlans>> = {};

/** The upgrade plans of one preset (which fields each fork pair carries, converts or adds). */
export function upgradePlans(preset: PresetName = 'mainnet'): ForkUpgradePlans {
  return (plans[preset] ??= forkUpgradePlans(preset === 'minimal' ? minimal : mainnet));
}

type PlanFields<T extends UpgradeTarget, Side extends 'from' | 'to'> = ForkUpgradePlans[T][Side] extends StateContainer<infer F extends Fields> ? F : never;

/** How `upgradeState` runs: the preset, the caller's values, and where the new fork version comes from. */
export interface UpgradeOptions<T extends UpgradeTarget> {
  preset?: PresetName;
  /** New fields' values (e.g. `proposer_lookahead`, `ptc_window`); a value for a carried field replaces it. */
  values?: Partial<ContainerValue<PlanFields<T, 'to'>>>;
  /**
   * The target fork's version, or the network whose schedule gives it: then
   * `fork` (unless in `values`) is the spec's `Fork(previous_version =
   * pre.fork.current_version, current_version = version, epoch =
   * current epoch)`. Without either, `fork` is carried unless given.
   */
  forkVersion?: Uint8Array;
  network?: NetworkName;
}

/** The version of fork `to` on `network`; a network without one assigned is an `INVALID_VALUE`. */
function versionOn(network: NetworkName, to: ForkName): Uint8Array {
  const entry = networkOf(network).forks.find((f) => f.fork === to);
  if (entry?.version == null) throw new SszError('INVALID_VALUE', `${network} has no ${to} fork version`, -1, 'BeaconState');
  return fromHex(entry.version);
}

/**
 * A view of the fork before `to`'s BeaconState upgraded to a view of `to`'s,
 * reusing the tree: every unchanged field's subtree is carried over as it
 * is, binary lists that became progressive are converted sharing their
 * elements, new fields take `values` (e.g. `proposer_lookahead`,
 * `ptc_window`), else the spec's initial values or their defaults; a value
 * given for a carried field (e.g. `fork`) replaces it.
 *
 *   const fulu = upgradeState(electraView, 'fulu', { values: { proposer_lookahead }, network: 'mainnet' });
 *   const gloas = upgradeState(fulu, 'gloas', { values: { ptc_window }, network: 'mainnet' });
 */
export function upgradeState<T extends UpgradeTarget>(
  view: TreeView<ContainerValue<PlanFields<T, 'from'>>>,
  to: T,
  options: UpgradeOptions<T> = {},
): ContainerView<PlanFields<T, 'to'>> {
  const preset = options.preset ?? 'mainnet';
  const plan = upgradePlans(preset)[to];
  const values: Record<string, unknown> = { ...(options.values ?? {}) };
  const version = options.forkVersion ?? (options.network === undefined ? undefined : versionOn(options.network, to));
  if (version !== undefined && values.fork === undefined) {
    if (view.type !== (plan.from as unknown)) {
      throw new SszError('INVALID_VALUE', `the view is a ${view.type.typeName}, the plan upgrades a ${plan.from.typeName}`, -1, plan.to.typeName);
    }
    const pre = view as unknown as { slot: bigint; fork: { current_version: Uint8Array } };
    const slotsPerEpoch = BigInt((preset === 'minimal' ? MINIMAL : MAINNET).SLOTS_PER_EPOCH);
    values.fork = { previous_version: pre.fork.current_version.slice(), current_version: version, epoch: pre.slot / slotsPerEpoch };
  }
  return upgradeView(plan as never, view as never, values as never) as ContainerView<PlanFields<T, 'to'>>;
}
