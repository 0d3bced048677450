/**
 * The schema catalogue the differential tree, serialize-from-tree and
 * generic tests share: one of each kind of schema (uints, boolean, byte and
 * bit fields, packed and composite vectors and lists, containers, unions)
 * that every one of those tests runs. Each test adds the kinds only it needs
 * (limit-0 types where @chainsafe/ssz is not involved, packed records, …).
 */
import { bitlist, bitvector, boolean, byteList, byteVector, container, list, type SszType, uint8, uint16, uint32, uint64, uint64Number, uint128, uint256, union, vector } from '@ssztree/types';

export const Small = container({ a: uint8, b: uint64, c: boolean }, 'Small');
export const Var = container({ x: uint16, ys: list(uint32, 9), z: byteList(33), bits: bitlist(70) }, 'Var');

export const COMMON_KINDS: Record<string, SszType<unknown>> = {
  uint8,
  uint16,
  uint64,
  uint64Number,
  uint128,
  uint256,
  boolean,
  'byteVector(1)': byteVector(1),
  'byteVector(48)': byteVector(48),
  'byteVector(100)': byteVector(100),
  'byteList(100)': byteList(100),
  'bitvector(1)': bitvector(1),
  'bitvector(300)': bitvector(300),
  'bitlist(9)': bitlist(9),
  'bitlist(600)': bitlist(600),
  'vector(uint8, 33)': vector(uint8, 33),
  'vector(uint64, 9)': vector(uint64, 9),
  'vector(uint256, 3)': vector(uint256, 3),
  'vector(boolean, 40)': vector(boolean, 40),
  'vector(byteVector(48), 5)': vector(byteVector(48), 5),
  'vector(Var, 3)': vector(Var, 3),
  'list(uint8, 100)': list(uint8, 100),
  'list(uint32, 2^20)': list(uint32, 2 ** 20),
  'list(uint64, 2^40)': list(uint64, 2 ** 40),
  'list(Small, 2^40)': list(Small, 2 ** 40),
  'list(Var, 7)': list(Var, 7),
  'list(list(uint16, 3), 4)': list(list(uint16, 3), 4),
  Small,
  Var,
  'union([null, uint64, Var])': union([null, uint64, Var]),
  'union([byteList(5)])': union([byteList(5)]),
};
