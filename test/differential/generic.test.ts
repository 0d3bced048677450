/**
 * Differential tests against @chainsafe/ssz for every kind of schema, on
 * fast-check values derived from the schemas: serializations and roots agree.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  bitlist,
  bitvector,
  boolean,
  byteList,
  byteVector,
  container,
  list,
  uint8,
  uint16,
  uint32,
  uint64,
  uint64Number,
  uint128,
  uint256,
  union,
  vector,
  type SszType,
} from '@ssztree/types';
import { expectAgreement } from './agree.js';
import { arbitrary } from './arbitrary.js';

const Small = container({ a: uint8, b: uint64, c: boolean }, 'Small');
const Var = container({ x: uint16, ys: list(uint32, 9), z: byteList(33), bits: bitlist(70) }, 'Var');

const KINDS: Record<string, SszType<unknown>> = {
  uint8,
  uint16,
  uint32,
  uint64,
  uint64Number,
  uint128,
  uint256,
  boolean,
  'byteVector(1)': byteVector(1),
  'byteVector(48)': byteVector(48),
  'byteVector(100)': byteVector(100),
  'byteList(1)': byteList(1), // @chainsafe/ssz refuses limit 0, which SSZ allows (our own tests cover it)
  'byteList(100)': byteList(100),
  'bitvector(1)': bitvector(1),
  'bitvector(300)': bitvector(300),
  'bitlist(1)': bitlist(1),
  'bitlist(9)': bitlist(9),
  'bitlist(600)': bitlist(600),
  'vector(uint8, 33)': vector(uint8, 33),
  'vector(uint16, 5)': vector(uint16, 5),
  'vector(uint64, 9)': vector(uint64, 9),
  'vector(uint64Number, 7)': vector(uint64Number, 7),
  'vector(uint256, 3)': vector(uint256, 3),
  'vector(boolean, 40)': vector(boolean, 40),
  'vector(byteVector(48), 5)': vector(byteVector(48), 5),
  'vector(Var, 3)': vector(Var, 3),
  'list(uint8, 100)': list(uint8, 100),
  'list(uint32, 2^20)': list(uint32, 2 ** 20),
  'list(uint64, 2^40)': list(uint64, 2 ** 40),
  'list(uint128, 5)': list(uint128, 5),
  'list(boolean, 3)': list(boolean, 3),
  'list(Small, 2^40)': list(Small, 2 ** 40),
  'list(Var, 7)': list(Var, 7),
  'list(list(uint16, 3), 4)': list(list(uint16, 3), 4),
  'list(byteVector(48), 1000)': list(byteVector(48), 1000),
  Small,
  Var,
  Nested: container({ s: Small, v: Var, l: list(Small, 3), vec: vector(Small, 2), u: union([uint8, Var]) }, 'Nested'),
  'union([null, uint64, Var])': union([null, uint64, Var]),
  'union([byteList(5)])': union([byteList(5)]),
};

describe('differential: every kind agrees with @chainsafe/ssz', () => {
  for (const [name, type] of Object.entries(KINDS)) {
    it(name, () => {
      fc.assert(
        fc.property(arbitrary(type), (value) => expectAgreement(type, value)),
        { numRuns: 60 },
      );
    });
  }
});
