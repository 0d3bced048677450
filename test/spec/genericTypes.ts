/**
 * The `ssz_generic` types of the consensus-specs test generator: its test
 * containers, the uints, and the vector / bitvector / bitlist sizes it
 * draws from. Shared by the conformance test (which maps case names to
 * types) and the fuzz harness (which fuzzes every one of them).
 */
import {
  bitlist,
  bitvector,
  boolean,
  byteList,
  container,
  list,
  uint8,
  uint16,
  uint32,
  uint64,
  uint128,
  uint256,
  vector,
  type SszType,
} from '@ssztree/types';

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

export const GENERIC_CONTAINERS: Record<string, SszType<unknown>> = {
  SingleFieldTestStruct,
  SmallTestStruct,
  FixedTestStruct,
  VarTestStruct,
  ComplexTestStruct,
  BitsStruct,
} as unknown as Record<string, SszType<unknown>>;

export const GENERIC_UINTS: Record<string, SszType<unknown>> = { 8: uint8, 16: uint16, 32: uint32, 64: uint64, 128: uint128, 256: uint256 } as unknown as Record<
  string,
  SszType<unknown>
>;

/** The sizes the generator uses for valid vectors, bitvectors and bitlists (v0.12.x). */
export const GENERIC_VECTOR_LENGTHS = [1, 2, 3, 4, 5, 8, 16, 31, 512, 513] as const;
export const GENERIC_BITVECTOR_LENGTHS = [1, 2, 3, 4, 5, 8, 9, 16, 31, 32, 512, 513] as const;
export const GENERIC_BITLIST_LIMITS = [1, 2, 3, 4, 5, 8, 16, 31, 32, 512, 513] as const;

/** Every valid `ssz_generic` type, keyed by a name in the generator's style (`vec_uint16_31`, `bitlist_8`, `VarTestStruct`). */
export function genericTypes(): Record<string, SszType<unknown>> {
  const out: Record<string, SszType<unknown>> = { boolean: boolean as unknown as SszType<unknown> };
  for (const [bits, t] of Object.entries(GENERIC_UINTS)) out[`uint_${bits}`] = t;
  for (const elem of ['bool', 'uint8', 'uint16', 'uint32', 'uint64', 'uint128', 'uint256']) {
    const e = elem === 'bool' ? boolean : GENERIC_UINTS[elem.slice(4)];
    for (const n of GENERIC_VECTOR_LENGTHS) out[`vec_${elem}_${n}`] = vector(e as never, n) as unknown as SszType<unknown>;
  }
  for (const n of GENERIC_BITVECTOR_LENGTHS) out[`bitvec_${n}`] = bitvector(n) as unknown as SszType<unknown>;
  for (const n of GENERIC_BITLIST_LIMITS) out[`bitlist_${n}`] = bitlist(n) as unknown as SszType<unknown>;
  Object.assign(out, GENERIC_CONTAINERS);
  return out;
}

/** The type a spec case name describes; may throw SszError for types that cannot exist. */
export function typeFor(handler: string, name: string): SszType<unknown> {
  let m: RegExpMatchArray | null;
  switch (handler) {
    case 'boolean':
      return boolean as unknown as SszType<unknown>;
    case 'uints':
      if ((m = /^uint_(\d+)_/.exec(name))) return GENERIC_UINTS[m[1] as string] as SszType<unknown>;
      break;
    case 'basic_vector':
      if ((m = /^vec_(bool|uint\d+)_(\d+)/.exec(name))) {
        const elem = m[1] === 'bool' ? boolean : GENERIC_UINTS[(m[1] as string).slice(4)];
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
      if ((m = /^([A-Za-z]+Struct)_/.exec(name)) && GENERIC_CONTAINERS[m[1] as string]) return GENERIC_CONTAINERS[m[1] as string] as SszType<unknown>;
      break;
  }
  throw new Error(`no type for ${handler}/${name}`);
}
