/**
 * Strict decoding: every malformed input is rejected with an SszError that
 * names the code, the type path and the byte offset — and nothing else ever
 * escapes, whatever the bytes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SszError,
  bitlist,
  bitvector,
  boolean,
  byteList,
  byteVector,
  container,
  list,
  uint16,
  uint32,
  uint64,
  uint64Number,
  uint8,
  union,
  vector,
  type SszErrorCode,
  type Type,
} from '../src/index.js';
import { minimal } from '../src/consensus/index.js';

function rejection(fn: () => unknown): SszError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SszError);
    return e as SszError;
  }
  throw new Error('expected an SszError, nothing was thrown');
}

function expectRejects(fn: () => unknown, code: SszErrorCode, typePath: string, offset: number): void {
  const e = rejection(fn);
  expect({ code: e.code, typePath: e.typePath, offset: e.offset }).toEqual({ code, typePath, offset });
}

const bytes = (...xs: number[]) => Uint8Array.from(xs);

const Inner = container({ x: uint16, items: list(uint16, 4) }, 'Inner');
const Outer = container({ a: uint8, first: list(uint8, 8), second: byteList(8), inner: Inner }, 'Outer');

describe('strict decoding', () => {
  it('rejects short input for fixed-size types', () => {
    expectRejects(() => uint64.deserialize(new Uint8Array(7)), 'SHORT_INPUT', 'uint64', 7);
    expectRejects(() => byteVector(4).deserialize(bytes(1, 2, 3)), 'SHORT_INPUT', 'ByteVector[4]', 3);
  });

  it('rejects trailing bytes after a fixed-size value', () => {
    expectRejects(() => uint32.deserialize(new Uint8Array(5)), 'TRAILING_BYTES', 'uint32', 4);
    const Pair = container({ a: uint8, b: uint16 }, 'Pair');
    expectRejects(() => Pair.deserialize(new Uint8Array(4)), 'TRAILING_BYTES', 'Pair', 3);
  });

  it('rejects a first offset that is not the end of the fixed part', () => {
    const good = Outer.serialize({ a: 1, first: bytes(1, 2), second: bytes(3), inner: { x: 5, items: new Uint16Array([7]) } });
    expect(Outer.fixedPartSize).toBe(13);
    const bad = good.slice();
    new DataView(bad.buffer).setUint32(1, 12, true);
    expectRejects(() => Outer.deserialize(bad), 'BAD_OFFSET', 'Outer.first', 1);
  });

  it('rejects decreasing offsets and offsets past the end', () => {
    const good = Outer.serialize({ a: 1, first: bytes(1, 2), second: bytes(3), inner: { x: 5, items: new Uint16Array([7]) } });
    const decreasing = good.slice();
    new DataView(decreasing.buffer).setUint32(5, 12, true);
    expectRejects(() => Outer.deserialize(decreasing), 'BAD_OFFSET', 'Outer.second', 5);
    const pastEnd = good.slice();
    new DataView(pastEnd.buffer).setUint32(9, good.length + 1, true);
    expectRejects(() => Outer.deserialize(pastEnd), 'BAD_OFFSET', 'Outer.inner', 9);
  });

  it('checks offsets inside nested variable-size values, with the full path', () => {
    const good = Outer.serialize({ a: 1, first: bytes(), second: bytes(), inner: { x: 5, items: new Uint16Array([7]) } });
    const bad = good.slice();
    // inner starts at 13; its own offset table starts at 13 + 2.
    new DataView(bad.buffer).setUint32(15, 7, true);
    expectRejects(() => Outer.deserialize(bad), 'BAD_OFFSET', 'Outer.inner.items', 15);
  });

  it('rejects boolean bytes other than 0 and 1', () => {
    expectRejects(() => boolean.deserialize(bytes(2)), 'BAD_BOOLEAN', 'boolean', 0);
    const Flags = container({ n: uint32, on: boolean }, 'Flags');
    expectRejects(() => Flags.deserialize(bytes(0, 0, 0, 0, 0x80)), 'BAD_BOOLEAN', 'Flags.on', 4);
    expectRejects(() => vector(boolean, 3).deserialize(bytes(1, 0, 3)), 'BAD_BOOLEAN', 'Vector[boolean, 3][2]', 2);
  });

  it('rejects bitvector padding bits', () => {
    expectRejects(() => bitvector(10).deserialize(bytes(0xff, 0x04)), 'BAD_BITS', 'Bitvector[10]', 1);
    expect(bitvector(10).deserialize(bytes(0xff, 0x03)).bitLen).toBe(10);
  });

  it('rejects a bitlist without its delimiter bit or longer than its limit', () => {
    expectRejects(() => bitlist(8).deserialize(bytes()), 'BAD_BITS', 'Bitlist[8]', 0);
    expectRejects(() => bitlist(8).deserialize(bytes(0xff, 0x00)), 'BAD_BITS', 'Bitlist[8]', 1);
    expectRejects(() => bitlist(3).deserialize(bytes(0x10)), 'LIMIT_EXCEEDED', 'Bitlist[3]', 0);
    expect(bitlist(4).deserialize(bytes(0x10)).bitLen).toBe(4);
  });

  it('rejects list lengths beyond the limit, before allocating for them', () => {
    expectRejects(() => list(uint16, 2).deserialize(new Uint8Array(6)), 'LIMIT_EXCEEDED', 'List[uint16, 2]', 4);
    expectRejects(() => list(uint16, 2).deserialize(new Uint8Array(3)), 'BAD_SIZE', 'List[uint16, 2]', 3);
    expectRejects(() => byteList(2).deserialize(new Uint8Array(3)), 'LIMIT_EXCEEDED', 'ByteList[2]', 2);
    const Lists = list(list(uint8, 4), 2);
    // A first offset of 12 claims 3 elements: rejected from the offset alone.
    expectRejects(() => Lists.deserialize(bytes(12, 0, 0, 0, 12, 0, 0, 0, 12, 0, 0, 0)), 'LIMIT_EXCEEDED', 'List[List[uint8, 4], 2]', 0);
    // A huge first offset cannot drive a huge allocation: it is checked against the input's size first.
    expectRejects(() => list(list(uint8, 4), 2 ** 40).deserialize(bytes(0xfc, 0xff, 0xff, 0xff)), 'BAD_OFFSET', 'List[List[uint8, 4], 1099511627776]', 0);
  });

  it('rejects a union selector out of range and bytes after None', () => {
    const U = union([null, uint16, byteList(4)]);
    expectRejects(() => U.deserialize(bytes(3, 0)), 'BAD_SELECTOR', 'Union[None, uint16, ByteList[4]]', 0);
    expectRejects(() => U.deserialize(bytes(0, 1)), 'TRAILING_BYTES', 'Union[None, uint16, ByteList[4]]', 1);
    expectRejects(() => U.deserialize(bytes(1, 1)), 'SHORT_INPUT', 'Union[None, uint16, ByteList[4]][1]', 2);
    expect(U.deserialize(bytes(2, 9, 9))).toEqual({ selector: 2, value: bytes(9, 9) });
  });

  it('names list indices and container fields in consensus types', () => {
    const state = minimal.phase0.BeaconState.defaultValue();
    state.validators = Array.from({ length: 5 }, (_, i) => ({
      ...minimal.phase0.Validator.defaultValue(),
      pubkey: new Uint8Array(48).fill(0xa0 + i),
    }));
    const bad = minimal.phase0.BeaconState.serialize(state);
    const at = Buffer.from(bad).indexOf(Buffer.alloc(48, 0xa3)) + 88; // validators[3].slashed
    bad[at] = 2;
    expectRejects(() => minimal.phase0.BeaconState.deserialize(bad), 'BAD_BOOLEAN', 'BeaconState.validators[3].slashed', at);
  });

  it('rejects uint64Number values it cannot hold exactly', () => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, 2n ** 53n + 1n, true);
    expectRejects(() => uint64Number.deserialize(b), 'INVALID_VALUE', 'uint64', 0);
  });

  it('rejects types that cannot exist', () => {
    expectRejects(() => vector(uint8, 0), 'INVALID_TYPE', 'Vector[uint8, 0]', -1);
    expectRejects(() => bitvector(0), 'INVALID_TYPE', 'Bitvector[0]', -1);
    expectRejects(() => container({}), 'INVALID_TYPE', 'Container', -1);
    expect(() => union([uint8, null])).toThrow(SszError);
  });

  it('throws nothing but SszError on arbitrary and truncated input', () => {
    const types: Type<unknown>[] = [
      Outer,
      minimal.phase0.BeaconBlock,
      minimal.altair.BeaconState,
      minimal.electra.SignedBeaconBlock,
      union([null, Outer, list(uint64, 3)]),
      list(bitlist(20), 3),
      vector(list(uint32, 3), 2),
    ] as unknown as Type<unknown>[];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: types.length - 1 }), fc.uint8Array({ maxLength: 300 }), (t, input) => {
        try {
          (types[t] as Type<unknown>).deserialize(input);
        } catch (e) {
          if (!(e instanceof SszError)) throw e;
        }
      }),
      { numRuns: 2000 },
    );
    const valid = minimal.phase0.BeaconBlock.serialize(minimal.phase0.BeaconBlock.defaultValue());
    for (let cut = 0; cut < valid.length; cut++) {
      expect(() => minimal.phase0.BeaconBlock.deserialize(valid.subarray(0, cut))).toThrow(SszError);
    }
  });
});
