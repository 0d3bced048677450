/**
 * The adversarial corpus: one named case per bug class that SSZ decoders
 * have shipped with (offsets into the fixed part, decreasing or past the
 * end; gap bytes between fields; bitvector padding and bitlist delimiters;
 * union None with trailing bytes and selectors out of range; booleans above
 * 1; short input raising a host RangeError; forged lengths driving huge
 * allocations; trailing bytes). Each asserts the exact SszError: its code,
 * its type path and its byte offset.
 *
 * Inputs are built from the schemas: a valid encoding, then one precise
 * edit at a position computed from the layout (field positions from the
 * field sizes, list regions from test/fuzz/layout.ts), so every expected
 * offset follows from SSZ's rules, not from running the decoder.
 */
import { describe, expect, it } from 'vitest';
import * as cs from '@chainsafe/ssz';
import {
  BitArray,
  SszError,
  bitlist,
  bitvector,
  boolean,
  byteList,
  container,
  list,
  uint8,
  uint16,
  uint64Number,
  union,
  type SszErrorCode,
  type SszType,
} from '@ssztree/types';
import { minimal } from '@ssztree/types/consensus';
import { peerType } from '../differential/bridge.js';
import { layoutOf, replaceRegion, type Region } from '../fuzz/layout.js';
import { allTargets } from '../fuzz/targets.js';

type AnyType = SszType<unknown>;
const T = <V>(t: SszType<V>) => t as unknown as AnyType;

function rejection(fn: () => unknown): SszError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SszError) return e;
    throw new Error(`expected an SszError, got ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  }
  throw new Error('expected an SszError, the input was accepted');
}

function expectRejects(type: AnyType, bytes: Uint8Array, code: SszErrorCode, typePath: string, offset: number): void {
  const e = rejection(() => type.deserialize(bytes));
  expect({ code: e.code, typePath: e.typePath, offset: e.offset }, e.message).toEqual({ code, typePath, offset });
}

/** Byte position of a container field in the fixed part (its value, or its offset when variable-size). */
function fieldPos(type: AnyType, name: string): number {
  let pos = 0;
  for (const [n, f] of Object.entries((type as unknown as { fields: Record<string, AnyType> }).fields)) {
    if (n === name) return pos;
    pos += f.fixedSize ?? 4;
  }
  throw new Error(`no field ${name}`);
}
const fixedPart = (type: AnyType) => (type as unknown as { fixedPartSize: number }).fixedPartSize;
const u32At = (b: Uint8Array, pos: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(pos, true);
function withU32(b: Uint8Array, pos: number, value: number): Uint8Array {
  const out = b.slice();
  new DataView(out.buffer).setUint32(pos, value, true);
  return out;
}
function withByte(b: Uint8Array, pos: number, value: number): Uint8Array {
  const out = b.slice();
  out[pos] = value;
  return out;
}
function append(b: Uint8Array, ...tail: number[]): Uint8Array {
  const out = new Uint8Array(b.length + tail.length);
  out.set(b);
  out.set(tail, b.length);
  return out;
}
/** The list region of `type`'s encoding `bytes` whose type is `listType` (the n-th one). */
function regionOf(type: AnyType, bytes: Uint8Array, listType: AnyType, n = 0): { index: number; region: Region; layout: ReturnType<typeof layoutOf> } {
  const layout = layoutOf(type, bytes);
  const hits = layout.regions.map((region, index) => ({ region, index })).filter((h) => h.region.type === listType);
  const hit = hits[n];
  if (!hit) throw new Error(`no region of ${listType.typeName}`);
  return { ...hit, layout };
}

const p0 = minimal.phase0;
const Attestation = T(p0.Attestation);
const Body = T(p0.BeaconBlockBody);
const State = T(p0.BeaconState);
const Validator = T(p0.Validator);

/** An Attestation whose aggregation_bits hold `bits` zero bits. */
function attestation(bits: number): unknown {
  return { ...p0.Attestation.defaultValue(), aggregation_bits: bitsOf(bits) };
}
function bodyWith(attestations: number, exits = 0): Uint8Array {
  const b = p0.BeaconBlockBody.defaultValue();
  b.attestations = Array.from({ length: attestations }, () => attestation(3)) as typeof b.attestations;
  b.voluntary_exits = Array.from({ length: exits }, () => p0.SignedVoluntaryExit.defaultValue());
  return p0.BeaconBlockBody.serialize(b);
}

const bitsOf = (n: number) => new BitArray(new Uint8Array(Math.ceil(n / 8)), n);
const GapStruct = T(container({ u: union([null, uint16]), l: list(uint8, 4), b: bitlist(5) }, 'GapStruct'));
const U = T(union([null, uint16, byteList(4)]));

describe('adversarial corpus: offsets', () => {
  const valid = p0.Attestation.serialize(attestation(5) as never);
  const fixedEnd = fixedPart(Attestation);

  it('a first offset pointing back into the fixed part (fixed end − 1, and 0) is BAD_OFFSET at that offset', () => {
    expect(u32At(valid, 0)).toBe(fixedEnd);
    expectRejects(Attestation, withU32(valid, 0, fixedEnd - 1), 'BAD_OFFSET', 'Attestation.aggregation_bits', 0);
    expectRejects(Attestation, withU32(valid, 0, 0), 'BAD_OFFSET', 'Attestation.aggregation_bits', 0);
  });

  it('a first offset past the fixed part (fixed end + 1: a gap before the first field) is BAD_OFFSET', () => {
    expectRejects(Attestation, withU32(valid, 0, fixedEnd + 1), 'BAD_OFFSET', 'Attestation.aggregation_bits', 0);
  });

  it('a decreasing offset is BAD_OFFSET at the offset that decreases', () => {
    const bytes = bodyWith(1);
    const at = fieldPos(Body, 'attestations');
    const prev = u32At(bytes, fieldPos(Body, 'attester_slashings'));
    expectRejects(Body, withU32(bytes, at, prev - 1), 'BAD_OFFSET', 'BeaconBlockBody.attestations', at);
  });

  it('an offset past the end (end + 1, and 0xffffffff) is BAD_OFFSET', () => {
    const bytes = bodyWith(0);
    const at = fieldPos(Body, 'voluntary_exits');
    expectRejects(Body, withU32(bytes, at, bytes.length + 1), 'BAD_OFFSET', 'BeaconBlockBody.voluntary_exits', at);
    expectRejects(Body, withU32(bytes, at, 0xffffffff), 'BAD_OFFSET', 'BeaconBlockBody.voluntary_exits', at);
    // Exactly the end is fine: the last list is empty.
    expect(() => Body.deserialize(withU32(bytes, at, bytes.length))).not.toThrow();
  });

  it('in a list of variable-size elements: a first offset that is 0 or not a multiple of 4, a decreasing and a past-the-end element offset', () => {
    const bytes = bodyWith(2);
    const start = u32At(bytes, fieldPos(Body, 'attestations'));
    expect(u32At(bytes, start)).toBe(8);
    expectRejects(Body, withU32(bytes, start, 0), 'BAD_OFFSET', 'BeaconBlockBody.attestations', start);
    expectRejects(Body, withU32(bytes, start, 6), 'BAD_OFFSET', 'BeaconBlockBody.attestations', start);
    expectRejects(Body, withU32(bytes, start + 4, 7), 'BAD_OFFSET', 'BeaconBlockBody.attestations', start + 4);
    const size = u32At(bytes, fieldPos(Body, 'deposits')) - start;
    expectRejects(Body, withU32(bytes, start + 4, size + 1), 'BAD_OFFSET', 'BeaconBlockBody.attestations', start + 4);
  });

  it('in a vector of variable-size elements: a first offset other than 4 × length', () => {
    const V = T(minimal.phase0.HistoricalBatch); // fixed-size: no offsets; use the spec test container instead
    expect(V.fixedSize).not.toBeNull();
    const Complex = allTargets().find((t) => t.name === 'generic.ComplexTestStruct')?.type as AnyType;
    const bytes = Complex.serialize(Complex.defaultValue());
    const g = u32At(bytes, fieldPos(Complex, 'G'));
    expect(u32At(bytes, g)).toBe(8);
    expectRejects(Complex, withU32(bytes, g, 4), 'BAD_OFFSET', 'ComplexTestStruct.G', g);
  });
});

describe('adversarial corpus: gap bytes between fields', () => {
  it('a fixed-size union option followed by a gap byte before the next field is TRAILING_BYTES inside the option', () => {
    const bytes = GapStruct.serialize({ u: { selector: 1, value: 0x0201 }, l: Uint8Array.of(9), b: bitsOf(2) } as never);
    const { index, layout, region } = regionOf(GapStruct, bytes, (GapStruct as unknown as { fields: Record<string, AnyType> }).fields['u'] as AnyType);
    const gapped = replaceRegion(bytes, layout, index, append(bytes.subarray(region.start, region.end), 0xaa));
    // The option is uint16 at region.start + 1; the gap byte follows its two bytes.
    expectRejects(GapStruct, gapped, 'TRAILING_BYTES', 'GapStruct.u[1]', region.start + 3);
  });

  it('a zero byte after a bitlist delimiter, before the next list element, is BAD_BITS at that byte', () => {
    const bytes = bodyWith(2);
    const bitsType = (Attestation as unknown as { fields: Record<string, AnyType> }).fields['aggregation_bits'] as AnyType;
    const { index, layout, region } = regionOf(Body, bytes, bitsType, 0);
    const gapped = replaceRegion(bytes, layout, index, append(bytes.subarray(region.start, region.end), 0x00));
    expectRejects(Body, gapped, 'BAD_BITS', 'BeaconBlockBody.attestations[0].aggregation_bits', region.end);
  });

  it('None followed by a byte before the next field is TRAILING_BYTES just after the selector', () => {
    const bytes = GapStruct.serialize({ u: { selector: 0, value: null }, l: Uint8Array.of(), b: bitsOf(0) } as never);
    const { index, layout, region } = regionOf(GapStruct, bytes, (GapStruct as unknown as { fields: Record<string, AnyType> }).fields['u'] as AnyType);
    const gapped = replaceRegion(bytes, layout, index, Uint8Array.of(0, 0xaa));
    expectRejects(GapStruct, gapped, 'TRAILING_BYTES', 'GapStruct.u', region.start + 1);
  });
});

describe('adversarial corpus: bitfields', () => {
  it('bitvector padding bits set is BAD_BITS at the last byte (BeaconState.justification_bits, Bitvector[4])', () => {
    const bytes = State.serialize(State.defaultValue());
    const at = fieldPos(State, 'justification_bits');
    for (const bit of [4, 7]) expectRejects(State, withByte(bytes, at, 1 << bit), 'BAD_BITS', 'BeaconState.justification_bits', at);
    expect(() => State.deserialize(withByte(bytes, at, 0x0f))).not.toThrow();
    expectRejects(T(bitvector(9)), Uint8Array.of(0xff, 0x02), 'BAD_BITS', 'Bitvector[9]', 1);
  });

  it('a bitlist without its delimiter (a zero last byte, or no bytes at all) is BAD_BITS', () => {
    const bytes = p0.Attestation.serialize(attestation(5) as never);
    const at = fixedPart(Attestation);
    expectRejects(Attestation, withByte(bytes, at, 0), 'BAD_BITS', 'Attestation.aggregation_bits', at);
    expectRejects(Attestation, bytes.slice(0, at), 'BAD_BITS', 'Attestation.aggregation_bits', at);
  });

  it('a bitlist of limit + 1 bits is LIMIT_EXCEEDED at its last byte; limit bits decode', () => {
    const at = fixedPart(Attestation);
    const withBits = (n: number) => {
      const out = withU32(new Uint8Array(at + (n >> 3) + 1), 0, at);
      out[out.length - 1] = 1 << (n & 7);
      return out;
    };
    const limit = ((Attestation as unknown as { fields: Record<string, unknown> }).fields['aggregation_bits'] as { limit: number }).limit;
    const over = withBits(limit + 1);
    expectRejects(Attestation, over, 'LIMIT_EXCEEDED', 'Attestation.aggregation_bits', over.length - 1);
    expect(() => Attestation.deserialize(withBits(limit))).not.toThrow();
  });
});

describe('adversarial corpus: unions', () => {
  it('None followed by bytes is TRAILING_BYTES at byte 1', () => {
    expectRejects(U, Uint8Array.of(0, 0), 'TRAILING_BYTES', 'Union[None, uint16, ByteList[4]]', 1);
  });

  it('a selector out of range (the option count, and 255) is BAD_SELECTOR at byte 0', () => {
    expectRejects(U, Uint8Array.of(3, 0, 0), 'BAD_SELECTOR', 'Union[None, uint16, ByteList[4]]', 0);
    expectRejects(U, Uint8Array.of(255), 'BAD_SELECTOR', 'Union[None, uint16, ByteList[4]]', 0);
  });

  it('no selector byte is SHORT_INPUT, at the top level and inside a container', () => {
    expectRejects(U, new Uint8Array(0), 'SHORT_INPUT', 'Union[None, uint16, ByteList[4]]', 0);
    const bytes = GapStruct.serialize({ u: { selector: 0, value: null }, l: Uint8Array.of(1), b: bitsOf(0) } as never);
    const { index, layout, region } = regionOf(GapStruct, bytes, (GapStruct as unknown as { fields: Record<string, AnyType> }).fields['u'] as AnyType);
    expectRejects(GapStruct, replaceRegion(bytes, layout, index, new Uint8Array(0)), 'SHORT_INPUT', 'GapStruct.u', region.start);
  });
});

describe('adversarial corpus: booleans and uints', () => {
  it('a boolean byte of 2 (or 0xff) is BAD_BOOLEAN, alone and as a field', () => {
    expectRejects(T(boolean), Uint8Array.of(2), 'BAD_BOOLEAN', 'boolean', 0);
    const bytes = Validator.serialize(Validator.defaultValue());
    const at = fieldPos(Validator, 'slashed');
    for (const b of [2, 0xff]) expectRejects(Validator, withByte(bytes, at, b), 'BAD_BOOLEAN', 'Validator.slashed', at);
  });

  it('uint64Number above 2^53 (other than 2^64 − 1) is INVALID_VALUE', () => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, 2n ** 53n + 1n, true);
    expectRejects(T(uint64Number), b, 'INVALID_VALUE', 'uint64', 0);
  });
});

describe('adversarial corpus: sizes', () => {
  const fixedTargets = allTargets().filter((t) => t.type.fixedSize !== null);

  it(`short input for every fixed-size type (${fixedTargets.length} of them) is SHORT_INPUT at the end of the input, never a RangeError`, () => {
    for (const { type } of fixedTargets) {
      const size = type.fixedSize as number;
      for (const cut of new Set([0, 1, size >> 1, size - 1])) {
        if (cut >= size) continue;
        expectRejects(type, new Uint8Array(cut), 'SHORT_INPUT', type.typeName, cut);
      }
    }
  });

  it('trailing bytes after every fixed-size type are TRAILING_BYTES at the fixed size', () => {
    for (const { type } of fixedTargets) {
      const size = type.fixedSize as number;
      expectRejects(type, new Uint8Array(size + 1), 'TRAILING_BYTES', type.typeName, size);
    }
  });

  it('a byte appended to a variable-size container lands in its last field: BAD_SIZE for a list of 112-byte exits', () => {
    const bytes = bodyWith(0, 1);
    expectRejects(Body, append(bytes, 0), 'BAD_SIZE', 'BeaconBlockBody.voluntary_exits', bytes.length + 1);
  });

  it('a list of fixed-size elements at limit + 1 is LIMIT_EXCEEDED where the extra element starts; the limit decodes', () => {
    const exits = (Body as unknown as { fields: Record<string, AnyType> }).fields['voluntary_exits'] as unknown as { limit: number; elementType: AnyType };
    const es = exits.elementType.fixedSize as number;
    const bytes = bodyWith(0, 0);
    const { index, layout, region } = regionOf(Body, bytes, exits as unknown as AnyType);
    const over = replaceRegion(bytes, layout, index, new Uint8Array((exits.limit + 1) * es));
    expectRejects(Body, over, 'LIMIT_EXCEEDED', 'BeaconBlockBody.voluntary_exits', region.start + exits.limit * es);
    expect(() => Body.deserialize(replaceRegion(bytes, layout, index, new Uint8Array(exits.limit * es)))).not.toThrow();
  });

  it('a list of variable-size elements whose first offset claims limit + 1 elements is LIMIT_EXCEEDED at that offset', () => {
    const atts = (Body as unknown as { fields: Record<string, AnyType> }).fields['attestations'] as unknown as { limit: number };
    const bytes = bodyWith(1);
    const start = u32At(bytes, fieldPos(Body, 'attestations'));
    // Make the region big enough that the forged first offset is in bounds.
    const { index, layout } = regionOf(Body, bytes, atts as unknown as AnyType);
    const big = replaceRegion(bytes, layout, index, withU32(new Uint8Array(4 * (atts.limit + 1)), 0, 4 * (atts.limit + 1)));
    expectRejects(Body, big, 'LIMIT_EXCEEDED', 'BeaconBlockBody.attestations', start);
  });

  it('forged huge lengths throw at once without allocating for them', () => {
    const Huge = T(list(list(uint8, 4), 2 ** 40));
    const HugeBits = T(bitlist(2 ** 40));
    const before = process.memoryUsage();
    const t0 = performance.now();
    // A first offset of 2^32 − 4 claims 2^30 − 1 elements: checked against the 4-byte input first.
    expectRejects(Huge, withU32(new Uint8Array(4), 0, 0xfffffffc), 'BAD_OFFSET', 'List[List[uint8, 4], 1099511627776]', 0);
    // The same claim inside a container (an offset of 0xffffffff for BeaconState.validators) and a huge offset table.
    const state = State.serialize(State.defaultValue());
    const at = fieldPos(State, 'validators');
    expectRejects(State, withU32(state, at, 0xffffffff), 'BAD_OFFSET', 'BeaconState.validators', at);
    expectRejects(Huge, withU32(new Uint8Array(8), 0, 0xfffffffc), 'BAD_OFFSET', 'List[List[uint8, 4], 1099511627776]', 0);
    // A bitlist's length comes only from its bytes.
    expect((HugeBits.deserialize(Uint8Array.of(0x80)) as { bitLen: number }).bitLen).toBe(7);
    const ms = performance.now() - t0;
    const after = process.memoryUsage();
    expect(ms).toBeLessThan(500);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(64 * 2 ** 20);
  });
});

describe('documented ChainSafe leniencies (docs/RELIABILITY.md) still hold for @chainsafe/ssz', () => {
  const accepts = (type: AnyType, bytes: Uint8Array): boolean => {
    try {
      peerType(type).deserialize(bytes);
      return true;
    } catch {
      return false;
    }
  };

  it('union None followed by bytes: ChainSafe accepts and drops them; we reject', () => {
    const bytes = Uint8Array.of(0, 0);
    expect(accepts(U, bytes)).toBe(true);
    expect(peerType(U).serialize(peerType(U).deserialize(bytes))).toEqual(Uint8Array.of(0));
    expect(() => U.deserialize(bytes)).toThrow(SszError);
  });

  it('an empty union inside a container: ChainSafe reads the selector from the next field; we reject', () => {
    // The next field's first byte is 0: ChainSafe takes it for selector 0 (None).
    const bytes = GapStruct.serialize({ u: { selector: 0, value: null }, l: Uint8Array.of(0), b: bitsOf(0) } as never);
    const { index, layout } = regionOf(GapStruct, bytes, (GapStruct as unknown as { fields: Record<string, AnyType> }).fields['u'] as AnyType);
    const empty = replaceRegion(bytes, layout, index, new Uint8Array(0));
    expect(accepts(GapStruct, empty)).toBe(true);
    expect(() => GapStruct.deserialize(empty)).toThrow(SszError);
  });

  it('uint64 as a number above 2^53: ChainSafe (clipInfinity) accepts an inexact value; we reject', () => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, 2n ** 53n + 1n, true);
    expect(accepts(T(uint64Number), b)).toBe(true);
    expect(new cs.UintNumberType(8, { clipInfinity: true }).serialize(new cs.UintNumberType(8, { clipInfinity: true }).deserialize(b))).not.toEqual(b);
    expect(() => uint64Number.deserialize(b)).toThrow(SszError);
  });
});
