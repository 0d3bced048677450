/**
 * The fork schedules of mainnet and the public testnets as data, and
 * `forkAt(network, slot)`. Each entry gives the fork's version and its
 * activation epoch (`null`: not scheduled).
 *
 * Sources: mainnet — `configs/mainnet.yaml` of the pinned consensus-specs
 * version (a test compares it with the committed copy); sepolia and hoodi
 * — not in consensus-specs, taken from `@lodestar/config` 1.48.0
 * (`chainConfig/networks/{sepolia,hoodi}`, which cite the eth-clients
 * network metadata); a test compares them with that package. All three
 * run the mainnet preset (32 slots an epoch). At the pin gloas and heze are
 * scheduled on none of them: their epochs are null (`FAR_FUTURE_EPOCH` in
 * the configs), and the testnets have no heze version yet (null: their
 * configs in @lodestar/config only inherit mainnet's placeholder).
 * @module
 */
import { FORKS, type ForkName } from './forks.js';
import { MAINNET } from './preset.js';

/** Every fork a schedule names, oldest first: the forks with types (`FORKS`). */
export const SCHEDULE_FORKS = FORKS;
export type ScheduledFork = ForkName;

export interface ForkActivation {
  readonly fork: ScheduledFork;
  /** The fork version, 0x-hex; null when the network has none assigned yet. */
  readonly version: string | null;
  /** The first epoch of the fork; null when not scheduled. */
  readonly epoch: number | null;
}

export interface Network {
  readonly name: NetworkName;
  readonly preset: 'mainnet';
  /** Where the epochs come from. */
  readonly source: string;
  /** Oldest first; scheduled epochs never decrease. */
  readonly forks: readonly ForkActivation[];
}

export const NETWORK_NAMES = ['mainnet', 'sepolia', 'hoodi'] as const;
export type NetworkName = (typeof NETWORK_NAMES)[number];

function network(name: NetworkName, source: string, rows: readonly [ScheduledFork, string | null, number | null][]): Network {
  const forks = rows.map(([fork, version, epoch]) => Object.freeze({ fork, version, epoch }));
  return Object.freeze({ name, preset: 'mainnet', source, forks: Object.freeze(forks) });
}

export const NETWORKS: Readonly<Record<NetworkName, Network>> = Object.freeze({
  mainnet: network('mainnet', 'consensus-specs configs/mainnet.yaml at SPEC_VERSION', [
    ['phase0', '0x00000000', 0],
    ['altair', '0x01000000', 74_240],
    ['bellatrix', '0x02000000', 144_896],
    ['capella', '0x03000000', 194_048],
    ['deneb', '0x04000000', 269_568],
    ['electra', '0x05000000', 364_032],
    ['fulu', '0x06000000', 411_392],
    ['gloas', '0x07000000', null],
    ['heze', '0x08000000', null],
  ]),
  sepolia: network('sepolia', '@lodestar/config 1.48.0 chainConfig/networks/sepolia', [
    ['phase0', '0x90000069', 0],
    ['altair', '0x90000070', 50],
    ['bellatrix', '0x90000071', 100],
    ['capella', '0x90000072', 56_832],
    ['deneb', '0x90000073', 132_608],
    ['electra', '0x90000074', 222_464],
    ['fulu', '0x90000075', 272_640],
    ['gloas', '0x90000076', null],
    ['heze', null, null],
  ]),
  hoodi: network('hoodi', '@lodestar/config 1.48.0 chainConfig/networks/hoodi', [
    ['phase0', '0x10000910', 0],
    ['altair', '0x20000910', 0],
    ['bellatrix', '0x30000910', 0],
    ['capella', '0x40000910', 0],
    ['deneb', '0x50000910', 0],
    ['electra', '0x60000910', 2048],
    ['fulu', '0x70000910', 50_688],
    ['gloas', '0x80000910', null],
    ['heze', null, null],
  ]),
});

/** The network of that name; an unknown name throws a RangeError listing the known ones. */
export function networkOf(name: string): Network {
  const n = (NETWORKS as Record<string, Network>)[name];
  if (n === undefined) throw new RangeError(`unknown network "${name}" (known: ${NETWORK_NAMES.join(', ')})`);
  return n;
}

/** The fork active at `epoch` on `network`: the last scheduled fork whose epoch is at or before it. */
export function forkAtEpoch(network: NetworkName | Network, epoch: number | bigint): ScheduledFork {
  const n = typeof network === 'string' ? networkOf(network) : network;
  const e = BigInt(epoch);
  if (e < 0n) throw new RangeError(`epoch ${e} is negative`);
  let active: ScheduledFork = 'phase0';
  for (const f of n.forks) if (f.epoch !== null && BigInt(f.epoch) <= e) active = f.fork;
  return active;
}

/** The fork active at `slot` on `network` (`slot / SLOTS_PER_EPOCH`, the mainnet preset's 32). */
export function forkAt(network: NetworkName | Network, slot: number | bigint): ScheduledFork {
  const s = BigInt(slot);
  if (s < 0n) throw new RangeError(`slot ${s} is negative`);
  return forkAtEpoch(network, s / BigInt(MAINNET.SLOTS_PER_EPOCH));
}

/** True for every fork a schedule names: each has its types here (`typesOf` takes it). */
export function hasTypes(fork: ScheduledFork): fork is ForkName {
  return (FORKS as readonly string[]).includes(fork);
}
