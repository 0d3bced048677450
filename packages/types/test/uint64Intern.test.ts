/**
 * The decoders' shared uint64 intern table (containerInline.ts): a decoded
 * uint64 is the bigint of its eight bytes whatever the table held before —
 * equal to a plain reference (DataView words to BigInt) for edge values and
 * for values that collide in the table, across fields, elements, containers
 * and successive decodes — and sharing bigints never lets one decoded value
 * change another (byte fields stay separate arrays).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boolean, byteVector, container, list, uint64, uint64Number, vector } from '../src/index.js';

const Pair = container({ a: uint64, tag: byteVector(3), b: uint64, n: uint64Number, flag: boolean }, 'Pair');
const Pairs = list(Pair, 1 << 12);
const Pair3 = vector(Pair, 3);
/** A second container type: the table is shared between types. */
const Other = container({ x: uint64, y: uint64 }, 'Other');
const Others = list(Other, 1 << 13);
/** A variable-size container: decoded one by one (`decode`, no run), through the table as well. */
const Holder = container({ head: uint64, items: list(uint64, 8), tail: uint64 }, 'Holder');
const Holders = list(Holder, 256);

const edges = [0n, 1n, 2n ** 31n - 1n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 32n + 1n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 63n, 2n ** 64n - 2n, 2n ** 64n - 1n, 32_000_000_000n];
/** Any uint64, weighted towards the edges and towards a few repeated values (which hit the table). */
const u64 = fc.oneof(fc.constantFrom(...edges), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.bigInt({ min: 0n, max: 2n ** 32n + 5n }), fc.constantFrom(7n, 7n + 2n ** 32n, 7n + 2n ** 40n));
const pair = fc.record({ a: u64, tag: fc.uint8Array({ minLength: 3, maxLength: 3 }), b: u64, n: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), flag: fc.boolean() });

/** The reference: each uint64 read back from the bytes with DataView words, then BigInt arithmetic. */
function words(bytes: Uint8Array, at: number): bigint {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return BigInt(dv.getUint32(at, true)) + (BigInt(dv.getUint32(at + 4, true)) << 32n);
}

describe('uint64 interning in decode', () => {
  it('decoded uint64s equal a plain reference, whatever earlier decodes left in the table', () => {
    fc.assert(
      fc.property(fc.array(pair, { maxLength: 80 }), fc.array(fc.tuple(u64, u64), { maxLength: 40 }), (pairs, others) => {
        const bytes = Pairs.serialize(pairs);
        const back = Pairs.deserialize(bytes);
        expect(Pair.fixedSize).toBe(28);
        back.forEach((p, i) => {
          expect(p.a).toBe(words(bytes, 28 * i));
          expect(p.a).toBe(pairs[i]!.a);
          expect(p.b).toBe(words(bytes, 28 * i + 11));
          expect(p.b).toBe(pairs[i]!.b);
          expect(typeof p.a).toBe('bigint');
        });
        // Another type through the same table, then the first bytes again: still the same values.
        const obytes = Others.serialize(others.map(([x, y]) => ({ x, y })));
        const oback = Others.deserialize(obytes);
        oback.forEach((o, i) => {
          expect(o.x).toBe(words(obytes, 16 * i));
          expect(o.y).toBe(words(obytes, 16 * i + 8));
        });
        expect(Pairs.deserialize(bytes).map((p) => [p.a, p.b])).toEqual(pairs.map((p) => [p.a, p.b]));
        if (pairs.length >= 3) {
          const three = pairs.slice(0, 3);
          expect(Pair3.deserialize(Pair3.serialize(three)).map((p) => [p.a, p.b])).toEqual(three.map((p) => [p.a, p.b]));
        }
      }),
      { numRuns: 400, seed: 21 },
    );
  });

  it('values that share a table slot or one word still decode apart', () => {
    // Every low word with high words 0..3 and every high word with low words 0..3: many collisions in a 2^10 table.
    const values: bigint[] = [];
    for (let i = 0n; i < 2048n; i++) values.push(i, i << 32n, (i << 32n) | 1n, i + (3n << 32n), 2n ** 64n - 1n - i);
    const bytes = Others.serialize(Array.from({ length: values.length / 2 }, (_, i) => ({ x: values[2 * i]!, y: values[2 * i + 1]! })));
    const back = Others.deserialize(bytes);
    expect(back.flatMap((o) => [o.x, o.y])).toEqual(values);
    // Decoded again in the reverse order of elements: the table now holds other values in those slots.
    const reversed = Others.deserialize(Others.serialize(back.slice().reverse()));
    expect(reversed.flatMap((o) => [o.x, o.y])).toEqual(back.slice().reverse().flatMap((o) => [o.x, o.y]));
  });

  it('single (non-run) decodes intern too and stay exact', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ head: u64, items: fc.array(u64, { maxLength: 8 }), tail: u64 }), { maxLength: 20 }), (hs) => {
        const back = Holders.deserialize(Holders.serialize(hs.map((h) => ({ ...h, items: BigUint64Array.from(h.items) }))));
        expect(back.map((h) => [h.head, h.tail, [...h.items]])).toEqual(hs.map((h) => [h.head, h.tail, h.items]));
      }),
      { numRuns: 200, seed: 22 },
    );
    // Colliding values (see above) as the single-decoded fields.
    const values: bigint[] = [];
    for (let i = 0n; i < 64n; i++) values.push(i, i << 32n, (i << 32n) | 1n, 2n ** 64n - 1n - i);
    for (let round = 0; round < 2; round++) {
      const hs = Array.from({ length: values.length / 2 }, (_, i) => ({ head: values[2 * i]!, items: BigUint64Array.from([values[2 * i + 1]!]), tail: values[(2 * i + 2 + round) % values.length]! }));
      expect(Holders.deserialize(Holders.serialize(hs))).toEqual(hs);
    }
  });

  it('a decoded value changed by its user leaves every other decoded value as it was', () => {
    const pairs = Array.from({ length: 6 }, (_, i) => ({ a: 2n ** 64n - 1n, tag: new Uint8Array([i, i, i]), b: 32_000_000_000n, n: i, flag: i % 2 === 0 }));
    const bytes = Pairs.serialize(pairs);
    const first = Pairs.deserialize(bytes);
    const second = Pairs.deserialize(bytes);
    // The same bigints (immutable), separate byte arrays (mutable).
    expect(first[0]!.a).toBe(second[3]!.a);
    expect(first[0]!.tag).not.toBe(second[0]!.tag);
    first[0]!.tag[0] = 0xaa;
    first[0]!.a = 5n;
    first[1]!.b += 1n;
    expect(first[1]!.tag).toEqual(new Uint8Array([1, 1, 1]));
    expect(first[2]!.a).toBe(2n ** 64n - 1n);
    expect(first[2]!.b).toBe(32_000_000_000n);
    expect(second.map((p) => p.tag[0])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(second.every((p) => p.a === 2n ** 64n - 1n && p.b === 32_000_000_000n)).toBe(true);
    expect(Pairs.deserialize(bytes)).toEqual(second);
  });
});
