/**
 * Conformance: every `ssz_generic` case of spec v0.12.x (1905 cases). Valid
 * cases decode, re-encode to the same bytes, match meta.yaml's root and equal
 * value.yaml; invalid ones throw SszError (from the type definition itself
 * when the type cannot exist, e.g. a vector of length 0).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  SszError,
  bitlist,
  bitvector,
  boolean,
  byteList,
  container,
  list,
  toHex,
  uint8,
  uint16,
  uint32,
  uint64,
  uint128,
  uint256,
  vector,
  type SszType,
} from '@ssztree/types';
import { listDirs, readBytes, readRoot, readYaml, specTestsDir } from './specFiles.js';

// The test containers as the consensus-specs ssz_generic generator defines them.
const SingleFieldTestStruct = container({ A: uint8 }, 'SingleFieldTestStruct');
const SmallTestStruct = container({ A: uint16, B: uint16 }, 'SmallTestStruct');
const FixedTestStruct = container({ A: uint8, B: uint64, C: uint32 }, 'FixedTestStruct');
const VarTestStruct = container({ A: uint16, B: list(uint16, 1024), C: uint8 }, 'VarTestStruct');
const ComplexTestStruct = container(
  {
    A: uint16,
    B: list(uint16, 128),
    C: uint8,
    D: byteList(256), // List[byte, 256]; the YAML writes it as hex
    E: VarTestStruct,
    F: vector(FixedTestStruct, 4),
    G: vector(VarTestStruct, 2),
  },
  'ComplexTestStruct',
);
const BitsStruct = container(
  { A: bitlist(5), B: bitvector(2), C: bitvector(1), D: bitlist(6), E: bitvector(8) },
  'BitsStruct',
);
const CONTAINERS: Record<string, SszType<unknown>> = {
  SingleFieldTestStruct,
  SmallTestStruct,
  FixedTestStruct,
  VarTestStruct,
  ComplexTestStruct,
  BitsStruct,
} as unknown as Record<string, SszType<unknown>>;

const UINTS: Record<string, SszType<unknown>> = { 8: uint8, 16: uint16, 32: uint32, 64: uint64, 128: uint128, 256: uint256 } as unknown as Record<string, SszType<unknown>>;

/** The type a case name describes; may throw SszError for types that cannot exist. */
function typeFor(handler: string, name: string): SszType<unknown> {
  let m: RegExpMatchArray | null;
  switch (handler) {
    case 'boolean':
      return boolean as unknown as SszType<unknown>;
    case 'uints':
      if ((m = /^uint_(\d+)_/.exec(name))) return UINTS[m[1] as string] as SszType<unknown>;
      break;
    case 'basic_vector':
      if ((m = /^vec_(bool|uint\d+)_(\d+)/.exec(name))) {
        const elem = m[1] === 'bool' ? boolean : UINTS[(m[1] as string).slice(4)];
        return vector(elem as never, Number(m[2])) as unknown as SszType<unknown>;
      }
      break;
    case 'bitvector':
      if ((m = /^bitvec_(\d+)/.exec(name))) return bitvector(Number(m[1])) as unknown as SszType<unknown>;
      break;
    case 'bitlist':
      if ((m = /^bitlist_(\d+)/.exec(name))) return bitlist(Number(m[1])) as unknown as SszType<unknown>;
      if (name.startsWith('bitlist_no_delimiter')) return bitlist(256) as unknown as SszType<unknown>;
      break;
    case 'containers':
      if ((m = /^([A-Za-z]+Struct)_/.exec(name)) && CONTAINERS[m[1] as string]) return CONTAINERS[m[1] as string] as SszType<unknown>;
      break;
  }
  throw new Error(`no type for ${handler}/${name}`);
}

const HANDLERS = ['basic_vector', 'bitlist', 'bitvector', 'boolean', 'containers', 'uints'];
let root = '';

describe('ssz_generic (spec v0.12.x)', () => {
  beforeAll(() => {
    root = join(specTestsDir(), 'tests/general/phase0/ssz_generic');
  }, 600_000);

  it('holds all 1905 cases', () => {
    let total = 0;
    for (const h of HANDLERS) for (const kind of ['valid', 'invalid']) total += listDirs(join(root, h, kind)).length;
    expect(total).toBe(1905);
  });

  for (const handler of HANDLERS) {
    it(`${handler}: valid cases round-trip, match the root and equal value.yaml`, () => {
      const cases = listDirs(join(root, handler, 'valid'));
      expect(cases.length).toBeGreaterThan(0);
      for (const name of cases) {
        const dir = join(root, handler, 'valid', name);
        const type = typeFor(handler, name);
        const bytes = readBytes(join(dir, 'serialized.ssz'));
        const value = type.deserialize(bytes);
        expect(toHex(type.serialize(value)), name).toBe(toHex(bytes));
        expect(toHex(type.hashTreeRoot(value)), name).toBe(readRoot(join(dir, 'meta.yaml')));
        const expected = type.fromJson(readYaml(join(dir, 'value.yaml')));
        expect(type.equals(value, expected), name).toBe(true);
        expect(type.equals(type.fromJson(type.toJson(value)), value), name).toBe(true);
      }
    });

    it(`${handler}: invalid cases throw SszError`, () => {
      const cases = listDirs(join(root, handler, 'invalid'));
      expect(cases.length).toBeGreaterThan(0);
      for (const name of cases) {
        const file = join(root, handler, 'invalid', name, 'serialized.ssz');
        expect(existsSync(file), name).toBe(true);
        const bytes = readBytes(file);
        let thrown: unknown = null;
        try {
          typeFor(handler, name).deserialize(bytes);
        } catch (e) {
          thrown = e;
        }
        expect(thrown, name).toBeInstanceOf(SszError);
      }
    });
  }
});
