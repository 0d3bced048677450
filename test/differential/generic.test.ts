/**
 * Differential tests against @chainsafe/ssz for every kind of schema, on
 * fast-check values derived from the schemas: serializations and roots agree.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  bitlist,
  boolean,
  byteList,
  byteVector,
  container,
  list,
  uint8,
  uint16,
  uint32,
  uint64Number,
  uint128,
  union,
  vector,
  type SszType,
} from '@ssztree/types';
import { expectAgreement } from './agree.js';
import { arbitrary } from './arbitrary.js';
import { COMMON_KINDS, Small, Var } from './kinds.js';


const KINDS: Record<string, SszType<unknown>> = {
  ...COMMON_KINDS,
  uint32,
  'byteList(1)': byteList(1), // @chainsafe/ssz refuses limit 0, which SSZ allows (our own tests cover it)
  'bitlist(1)': bitlist(1),
  'vector(uint16, 5)': vector(uint16, 5),
  'vector(uint64Number, 7)': vector(uint64Number, 7),
  'list(uint128, 5)': list(uint128, 5),
  'list(boolean, 3)': list(boolean, 3),
  'list(byteVector(48), 1000)': list(byteVector(48), 1000),
  Nested: container({ s: Small, v: Var, l: list(Small, 3), vec: vector(Small, 2), u: union([uint8, Var]) }, 'Nested'),
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
