/**
 * Value behaviour: uint ranges and the uint64Number rule, JSON in the
 * consensus API's form, serializeInto, sizes, equals/clone, inferred types.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { zeroHash } from '@ssztree/hasher';
import {
  BitArray,
  SszError,
  bitlist,
  bitvector,
  boolean,
  byteList,
  byteVector,
  container,
  list,
  toHex,
  uint8,
  uint16,
  uint32,
  uint64,
  uint64Number,
  uint128,
  uint256,
  union,
  vector,
  type ValueOf,
} from '../src/index.js';

const Point = container({ x: uint64, y: uint64Number, tag: byteVector(2) }, 'Point');
const Shape = container(
  { id: uint32, points: list(Point, 8), flags: bitlist(16), mask: bitvector(3), data: byteList(8), u: list(uint16, 4) },
  'Shape',
);

describe('uints', () => {
  it('encode little-endian and reject out-of-range values', () => {
    expect(toHex(uint16.serialize(0x1234))).toBe('0x3412');
    expect(toHex(uint128.serialize(1n << 120n))).toBe(`0x${'00'.repeat(15)}01`);
    expect(uint256.deserialize(uint256.serialize((1n << 256n) - 1n))).toBe((1n << 256n) - 1n);
    expect(() => uint8.serialize(256)).toThrow(SszError);
    expect(() => uint32.serialize(1.5)).toThrow(SszError);
    expect(() => uint64.serialize(-1n)).toThrow(SszError);
    expect(() => uint64.serialize(1n << 64n)).toThrow(SszError);
  });

  it('uint64Number is exact to 2^53 and maps 2^64-1 to Infinity', () => {
    expect(uint64Number.deserialize(uint64.serialize(2n ** 53n))).toBe(2 ** 53);
    expect(uint64Number.deserialize(uint64.serialize(2n ** 64n - 1n))).toBe(Infinity);
    expect(toHex(uint64Number.serialize(Infinity))).toBe('0xffffffffffffffff');
    expect(toHex(uint64Number.serialize(2 ** 40 + 5))).toBe(toHex(uint64.serialize(2n ** 40n + 5n)));
    expect(() => uint64Number.serialize(2 ** 53 + 2)).toThrow(SszError);
    expect(() => uint64Number.deserialize(uint64.serialize(2n ** 64n - 2n))).toThrow(SszError);
    expect(uint64Number.toJson(Infinity)).toBe('18446744073709551615');
    expect(uint64Number.fromJson('18446744073709551615')).toBe(Infinity);
    expect(() => uint64Number.fromJson('9007199254740993')).toThrow(SszError);
  });

  it('packed lists use typed arrays', () => {
    const L = list(uint64, 10);
    const v = L.deserialize(L.serialize(new BigUint64Array([1n, 2n ** 63n])));
    expect(v).toBeInstanceOf(BigUint64Array);
    expect([...v]).toEqual([1n, 2n ** 63n]);
    expect(list(uint32, 3).deserialize(new Uint8Array(8))).toBeInstanceOf(Uint32Array);
    expect(list(uint8, 3).fromJson(['1', 2])).toEqual(Uint8Array.from([1, 2]));
  });
});

describe('JSON', () => {
  const value: ValueOf<typeof Shape> = {
    id: 7,
    points: [{ x: 2n ** 64n - 1n, y: Infinity, tag: Uint8Array.from([0xab, 0xcd]) }],
    flags: BitArray.fromBoolArray([true, false, true]),
    mask: BitArray.fromBoolArray([false, true, false]),
    data: Uint8Array.from([1, 2, 3]),
    u: Uint16Array.from([5]),
  };

  it('writes uints as decimal strings, bytes and bitfields as 0x-hex, declared field names', () => {
    expect(Shape.toJson(value)).toEqual({
      id: '7',
      points: [{ x: '18446744073709551615', y: '18446744073709551615', tag: '0xabcd' }],
      flags: '0x0d',
      mask: '0x02',
      data: '0x010203',
      u: ['5'],
    });
  });

  it('round-trips and rejects malformed JSON with SszError and a path', () => {
    expect(Shape.equals(Shape.fromJson(Shape.toJson(value)), value)).toBe(true);
    const bad = { ...(Shape.toJson(value) as Record<string, unknown>), points: [{ x: '1', y: '1', tag: '0xzz' }] };
    let error: unknown;
    try {
      Shape.fromJson(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SszError);
    expect((error as SszError).typePath).toBe('Shape.points[0].tag');
    expect(() => Shape.fromJson({ ...(Shape.toJson(value) as object), extra: 1 })).toThrow(SszError);
    expect(() => bitvector(3).fromJson('0x0f')).toThrow(SszError);
    expect(() => bitlist(2).fromJson('0x08')).toThrow(SszError);
  });

  it('unions use { selector, value }', () => {
    const U = union([null, uint16]);
    expect(U.toJson({ selector: 1, value: 5 })).toEqual({ selector: '1', value: '5' });
    expect(U.fromJson({ selector: '0', value: null })).toEqual({ selector: 0, value: null });
    expect(toHex(U.serialize({ selector: 1, value: 5 }))).toBe('0x010500');
  });
});

describe('codec', () => {
  it('serializeInto writes at an offset and checks room', () => {
    const buf = new Uint8Array(20).fill(0xee);
    const end = Point.serializeInto({ x: 1n, y: 2, tag: Uint8Array.from([3, 4]) }, buf, 2);
    expect(end).toBe(20);
    expect(toHex(buf.subarray(0, 3))).toBe('0xeeee01');
    let error: unknown;
    try {
      Point.serializeInto(Point.defaultValue(), buf, 3);
    } catch (e) {
      error = e;
    }
    expect((error as SszError).code).toBe('BUFFER_TOO_SMALL');
  });

  it('reports fixed, min and max sizes', () => {
    expect([Point.fixedSize, Point.minSize, Point.maxSize]).toEqual([18, 18, 18]);
    expect(Shape.fixedSize).toBeNull();
    expect(Shape.minSize).toBe(4 + 4 + 4 + 1 + 4 + 4 + 1);
    expect(Shape.maxSize).toBe(4 + (4 + 18 * 8) + (4 + 3) + 1 + (4 + 8) + (4 + 8));
    expect(vector(list(uint8, 2), 2).minSize).toBe(8);
  });

  it('rejects values of the wrong shape when encoding, with a path', () => {
    let error: unknown;
    try {
      Shape.serialize({ ...Shape.defaultValue(), points: [{ x: 1n, y: 1, tag: new Uint8Array(3) }] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SszError);
    expect((error as SszError).typePath).toBe('Shape.points[0].tag');
    expect(() => Shape.hashTreeRoot({ ...Shape.defaultValue(), points: [{ x: 1n, y: -1, tag: new Uint8Array(2) }] })).toThrow(SszError);
  });

  it('allows lists with limit 0, which hold nothing', () => {
    const L = list(uint64, 0);
    expect(L.deserialize(new Uint8Array(0)).length).toBe(0);
    expect(() => L.deserialize(new Uint8Array(8))).toThrow(SszError);
    expect(toHex(L.hashTreeRoot(new BigUint64Array(0)))).toBe(toHex(list(uint64, 1).hashTreeRoot(new BigUint64Array(0))));
    expect(bitlist(0).deserialize(Uint8Array.from([1])).bitLen).toBe(0);
    expect(() => byteList(0).deserialize(Uint8Array.from([1]))).toThrow(SszError);
  });

  it('defaults hash to the zero subtree roots', () => {
    expect(toHex(vector(uint64, 16).hashTreeRoot(vector(uint64, 16).defaultValue()))).toBe(toHex(zeroHash(2)));
    expect(toHex(byteVector(48).hashTreeRoot(new Uint8Array(48)))).toBe(toHex(zeroHash(1)));
  });

  it('clone is deep and equals compares values', () => {
    const a = Shape.defaultValue();
    a.points = [{ x: 1n, y: 2, tag: Uint8Array.from([1, 2]) }];
    const b = Shape.clone(a);
    expect(Shape.equals(a, b)).toBe(true);
    (b.points[0] as { tag: Uint8Array }).tag[0] = 9;
    expect(Shape.equals(a, b)).toBe(false);
    expect(a.points[0]?.tag[0]).toBe(1);
  });

  it('decoded byte fields do not alias the caller input', () => {
    const input = Point.serialize({ x: 1n, y: 2, tag: Uint8Array.from([3, 4]) });
    const v = Point.deserialize(input);
    input[16] = 0;
    expect(v.tag[0]).toBe(3);
  });
});

describe('types', () => {
  it('infers value types', () => {
    expectTypeOf<ValueOf<typeof Point>>().toEqualTypeOf<{ x: bigint; y: number; tag: Uint8Array }>();
    expectTypeOf<ValueOf<typeof Shape>['u']>().toEqualTypeOf<Uint16Array>();
    expectTypeOf<ValueOf<typeof Shape>['flags']>().toEqualTypeOf<BitArray>();
    expectTypeOf<ValueOf<ReturnType<typeof list<bigint, BigUint64Array>>>>().toEqualTypeOf<BigUint64Array>();
    expectTypeOf<ValueOf<typeof boolean>>().toEqualTypeOf<boolean>();
    const U = union([null, uint16, byteList(4)]);
    expectTypeOf<ValueOf<typeof U>>().toEqualTypeOf<
      { readonly selector: 0; value: null } | { readonly selector: 1; value: number } | { readonly selector: 2; value: Uint8Array }
    >();
  });
});

describe('uint64Number encoding edge cases', () => {
  it('encodes every integer up to 2^53 exactly and rejects the rest with SszError', () => {
    for (const n of [0, 1, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 32e9, 2 ** 52 + 3, 2 ** 53 - 1, 2 ** 53]) {
      expect(toHex(uint64Number.serialize(n)), String(n)).toBe(toHex(uint64.serialize(BigInt(n))));
    }
    for (const bad of [-1, 0.5, 2 ** 53 + 2, NaN, -Infinity, 5n as unknown as number, '5' as unknown as number]) {
      expect(() => uint64Number.serialize(bad), String(bad)).toThrow(SszError);
      expect(() => list(uint64Number, 4).hashTreeRoot([1, bad]), String(bad)).toThrow(SszError);
    }
  });
});

describe('deserialize without a copy ({ copy: false })', () => {
  const T = container({ root: byteVector(32), data: byteList(100), n: uint64 }, 'T');
  const value = { root: new Uint8Array(32).fill(7), data: Uint8Array.of(1, 2, 3), n: 9n };

  it('decodes the same value; its byte fields view the input, where the default copies it', () => {
    const bytes = T.serialize(value);
    const copied = T.deserialize(bytes);
    const viewing = T.deserialize(bytes, { copy: false });
    expect(T.equals(viewing, value)).toBe(true);
    expect(viewing.root.buffer).toBe(bytes.buffer);
    expect(copied.root.buffer).not.toBe(bytes.buffer);
    bytes[0] = 0xee; // root[0]
    expect([viewing.root[0], copied.root[0]]).toEqual([0xee, 7]);
  });

  it('rejects bad input exactly as the default does', () => {
    const bytes = T.serialize(value).subarray(0, 20);
    const message = (f: () => unknown) => {
      try {
        f();
        return 'decoded';
      } catch (e) {
        return (e as SszError).message;
      }
    };
    expect(message(() => T.deserialize(bytes, { copy: false }))).toBe(message(() => T.deserialize(bytes)));
    expect(message(() => T.deserialize(bytes))).toMatch(/^SHORT_INPUT at T/);
  });
});
