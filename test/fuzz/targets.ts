/**
 * What the fuzzer runs against: every consensus container of every fork
 * (both presets), every `ssz_generic` type, and a few extra schemas for the
 * kinds neither set has (unions, lists of variable-size elements with small
 * limits, uint64Number, every progressive kind and compatible unions).
 *
 * Forks share unchanged containers (`minimal.altair.Fork` is the object
 * `minimal.phase0.Fork`): each schema object is fuzzed once, under the
 * first name it has, and answers to every other name as an alias.
 */
import {
  SszType,
  bitlist,
  boolean,
  byteList,
  byteVector,
  compatibleUnion,
  container,
  list,
  progressiveBitlist,
  progressiveByteList,
  progressiveContainer,
  progressiveList,
  uint8,
  uint16,
  uint64,
  uint64Number,
  union,
  vector,
} from '@ssztree/types';
import { FORKS, mainnet, minimal } from '@ssztree/types/consensus';
import { genericTypes } from '../spec/genericTypes.js';

export interface Target {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly group: 'consensus' | 'generic' | 'extra';
  readonly type: SszType<unknown>;
}

function extras(): Record<string, SszType<unknown>> {
  const Gap = container({ u: union([null, uint16]), l: list(uint8, 4), b: bitlist(5) }, 'GapStruct');
  const Inner = container({ x: uint16, items: list(uint16, 4), flag: boolean }, 'Inner');
  const all = {
    UnionNone: union([null, uint16, byteList(4)]),
    UnionOfComposites: union([null, Inner, list(Inner, 2), vector(byteVector(3), 2)]),
    UnionNoNone: union([uint8, bitlist(10)]),
    GapStruct: Gap,
    ListOfGapStructs: list(Gap, 3),
    ListOfLists: list(list(uint8, 4), 3),
    VectorOfLists: vector(list(uint16, 2), 3),
    ListOfBitlists: list(bitlist(9), 2),
    ListOfUnions: list(union([null, uint64, Inner]), 3),
    BoolList: list(boolean, 9),
    Uint64Number: uint64Number,
    ListUint64Number: list(uint64Number, 4),
    ...progressiveExtras(Inner),
  };
  return all as unknown as Record<string, SszType<unknown>>;
}

/** Every progressive kind, alone and nested (the gloas shapes: lists of containers, byte lists in lists, bits in containers). */
function progressiveExtras(Inner: SszType<unknown>): Record<string, SszType<unknown>> {
  const Square = progressiveContainer({ side: uint16, color: uint8 }, [1, 0, 1], 'Square');
  const Circle = progressiveContainer({ radius: uint16, color: uint8 }, [0, 1, 1], 'Circle');
  const Sparse = progressiveContainer(
    { a: uint64, bits: progressiveBitlist(), items: progressiveList(Inner), flag: boolean, tail: progressiveByteList() },
    [1, 0, 1, 1, ...new Array<number>(100).fill(0), 1, ...new Array<number>(150).fill(0), 1],
    'Sparse',
  );
  return {
    ProgressiveUint8s: progressiveList(uint8),
    ProgressiveUint64s: progressiveList(uint64),
    ProgressiveBools: progressiveList(boolean),
    ProgressiveInners: progressiveList(Inner),
    ProgressiveRoots: progressiveList(byteVector(32)),
    ProgressiveByteLists: progressiveList(progressiveByteList()),
    ProgressiveBitList: progressiveBitlist(),
    ProgressiveByteList: progressiveByteList(),
    Square,
    Sparse,
    ListOfSparse: list(Sparse, 3),
    Shape: compatibleUnion({ 1: Square, 2: Circle }),
    CompatibleLists: compatibleUnion({ 3: progressiveList(uint8), 7: progressiveByteList() }),
  };
}

let cached: Target[] | null = null;

export function allTargets(): Target[] {
  if (cached) return cached;
  const byType = new Map<SszType<unknown>, { name: string; aliases: string[]; group: Target['group'] }>();
  const add = (name: string, type: SszType<unknown>, group: Target['group']) => {
    const hit = byType.get(type);
    if (hit) hit.aliases.push(name);
    else byType.set(type, { name, aliases: [], group });
  };
  for (const [presetName, preset] of [['minimal', minimal], ['mainnet', mainnet]] as const) {
    for (const fork of FORKS) {
      for (const [key, type] of Object.entries(preset[fork])) {
        if (type instanceof SszType && /^[A-Z]/.test(key)) add(`${presetName}.${fork}.${key}`, type as SszType<unknown>, 'consensus');
      }
    }
  }
  for (const [key, type] of Object.entries(genericTypes())) add(`generic.${key}`, type, 'generic');
  for (const [key, type] of Object.entries(extras())) add(`extra.${key}`, type, 'extra');
  cached = [...byType].map(([type, t]) => ({ ...t, type }));
  return cached;
}

/**
 * Targets matching comma-separated patterns. A pattern matches a name (or an
 * alias) exactly, as a dotted suffix (`electra.BeaconState` matches
 * `minimal.electra.BeaconState` and `mainnet.electra.BeaconState`), or as a
 * glob with `*` (`generic.*`, `minimal.*`).
 */
export function selectTargets(patterns: string | undefined): Target[] {
  const all = allTargets();
  if (!patterns) return all;
  const tests = patterns
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => {
      if (p.includes('*')) {
        const re = new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
        return (name: string) => re.test(name);
      }
      return (name: string) => name === p || name.endsWith(`.${p}`);
    });
  const picked = all.filter((t) => [t.name, ...t.aliases].some((n) => tests.some((test) => test(n))));
  if (picked.length === 0) throw new Error(`no fuzz target matches ${patterns}`);
  return picked;
}
