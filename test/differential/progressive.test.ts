/**
 * Progressive kinds against @chainsafe/ssz 1.9 (ProgressiveListBasicType,
 * ProgressiveListCompositeType, ProgressiveBitListType,
 * ProgressiveByteListType, ProgressiveContainerType, CompatibleUnionType):
 * serialization both ways, roots, each decoding the other's bytes, JSON,
 * generalized indices and proofs, on fast-check values whose lengths sit
 * around every subtree boundary. ChainSafe is a second implementation, not
 * the judge: the spec model (packages/types/test/progressiveModel.ts) decides
 * that both follow the pinned order of `merkleize_progressive`.
 */
import { Tree } from '@chainsafe/persistent-merkle-tree';
import * as cs from '@chainsafe/ssz';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
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
  verifyProof,
  type SszType,
} from '@ssztree/types';
import { merkleizeProgressive, mixInLength, pack } from '../../packages/types/test/progressiveModel.js';
import { expectAgreement } from './agree.js';
import { arbitrary } from './arbitrary.js';
import { peerType, peerValue } from './bridge.js';
import { Small, Var } from './kinds.js';

const Square = progressiveContainer({ side: uint16, color: uint8 }, [1, 0, 1], 'Square');
const Circle = progressiveContainer({ radius: uint16, color: uint8 }, [0, 1, 1], 'Circle');
const Sparse = progressiveContainer(
  { a: uint64, bits: progressiveBitlist(), items: progressiveList(Small), flag: boolean, tail: progressiveByteList() },
  [1, 0, 1, 1, ...new Array<number>(100).fill(0), 1, ...new Array<number>(150).fill(0), 1],
  'Sparse',
);
const Wide = progressiveContainer(
  Object.fromEntries(Array.from({ length: 46 }, (_, i) => [`f${i}`, [uint64, byteVector(32), Small, progressiveList(uint64)][i % 4] as SszType<unknown>])),
  new Array<number>(46).fill(1),
  'Wide',
);

const KINDS: Record<string, SszType<unknown>> = {
  'progressiveList(uint8)': progressiveList(uint8),
  'progressiveList(uint16)': progressiveList(uint16),
  'progressiveList(uint32)': progressiveList(uint32),
  'progressiveList(uint64)': progressiveList(uint64),
  'progressiveList(uint64Number)': progressiveList(uint64Number),
  'progressiveList(uint128)': progressiveList(uint128),
  'progressiveList(uint256)': progressiveList(uint256),
  'progressiveList(boolean)': progressiveList(boolean),
  'progressiveList(Small)': progressiveList(Small),
  'progressiveList(Var)': progressiveList(Var),
  'progressiveList(byteVector(48))': progressiveList(byteVector(48)),
  'progressiveList(progressiveList(uint16))': progressiveList(progressiveList(uint16)),
  'progressiveList(progressiveByteList())': progressiveList(progressiveByteList()),
  'progressiveList(list(uint8, 5))': progressiveList(list(uint8, 5)),
  'progressiveBitlist()': progressiveBitlist(),
  'progressiveByteList()': progressiveByteList(),
  Square,
  Sparse,
  Wide,
  'progressiveList(Square)': progressiveList(Square),
  'list(Sparse, 3)': list(Sparse, 3),
  'vector(Square, 2)': vector(Square, 2),
  // (Not a plain union inside: their JSON is { selector, value } here and { selector, data } in ChainSafe and the spec, a known difference of plain unions.)
  'container with progressive fields': container({ s: Square, l: progressiveList(uint16), u: compatibleUnion({ 1: Square, 2: Circle }) }, 'Holder'),
  'union of progressive kinds': union([null, progressiveBitlist(), Square]),
  'compatibleUnion({1: Square, 2: Circle})': compatibleUnion({ 1: Square, 2: Circle }),
  'compatibleUnion({3: progressiveList(uint8), 7: progressiveByteList()})': compatibleUnion({ 3: progressiveList(uint8), 7: progressiveByteList() }),
  'compatibleUnion({1: byteList(9), 2: list(uint8, 9)})': compatibleUnion({ 1: byteList(9), 2: list(uint8, 9) }),
};

/** Kinds holding a plain union, whose JSON is `{ selector, value }` here and `{ selector, data }` in ChainSafe and the spec (a known difference of plain unions, not of the progressive kinds). */
const PLAIN_UNION_JSON = new Set<SszType<unknown>>([KINDS['union of progressive kinds'] as SszType<unknown>]);

describe('differential: progressive kinds agree with @chainsafe/ssz', () => {
  for (const [name, type] of Object.entries(KINDS)) {
    it(name, () => {
      fc.assert(
        fc.property(arbitrary(type), (value) => {
          expectAgreement(type, value);
          const peer = peerType(type);
          const theirs = peerValue(type, value);
          // Each decodes the other's bytes; JSON in the spec mapping is the same.
          expect(type.equals(type.deserialize(peer.serialize(theirs)), value)).toBe(true);
          if (!PLAIN_UNION_JSON.has(type)) expect(type.toJson(value)).toEqual(peer.toJson(theirs));
          // The tree from our bytes has ChainSafe's root.
          const tree = type.toTree(value);
          expect(toHex(tree.root)).toBe(toHex(peer.hashTreeRoot(theirs)));
          tree.dispose();
        }),
        { numRuns: 40 },
      );
    });
  }
});

describe('@chainsafe/ssz 1.9 follows the pinned order of merkleize_progressive (the spec model decides)', () => {
  it('its progressive list roots equal the spec model at every subtree boundary', () => {
    const peer = new cs.ProgressiveListBasicType(new cs.UintNumberType(1));
    for (const chunks of [0, 1, 2, 4, 5, 6, 20, 21, 22, 84, 85, 86, 341, 342]) {
      const bytes = Uint8Array.from({ length: 32 * chunks - (chunks > 1 ? 3 : 0) }, (_, i) => (i * 31 + 7) & 0xff);
      const want = toHex(mixInLength(merkleizeProgressive(pack(bytes)), bytes.length));
      expect(toHex(peer.hashTreeRoot(Array.from(bytes))), `${chunks} chunks`).toBe(want);
      expect(toHex(progressiveList(uint8).hashTreeRoot(bytes)), `${chunks} chunks`).toBe(want);
    }
  });
});

describe('generalized indices and proofs agree with @chainsafe/ssz', () => {
  /** Paths to compare, with a value that has them. */
  const cases: [SszType<unknown>, unknown, (string | number)[][]][] = [
    [Square, { side: 3, color: 4 }, [['side'], ['color']]],
    [Sparse, Sparse.defaultValue(), [['a'], ['bits'], ['items'], ['flag'], ['tail']]],
    [Wide, { ...Wide.defaultValue(), f43: BigUint64Array.of(1n, 2n, 3n, 4n, 5n) }, [['f0'], ['f1'], ['f5'], ['f20'], ['f21'], ['f22'], ['f45'], ['f43', 3], ['f2', 'b']]],
    [progressiveList(uint64), BigUint64Array.from({ length: 400 }, (_, i) => BigInt(i)), [[0], [3], [4], [19], [20], [83], [84], [399]]],
    [progressiveList(Small), Array.from({ length: 90 }, () => Small.defaultValue()), [[0], [1], [4], [5], [20], [21], [84], [85], [89], [7, 'b']]],
    [compatibleUnion({ 1: Square, 2: Circle }), { selector: 2, data: { radius: 1, color: 2 } }, [['selector'], ['data']]],
  ];
  for (const [type, value, paths] of cases) {
    it(type.typeName, () => {
      const peer = peerType(type) as unknown as cs.CompositeType<unknown, unknown, unknown>;
      const theirs = peerValue(type, value);
      const tree = type.toTree(value);
      const theirTree = new Tree(peer.value_toTree(theirs as never));
      for (const path of paths) {
        const g = type.gindexOf(path);
        expect(g, `${type.typeName} ${JSON.stringify(path)}`).toBe(BigInt(peer.getPathInfo(path).gindex));
        const proof = type.createProof(tree, [path]);
        expect(verifyProof(peer.hashTreeRoot(theirs as never), proof)).toBe(true);
        // The proven leaf is ChainSafe's node at that gindex.
        if (proof.kind === 'single') expect(toHex(proof.leaf)).toBe(toHex(theirTree.getNode(g).root));
      }
      tree.dispose();
    });
  }

  it('past 2^16 chunks: gindices and proofs of ProgressiveList[uint64] elements in subtrees 8 and 9 (4 · 87381 + 5 values)', () => {
    const type = progressiveList(uint64);
    const value = BigUint64Array.from({ length: 4 * 87381 + 5 }, (_, i) => BigInt(i) * 7n);
    const peer = peerType(type) as unknown as cs.CompositeType<unknown, unknown, unknown>;
    const theirs = peerValue(type, value);
    const root = peer.hashTreeRoot(theirs as never);
    const theirTree = new Tree(peer.value_toTree(theirs as never));
    const tree = type.toTree(value);
    // 4 uint64 to a chunk: subtree 8 holds chunks 21845..87380, subtree 9 starts at chunk 87381 (element 349524).
    for (const i of [4 * 21845, 4 * 87381 - 1, 4 * 87381, 4 * 87381 + 4]) {
      const g = type.gindexOf([i]);
      expect(g, `element ${i}`).toBe(BigInt(peer.getPathInfo([i]).gindex));
      const proof = type.createProof(tree, [[i]]);
      expect(verifyProof(root, proof), `element ${i}`).toBe(true);
      if (proof.kind === 'single') expect(toHex(proof.leaf)).toBe(toHex(theirTree.getNode(g).root));
    }
    tree.dispose();
  });

  it("progressive bitlists and byte lists (which ChainSafe's paths do not enter): our proofs of bits and bytes verify against ChainSafe's roots and prove its nodes", () => {
    const cases: [SszType<unknown>, unknown, number[]][] = [
      [progressiveBitlist(), BitArray.fromBoolArray(Array.from({ length: 2000 }, (_, i) => i % 3 === 0)), [0, 255, 256, 1279, 1280, 1999]],
      [progressiveByteList(), Uint8Array.from({ length: 700 }, (_, i) => i & 0xff), [0, 31, 32, 159, 160, 671, 672, 699]],
    ];
    for (const [type, value, indices] of cases) {
      const peer = peerType(type) as unknown as cs.CompositeType<unknown, unknown, unknown>;
      const theirs = peerValue(type, value);
      const theirTree = new Tree(peer.value_toTree(theirs as never));
      const tree = type.toTree(value);
      for (const i of indices) {
        const proof = type.createProof(tree, [[i]]);
        expect(verifyProof(peer.hashTreeRoot(theirs as never), proof), `${type.typeName}[${i}]`).toBe(true);
        if (proof.kind === 'single') expect(toHex(proof.leaf), `${type.typeName}[${i}]`).toBe(toHex(theirTree.getNode(type.gindexOf([i])).root));
      }
      tree.dispose();
    }
  });

  it("a progressive list's 'length' is the right child of its root (gindex 3)", () => {
    expect(progressiveList(uint64).gindexOf(['length'])).toBe(3n);
    expect(progressiveList(Small).gindexOf(['length'])).toBe(3n);
  });
});
