/**
 * Serialization straight from trees (`serializeTree`, `view.serialize()`):
 * for every kind of schema and every consensus container, the bytes copied
 * out of a tree equal `serialize(value)` — trees built from values, from
 * bytes, and views after writes. A damaged tree (any node swapped for a
 * leaf, a zero subtree or another node) is either rejected with `SszError`
 * — exactly when `fromTree` rejects it — or read as the same bytes
 * `serialize(fromTree(tree))` gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore, type NodeId } from '@ssztree/core';
import {
  bitlist,
  bitvector,
  boolean,
  byteList,
  byteVector,
  container,
  list,
  SszError,
  SszType,
  toHex,
  uint8,
  uint16,
  uint64,
  union,
  vector,
} from '@ssztree/types';
import { FORKS, minimal } from '@ssztree/types/consensus';
import { arbitrary } from './arbitrary.js';
import { damageArb, damageTree } from './damagedTrees.js';
import { newTypesByFork, runsFor } from './forkTypes.js';
import { COMMON_KINDS, Small, Var } from './kinds.js';

const Rec = container({ k: byteVector(48), w: byteVector(32), n: uint64, s: boolean, f: bitvector(4), h: uint16 }, 'Rec');

const KINDS: Record<string, SszType<unknown>> = {
  ...COMMON_KINDS,
  'byteList(0)': byteList(0),
  'bitlist(0)': bitlist(0),
  'vector(byteVector(32), 8)': vector(byteVector(32), 8),
  'vector(bitvector(256), 3)': vector(bitvector(256), 3),
  'list(byteVector(32), 2^20)': list(byteVector(32), 2 ** 20),
  'list(uint64, 0)': list(uint64, 0),
  'list(boolean, 300)': list(boolean, 300),
  'list(Rec, 100)': list(Rec, 100),
  Rec,
  Nested: container({ s: Small, v: Var, l: list(Small, 3), vec: vector(Small, 2), u: union([uint8, Var]), r: Rec }, 'Nested'),
};

const MINIMAL_BY_FORK = newTypesByFork('minimal');
const sample = (t: SszType<unknown>) => fc.sample(arbitrary(t), { seed: 1, numRuns: 1 })[0];

/** Every route from a value to a tree serializes back to `serialize(value)`. */
function agree(type: SszType<unknown>, value: unknown): void {
  const bytes = toHex(type.serialize(value));
  const tree = type.toTree(value);
  expect(toHex(type.serializeTree(tree))).toBe(bytes);
  expect(toHex(type.serializeTree(tree.rootNode, tree.store))).toBe(bytes);
  expect(toHex(type.toView(value).serialize())).toBe(bytes);
  tree.dispose();
  const serialized = type.serialize(value);
  // A random value can serialize past the spec's explicit byte bound (heze's SignedInclusionList):
  // those bytes are not a valid message of the type, and the decoder refuses them before decoding.
  if (serialized.length > type.byteBound) {
    expect(() => type.deserializeToView(serialized)).toThrow(/^BOUND_EXCEEDED/);
    return;
  }
  const fromBytes = type.deserializeToView(serialized);
  expect(toHex(fromBytes.serialize())).toBe(bytes);
  expect(toHex(fromBytes.clone().serialize())).toBe(bytes);
}

describe('serializeTree / view.serialize(): every kind', () => {
  for (const [name, type] of Object.entries(KINDS)) {
    it(name, () => {
      fc.assert(fc.property(arbitrary(type), (value) => agree(type, value)), { numRuns: 40 });
    });
  }
});

describe('serializeTree / view.serialize(): consensus containers (minimal, every fork)', () => {
  // One test per type (each schema object under the fork that first has it): blob-sized types take seconds each.
  for (const fork of FORKS) {
    for (const [name, type] of MINIMAL_BY_FORK[fork]) {
      it(`minimal.${fork}.${name}`, () => {
        fc.assert(fc.property(arbitrary(type), (value) => agree(type, value)), { numRuns: runsFor(type, 4, sample) });
      });
    }
  }
});

describe('serializeTree: zero subtrees read as zeros', () => {
  it('every kind and every minimal container of every fork, on zero subtrees of depth 0..8', () => {
    const types = [...Object.values(KINDS), ...FORKS.flatMap((f) => MINIMAL_BY_FORK[f].map((e) => e[1]))];
    const store = new NodeStore();
    let read = 0;
    for (const type of types) {
      for (let d = 0; d <= 8; d++) {
        let value: unknown;
        try {
          value = type.fromTree(store.zero(d), store);
        } catch {
          expect(() => type.serializeTree(store.zero(d), store)).toThrow(SszError);
          continue;
        }
        read++;
        expect(toHex(type.serializeTree(store.zero(d), store))).toBe(toHex(type.serialize(value)));
      }
    }
    expect(read).toBeGreaterThan(types.length);
  });
});

describe('serializeTree: damaged trees agree with fromTree (SszError exactly when it rejects)', () => {
  const targets: [string, SszType<unknown>][] = [
    ['Var', Var],
    ['Rec', Rec],
    ['list(Rec, 100)', KINDS['list(Rec, 100)'] as SszType<unknown>],
    ['list(boolean, 300)', KINDS['list(boolean, 300)'] as SszType<unknown>],
    ['bitlist(600)', KINDS['bitlist(600)'] as SszType<unknown>],
    ['list(byteVector(32), 2^20)', KINDS['list(byteVector(32), 2^20)'] as SszType<unknown>],
    ['vector(byteVector(32), 8)', KINDS['vector(byteVector(32), 8)'] as SszType<unknown>],
    ['Nested', KINDS['Nested'] as SszType<unknown>],
    ['union', KINDS['union([null, uint64, Var])'] as SszType<unknown>],
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
          let expected: Uint8Array | null = null;
          let expectedError: unknown = null;
          try {
            expected = type.serialize(type.fromTree(root, store));
          } catch (e) {
            expectedError = e;
          }
          let got: Uint8Array | null = null;
          let error: unknown = null;
          try {
            got = type.serializeTree(root, store);
          } catch (e) {
            error = e;
          }
          if (expectedError !== null) {
            expect(error, `fromTree threw ${String(expectedError)}`).toBeInstanceOf(SszError);
            rejected++;
          } else {
            accepted++;
            expect(error).toBe(null);
            expect(toHex(got as Uint8Array)).toBe(toHex(expected as Uint8Array));
          }
          if (error !== null) expect(error).toBeInstanceOf(SszError);
        }),
        { numRuns: 200 },
      );
      // The damage must exercise both outcomes, or the property proves little.
      expect(rejected).toBeGreaterThan(10);
      expect(accepted).toBeGreaterThan(10);
    });
  }
});

describe('serializeTree: packed records that could not come from a value', () => {
  /**
   * A Rec record as a plain wide leaf (8 chunks: k's root, w, n, s, f, h, 2 padding) — the fallback form
   * (types/VIEWS.md) — from a value, k's preimage recorded as the fallback's field write records it, then edited.
   * (From a value Rec is a compact record holding its bytes; its `wideChunks` are the expanded chunks.)
   */
  function record(store: NodeStore, edit: (row: Uint8Array) => void): NodeId {
    const value = { k: new Uint8Array(48).fill(9), w: new Uint8Array(32).fill(3), n: 5n, s: true, f: bitvector(4).defaultValue(), h: 7 };
    const tree = Rec.toTree(value, store);
    (Rec.fields.k as unknown as { _chunkNode(v: Uint8Array, s: NodeStore): NodeId })._chunkNode(value.k, store);
    const row = store.wideChunks(tree.rootNode);
    edit(row);
    return store.wide(row);
  }
  const cases: [string, (row: Uint8Array) => void, string, string][] = [
    ['an unknown pubkey root', (row) => row.fill(0xee, 0, 32), 'BAD_TREE', '.k'],
    ['a boolean byte of 2', (row) => (row[96] = 2), 'BAD_BOOLEAN', '.s'],
    ['bytes past a uint64', (row) => (row[64 + 8] = 1), 'BAD_TREE', '.n'],
    ['bits above a bitvector(4)', (row) => (row[128] = 0x10), 'BAD_BITS', '.f'],
  ];
  for (const [what, edit, code, field] of cases) {
    it(`${what}: ${code} at ${field}, alone and as a list element, as fromTree rejects it`, () => {
      const store = new NodeStore();
      const good = record(store, () => {});
      expect(toHex(Rec.serializeTree(good, store))).toBe(toHex(Rec.serialize(Rec.fromTree(good, store))));
      const bad = record(store, edit);
      expect(() => Rec.fromTree(bad, store)).toThrow(SszError);
      const L = list(Rec, 100);
      const listNode = L.toTree([], store).rootNode;
      const both = store.withLength(store.setNodesAtDepth(store.left(listNode), 7, [0, 1], [good, bad]), 2);
      for (const [type, node, path] of [
        [Rec, bad, `Rec${field}`],
        [L, both, `List[Rec, 100][1]${field}`],
      ] as [SszType<unknown>, NodeId, string][]) {
        let error: unknown = null;
        try {
          type.serializeTree(node, store);
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(SszError);
        expect((error as SszError).code).toBe(code);
        expect((error as SszError).typePath).toBe(path);
      }
    });
  }
});
