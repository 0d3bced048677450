/**
 * Converting list views between List[T, N] and ProgressiveList[T]
 * (`fromBinaryView`, `toBinaryView`), as a fork upgrade does: the result
 * holds the same value (roots of the target schema, values, bytes), the
 * source is left as it was, element subtrees are shared (only the new
 * shape's branches are made), packed values and records are rebuilt into
 * the other form's pages and record pairs; an upgraded state built from the
 * converted lists commits and proves like any other; bad arguments are
 * typed errors.
 */
import { NodeStore } from '@ssztree/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  SszError,
  byteList,
  container,
  list,
  progressiveContainer,
  progressiveList,
  toHex,
  uint16,
  uint64,
  verifyProof,
  type ValueOf,
} from '../src/index.js';
import { Validator } from './validatorSchema.js';

const LIMIT = 2 ** 40;
const Balances = list(uint64, LIMIT);
const PBalances = progressiveList(uint64);
const Validators = list(Validator, LIMIT);
const PValidators = progressiveList(Validator);
const Item = container({ id: uint16, data: byteList(40) }, 'Item'); // a subtree per element (no records)
const Items = list(Item, 1000);
const PItems = progressiveList(Item);

function validator(i: number): ValueOf<typeof Validator> {
  const v = Validator.defaultValue();
  v.pubkey = new Uint8Array(48).fill(i & 0xff);
  v.pubkey[1] = i >>> 8;
  v.effective_balance = 32_000_000_000n + BigInt(i);
  return v;
}

const lengths = fc.oneof(fc.constantFrom(0, 1, 2, 4, 5, 6, 20, 21, 22, 84, 85, 86, 340, 341, 342), fc.integer({ min: 0, max: 700 }));

describe('binary ⇄ progressive list views', () => {
  it('packed values (balances): the same value in the other form, both ways; the source unchanged', () => {
    fc.assert(
      fc.property(lengths, (n) => {
        const store = new NodeStore();
        const value = BigUint64Array.from({ length: 4 * n + (n % 4) }, (_, i) => BigInt(i * 3 + 1));
        const binary = Balances.deserializeToView(Balances.serialize(value), store);
        const before = toHex(binary.hashTreeRoot());
        const prog = PBalances.fromBinaryView(binary);
        expect(toHex(prog.hashTreeRoot())).toBe(toHex(PBalances.hashTreeRoot(value)));
        expect(toHex(binary.hashTreeRoot())).toBe(before);
        if (value.length > 0) {
          prog.set(value.length - 1, 5n);
          value[value.length - 1] = 5n;
        }
        prog.push(9n);
        const grown = BigUint64Array.from([...value, 9n]);
        expect(toHex(prog.hashTreeRoot())).toBe(toHex(PBalances.hashTreeRoot(grown)));
        const back = PBalances.toBinaryView(prog, Balances);
        expect(toHex(back.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(grown)));
        expect(Balances.equals(back.toValue(), grown)).toBe(true);
        for (const v of [binary, prog, back]) v.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 30 },
    );
  });

  it('records (validators, in pairs): rebuilt in the other form, both ways, with pairs inside each subtree', () => {
    fc.assert(
      fc.property(lengths, (n) => {
        const store = new NodeStore();
        const value = Array.from({ length: n }, (_, i) => validator(i));
        const binary = Validators.deserializeToView(Validators.serialize(value), store);
        const prog = PValidators.fromBinaryView(binary);
        expect(toHex(prog.hashTreeRoot())).toBe(toHex(PValidators.hashTreeRoot(value)));
        expect(prog.length).toBe(n);
        if (n > 6) {
          prog.get(6).slashed = true;
          value[6] = { ...value[6]!, slashed: true };
          // Subtree 2 holds elements 5..20: element 6 is half of the pair (5, 6).
          expect(store.recordHalves(store.getNodeAtDepth(prog._tree.getNodeAtDepth(4, 6), 3, 0))).toBe(2);
        }
        const back = PValidators.toBinaryView(prog, Validators);
        expect(toHex(back.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(value)));
        for (const v of [binary, prog, back]) v.dispose();
      }),
      { numRuns: 20 },
    );
  });

  it('composites with subtrees of their own: every element subtree is shared, only the branches above them are new', () => {
    const store = new NodeStore();
    const value = Array.from({ length: 90 }, (_, i) => ({ id: i, data: new Uint8Array(i % 41).fill(i) }));
    const binary = Items.toView(value, store);
    binary.hashTreeRoot();
    const prog = PItems.fromBinaryView(binary);
    expect(toHex(prog.hashTreeRoot())).toBe(toHex(PItems.hashTreeRoot(value)));
    // Element 30 (subtree 3, from element 21: position 9 at depth 6) is the very node the binary list has.
    expect(prog._tree.getNodeAtDepth(5, 14)).not.toBe(-1);
    const inProg = store.getNodeAtDepth(prog._tree.getNodeAtDepth(5, 2 ** 4 - 2), 6, 9);
    expect(inProg).toBe(binary._tree.getNodeAtDepth(1 + 10, 30));
    const shared = prog.sharedWith(binary);
    expect(shared.sharedBytes).toBeGreaterThan(0.7 * shared.bytes);
    const back = PItems.toBinaryView(prog, Items);
    expect(toHex(back.hashTreeRoot())).toBe(toHex(binary.hashTreeRoot()));
    for (const v of [binary, prog, back]) v.dispose();
  });

  it('fixed containers stored as wide leaves of field roots (no wide byte field) are shared too', () => {
    const store = new NodeStore();
    const Pair = container({ a: uint64, b: uint64 }, 'Pair');
    const value = Array.from({ length: 30 }, (_, i) => ({ a: BigInt(i), b: BigInt(2 * i) }));
    const binary = list(Pair, 64).toView(value, store);
    binary.hashTreeRoot();
    const prog = progressiveList(Pair).fromBinaryView(binary);
    expect(toHex(prog.hashTreeRoot())).toBe(toHex(progressiveList(Pair).hashTreeRoot(value)));
    // Element 7: subtree 2 (from 5), position 2 at depth 4.
    const node = store.getNodeAtDepth(prog._tree.getNodeAtDepth(4, 6), 4, 2);
    expect(store.kind(node)).toBe('wide');
    expect(node).toBe(binary._tree.getNodeAtDepth(7, 7));
    binary.dispose();
    prog.dispose();
  });

  it('an upgraded state: progressive fields assigned the converted views commit, write and prove', () => {
    const store = new NodeStore();
    const Old = container({ slot: uint64, validators: Validators, balances: Balances }, 'OldState');
    const New = progressiveContainer({ slot: uint64, validators: PValidators, balances: PBalances }, [1, 1, 1], 'NewState');
    const value = { slot: 3n, validators: Array.from({ length: 100 }, (_, i) => validator(i)), balances: BigUint64Array.from({ length: 100 }, (_, i) => BigInt(i)) };
    // biome-ignore lint: the state views' fields are driven dynamically here.
    const old: any = Old.toView(value, store);
    // biome-ignore lint: as above.
    const next: any = New.toView(New.defaultValue(), store);
    next.slot = old.slot;
    next.validators = PValidators.fromBinaryView(old.validators);
    next.balances = PBalances.fromBinaryView(old.balances);
    expect(toHex(next.hashTreeRoot())).toBe(toHex(New.hashTreeRoot(value)));
    next.balances.set(7, 1n);
    next.validators.push(validator(500));
    const expected = { ...value, validators: [...value.validators, validator(500)], balances: Object.assign(value.balances.slice(), { 7: 1n }) };
    const root = next.hashTreeRoot();
    expect(toHex(root)).toBe(toHex(New.hashTreeRoot(expected)));
    expect(verifyProof(root, New.createProof(next, [['validators', 100, 'pubkey']]))).toBe(true);
    old.dispose();
    next.dispose();
  });

  it('refuses views of another element type, limits below the length, and non-views', () => {
    const store = new NodeStore();
    const wrong = list(uint16, 10).toView(Uint16Array.of(1, 2), store);
    const code = (fn: () => unknown): string => {
      try {
        fn();
      } catch (e) {
        return e instanceof SszError ? `${e.code} ${e.typePath}` : `not an SszError: ${String(e)}`;
      }
      return 'none';
    };
    expect(code(() => PBalances.fromBinaryView(wrong as never))).toBe('INVALID_VALUE ProgressiveList[uint64]');
    expect(code(() => PBalances.fromBinaryView(PBalances.toView(BigUint64Array.of(1n), store) as never))).toBe('INVALID_VALUE ProgressiveList[uint64]');
    expect(code(() => PBalances.fromBinaryView({} as never))).toBe('INVALID_VALUE ProgressiveList[uint64]');
    const long = PBalances.toView(BigUint64Array.from({ length: 20 }, () => 1n), store);
    expect(code(() => PBalances.toBinaryView(long, list(uint64, 10)))).toBe('LIMIT_EXCEEDED List[uint64, 10]');
    expect(code(() => PBalances.toBinaryView(long, PBalances as never))).toBe('INVALID_VALUE ProgressiveList[uint64]');
    wrong.dispose();
    long.dispose();
  });
});
