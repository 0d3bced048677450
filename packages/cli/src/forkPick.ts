/**
 * A type named without its fork (`BeaconState`, `SignedBeaconBlock`, …):
 * the fork is picked from the input on a network's schedule (`--network`,
 * default mainnet). SSZ input gives its slot at the type's fixed offset
 * (`slotOf`); JSON/YAML input gives the beacon API envelope's `version`, or
 * the value's slot.
 *
 * Invariant: the fork is picked while the input is read once
 * (`loadValue` with the `TypePicker` made here): SSZ from the few bytes up
 * to the slot, before the size and layout checks of the type picked; JSON
 * and YAML from the one parse of the text.
 * @module
 */
import { SszError } from '@ssztree/types';
import { FORKS, forkAt, isSlotCarrier, networkOf, slotOf, typesOf, SLOT_OFFSETS, type ForkName, type SlotCarrier } from '@ssztree/types/consensus';
import { CliError, UsageError, describeSszError } from './errors.js';
import type { TypePicker } from './input.js';
import { resolveType, type NamedType, type PresetName } from './registry.js';

/** Where each kind's slot sits in its JSON form. */
const JSON_SLOT: Record<SlotCarrier, readonly string[]> = {
  BeaconState: ['slot'],
  BeaconBlock: ['slot'],
  BeaconBlockHeader: ['slot'],
  SignedBeaconBlockHeader: ['message', 'slot'],
  SignedBeaconBlock: ['message', 'slot'],
  DataColumnSidecar: ['signed_block_header', 'message', 'slot'],
};

function jsonFork(json: unknown, kind: SlotCarrier, network: string, source: string): string {
  let node = json as Record<string, unknown> | null;
  if (typeof node === 'object' && node !== null && 'data' in node) {
    const version = node['version'];
    if (typeof version === 'string') return version;
    node = node['data'] as Record<string, unknown> | null;
  }
  let v: unknown = node;
  for (const key of JSON_SLOT[kind]) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint') {
    throw new CliError(`${source}: no ${JSON_SLOT[kind].join('.')} to pick the fork from; name the fork (e.g. fulu.${kind})`);
  }
  try {
    return forkAt(network as never, BigInt(v));
  } catch {
    throw new CliError(`${source}: ${JSON_SLOT[kind].join('.')} "${String(v)}" is not a slot`);
  }
}

/**
 * The picker for `kind` named without its fork on `network`'s schedule:
 * usage errors (a kind without a slot, another preset, an unknown network)
 * come before anything is read.
 */
export function forkPicker(kind: string, network: string, preset: PresetName): TypePicker {
  if (!isSlotCarrier(kind)) {
    // An unknown name fails with the registry's near matches; a known one says how to name it.
    if (!FORKS.some((f) => kind in typesOf(f))) resolveType(kind, preset);
    const kinds = Object.keys(SLOT_OFFSETS).join(', ');
    throw new UsageError(`"${kind}" has no fork: name it as <fork>.${kind} (the fork is picked from the input only for ${kinds})`);
  }
  if (preset !== 'mainnet') throw new UsageError(`the networks run the mainnet preset: name the fork for --preset ${preset} (e.g. fulu.${kind})`);
  let net: ReturnType<typeof networkOf>;
  try {
    net = networkOf(network);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const typed = (fork: string, source: string): NamedType => {
    if (!(FORKS as readonly string[]).includes(fork)) {
      throw new CliError(`${source}: the input is ${fork} on ${net.name}, which has no types here yet (known: ${FORKS.join(', ')})`);
    }
    if (!(kind in typesOf(fork as ForkName))) throw new CliError(`${source}: the input is ${fork} on ${net.name}, which has no ${kind}`);
    return resolveType(`${fork}.${kind}`, preset);
  };
  return {
    fromSsz(read, _size, source, format) {
      let fork: string;
      try {
        fork = forkAt(net, slotOf(kind, read(0, SLOT_OFFSETS[kind] + 8)));
      } catch (e) {
        if (e instanceof SszError) throw new CliError(describeSszError(e, source, format === 'ssz_snappy' ? ' of the decompressed SSZ' : ''));
        throw e;
      }
      return typed(fork, source);
    },
    fromJson(json, source) {
      return typed(jsonFork(json, kind, net.name, source), source);
    },
  };
}
