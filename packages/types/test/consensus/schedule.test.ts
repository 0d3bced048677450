/**
 * Fork selection: the schedules (mainnet against the pinned
 * configs/mainnet.yaml, sepolia and hoodi against @lodestar/config 1.48.0),
 * `forkAt` at and around every boundary, `typesOf`, and the slot read from
 * serialized states, blocks and sidecars at their fixed offsets.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SszError } from '../../src/index.js';
import { FORKS, NETWORKS, SLOT_OFFSETS, forkAt, forkOfBytes, mainnet, minimal, slotOf, typesOf, type SlotCarrier } from '../../src/consensus/index.js';

const FAR_FUTURE = 2n ** 64n - 1n;

describe('fork schedules', () => {
  it('mainnet follows configs/mainnet.yaml at the pin', () => {
    const config = parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'consensus-specs', 'configs', 'mainnet.yaml'), 'utf8'), { intAsBigInt: true }) as Record<string, unknown>;
    for (const { fork, version, epoch } of NETWORKS.mainnet.forks) {
      const key = fork === 'phase0' ? 'GENESIS' : fork.toUpperCase();
      expect(`0x${(config[`${key}_FORK_VERSION`] as bigint).toString(16).padStart(8, '0')}`, fork).toBe(version);
      if (fork !== 'phase0') expect(config[`${key}_FORK_EPOCH`], fork).toBe(epoch === null ? FAR_FUTURE : BigInt(epoch));
    }
  });

  it('sepolia and hoodi follow @lodestar/config 1.48.0', async () => {
    const { sepoliaChainConfig } = await import('@lodestar/config/networks');
    const { hoodiChainConfig } = await import('@lodestar/config/networks');
    for (const [name, config] of [['sepolia', sepoliaChainConfig], ['hoodi', hoodiChainConfig]] as const) {
      const c = config as unknown as Record<string, Uint8Array | number>;
      for (const { fork, version, epoch } of NETWORKS[name].forks) {
        const key = fork === 'phase0' ? 'GENESIS' : fork.toUpperCase();
        expect(`0x${Buffer.from(c[`${key}_FORK_VERSION`] as Uint8Array).toString('hex')}`, `${name} ${fork}`).toBe(version);
        if (fork !== 'phase0') expect(c[`${key}_FORK_EPOCH`], `${name} ${fork}`).toBe(epoch ?? Infinity);
      }
    }
  });

  it('forkAt: each boundary slot starts its fork, the slot before is the fork before', () => {
    for (const network of Object.values(NETWORKS)) {
      let previous = 'phase0';
      for (const { fork, epoch } of network.forks) {
        if (epoch === null || epoch === 0) {
          if (epoch === 0) previous = fork;
          continue;
        }
        const first = BigInt(epoch) * 32n;
        expect(forkAt(network.name, first), `${network.name} ${fork}`).toBe(fork);
        expect(forkAt(network.name, first - 1n), `${network.name} before ${fork}`).toBe(previous);
        previous = fork;
      }
      expect(forkAt(network.name, 2n ** 63n), network.name).toBe('fulu');
    }
    expect(forkAt('mainnet', 0)).toBe('phase0');
    expect(forkAt('hoodi', 0)).toBe('deneb');
    expect(forkAt('mainnet', 13_164_544)).toBe('fulu');
    expect(() => forkAt('holesky' as never, 0)).toThrow(/unknown network "holesky"/);
  });

  it('typesOf gives a fork by name', () => {
    expect(typesOf('fulu', 'mainnet')).toBe(mainnet.fulu);
    expect(typesOf('electra', 'minimal').BeaconState).toBe(minimal.electra.BeaconState);
    expect(() => typesOf('gloas' as never)).toThrow(/no types for fork "gloas"/);
    expect(FORKS.at(-1)).toBe('fulu');
  });
});

describe('the slot of serialized bytes', () => {
  const slot = 13_164_544n + 7n;
  const values: [SlotCarrier, () => Uint8Array][] = [
    ['BeaconState', () => mainnet.fulu.BeaconState.serialize({ ...mainnet.fulu.BeaconState.defaultValue(), slot })],
    ['BeaconBlock', () => mainnet.fulu.BeaconBlock.serialize({ ...mainnet.fulu.BeaconBlock.defaultValue(), slot })],
    ['SignedBeaconBlock', () => {
      const v = mainnet.fulu.SignedBeaconBlock.defaultValue();
      return mainnet.fulu.SignedBeaconBlock.serialize({ ...v, message: { ...v.message, slot } });
    }],
    ['SignedBeaconBlockHeader', () => {
      const v = mainnet.fulu.SignedBeaconBlockHeader.defaultValue();
      return mainnet.fulu.SignedBeaconBlockHeader.serialize({ ...v, message: { ...v.message, slot } });
    }],
    ['DataColumnSidecar', () => {
      const v = mainnet.fulu.DataColumnSidecar.defaultValue();
      return mainnet.fulu.DataColumnSidecar.serialize({ ...v, signed_block_header: { ...v.signed_block_header, message: { ...v.signed_block_header.message, slot } } });
    }],
  ];
  it('reads it at the fixed offset of each kind, and picks the fork', () => {
    for (const [kind, make] of values) {
      const bytes = make();
      expect(slotOf(kind, bytes), kind).toBe(slot);
      expect(forkOfBytes('mainnet', kind, bytes), kind).toBe('fulu');
    }
    // The offsets hold for every fork: a phase0 state and an electra block.
    expect(slotOf('BeaconState', minimal.phase0.BeaconState.serialize({ ...minimal.phase0.BeaconState.defaultValue(), slot: 5n }))).toBe(5n);
    const b = mainnet.electra.SignedBeaconBlock.defaultValue();
    expect(forkOfBytes('mainnet', 'SignedBeaconBlock', mainnet.electra.SignedBeaconBlock.serialize({ ...b, message: { ...b.message, slot: 364_032n * 32n } }))).toBe('electra');
  });

  it('rejects input too short to hold the slot, and a block whose message offset is not 100', () => {
    for (const kind of Object.keys(SLOT_OFFSETS) as SlotCarrier[]) {
      const end = SLOT_OFFSETS[kind] + 8;
      const err = (() => {
        try {
          slotOf(kind, new Uint8Array(end - 1));
        } catch (e) {
          return e as SszError;
        }
        throw new Error('accepted');
      })();
      expect(err).toBeInstanceOf(SszError);
      expect([err.code, err.typePath, err.offset], kind).toEqual(['SHORT_INPUT', `${kind}.slot`, end - 1]);
    }
    expect(() => slotOf('SignedBeaconBlock', new Uint8Array(200))).toThrow(/BAD_OFFSET/);
  });
});
