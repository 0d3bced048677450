/**
 * Binary ⇄ progressive list conversion never leaks writes between the two
 * versions: for lists of every storage kind (records in pairs, packed
 * pages, element subtrees) at lengths around the progressive subtree
 * boundaries (0, 1, 4, 5, 20, 21, 84, 85, 341 ± 1), converted both ways,
 * a write to the new view leaves the old one's root and value as they were
 * and a write to the old view leaves the new one's, every root equals the
 * value API's root of the value the view should hold, and proofs taken from
 * the converted views verify against those roots with the expected leaves.
 */
import { NodeStore } from '@ssztree/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteList, container, fromHex, list, progressiveList, toHex, uint16, uint64, verifyProof, type SszType, type TreeView, type ValueOf } from '../src/index.js';
import { Validator } from './validatorSchema.js';

const LIMIT = 2 ** 40;
const Validators = list(Validator, LIMIT);
const PValidators = progressiveList(Validator);
const Balances = list(uint64, LIMIT);
const PBalances = progressiveList(uint64);
const Item = container({ id: uint16, data: byteList(40) }, 'Item');
const Items = list(Item, 1000);
const PItems = progressiveList(Item);

type V = ValueOf<typeof Validator>;
type I = ValueOf<typeof Item>;

function validator(i: number): V {
  const v = Validator.defaultValue();
  v.pubkey = new Uint8Array(48).fill((i * 7) & 0xff);
  v.pubkey[1] = i >>> 8;
  v.withdrawal_credentials = new Uint8Array(32).fill(i & 0x3f);
  v.effective_balance = 32_000_000_000n + BigInt(i);
  v.exit_epoch = BigInt(i % 5);
  return v;
}

const around = [0, 1, 2, 3, 4, 5, 6, 19, 20, 21, 22, 83, 84, 85, 86, 340, 341, 342];
const lengths = fc.oneof(fc.constantFrom(...around), fc.integer({ min: 0, max: 400 }));

/** The 32-byte chunk of a uint64 (little-endian, zero-padded). */
function chunkOf(x: bigint): string {
  const b = new Uint8Array(32);
  new DataView(b.buffer).setBigUint64(0, x, true);
  return toHex(b);
}

// biome-ignore lint: the list views of both forms are driven through one helper.
type AnyView = any;

/** One storage kind under test: how to make values, write one element, and prove one element's uint64 field. */
interface Kind<T> {
  readonly name: string;
  readonly binary: SszType<T[]> | SszType<BigUint64Array>;
  readonly progressive: SszType<T[]> | SszType<BigUint64Array>;
  value(n: number, salt: number): T[] | BigUint64Array;
  /** Writes element i of both the view and the value (a copy) to something new, returns the new value. */
  write(view: AnyView, value: AnyView, i: number, salt: number): AnyView;
  /** The path of a uint64 below element i and its expected value. */
  proof(value: AnyView, i: number): { path: (string | number)[]; leaf: bigint };
}

const records: Kind<V> = {
  name: 'records (validators, in pairs)',
  binary: Validators,
  progressive: PValidators,
  value: (n, salt) => Array.from({ length: n }, (_, i) => validator(i + salt)),
  write(view, value, i, salt) {
    const next = value.slice();
    next[i] = { ...next[i], effective_balance: BigInt(salt), slashed: true };
    const el = view.get(i);
    el.effective_balance = BigInt(salt);
    el.slashed = true;
    return next;
  },
  proof: (value, i) => ({ path: [i, 'effective_balance'], leaf: value[i].effective_balance }),
};

const packed: Kind<bigint> = {
  name: 'packed values (balances)',
  binary: Balances,
  progressive: PBalances,
  value: (n, salt) => BigUint64Array.from({ length: 3 * n + (n % 3) }, (_, i) => BigInt(i * 11 + salt)),
  write(view, value, i, salt) {
    const next = value.slice();
    next[i] = BigInt(salt);
    view.set(i, BigInt(salt));
    return next;
  },
  // A packed chunk holds four values: the proof is of the chunk of element i - i % 4, checked through that first value's 8 bytes.
  proof: (value, i) => ({ path: [i - (i % 4)], leaf: value[i - (i % 4)] }),
};

const subtrees: Kind<I> = {
  name: 'composites with subtrees of their own',
  binary: Items,
  progressive: PItems,
  value: (n, salt) => Array.from({ length: Math.min(n, 1000) }, (_, i) => ({ id: (i + salt) & 0xffff, data: new Uint8Array((i + salt) % 41).fill(i) })),
  write(view, value, i, salt) {
    const next = value.slice();
    next[i] = { ...next[i], id: salt & 0xffff };
    view.get(i).id = salt & 0xffff;
    return next;
  },
  proof: (value, i) => ({ path: [i, 'id'], leaf: BigInt(value[i].id) }),
};

/** Pushes one element to both the view and a copy of the value; returns the new value. */
function push<T>(kind: Kind<T>, view: AnyView, value: AnyView, salt: number): AnyView {
  if (value instanceof BigUint64Array) {
    view.push(BigInt(salt));
    return BigUint64Array.from([...value, BigInt(salt)]);
  }
  const el = kind.value(1, salt)[0];
  view.push(el);
  return [...value, el];
}

function rootOf(type: SszType<unknown>, value: unknown): string {
  return toHex(type.hashTreeRoot(value));
}

function checkProof(type: SszType<unknown>, view: TreeView<unknown>, root: string, path: (string | number)[], leaf: bigint, packedLeaf: boolean): void {
  const proof = type.createProof(view, [path]);
  if (proof.kind !== 'single') throw new Error(`expected a single proof, got a ${proof.kind} one`);
  expect(proof.gindex).toBe(type.gindexOf(path));
  expect(verifyProof(fromHex(root), proof)).toBe(true);
  const hex = toHex(proof.leaf);
  expect(packedLeaf ? hex.slice(0, 18) : hex).toBe(packedLeaf ? chunkOf(leaf).slice(0, 18) : chunkOf(leaf));
}

/**
 * From a view of `fromType` holding `value`: converted to `toType`, then
 * writes on each side checked against the other, roots against the value
 * API, a proof from the converted view.
 */
function roundTrip<T>(kind: Kind<T>, n: number, salt: number, toProgressive: boolean): void {
  const store = new NodeStore();
  const fromType = (toProgressive ? kind.binary : kind.progressive) as SszType<unknown>;
  const toType = (toProgressive ? kind.progressive : kind.binary) as SszType<unknown>;
  const value: AnyView = kind.value(n, salt);
  const len = value.length as number;
  const source: AnyView = fromType.deserializeToView(fromType.serialize(value), store);
  const sourceRoot = toHex(source.hashTreeRoot());
  expect(sourceRoot).toBe(rootOf(fromType, value));
  const converted: AnyView = toProgressive
    ? (kind.progressive as AnyView).fromBinaryView(source)
    : (kind.progressive as AnyView).toBinaryView(source, kind.binary);
  let convertedValue: AnyView = value;
  expect(toHex(converted.hashTreeRoot())).toBe(rootOf(toType, convertedValue));
  expect(toHex(source.hashTreeRoot())).toBe(sourceRoot);

  // A proof from the converted view, before any write (its tree is the conversion's own).
  if (len > 0) {
    const i = (salt * 13) % len;
    const { path, leaf } = kind.proof(convertedValue, i);
    checkProof(toType, converted, rootOf(toType, convertedValue), path, leaf, kind === packed);
  }

  // Writes to the converted view: the source keeps its root and value.
  if (len > 0) {
    for (const i of new Set([0, len - 1, (salt * 7) % len])) convertedValue = kind.write(converted, convertedValue, i, salt + i + 1);
  }
  convertedValue = push(kind, converted, convertedValue, salt + 99);
  const convertedRoot = toHex(converted.hashTreeRoot());
  expect(convertedRoot).toBe(rootOf(toType, convertedValue));
  expect(toHex(source.hashTreeRoot())).toBe(sourceRoot);
  expect(fromType.equals(source.toValue(), value)).toBe(true);

  // Writes to the source view: the converted one keeps its root and value.
  let sourceValue: AnyView = value;
  if (len > 0) {
    for (const i of new Set([0, len - 1, (salt * 5) % len])) sourceValue = kind.write(source, sourceValue, i, salt + 1000 + i);
  }
  sourceValue = push(kind, source, sourceValue, salt + 2000);
  expect(toHex(source.hashTreeRoot())).toBe(rootOf(fromType, sourceValue));
  expect(toHex(converted.hashTreeRoot())).toBe(convertedRoot);
  expect(toType.equals(converted.toValue(), convertedValue)).toBe(true);

  // A proof from the converted view after both sides were written.
  const last = (convertedValue.length as number) - 1;
  const { path, leaf } = kind.proof(convertedValue, last);
  checkProof(toType, converted, convertedRoot, path, leaf, kind === packed);

  source.dispose();
  converted.dispose();
  store.collect();
  expect(store.stats().nodes).toBe(0);
}

describe('binary ⇄ progressive conversion: structural sharing never leaks writes', () => {
  for (const kind of [records, packed, subtrees] as Kind<unknown>[]) {
    it(`${kind.name}: binary → progressive`, () => {
      fc.assert(
        fc.property(lengths, fc.integer({ min: 0, max: 1000 }), (n, salt) => roundTrip(kind, n, salt, true)),
        { numRuns: 25 },
      );
    });
    it(`${kind.name}: progressive → binary`, () => {
      fc.assert(
        fc.property(lengths, fc.integer({ min: 0, max: 1000 }), (n, salt) => roundTrip(kind, n, salt, false)),
        { numRuns: 25 },
      );
    });
  }

  it('records where the level holds another node (a pair stored as a wide leaf of its chunks): converted from the element subtrees, same roots', () => {
    for (const n of [6, 21, 86]) {
      const store = new NodeStore();
      const value = records.value(n, n) as V[];
      const binary = Validators.deserializeToView(Validators.serialize(value), store);
      // The list's contents sit at depth 1, its elements at 1 + 40: pair 2 (elements 4, 5) at depth 40.
      const tree = binary._tree.clone();
      const pair = tree.getNodeAtDepth(40, 2);
      expect(store.recordHalves(pair)).toBe(2);
      tree.setNodesAtDepth(40, [2], [store.wide(store.wideChunks(pair))]);
      const odd = Validators._view(store, tree.rootNode);
      expect(toHex(odd.hashTreeRoot())).toBe(rootOf(Validators, value));
      const prog = PValidators.fromBinaryView(odd);
      expect(toHex(prog.hashTreeRoot())).toBe(rootOf(PValidators, value));
      // (No value read back: a wide leaf of chunks keeps the pubkey's root, not its bytes.)
      for (const v of [binary, odd, prog]) v.dispose();
      tree.dispose();
    }
  });
});
