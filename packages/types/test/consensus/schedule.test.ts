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
import { FORKS, NETWORKS, SLOT_LAYOUTS, forkAt, forkOfBytes, mainnet, minimal, slotOf, slotPrefixLength, typesOf, type Network, type SlotCarrier } from '../../src/consensus/index.js';

const FAR_FUTURE = 2n ** 64n - 1n;

describe('fork schedules', () => {
  it('mainnet follows configs/mainnet.yaml at the pin', () => {
    const config = parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'consensus-specs', 'configs', 'mainnet.yaml'), 'utf8'), { intAsBigInt: true }) as Record<string, unknown>;
    expect(NETWORKS.mainnet.forks.map((f) => f.fork)).toEqual([...FORKS]);
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
      expect(NETWORKS[name].forks.map((f) => f.fork), name).toEqual([...FORKS]);
      for (const { fork, version, epoch } of NETWORKS[name].forks) {
        const key = fork === 'phase0' ? 'GENESIS' : fork.toUpperCase();
        const theirs = `0x${Buffer.from(c[`${key}_FORK_VERSION`] as Uint8Array).toString('hex')}`;
        // No heze version for the testnets: Lodestar's config spreads mainnet's, so it holds mainnet's placeholder.
        if (version === null) expect(theirs, `${name} ${fork}`).toBe(NETWORKS.mainnet.forks.find((f) => f.fork === fork)?.version);
        else expect(theirs, `${name} ${fork}`).toBe(version);
        if (fork !== 'phase0') expect(c[`${key}_FORK_EPOCH`], `${name} ${fork}`).toBe(epoch ?? Infinity);
      }
      // Gloas and heze are not scheduled there (Infinity = FAR_FUTURE_EPOCH).
      expect(NETWORKS[name].forks.filter((f) => f.epoch === null).map((f) => f.fork), name).toEqual(['gloas', 'heze']);
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
    expect(typesOf('gloas').BeaconState).toBe(mainnet.gloas.BeaconState);
    expect(typesOf('heze', 'minimal').SignedInclusionList).toBe(minimal.heze.SignedInclusionList);
    expect(() => typesOf('osaka' as never)).toThrow(/no types for fork "osaka" \(known: phase0, .*, gloas, heze\)/);
    expect(FORKS.slice(-3)).toEqual(['fulu', 'gloas', 'heze']);
  });

  it('forkAt picks gloas and heze where a schedule has them (a devnet-style schedule)', () => {
    const devnet: Network = {
      ...NETWORKS.mainnet,
      forks: NETWORKS.mainnet.forks.map((f) => (f.fork === 'gloas' ? { ...f, epoch: 500_000 } : f.fork === 'heze' ? { ...f, epoch: 600_000 } : f)),
    };
    expect(forkAt(devnet, 500_000n * 32n - 1n)).toBe('fulu');
    expect(forkAt(devnet, 500_000n * 32n)).toBe('gloas');
    expect(forkAt(devnet, 600_000n * 32n)).toBe('heze');
    expect(typesOf(forkAt(devnet, 2n ** 62n)).BeaconState).toBe(mainnet.heze.BeaconState);
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
  const gloasValues: [SlotCarrier, 'gloas' | 'heze', () => Uint8Array][] = [
    ['BeaconState', 'gloas', () => mainnet.gloas.BeaconState.serialize({ ...mainnet.gloas.BeaconState.defaultValue(), slot })],
    ['BeaconState', 'heze', () => minimal.heze.BeaconState.serialize({ ...minimal.heze.BeaconState.defaultValue(), slot })],
    ['SignedBeaconBlock', 'gloas', () => {
      const v = mainnet.gloas.SignedBeaconBlock.defaultValue();
      return mainnet.gloas.SignedBeaconBlock.serialize({ ...v, message: { ...v.message, slot } });
    }],
    ['SignedBeaconBlock', 'heze', () => {
      const v = mainnet.heze.SignedBeaconBlock.defaultValue();
      return mainnet.heze.SignedBeaconBlock.serialize({ ...v, message: { ...v.message, slot } });
    }],
    ['BeaconBlock', 'gloas', () => mainnet.gloas.BeaconBlock.serialize({ ...mainnet.gloas.BeaconBlock.defaultValue(), slot })],
    ['DataColumnSidecar', 'gloas', () => mainnet.gloas.DataColumnSidecar.serialize({ ...mainnet.gloas.DataColumnSidecar.defaultValue(), slot, column: [new Uint8Array(2048)] })],
    ['ExecutionPayloadBid', 'gloas', () => mainnet.gloas.ExecutionPayloadBid.serialize({ ...mainnet.gloas.ExecutionPayloadBid.defaultValue(), slot })],
    ['ExecutionPayloadBid', 'heze', () => mainnet.heze.ExecutionPayloadBid.serialize({ ...mainnet.heze.ExecutionPayloadBid.defaultValue(), slot })],
    ['SignedExecutionPayloadBid', 'gloas', () => {
      const v = mainnet.gloas.SignedExecutionPayloadBid.defaultValue();
      return mainnet.gloas.SignedExecutionPayloadBid.serialize({ ...v, message: { ...v.message, slot } });
    }],
    ['SignedExecutionPayloadBid', 'heze', () => {
      const v = minimal.heze.SignedExecutionPayloadBid.defaultValue();
      return minimal.heze.SignedExecutionPayloadBid.serialize({ ...v, message: { ...v.message, slot } });
    }],
    ['PayloadAttestationMessage', 'gloas', () => {
      const v = mainnet.gloas.PayloadAttestationMessage.defaultValue();
      return mainnet.gloas.PayloadAttestationMessage.serialize({ ...v, data: { ...v.data, slot } });
    }],
    ['InclusionList', 'heze', () => mainnet.heze.InclusionList.serialize({ ...mainnet.heze.InclusionList.defaultValue(), slot })],
    ['SignedInclusionList', 'heze', () => {
      const v = mainnet.heze.SignedInclusionList.defaultValue();
      return mainnet.heze.SignedInclusionList.serialize({ ...v, message: { ...v.message, slot } });
    }],
  ];

  it('gloas and heze: the state and block keep their offsets (40, 100); the sidecar moves to 16, told apart by its first offset', () => {
    for (const [kind, fork, make] of gloasValues) {
      expect(slotOf(kind, make()), `${fork} ${kind}`).toBe(slot);
      // The spec's field order puts it there: the offset is the fixed-size prefix before the slot.
      const layout = SLOT_LAYOUTS[kind].at(-1)!;
      expect(slotPrefixLength(kind)).toBeGreaterThanOrEqual(layout.at + 8);
    }
    const fulu = mainnet.fulu.DataColumnSidecar.serialize(mainnet.fulu.DataColumnSidecar.defaultValue());
    const gloas = mainnet.gloas.DataColumnSidecar.serialize(mainnet.gloas.DataColumnSidecar.defaultValue());
    expect([new DataView(fulu.buffer).getUint32(8, true), new DataView(gloas.buffer).getUint32(8, true)]).toEqual([356, 56]);
    expect([mainnet.fulu.DataColumnSidecar.fixedPartSize, mainnet.gloas.DataColumnSidecar.fixedPartSize, minimal.gloas.DataColumnSidecar.fixedPartSize]).toEqual([356, 56, 56]);
    const bad = gloas.slice();
    new DataView(bad.buffer).setUint32(8, 57, true);
    expect(() => slotOf('DataColumnSidecar', bad)).toThrow(/offset 57 is not the fixed part's end 356 \(fulu\) or 56 \(gloas and later\)/);
  });

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
    for (const kind of Object.keys(SLOT_LAYOUTS) as SlotCarrier[]) {
      const end = Math.min(...SLOT_LAYOUTS[kind].map((l) => l.at + 8));
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
    // A fulu sidecar cut after the gloas layout's slot but before its own.
    const fulu = mainnet.fulu.DataColumnSidecar.serialize(mainnet.fulu.DataColumnSidecar.defaultValue()).subarray(0, 25);
    expect(() => slotOf('DataColumnSidecar', fulu)).toThrow(/25 bytes hold no slot \(it ends at byte 28\)/);
  });
});
