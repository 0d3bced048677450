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
import { FORKS, SLOT_LAYOUTS, forkAt, isSlotCarrier, networkOf, slotOf, slotPrefixLength, typesOf, type ForkName, type Network, type SlotCarrier } from '@ssztree/types/consensus';
import { CliError, UsageError, describeSszError } from './errors.js';
import type { TypePicker } from './input.js';
import { resolveType, type NamedType, type PresetName } from './registry.js';

/** The value at `path` in `node`, or undefined. */
function at(node: unknown, path: readonly string[]): unknown {
  let v = node;
  for (const key of path) v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined;
  return v;
}

/** The fork of JSON input: a beacon API envelope's `version`, else the slot at the first of the kind's layouts' paths the value has. */
function jsonFork(json: unknown, kind: SlotCarrier, network: Network, source: string): string {
  let node = json as Record<string, unknown> | null;
  if (typeof node === 'object' && node !== null && 'data' in node) {
    const version = node['version'];
    if (typeof version === 'string') return version;
    node = node['data'] as Record<string, unknown> | null;
  }
  const paths = SLOT_LAYOUTS[kind].map((l) => l.json);
  const path = paths.find((p) => at(node, p) !== undefined) ?? (paths[0] as readonly string[]);
  const v = at(node, path);
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'bigint') {
    throw new CliError(`${source}: no ${paths.map((p) => p.join('.')).join(' or ')} to pick the fork from; name the fork (e.g. fulu.${kind})`);
  }
  try {
    return forkAt(network, BigInt(v));
  } catch {
    throw new CliError(`${source}: ${path.join('.')} "${String(v)}" is not a slot`);
  }
}

/**
 * The picker for `kind` named without its fork on `network`'s schedule (a
 * name of `NETWORKS`, or a schedule of one's own): usage errors (a kind
 * without a slot, another preset, an unknown network) come before anything
 * is read.
 */
export function forkPicker(kind: string, network: string | Network, preset: PresetName): TypePicker {
  if (!isSlotCarrier(kind)) {
    // An unknown name fails with the registry's near matches; a known one says how to name it.
    if (!FORKS.some((f) => kind in typesOf(f))) resolveType(kind, preset);
    const kinds = Object.keys(SLOT_LAYOUTS).join(', ');
    throw new UsageError(`"${kind}" has no fork: name it as <fork>.${kind} (the fork is picked from the input only for ${kinds})`);
  }
  if (preset !== 'mainnet') throw new UsageError(`the networks run the mainnet preset: name the fork for --preset ${preset} (e.g. fulu.${kind})`);
  let net: Network;
  try {
    net = typeof network === 'string' ? networkOf(network) : network;
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
        fork = forkAt(net, slotOf(kind, read(0, slotPrefixLength(kind))));
      } catch (e) {
        if (e instanceof SszError) throw new CliError(describeSszError(e, source, format === 'ssz_snappy' ? ' of the decompressed SSZ' : ''));
        throw e;
      }
      return typed(fork, source);
    },
    fromJson(json, source) {
      return typed(jsonFork(json, kind, net, source), source);
    },
  };
}
