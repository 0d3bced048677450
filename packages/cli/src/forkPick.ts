/**
 * A type named without its fork (`BeaconState`, `SignedBeaconBlock`, …):
 * the fork is picked from the input on a network's schedule (`--network`,
 * default mainnet). SSZ input gives its slot at the type's fixed offset
 * (`slotOf`); JSON/YAML input gives the beacon API envelope's `version`, or
 * the value's slot.
 *
 * Invariant: the input is read once (stdin can be read only once); the
 * caller decodes the same bytes with the type returned (snappy input is
 * decompressed twice, once here for the slot).
 * @module
 */
import { SszError } from '@ssztree/types';
import { FORKS, forkAt, isSlotCarrier, networkOf, slotOf, typesOf, SLOT_OFFSETS, type ForkName, type SlotCarrier } from '@ssztree/types/consensus';
import { CliError, UsageError, describeSszError } from './errors.js';
import { detectFormat, parseJson, readInput, sszBytes, type InputOptions } from './input.js';
import type { CliIo } from './io.js';
import type { Progress } from './progress.js';
import { resolveType } from './registry.js';
import { parse as parseYaml } from 'yaml';

export interface Picked {
  /** `<fork>.<Container>` */
  readonly name: string;
  readonly preread: { data: Uint8Array; progress: Progress };
}

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

/** The `<fork>.<Container>` of input `path` for a type named without its fork. */
export async function pickFork(kind: string, path: string, network: string, preset: string, io: CliIo, options: InputOptions): Promise<Picked> {
  if (!isSlotCarrier(kind)) {
    // An unknown name fails with the registry's near matches; a known one says how to name it.
    if (!FORKS.some((f) => kind in typesOf(f))) resolveType(kind, preset === 'minimal' ? 'minimal' : 'mainnet');
    const kinds = Object.keys(SLOT_OFFSETS).join(', ');
    throw new UsageError(`"${kind}" has no fork: name it as <fork>.${kind} (the fork is picked from the input only for ${kinds})`);
  }
  if (preset !== 'mainnet') throw new UsageError(`the networks run the mainnet preset: name the fork for --preset ${preset} (e.g. fulu.${kind})`);
  const net = (() => {
    try {
      return networkOf(network);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  })();
  const source = path === '-' ? 'stdin' : path;
  const preread = await readInput(path, io, options.progress);
  const format = detectFormat(path, preread.data, options.format);
  let fork: string;
  if (format === 'ssz' || format === 'ssz_snappy') {
    const bytes = sszBytes(preread.data, format, source, preread.progress);
    try {
      fork = forkAt(net, slotOf(kind, bytes));
    } catch (e) {
      if (e instanceof SszError) throw new CliError(describeSszError(e, source, format === 'ssz_snappy' ? ' of the decompressed SSZ' : ''));
      throw e;
    }
  } else {
    const text = new TextDecoder().decode(preread.data);
    const json = format === 'json' ? parseJson(text, source) : (parseYaml(text, { intAsBigInt: true }) as unknown);
    fork = jsonFork(json, kind, net.name, source);
  }
  if (!(FORKS as readonly string[]).includes(fork)) {
    throw new CliError(`${source}: the input is ${fork} on ${net.name}, which has no types here yet (known: ${FORKS.join(', ')})`);
  }
  if (!(kind in typesOf(fork as ForkName))) throw new CliError(`${source}: the input is ${fork} on ${net.name}, which has no ${kind}`);
  return { name: `${fork}.${kind}`, preread };
}
