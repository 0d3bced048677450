/**
 * `T.serializeTreeInto(tree, buffer, offset)` and `view.serializeInto(buffer,
 * offset)` against the plain path (`serializeTree`, `view.serialize()`): into
 * a buffer of random bytes at a random offset, the serialization's range
 * holds exactly the bytes `serializeTree` returns, every byte outside it is
 * untouched, and the end offset is returned. On damaged trees the two throw
 * the same `SszError` (code, path, message) exactly when `serializeTree` throws. A
 * buffer too small or an offset outside it is `BUFFER_TOO_SMALL`, touching
 * nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore, type NodeId } from '@ssztree/core';
import { bitvector, boolean, byteVector, container, list, SszError, SszType, toHex, uint16, uint64, uint8, union, vector } from '@ssztree/types';
import { FORKS, minimal } from '@ssztree/types/consensus';
import { arbitrary } from './arbitrary.js';
import { damageArb, damageTree } from './damagedTrees.js';
import { newTypesByFork, runsFor } from './forkTypes.js';
import { COMMON_KINDS, Small, Var } from './kinds.js';

const Rec = container({ k: byteVector(48), w: byteVector(32), n: uint64, s: boolean, f: bitvector(4), h: uint16 }, 'Rec');
const KINDS: Record<string, SszType<unknown>> = {
  ...COMMON_KINDS,
  'vector(byteVector(32), 8)': vector(byteVector(32), 8),
  'list(byteVector(32), 2^20)': list(byteVector(32), 2 ** 20),
  'list(Rec, 100)': list(Rec, 100),
  Rec,
  Nested: container({ s: Small, v: Var, l: list(Small, 3), vec: vector(Small, 2), u: union([uint8, Var]), r: Rec }, 'Nested'),
};
const MINIMAL_BY_FORK = newTypesByFork('minimal');
const sample = (t: SszType<unknown>) => fc.sample(arbitrary(t), { seed: 1, numRuns: 1 })[0];

/** A buffer of `before + size + after` pseudo-random bytes (seeded), never all zeros. */
function dirty(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 255 || 1;
  }
  return out;
}

/** serializeTreeInto and view.serializeInto write serializeTree's bytes in their range and nothing else. */
function agreeInto(type: SszType<unknown>, value: unknown, before: number, after: number, seed: number): void {
  const tree = type.toTree(value);
  const want = type.serializeTree(tree);
  for (const write of [
    (buf: Uint8Array, at: number) => type.serializeTreeInto(tree, buf, at),
    (buf: Uint8Array, at: number) => type.serializeTreeInto(tree.rootNode, buf, at, tree.store),
    (buf: Uint8Array, at: number) => type.toView(value).serializeInto(buf, at),
  ]) {
    const buf = dirty(before + want.length + after, seed);
    const copy = buf.slice();
    expect(write(buf, before)).toBe(before + want.length);
    expect(toHex(buf.subarray(before, before + want.length))).toBe(toHex(want));
    expect(toHex(buf.subarray(0, before))).toBe(toHex(copy.subarray(0, before)));
    expect(toHex(buf.subarray(before + want.length))).toBe(toHex(copy.subarray(before + want.length)));
  }
  tree.dispose();
}

describe('serializeTreeInto / view.serializeInto: every kind, into a dirty buffer', () => {
  for (const [name, type] of Object.entries(KINDS)) {
    it(name, () => {
      fc.assert(
        fc.property(arbitrary(type), fc.nat(40), fc.nat(40), fc.integer(), (value, before, after, seed) => agreeInto(type, value, before, after, seed)),
        { numRuns: 30 },
      );
    });
  }
});

describe('serializeTreeInto: consensus containers (minimal, every fork)', () => {
  for (const fork of FORKS) {
    for (const [name, type] of MINIMAL_BY_FORK[fork]) {
      it(`minimal.${fork}.${name}`, () => {
        fc.assert(
          fc.property(arbitrary(type), fc.nat(9), fc.nat(9), fc.integer(), (value, before, after, seed) => agreeInto(type, value, before, after, seed)),
          { numRuns: runsFor(type, 3, sample) },
        );
      });
    }
  }
});

describe('serializeTreeInto: a view with pending writes commits first', () => {
  it('a list of records after a set', () => {
    const T = KINDS['list(Rec, 100)'] as SszType<unknown>;
    const value = fc.sample(arbitrary(T), { seed: 7, numRuns: 20 }).find((v) => (v as unknown[]).length > 1) as unknown[];
    const view = T.toView(value) as unknown as { get(i: number): { n: bigint }; serialize(): Uint8Array; serializeInto(b: Uint8Array, o: number): number };
    view.get(1).n = 12345n;
    const buf = dirty(T.sizeOf(value) + 3, 5);
    expect(view.serializeInto(buf, 3)).toBe(buf.length);
    expect(toHex(buf.subarray(3))).toBe(toHex(view.serialize()));
    expect(toHex(buf.subarray(3))).not.toBe(toHex(T.serialize(value)));
  });
});

describe('serializeTreeInto: buffer and offset checks', () => {
  const T = KINDS['list(Rec, 100)'] as SszType<unknown>;
  const value = fc.sample(arbitrary(T), { seed: 3, numRuns: 20 }).find((v) => (v as unknown[]).length > 0) as unknown;
  const size = T.sizeOf(value);
  const tree = T.toTree(value);
  const cases: [string, number, number][] = [
    ['one byte short', size - 1, 0],
    ['offset pushes it past the end', size + 4, 5],
    ['negative offset', size + 4, -1],
    ['offset past the end', size, size + 1],
    ['fractional offset', size + 4, 0.5],
  ];
  for (const [name, length, offset] of cases) {
    it(name, () => {
      const buf = dirty(length, 11);
      const copy = buf.slice();
      let error: unknown = null;
      try {
        T.serializeTreeInto(tree, buf, offset);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SszError);
      expect((error as SszError).code).toBe('BUFFER_TOO_SMALL');
      expect((error as SszError).typePath).toBe(T.typeName);
      expect(toHex(buf)).toBe(toHex(copy));
    });
  }
  it('not a Uint8Array', () => {
    expect(() => T.serializeTreeInto(tree, [] as unknown as Uint8Array, 0)).toThrow(/^INVALID_VALUE/);
  });
  it('not a tree', () => {
    expect(() => T.serializeTreeInto('x' as unknown as NodeId, new Uint8Array(size), 0)).toThrow(/^INVALID_VALUE/);
  });
});

describe('serializeTreeInto: damaged trees fail exactly as serializeTree does', () => {
  const targets: [string, SszType<unknown>][] = [
    ['Var', Var],
    ['Rec', Rec],
    ['list(Rec, 100)', KINDS['list(Rec, 100)'] as SszType<unknown>],
    ['bitlist(600)', KINDS['bitlist(600)'] as SszType<unknown>],
    ['Nested', KINDS['Nested'] as SszType<unknown>],
    ['phase0.BeaconState', minimal.phase0.BeaconState as unknown as SszType<unknown>],
  ];
  for (const [name, type] of targets) {
    it(name, () => {
      let rejected = 0;
      let accepted = 0;
      fc.assert(
        fc.property(arbitrary(type), damageArb, (value, damage) => {
          const store = new NodeStore();
          const tree = type.toTree(value, store);
          const root = damageTree(store, tree.rootNode, damage);
          let want: Uint8Array | null = null;
          let wantError: unknown = null;
          try {
            want = type.serializeTree(root, store);
          } catch (e) {
            wantError = e;
          }
          // Room for the size the tree claims (its `_treeSize`, which both paths read first), so no fault becomes BUFFER_TOO_SMALL.
          let size = 0;
          try {
            size = type._treeSize(store, root);
          } catch {
            size = 0;
          }
          fc.pre(size <= 1 << 22);
          const buf = dirty(size + 8, damage[0]);
          let end = -1;
          let error: unknown = null;
          try {
            end = type.serializeTreeInto(root, buf, 8, store);
          } catch (e) {
            error = e;
          }
          if (wantError !== null) {
            rejected++;
            expect(error).toBeInstanceOf(SszError);
            // Same code, path and detail (node ids aside: a walk may name a node it made, whose id differs between calls).
            const norm = (e: unknown) => [(e as SszError).code, (e as SszError).typePath, (e as SszError).message.replace(/node \d+/g, 'node #')];
            expect(norm(error)).toEqual(norm(wantError));
          } else {
            accepted++;
            expect(error).toBe(null);
            expect(end).toBe(8 + (want as Uint8Array).length);
            expect(toHex(buf.subarray(8, end))).toBe(toHex(want as Uint8Array));
          }
        }),
        { numRuns: 150 },
      );
      expect(rejected).toBeGreaterThan(5);
      expect(accepted).toBeGreaterThan(5);
    });
  }
});
