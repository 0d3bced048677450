/**
 * Progressive kinds refuse what the spec forbids, with the exact SszError:
 * illegal definitions at construction (`INVALID_TYPE`), and bad bytes, bad
 * values, bad JSON and trees of the wrong shape for each kind (code, type
 * path, byte offset).
 */
import { describe, expect, it } from 'vitest';
import {
  BitArray,
  SszError,
  byteList,
  compatibleUnion,
  container,
  list,
  progressiveBitlist,
  progressiveByteList,
  progressiveContainer,
  progressiveList,
  uint8,
  uint16,
  uint32,
  uint64,
  vector,
  type SszType,
} from '../src/index.js';
import { defaultStore, Tree } from '@ssztree/core';

/** The SszError `fn` throws, or a failure. */
function caught(fn: () => unknown): SszError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SszError) return e;
    throw new Error(`expected an SszError, got ${String(e)}`);
  }
  throw new Error('expected an SszError, nothing was thrown');
}

function expectError(fn: () => unknown, code: string, typePath: string, offset = -1): SszError {
  const e = caught(fn);
  expect({ code: e.code, typePath: e.typePath, offset: e.offset }, e.message).toEqual({ code, typePath, offset });
  return e;
}

const Square = progressiveContainer({ side: uint16, color: uint8 }, [1, 0, 1], 'Square');
const Circle = progressiveContainer({ radius: uint16, color: uint8 }, [0, 1, 1], 'Circle');

describe('illegal progressive types throw at construction', () => {
  it('progressive containers: no fields, over 256 entries, ending in 0, a count of 1s unlike the fields, bad entries', () => {
    expect(caught(() => progressiveContainer({}, [1])).detail).toBe('a progressive container needs at least one field');
    const e = expectError(() => progressiveContainer({ a: uint8 }, [...new Array<number>(256).fill(0), 1], 'P'), 'INVALID_TYPE', 'P');
    expect(e.detail).toBe('active fields need 1..256 entries, got 257');
    expect(caught(() => progressiveContainer({ a: uint8 }, [1, 0])).detail).toBe('the last active fields entry must be 1');
    expect(caught(() => progressiveContainer({ a: uint8 }, [])).detail).toBe('active fields need 1..256 entries, got 0');
    expect(caught(() => progressiveContainer({ a: uint8, b: uint8 }, [0, 1])).detail).toBe('active fields have 1 entries set for 2 fields');
    expect(caught(() => progressiveContainer({ a: uint8 }, [2 as never])).detail).toBe('active fields entry 0 is 2, not 0/1 or a boolean');
    expect(caught(() => progressiveContainer({ a: uint8 }, 'x' as never)).code).toBe('INVALID_TYPE');
    // 256 entries with the last at position 255 are legal.
    expect(progressiveContainer({ a: uint8 }, [...new Array<number>(255).fill(0), 1]).gindexOf(['a'])).toBeGreaterThan(0n);
  });

  it('compatible unions: no options, a selector outside 1..127, incompatible options', () => {
    expect(caught(() => compatibleUnion({})).detail).toBe('a compatible union needs at least one option');
    expect(caught(() => compatibleUnion({ 0: uint8 })).detail).toBe('selector 0 is outside 1..127');
    expect(caught(() => compatibleUnion({ 128: uint8 })).detail).toBe('selector 128 is outside 1..127');
    expect(caught(() => compatibleUnion({ 1: uint8, 2: uint16 })).detail).toBe('options 1 (uint8) and 2 (uint16) do not have compatible merkleization');
    // The same name at different positions, and a shared position with different names.
    const Moved = progressiveContainer({ color: uint8 }, [0, 1]);
    expect(caught(() => compatibleUnion({ 1: Square, 2: Moved })).code).toBe('INVALID_TYPE');
    const Renamed = progressiveContainer({ size: uint16, color: uint8 }, [1, 0, 1]);
    expect(caught(() => compatibleUnion({ 1: Square, 2: Renamed })).code).toBe('INVALID_TYPE');
    expect(caught(() => compatibleUnion({ 1: list(uint8, 4), 2: list(uint8, 5) })).code).toBe('INVALID_TYPE');
    expect(caught(() => compatibleUnion({ 1: container({ a: uint8 }), 2: container({ b: uint8 }) })).code).toBe('INVALID_TYPE');
  });

  it('compatible unions accept what the spec calls compatible', () => {
    expect(compatibleUnion({ 1: Square, 2: Circle }).selectors).toEqual([1, 2]);
    expect(compatibleUnion({ 1: byteList(9), 2: list(uint8, 9) }).selectors).toEqual([1, 2]); // ByteList[N] is List[Byte, N]
    expect(compatibleUnion({ 1: progressiveByteList(), 2: progressiveList(uint8) }).selectors).toEqual([1, 2]);
    expect(compatibleUnion({ 1: vector(Square, 2), 2: vector(Circle, 2) }).selectors).toEqual([1, 2]);
    expect(compatibleUnion({ 1: progressiveList(Square), 2: progressiveList(Circle) }).selectors).toEqual([1, 2]);
    const Inner = compatibleUnion({ 1: Square, 2: Circle });
    expect(compatibleUnion({ 1: Inner, 2: compatibleUnion({ 5: Circle }) }).selectors).toEqual([1, 2]);
  });
});

describe('bad bytes: the exact error for each kind', () => {
  it('progressive lists of basic values: a partial element', () => {
    expectError(() => progressiveList(uint32).deserialize(new Uint8Array(7)), 'BAD_SIZE', 'ProgressiveList[uint32]', 7);
    expectError(() => progressiveList(uint16).deserialize(Uint8Array.of(1, 2, 3)), 'BAD_SIZE', 'ProgressiveList[uint16]', 3);
  });

  it('progressive lists of composites: offsets out of range or decreasing, trailing and partial elements', () => {
    const L = progressiveList(byteList(4));
    const good = L.serialize([Uint8Array.of(1), Uint8Array.of(2, 3)]); // offsets 8, 9; bodies 01 | 02 03
    const first = good.slice();
    new DataView(first.buffer).setUint32(0, 12, true);
    expectError(() => L.deserialize(first), 'BAD_OFFSET', 'ProgressiveList[ByteList[4]]', 0);
    const decreasing = good.slice();
    new DataView(decreasing.buffer).setUint32(4, 7, true);
    expectError(() => L.deserialize(decreasing), 'BAD_OFFSET', 'ProgressiveList[ByteList[4]]', 4);
    const past = good.slice();
    new DataView(past.buffer).setUint32(4, 99, true);
    expectError(() => L.deserialize(past), 'BAD_OFFSET', 'ProgressiveList[ByteList[4]]', 4);
    expectError(() => L.deserialize(Uint8Array.of(4, 0)), 'SHORT_INPUT', 'ProgressiveList[ByteList[4]]', 2);
    const tooLong = Uint8Array.of(...good, 9, 9, 9, 9);
    expectError(() => L.deserialize(tooLong), 'LIMIT_EXCEEDED', 'ProgressiveList[ByteList[4]][1]', 13);
    const F = progressiveList(vector(uint16, 2));
    expectError(() => F.deserialize(new Uint8Array(6)), 'BAD_SIZE', 'ProgressiveList[Vector[uint16, 2]]', 6);
  });

  it('progressive bitlists: no delimiter, an empty input', () => {
    const B = progressiveBitlist();
    expectError(() => B.deserialize(Uint8Array.of(5, 0)), 'BAD_BITS', 'ProgressiveBitList', 1);
    expectError(() => B.deserialize(new Uint8Array(0)), 'BAD_BITS', 'ProgressiveBitList', 0);
    expect(B.deserialize(Uint8Array.of(1)).bitLen).toBe(0);
  });

  it('progressive containers: the container rules (fixed part, offsets, trailing bytes)', () => {
    expectError(() => Square.deserialize(new Uint8Array(4)), 'TRAILING_BYTES', 'Square', 3);
    expectError(() => Square.deserialize(new Uint8Array(2)), 'SHORT_INPUT', 'Square', 2);
    const V = progressiveContainer({ a: uint8, items: progressiveList(uint16) }, [1, 1], 'V');
    const bytes = V.serialize({ a: 1, items: Uint16Array.of(7) });
    new DataView(bytes.buffer).setUint32(1, 6, true);
    expectError(() => V.deserialize(bytes), 'BAD_OFFSET', 'V.items', 1);
  });

  it('compatible unions: an unknown selector, a missing selector, short or corrupted data', () => {
    const U = compatibleUnion({ 1: Square, 2: Circle }, 'Shape');
    expectError(() => U.deserialize(Uint8Array.of(3, 0, 0, 0)), 'BAD_SELECTOR', 'Shape', 0);
    expectError(() => U.deserialize(Uint8Array.of(0, 0, 0, 0)), 'BAD_SELECTOR', 'Shape', 0);
    expectError(() => U.deserialize(new Uint8Array(0)), 'SHORT_INPUT', 'Shape', 0);
    expectError(() => U.deserialize(Uint8Array.of(1, 0)), 'SHORT_INPUT', 'Shape[1]', 2);
    // Longer than any option can be (both are 3 bytes): refused by the byte bound before decoding.
    expectError(() => U.deserialize(Uint8Array.of(2, 0, 0, 0, 0)), 'BOUND_EXCEEDED', 'Shape', 4);
    const N = compatibleUnion({ 1: progressiveList(Square) }, 'Many');
    expectError(() => N.deserialize(Uint8Array.of(1, 0, 0)), 'BAD_SIZE', 'Many[1]', 3);
  });
});

describe('bad values, JSON and trees', () => {
  it('values of the wrong shape', () => {
    expectError(() => progressiveList(uint64).serialize([1n] as never), 'INVALID_VALUE', 'ProgressiveList[uint64]');
    expectError(() => progressiveList(uint64).serializeInto([1n] as never, new Uint8Array(8), 0), 'INVALID_VALUE', 'ProgressiveList[uint64]');
    // (Root errors of uints carry the chunk offset 0, as binary containers' do.)
    expectError(() => progressiveList(Square).hashTreeRoot([{ side: 1, color: 1 }, { side: 70000, color: 1 }]), 'INVALID_VALUE', 'ProgressiveList[Square][1].side', 0);
    expectError(() => Square.hashTreeRoot({ side: 1, color: 300 }), 'INVALID_VALUE', 'Square.color', 0);
    expectError(() => Square.hashTreeRoot(null as never), 'INVALID_VALUE', 'Square');
    expectError(() => progressiveBitlist().serialize(new BitArray(new Uint8Array(1), 9)), 'INVALID_VALUE', 'ProgressiveBitList');
    expectError(() => progressiveByteList().serialize([1, 2] as never), 'INVALID_VALUE', 'ProgressiveByteList');
    const U = compatibleUnion({ 1: Square }, 'U');
    expectError(() => U.serialize({ selector: 2, data: {} } as never), 'BAD_SELECTOR', 'U');
    expectError(() => U.hashTreeRoot({ selector: 1, data: { side: -1, color: 0 } }), 'INVALID_VALUE', 'U[1].side', 0);
    expectError(() => U.defaultValue(), 'INVALID_TYPE', 'U');
  });

  it('JSON of the wrong shape is INVALID_JSON with the path', () => {
    expectError(() => progressiveList(uint8).fromJson(['1', 'x']), 'INVALID_JSON', 'ProgressiveList[uint8][1]');
    expectError(() => progressiveBitlist().fromJson('0x00'), 'INVALID_JSON', 'ProgressiveBitList');
    expectError(() => progressiveByteList().fromJson('0x0'), 'INVALID_JSON', 'ProgressiveByteList');
    expectError(() => Square.fromJson({ side: '1' }), 'INVALID_JSON', 'Square');
    const U = compatibleUnion({ 1: Square }, 'U');
    expectError(() => U.fromJson({ selector: '2', data: {} }), 'INVALID_JSON', 'U');
    expectError(() => U.fromJson({ selector: 1, data: { side: '1', color: '999' } }), 'INVALID_JSON', 'U[1].color');
    expectError(() => U.fromJson({ selector: '1' }), 'INVALID_JSON', 'U');
    expectError(() => U.fromJson({ selector: '1', data: { side: '1', color: '2' }, value: 1 }), 'INVALID_JSON', 'U');
  });

  it('trees of the wrong shape are BAD_TREE: a spine too long or short, a non-zero end, a wrong pattern or inactive chunk', () => {
    const store = defaultStore;
    const L = progressiveList(uint64);
    const chunk = (b: number) => new Uint8Array(32).fill(b);
    const length1 = (contents: number) => store.withLength(contents, 1);
    // One element needs one spine node over subtree 0, then the zero chunk.
    const good = length1(store.branch(store.leaf(Uint8Array.of(5, ...new Array(31).fill(0))), store.zero(0)));
    expect(L.fromTree(good)[0]).toBe(5n);
    expectError(() => L.fromTree(length1(store.zero(0))), 'BAD_TREE', 'ProgressiveList[uint64]');
    expectError(() => L.fromTree(length1(store.branch(store.leaf(chunk(0)), store.leaf(chunk(1))))), 'BAD_TREE', 'ProgressiveList[uint64]');
    expectError(() => L.fromTree(length1(store.branch(store.leaf(chunk(0)), store.branch(store.zero(2), store.zero(0))))), 'BAD_TREE', 'ProgressiveList[uint64]');
    // Padding after the last value.
    expectError(() => L.fromTree(length1(store.branch(store.leaf(chunk(1)), store.zero(0)))), 'BAD_TREE', 'ProgressiveList[uint64]');
    const tree = Square.toTree({ side: 1, color: 2 });
    const wrongPattern = store.branch(store.left(tree.rootNode), store.leaf(Uint8Array.of(7, ...new Array(31).fill(0))));
    expectError(() => Square.fromTree(wrongPattern), 'BAD_TREE', 'Square');
    const inactive = new Tree(tree.rootNode).clone();
    inactive.setChunk(40n, chunk(9)); // chunk 1 (subtree 1, position 0: contents, right, left, 00), inactive for Square
    expectError(() => Square.fromTree(inactive), 'BAD_TREE', 'Square');
    expectError(() => Square.serializeTree(inactive), 'BAD_TREE', 'Square');
    tree.dispose();
    inactive.dispose();
  });

  it("proofs past a progressive list's length are BAD_PATH naming the list, the index and the length (gindexOf is the schema's answer)", () => {
    const Holder = progressiveContainer(
      { balances: progressiveList(uint64), squares: progressiveList(Square), bits: progressiveBitlist(), bytes: progressiveByteList() },
      [1, 1, 0, 1, 1],
      'Holder',
    );
    const value = { balances: BigUint64Array.of(1n, 2n, 3n), squares: [{ side: 1, color: 2 }], bits: BitArray.fromBoolArray([true]), bytes: Uint8Array.of(9) };
    const tree = Holder.toTree(value);
    // Present: proven. Index 3 shares the chunk of balances 0..2 and is still refused.
    expect(Holder.createProof(tree, [['balances', 2]]).kind).toBe('single');
    for (const [path, index, length] of [
      [['balances', 3], 3, 3],
      [['squares', 1], 1, 1],
      [['squares', 5, 'side'], 5, 1],
      [['bits', 1], 1, 1],
      [['bytes', 40], 40, 1],
    ] as const) {
      const e = expectError(() => Holder.createProof(tree, [path as never]), 'BAD_PATH', `Holder.${path[0]}`);
      expect(e.detail).toContain(`index ${index} is past the list's length ${length}`);
      expect(Holder.gindexOf(path as never)).toBeGreaterThan(0n);
    }
    // Absence is proven by the length.
    expect(Holder.createProof(tree, [['squares', 'length']]).kind).toBe('single');
    expectError(() => progressiveList(uint8).gindexOf([2 ** 32 - 1]), 'BAD_PATH', 'ProgressiveList[uint8]');
    tree.dispose();
  });

  it('every progressive kind names itself in its type name', () => {
    const names = [progressiveList(uint8), progressiveList(Square), progressiveBitlist(), progressiveByteList(), compatibleUnion({ 1: Square, 2: Circle })].map((t: SszType<unknown>) => t.typeName);
    expect(names).toEqual(['ProgressiveList[uint8]', 'ProgressiveList[Square]', 'ProgressiveBitList', 'ProgressiveByteList', 'CompatibleUnion({1: Square, 2: Circle})']);
  });
});
