/**
 * `toTree` / `fromTree` on every kind of schema and on the consensus
 * containers: the tree's root equals the value root, and the value read back
 * from the tree equals the value (fast-check values from `arbitrary.ts`).
 * Malformed trees are rejected with `SszError`, never a core error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore } from '@ssztree/core';
import {
  bitlist,
  boolean,
  byteList,
  byteVector,
  container,
  list,
  SszError,
  SszType,
  uint8,
  uint16,
  uint32,
  uint64,
  uint64Number,
  uint128,
  union,
  vector,
} from '@ssztree/types';
import { FORKS, minimal } from '@ssztree/types/consensus';
import { arbitrary } from './arbitrary.js';
import { newTypesByFork, runsFor } from './forkTypes.js';

const sample = (t: SszType<unknown>) => fc.sample(arbitrary(t), { seed: 1, numRuns: 1 })[0];
import { COMMON_KINDS, Small, Var } from './kinds.js';


const KINDS: Record<string, SszType<unknown>> = {
  ...COMMON_KINDS,
  uint32,
  'byteList(0)': byteList(0),
  'byteList(1)': byteList(1),
  'bitlist(0)': bitlist(0),
  'vector(uint16, 5)': vector(uint16, 5),
  'vector(uint64Number, 7)': vector(uint64Number, 7),
  'list(uint64, 0)': list(uint64, 0),
  'list(uint128, 5)': list(uint128, 5),
  'list(boolean, 3)': list(boolean, 3),
  'list(Small, 0)': list(Small, 0),
  'list(byteVector(48), 1000)': list(byteVector(48), 1000),
  Nested: container({ s: Small, v: Var, l: list(Small, 3), vec: vector(Small, 2), u: union([uint8, Var]) }, 'Nested'),
};

function roundTrip(type: SszType<unknown>, value: unknown): void {
  const tree = type.toTree(value);
  expect(Buffer.from(tree.root).toString('hex')).toBe(Buffer.from(type.hashTreeRoot(value)).toString('hex'));
  const back = type.fromTree(tree);
  expect(type.equals(back, value)).toBe(true);
  expect(type.serialize(back)).toEqual(type.serialize(value));
  tree.dispose();
}

const MINIMAL_BY_FORK = newTypesByFork('minimal');

describe('toTree / fromTree: every kind', () => {
  for (const [name, type] of Object.entries(KINDS)) {
    it(name, () => {
      fc.assert(fc.property(arbitrary(type), (value) => roundTrip(type, value)), { numRuns: 60 });
    });
  }
});

function viewRoundTrip(type: SszType<unknown>, value: unknown): void {
  const view = type.toView(value);
  expect(Buffer.from(view.hashTreeRoot()).toString('hex')).toBe(Buffer.from(type.hashTreeRoot(value)).toString('hex'));
  expect(type.equals(view.toValue(), value)).toBe(true);
  const bytes = type.serialize(value);
  // A random value can serialize past the spec's explicit byte bound (heze's SignedInclusionList):
  // those bytes are not a valid message of the type, and both decoders refuse them before decoding.
  if (bytes.length > type.byteBound) {
    expect(() => type.deserializeToView(bytes)).toThrow(/^BOUND_EXCEEDED/);
    return;
  }
  expect(type.deserializeToView(bytes).serialize()).toEqual(bytes);
}

describe('toView / deserializeToView: every kind', () => {
  for (const [name, type] of Object.entries(KINDS)) {
    it(name, () => {
      fc.assert(fc.property(arbitrary(type), (value) => viewRoundTrip(type, value)), { numRuns: 30 });
    });
  }
});

describe('toTree / fromTree: consensus containers (minimal)', () => {
  // One test per type (each schema object under the fork that first has it): blob-sized types take seconds each.
  for (const fork of FORKS) {
    for (const [name, type] of MINIMAL_BY_FORK[fork]) {
      it(`minimal.${fork}.${name}`, () => {
        fc.assert(
          fc.property(arbitrary(type), (value) => {
            roundTrip(type, value);
            viewRoundTrip(type, value);
          }),
          { numRuns: runsFor(type, 5, sample) },
        );
      });
    }
  }
});

describe('deserializeToView: rejects exactly what deserialize rejects (same code, path and offset)', () => {
  const Validator = minimal.phase0.Validator as unknown as SszType<unknown>;
  const targets: [string, SszType<unknown>][] = [
    ['List[Validator]', list(Validator, 100) as unknown as SszType<unknown>],
    ['phase0.BeaconState', minimal.phase0.BeaconState as unknown as SszType<unknown>],
    ['Var', Var],
    ['Validator', Validator],
    ['AttestationData', minimal.phase0.AttestationData as unknown as SszType<unknown>],
    ['SyncAggregate', minimal.altair.SyncAggregate as unknown as SszType<unknown>],
  ];
  for (const [name, type] of targets) {
    it(name, () => {
      fc.assert(
        fc.property(arbitrary(type), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }), fc.nat(8), (value, flips, cut) => {
          const bytes = type.serialize(value).slice();
          for (const [at, byte] of flips) if (bytes.length > 0) bytes[at % bytes.length] = byte;
          const input = cut === 0 ? bytes : bytes.subarray(0, Math.max(0, bytes.length - cut));
          let expected: unknown = null;
          let decoded: unknown;
          try {
            decoded = type.deserialize(input);
          } catch (e) {
            expected = e;
          }
          let got: unknown = null;
          let view: ReturnType<typeof type.deserializeToView> | null = null;
          try {
            view = type.deserializeToView(input);
          } catch (e) {
            got = e;
          }
          if (expected !== null) {
            expect(got).toBeInstanceOf(SszError);
            expect((got as SszError).code).toBe((expected as SszError).code);
            expect((got as SszError).typePath).toBe((expected as SszError).typePath);
            expect((got as SszError).offset).toBe((expected as SszError).offset);
          } else {
            expect(got).toBe(null);
            expect(Buffer.from((view as NonNullable<typeof view>).hashTreeRoot()).toString('hex')).toBe(Buffer.from(type.hashTreeRoot(decoded)).toString('hex'));
          }
        }),
        { numRuns: 150 },
      );
    });
  }
});

describe('toTree / fromTree: edges', () => {
  it('a tree in another store reads back through the Tree handle', () => {
    const store = new NodeStore();
    const T = list(Small, 10);
    const value = [{ a: 1, b: 2n, c: true }];
    const tree = T.toTree(value, store);
    expect(tree.store).toBe(store);
    expect(T.fromTree(tree)).toEqual(value);
    expect(T.fromTree(tree.rootNode, store)).toEqual(value);
  });

  it('a tree of the wrong shape throws SszError (BAD_TREE or a decode code), never a core error', () => {
    const store = new NodeStore();
    const leaf = store.leaf(new Uint8Array(32).fill(7));
    const bad: [SszType<unknown>, number][] = [
      [list(uint64, 8), leaf], // a leaf where a list node belongs
      [Small, leaf],
      [boolean, leaf], // 7 is not a boolean
      [uint8, leaf], // bytes past the value are set
      [list(uint8, 4), store.withLength(store.zero(0), 9)], // length past the limit
      [union([null, uint8]), store.withLength(leaf, 0)], // None with a non-zero value
      [union([uint8]), store.withLength(leaf, 3)], // selector out of range
      [Small, store.opaque(new Uint8Array(32))],
    ];
    for (const [type, node] of bad) {
      let caught: unknown;
      try {
        type.fromTree(node, store);
      } catch (e) {
        caught = e;
      }
      expect(caught, type.typeName).toBeInstanceOf(SszError);
    }
  });

  it('a bad value throws SszError with its path and builds nothing', () => {
    const T = container({ xs: list(uint8, 2) }, 'T');
    expect(() => T.toTree({ xs: new Uint8Array(3) })).toThrow(/LIMIT_EXCEEDED at T\.xs/);
  });
});
