/**
 * Progressive kinds against a plain model of the spec text
 * (ssz/simple-serialize.md at the pinned version): `merkleize_progressive`
 * written recursively as the spec states it, over `node:crypto` SHA-256, and
 * the roots of progressive lists, bitlists, byte lists, containers and
 * compatible unions built from it. Lengths are drawn around every subtree
 * boundary (0, 1, 4, 5, 20, 21, 84, 85, 341 chunks ± 1) and past 2^16
 * chunks; active-field patterns with gaps and position 255. Trees, values,
 * serializations and JSON are checked to agree too.
 */
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  BitArray,
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
  type SszType,
  toHex,
  uint8,
  uint16,
  uint32,
  uint64,
  uint128,
  uint256,
  type ValueOf,
} from '../src/index.js';

import { merkleizeProgressive, mixInLength, pack, sha, ZERO } from './progressiveModel.js';

// -------------------------------------------------------------- generators

/** Chunk counts next to every subtree boundary, and a few past 2^16. */
const EDGE_CHUNKS = [0, 1, 4, 5, 20, 21, 84, 85, 340, 341, 342, 1364, 1365, 1366].flatMap((c) => [c - 1, c, c + 1]).filter((c) => c >= 0);
const chunkCount = fc.oneof(fc.constantFrom(...EDGE_CHUNKS), fc.integer({ min: 0, max: 400 }));

/** `n` bytes of a seeded pattern (cheap for long lists). */
function patternBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed | 1;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

// ------------------------------------------------------------------- tests

describe('merkleize_progressive: the model itself', () => {
  it('follows the current order (subtree left, recursion right) on small cases', () => {
    const a = new Uint8Array(32).fill(1);
    const b = new Uint8Array(32).fill(2);
    expect(toHex(merkleizeProgressive([]))).toBe(toHex(ZERO));
    expect(toHex(merkleizeProgressive([a]))).toBe(toHex(sha(a, ZERO)));
    // Two chunks: H(a, H(merkleize([b], 4), 0)) with merkleize([b], 4) = H(H(b, 0), H(0, 0)).
    const z1 = sha(ZERO, ZERO);
    expect(toHex(merkleizeProgressive([a, b]))).toBe(toHex(sha(a, sha(sha(sha(b, ZERO), z1), ZERO))));
  });
});

describe('progressive lists of basic values: roots equal the spec model', () => {
  const kinds: [string, SszType<never>, number][] = [
    ['uint8', progressiveList(uint8) as never, 1],
    ['uint16', progressiveList(uint16) as never, 2],
    ['uint32', progressiveList(uint32) as never, 4],
    ['uint64', progressiveList(uint64) as never, 8],
    ['uint128', progressiveList(uint128) as never, 16],
    ['uint256', progressiveList(uint256) as never, 32],
    ['boolean', progressiveList(boolean) as never, 1],
  ];
  for (const [name, type, size] of kinds) {
    it(name, () => {
      fc.assert(
        fc.property(chunkCount, fc.integer({ min: 0, max: 31 }), fc.integer(), (chunks, cut, seed) => {
          const n = Math.max(0, Math.floor((32 * chunks - (chunks > 0 ? cut : 0)) / size));
          let bytes = patternBytes(n * size, seed);
          if (name === 'boolean') bytes = bytes.map((b) => b & 1);
          const value = type.deserialize(bytes);
          const want = toHex(mixInLength(merkleizeProgressive(pack(bytes)), n));
          expect(toHex(type.hashTreeRoot(value))).toBe(want);
          const tree = type.toTree(value);
          expect(toHex(tree.root)).toBe(want);
          expect(type.equals(type.fromTree(tree), value)).toBe(true);
          expect(toHex(type.serializeTree(tree))).toBe(toHex(bytes));
          tree.dispose();
        }),
        { numRuns: 40 },
      );
    });
  }

  it('past 2^16 chunks (2^18 + 5 uint64)', () => {
    const type = progressiveList(uint64);
    const n = 2 ** 18 + 5;
    const bytes = patternBytes(8 * n, 7);
    const value = type.deserialize(bytes);
    const want = toHex(mixInLength(merkleizeProgressive(pack(bytes)), n));
    expect(toHex(type.hashTreeRoot(value))).toBe(want);
    const tree = type.toTree(value);
    expect(toHex(tree.root)).toBe(want);
    tree.dispose();
  });
});

const Small = container({ a: uint64, b: byteVector(32), c: boolean }, 'Small');
const Var = container({ x: uint16, ys: list(uint32, 9), z: byteList(33) }, 'Var');
const Validatorish = container(
  { pubkey: byteVector(48), creds: byteVector(32), eb: uint64, slashed: boolean, a: uint64, b: uint64, c: uint64, d: uint64 },
  'Validatorish',
);

describe('progressive lists of composites: roots equal the spec model', () => {
  const kinds: [string, SszType<unknown[]>, fc.Arbitrary<unknown>][] = [
    ['Small', progressiveList(Small) as never, fc.record({ a: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), b: fc.uint8Array({ minLength: 32, maxLength: 32 }), c: fc.boolean() })],
    [
      'Validatorish (records, pairs)',
      progressiveList(Validatorish) as never,
      fc.record({
        pubkey: fc.uint8Array({ minLength: 48, maxLength: 48 }),
        creds: fc.uint8Array({ minLength: 32, maxLength: 32 }),
        eb: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        slashed: fc.boolean(),
        a: fc.bigInt({ min: 0n, max: 9n }),
        b: fc.constant(0n),
        c: fc.constant(1n),
        d: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
      }),
    ],
    ['Var', progressiveList(Var) as never, fc.record({ x: fc.integer({ min: 0, max: 65535 }), ys: fc.array(fc.integer({ min: 0, max: 2 ** 32 - 1 }), { maxLength: 9 }).map((a) => Uint32Array.from(a)), z: fc.uint8Array({ maxLength: 33 }) })],
    ['byteVector(48)', progressiveList(byteVector(48)) as never, fc.uint8Array({ minLength: 48, maxLength: 48 })],
    ['ProgressiveList[uint16]', progressiveList(progressiveList(uint16)) as never, fc.array(fc.integer({ min: 0, max: 65535 }), { maxLength: 40 }).map((a) => Uint16Array.from(a))],
  ];
  const counts = fc.oneof(fc.constantFrom(0, 1, 2, 4, 5, 6, 20, 21, 22, 84, 85, 86, 340, 341, 342), fc.integer({ min: 0, max: 100 }));
  for (const [name, type, elem] of kinds) {
    it(name, () => {
      const elemType = (type as unknown as { elementType: SszType<unknown> }).elementType;
      fc.assert(
        fc.property(
          counts.chain((n) => fc.array(elem, { minLength: n, maxLength: n })),
          (value) => {
            const roots = value.map((v) => elemType.hashTreeRoot(v));
            const want = toHex(mixInLength(merkleizeProgressive(roots), value.length));
            expect(toHex(type.hashTreeRoot(value))).toBe(want);
            const tree = type.toTree(value);
            expect(toHex(tree.root)).toBe(want);
            expect(type.equals(type.fromTree(tree), value)).toBe(true);
            const bytes = type.serialize(value);
            expect(toHex(type.serializeTree(tree))).toBe(toHex(bytes));
            expect(type.equals(type.deserialize(bytes), value)).toBe(true);
            const view = type.deserializeToView(bytes);
            expect(toHex(view.hashTreeRoot())).toBe(want);
            expect(type.equals(view.toValue(), value)).toBe(true);
            view.dispose();
            tree.dispose();
          },
        ),
        { numRuns: 25 },
      );
    });
  }

  it('past 2^16 chunks: 87381 and 87382 elements (the start of subtree 9), as values, trees, views of bytes, and after a write and a push there', () => {
    const type = progressiveList(Small);
    const n = 87382;
    const bytes = patternBytes(41 * n, 11);
    for (let i = 0; i < n; i++) bytes[41 * i + 40] &= 1;
    const value = type.deserialize(bytes);
    const roots = value.map((e) => Small.hashTreeRoot(e));
    const rootOf = (r: Uint8Array[]) => toHex(mixInLength(merkleizeProgressive(r), r.length));
    for (const len of [n - 1, n]) {
      const part = value.slice(0, len);
      const want = rootOf(roots.slice(0, len));
      expect(toHex(type.hashTreeRoot(part)), `${len} elements`).toBe(want);
      const tree = type.toTree(part);
      expect(toHex(tree.root), `${len} elements`).toBe(want);
      tree.dispose();
    }
    const view = type.deserializeToView(type.serialize(value.slice(0, n - 1)));
    expect(toHex(view.hashTreeRoot())).toBe(rootOf(roots.slice(0, n - 1)));
    // The last element of subtree 8 written, then the first of subtree 9 pushed.
    const last = { a: 5n, b: new Uint8Array(32).fill(9), c: true };
    view.set(n - 2, last);
    view.push(value[n - 1] as (typeof value)[number]);
    const next = [...value.slice(0, n - 2), last, value[n - 1] as (typeof value)[number]];
    expect(toHex(view.hashTreeRoot())).toBe(rootOf([...roots.slice(0, n - 2), Small.hashTreeRoot(last), roots[n - 1] as Uint8Array]));
    expect(type.equals(view.toValue(), next)).toBe(true);
    view.dispose();
  });
});

describe('progressive bitlists and byte lists: roots equal the spec model', () => {
  it('ProgressiveBitList (pack_bits, the delimiter excluded)', () => {
    const type = progressiveBitlist();
    fc.assert(
      fc.property(chunkCount, fc.integer({ min: 0, max: 255 }), fc.integer(), (chunks, cut, seed) => {
        const n = Math.max(0, 256 * chunks - (chunks > 0 ? cut : 0));
        const packed = patternBytes(Math.ceil(n / 8), seed);
        if (n % 8 !== 0) packed[packed.length - 1] = (packed[packed.length - 1] as number) & ((1 << n % 8) - 1);
        const value = new BitArray(packed, n);
        const want = toHex(mixInLength(merkleizeProgressive(pack(packed)), n));
        expect(toHex(type.hashTreeRoot(value))).toBe(want);
        const tree = type.toTree(value);
        expect(toHex(tree.root)).toBe(want);
        expect(type.equals(type.fromTree(tree), value)).toBe(true);
        expect(toHex(type.serializeTree(tree))).toBe(toHex(type.serialize(value)));
        expect(type.equals(type.deserialize(type.serialize(value)), value)).toBe(true);
        tree.dispose();
      }),
      { numRuns: 60 },
    );
  });

  it('ProgressiveByteList is ProgressiveList[Byte] (same root and bytes), its value a Uint8Array, its JSON hex', () => {
    const bytesType = progressiveByteList();
    const uint8s = progressiveList(uint8);
    fc.assert(
      fc.property(chunkCount, fc.integer({ min: 0, max: 31 }), fc.integer(), (chunks, cut, seed) => {
        const bytes = patternBytes(Math.max(0, 32 * chunks - (chunks > 0 ? cut : 0)), seed);
        const want = toHex(mixInLength(merkleizeProgressive(pack(bytes)), bytes.length));
        expect(toHex(bytesType.hashTreeRoot(bytes))).toBe(want);
        expect(toHex(uint8s.hashTreeRoot(bytes))).toBe(want);
        const tree = bytesType.toTree(bytes);
        expect(toHex(tree.root)).toBe(want);
        expect(toHex(bytesType.fromTree(tree))).toBe(toHex(bytes));
        expect(toHex(bytesType.serializeTree(tree))).toBe(toHex(bytes));
        expect(bytesType.toJson(bytes)).toBe(toHex(bytes));
        tree.dispose();
      }),
      { numRuns: 60 },
    );
  });
});

describe('progressive containers: roots equal the spec model', () => {
  /** A pattern of `len` entries (the last set) with `ones` set, gaps anywhere. */
  const patternOf = (len: fc.Arbitrary<number>) =>
    len.chain((n) => fc.array(fc.boolean(), { minLength: n - 1, maxLength: n - 1 }).map((head) => [...head, true]));
  // Any length, or the full 256 (the last field at position 255), mostly sparse.
  const pattern = fc.oneof(patternOf(fc.integer({ min: 1, max: 256 })), patternOf(fc.constant(256)).map((b) => b.map((on, j) => on && (j === 255 || j % 17 === 3))));
  const FIELD_TYPES: SszType<unknown>[] = [uint8, uint64, byteVector(32), byteVector(48), Small as SszType<unknown>, progressiveList(uint16) as SszType<unknown>, byteList(40) as SszType<unknown>];

  it('random patterns with gaps and position 255; field roots at the 1s, zero chunks elsewhere, active fields mixed in', () => {
    fc.assert(
      fc.property(pattern, fc.integer({ min: 0, max: 1000 }), (bits, pick) => {
        const fields: Record<string, SszType<unknown>> = {};
        let k = 0;
        bits.forEach((on, j) => {
          if (on) fields[`f${j}`] = FIELD_TYPES[(pick + 7 * k++) % FIELD_TYPES.length] as SszType<unknown>;
        });
        const type = progressiveContainer(fields, bits);
        const value = type.defaultValue() as Record<string, unknown>;
        // Non-default values from the fields' own codecs: a byte pattern decoded where the type allows.
        for (const [name, f] of Object.entries(fields)) if (f.fixedSize !== null && f !== (Small as unknown)) value[name] = f.deserialize(patternBytes(f.fixedSize, pick + name.length).map((b) => (f === boolean ? b & 1 : b)));
        const chunks = bits.map((on, j) => (on ? (fields[`f${j}`] as SszType<unknown>).hashTreeRoot(value[`f${j}`]) : ZERO));
        const active = new Uint8Array(32);
        bits.forEach((on, j) => on && (active[j >> 3]! |= 1 << (j & 7)));
        const want = toHex(sha(merkleizeProgressive(chunks), active));
        expect(toHex(type.hashTreeRoot(value as never))).toBe(want);
        const tree = type.toTree(value as never);
        expect(toHex(tree.root)).toBe(want);
        expect(type.equals(type.fromTree(tree), value as never)).toBe(true);
        const bytes = type.serialize(value as never);
        expect(toHex(type.serializeTree(tree))).toBe(toHex(bytes));
        // Serialization is the plain container's of the same fields.
        expect(toHex(bytes)).toBe(toHex(container(fields).serialize(value as never)));
        expect(toHex(type.deserializeToView(bytes).hashTreeRoot())).toBe(want);
        tree.dispose();
      }),
      { numRuns: 60 },
    );
  });

  it("the spec's examples: Square [1, 0, 1] and Circle [0, 1, 1]", () => {
    const Square = progressiveContainer({ side: uint16, color: uint8 }, [1, 0, 1], 'Square');
    const Circle = progressiveContainer({ radius: uint16, color: uint8 }, [0, 1, 1], 'Circle');
    const u16 = (n: number) => uint16.hashTreeRoot(n);
    const u8 = (n: number) => uint8.hashTreeRoot(n);
    const bitsOf = (...b: number[]) => {
      const c = new Uint8Array(32);
      b.forEach((on, j) => on && (c[0]! |= 1 << j));
      return c;
    };
    expect(toHex(Square.hashTreeRoot({ side: 3, color: 1 }))).toBe(toHex(sha(merkleizeProgressive([u16(3), ZERO, u8(1)]), bitsOf(1, 0, 1))));
    expect(toHex(Circle.hashTreeRoot({ radius: 9, color: 1 }))).toBe(toHex(sha(merkleizeProgressive([ZERO, u16(9), u8(1)]), bitsOf(0, 1, 1))));
    // color is merkleized at field index 2 in both: the same generalized index.
    expect(Square.gindexOf(['color'])).toBe(Circle.gindexOf(['color']));
    const Shape = compatibleUnion({ 1: Square, 2: Circle });
    const v = { selector: 2 as const, data: { radius: 9, color: 1 } };
    expect(toHex(Shape.hashTreeRoot(v))).toBe(toHex(sha(Circle.hashTreeRoot(v.data), Uint8Array.of(2, ...new Uint8Array(31)))));
    expect(toHex(Shape.serialize(v))).toBe(toHex(Uint8Array.of(2, ...Circle.serialize(v.data))));
    expect(Shape.toJson(v)).toEqual({ selector: '2', data: { radius: '9', color: '1' } });
    expect(Shape.equals(Shape.fromJson(Shape.toJson(v)), v)).toBe(true);
    expect(Shape.equals(Shape.deserialize(Shape.serialize(v)), v)).toBe(true);
    const tree = Shape.toTree(v);
    expect(toHex(tree.root)).toBe(toHex(Shape.hashTreeRoot(v)));
    expect(Shape.equals(Shape.fromTree(tree), v)).toBe(true);
    // 'data' is the left child (gindex 2) of the union's root; below it the option's own positions.
    const below = Square.gindexOf(['color']);
    const depth = BigInt(below.toString(2).length - 1);
    expect(Shape.gindexOf(['data', 'color'])).toBe((2n << depth) | (below - (1n << depth)));
    expect(Shape.gindexOf(['selector'])).toBe(3n);
  });
});

describe('values, JSON and types', () => {
  const State = progressiveContainer(
    { slot: uint64, balances: progressiveList(uint64), validators: progressiveList(Small), bits: progressiveBitlist(), tx: progressiveByteList() },
    [1, 1, 0, 1, 1, 1],
    'State',
  );
  it('defaults, equality, clones and JSON in the spec mapping', () => {
    const v = State.defaultValue();
    expect(v.balances).toBeInstanceOf(BigUint64Array);
    expect(v.validators).toEqual([]);
    expect(v.bits.bitLen).toBe(0);
    expect(v.tx).toBeInstanceOf(Uint8Array);
    const w = State.clone(v);
    w.balances = BigUint64Array.of(5n);
    w.tx = Uint8Array.of(1, 2);
    w.bits = BitArray.fromBoolArray([true, false, true]);
    expect(State.equals(v, w)).toBe(false);
    expect(State.toJson(w)).toEqual({ slot: '0', balances: ['5'], validators: [], bits: '0x0d', tx: '0x0102' });
    expect(State.equals(State.fromJson(State.toJson(w)), w)).toBe(true);
    expect(State.sizeOf(w)).toBe(State.serialize(w).length);
    expect(State.fixedSize).toBeNull();
    expect(progressiveContainer({ a: uint8, b: uint64 }, [1, 1]).fixedSize).toBe(9);
  });
  it('ValueOf infers the value forms', () => {
    expectTypeOf<ValueOf<typeof State>>().toEqualTypeOf<{
      slot: bigint;
      balances: BigUint64Array;
      validators: { a: bigint; b: Uint8Array; c: boolean }[];
      bits: BitArray;
      tx: Uint8Array;
    }>();
    const U = compatibleUnion({ 1: uint8, 3: uint8 });
    expectTypeOf<ValueOf<typeof U>>().toEqualTypeOf<{ readonly selector: 1; data: number } | { readonly selector: 3; data: number }>();
  });
});
