/**
 * What the tests of tables handed over by builds share
 * (builtTables.test.ts for binary lists, progressiveBuiltTables.test.ts for
 * progressive ones): the validators they build states of, and the check
 * that two clones of a loaded state each read the build's tables without
 * seeing the other's writes.
 */
import { expect } from 'vitest';
import { toHex } from '../src/index.js';
import { mainnet } from '../src/consensus/index.js';
import { indices } from './seeded.js';

export const { Validator } = mainnet.electra;
export type V = ReturnType<typeof Validator.defaultValue>;

/** Validator i: distinct pubkey, credentials and balance, every fifth slashed. */
export function validator(i: number): V {
  const v = Validator.defaultValue();
  v.pubkey = new Uint8Array(48).fill(i & 255);
  v.pubkey[0] = i >>> 8;
  v.withdrawal_credentials = new Uint8Array(32).fill((i * 7) & 255);
  v.effective_balance = BigInt(32e9 + i);
  v.slashed = i % 5 === 0;
  v.activation_epoch = BigInt(i);
  v.exit_epoch = BigInt(2 ** 32 + i);
  return v;
}

/** A validator's root as hex. */
export const hex = (v: V): string => toHex(Validator.hashTreeRoot(v));

/** The state schemas these tests build: slot, validators, balances (uint64) and flags (uint8). */
interface StateValue {
  validators: V[];
  balances: BigUint64Array;
  flags: Uint8Array;
}
interface StateView {
  clone(): StateView;
  commit(): unknown;
  hashTreeRoot(): Uint8Array;
  readonly validators: { get(i: number): { effective_balance: bigint } };
  readonly balances: { get(i: number): bigint; set(i: number, v: bigint): void };
  readonly flags: { get(i: number): number; set(i: number, v: number): void };
}
interface StateSchema<T extends StateValue> {
  defaultValue(): T;
  serialize(value: T): Uint8Array;
  deserializeToView(bytes: Uint8Array): unknown;
  hashTreeRoot(value: T): Uint8Array;
}

/** Two clones of a state of `n` validators loaded from bytes: 800 writes to one never show in the other's reads or root. */
export function expectClonesIsolated<T extends StateValue>(State: StateSchema<T>, n: number): void {
  const value = State.defaultValue();
  value.validators = Array.from({ length: n }, (_, i) => validator(i));
  value.balances = BigUint64Array.from({ length: n }, (_, i) => BigInt(i));
  value.flags = new Uint8Array(n).fill(3);
  const loaded = State.deserializeToView(State.serialize(value)) as StateView;
  const a = loaded.clone();
  const b = loaded.clone();
  const at = indices(11, 800, n);
  for (const i of at) {
    a.balances.set(i, 10n ** 12n + BigInt(i));
    a.flags.set(i, 7);
    a.validators.get(i).effective_balance = 1n;
  }
  a.commit();
  for (const i of at) {
    expect(a.balances.get(i)).toBe(10n ** 12n + BigInt(i));
    expect(a.flags.get(i)).toBe(7);
    expect(a.validators.get(i).effective_balance).toBe(1n);
    expect(b.balances.get(i)).toBe(BigInt(i));
    expect(b.flags.get(i)).toBe(3);
    expect(b.validators.get(i).effective_balance).toBe(value.validators[i]!.effective_balance);
  }
  expect(toHex(b.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(value)));
  expect(toHex(loaded.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(value)));
}
