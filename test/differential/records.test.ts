/**
 * Compact validator records (issue #5): a Validator in a tree is one core
 * record holding its 121 serialized bytes plus its root — no preimage table.
 * Roots agree with @chainsafe/ssz and with value roots whether built from
 * values or bytes; views read, write (re-encoding into a new record) and
 * serialize them; proofs by path into them verify; bad bytes fail with the
 * decoder's codes, paths and offsets; memory reports count 282 B a record
 * pair (lists are built as pairs of records, core wide/recordPairs.ts).
 * (The fallback, wide leaves plus preimages, is forced in
 * packages/types/test/preimages.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { NodeStore } from '@ssztree/core';
import { list, SszError, toHex, uint64, container, verifyProof } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { peerType, peerValue } from './bridge.js';

const { Validator } = mainnet.electra;
const Validators = list(Validator, 2 ** 40);
const State = container({ slot: uint64, validators: Validators, balances: list(uint64, 2 ** 40) }, 'State');
type V = ReturnType<typeof Validator.defaultValue>;

function validator(i: number): V {
  const pubkey = new Uint8Array(48).map((_, k) => (i * 7 + k * 13 + 1) & 0xff);
  return {
    pubkey,
    withdrawal_credentials: new Uint8Array(32).fill(i & 0xff),
    effective_balance: BigInt(32e9 + i),
    slashed: i % 3 === 0,
    activation_eligibility_epoch: BigInt(i),
    activation_epoch: BigInt(i + 1),
    exit_epoch: 2n ** 64n - 1n,
    withdrawable_epoch: BigInt(i * 1000),
  };
}
const values = (n: number, from = 0): V[] => Array.from({ length: n }, (_, i) => validator(from + i));

describe('compact validator records', () => {
  it('are one record node each, from values and from bytes; roots agree with @chainsafe/ssz and value roots', () => {
    const store = new NodeStore();
    const vs = values(1100);
    const bytes = Validators.serialize(vs);
    const peer = peerType(Validators);
    const expected = toHex(peer.hashTreeRoot(peerValue(Validators, vs)));
    expect(toHex(Validators.hashTreeRoot(vs))).toBe(expected);
    const fromValues = Validators.toView(vs, store);
    const fromBytes = Validators.deserializeToView(bytes, store);
    expect(toHex(fromValues.hashTreeRoot())).toBe(expected);
    expect(toHex(fromBytes.hashTreeRoot())).toBe(expected);
    const node = fromBytes.get(7).rootNode;
    expect(store.recordKind(node)).toBeGreaterThanOrEqual(10);
    expect(store.wideDepth(node)).toBe(3);
    expect(toHex(store.recordBytes(node))).toBe(toHex(Validator.serialize(vs[7]!)));
    // Two lists of 550 record pairs, and the one element read (a floating base record made from its half).
    expect(store.stats().records).toBe(2 * 550 + 1);
    // Round trips: values and bytes back out; a lone Validator too.
    expect(fromBytes.toValue()).toEqual(vs);
    // Decoded values never share bytes (byte-vector decoders return views of the buffer they decode).
    expect(Validators.fromTree(Validators.toTree(vs, store))).toEqual(vs);
    expect(fromBytes.get(3).pubkey).toEqual(vs[3]!.pubkey);
    expect(fromBytes.get(4).pubkey).toEqual(vs[4]!.pubkey);
    expect(toHex(fromValues.serialize())).toBe(toHex(bytes));
    const one = Validator.deserializeToView(Validator.serialize(vs[3]!), store);
    expect(store.recordKind(one.rootNode)).toBeGreaterThanOrEqual(10);
    expect(one.toValue()).toEqual(vs[3]);
    expect(toHex(one.hashTreeRoot())).toBe(toHex(peerType(Validator).hashTreeRoot(peerValue(Validator, vs[3]))));
    expect(toHex(Validator.toView(vs[3]!, store).serialize())).toBe(toHex(Validator.serialize(vs[3]!)));
  });

  it('take field writes as new records; equal writes change nothing; old versions and clones stay', () => {
    const store = new NodeStore();
    const vs = values(64);
    const a = State.toView({ slot: 1n, validators: vs, balances: BigUint64Array.from(vs, (v) => v.effective_balance) }, store);
    a.hashTreeRoot();
    const b = a.clone();
    const before = b.validators.get(5).rootNode;
    const rootBefore = b.rootNode;
    b.validators.get(5).slashed = vs[5]!.slashed;
    b.validators.get(5).pubkey = vs[5]!.pubkey.slice();
    b.hashTreeRoot();
    expect(b.rootNode).toBe(rootBefore);
    expect(toHex(store.recordBytes(b.validators.get(5).rootNode))).toBe(toHex(store.recordBytes(before)));
    const pubkey = new Uint8Array(48).fill(0xab);
    b.validators.get(5).pubkey = pubkey;
    b.validators.get(5).exit_epoch = 77n;
    b.validators.get(6).slashed = !vs[6]!.slashed;
    const changed = vs.map((v, i) => (i === 5 ? { ...v, pubkey, exit_epoch: 77n } : i === 6 ? { ...v, slashed: !v.slashed } : v));
    const peer = peerType(State);
    const expected = toHex(peer.hashTreeRoot(peerValue(State, { slot: 1n, validators: changed, balances: BigUint64Array.from(vs, (v) => v.effective_balance) })));
    expect(toHex(b.hashTreeRoot())).toBe(expected);
    const after = b.validators.get(5).rootNode;
    expect(after).not.toBe(before);
    expect(store.recordKind(after)).toBeGreaterThanOrEqual(10);
    expect(b.validators.get(5).pubkey).toEqual(pubkey);
    expect(b.validators.toValue()).toEqual(changed);
    expect(State.deserialize(b.serialize()).validators).toEqual(changed);
    // The original is untouched.
    expect(a.validators.toValue()).toEqual(vs);
    expect(store.recordBytes(a.validators.get(5).rootNode)).toEqual(Validator.serialize(vs[5]!));
    // A whole validator replaced by value.
    b.validators.set(9, validator(900));
    expect(b.validators.get(9).toValue()).toEqual(validator(900));
    expect(store.recordKind(b.validators.get(9).rootNode)).toBeGreaterThanOrEqual(10);
  });

  it('read each field from its record alone: every field of every validator equals the value, byte vectors own their bytes', () => {
    const store = new NodeStore();
    const vs = values(40);
    const names = Object.keys(Validator.fields) as (keyof V)[];
    for (const view of [Validators.toView(vs, store), Validators.deserializeToView(Validators.serialize(vs), store)]) {
      view.hashTreeRoot();
      // Fields read in a different order per validator (each read decodes one field from the committed record).
      for (let i = 0; i < vs.length; i++) {
        const v = view.get(i);
        expect(store.recordKind(v.rootNode)).toBeGreaterThanOrEqual(0);
        for (let k = 0; k < names.length; k++) {
          const name = names[(k + i) % names.length]!;
          expect((v as unknown as V)[name]).toEqual(vs[i]![name]);
        }
      }
      // A byte vector read is a copy of the record's bytes: changing it leaves the record as it was.
      const read = view.get(3).pubkey;
      read.fill(0);
      expect(store.recordBytes(view.get(3).rootNode)).toEqual(Validator.serialize(vs[3]!));
      const fresh = view.clone();
      expect(fresh.get(3).pubkey).toEqual(vs[3]!.pubkey);
      fresh.dispose();
      // A write after the read (its no-op check compares with the field read from the record).
      const w = view.clone();
      w.get(7).activation_epoch = vs[7]!.activation_epoch;
      w.get(8).activation_epoch = 5n;
      expect(w.get(8).withdrawable_epoch).toBe(vs[8]!.withdrawable_epoch);
      expect(w.toValue()).toEqual(vs.map((x, i) => (i === 8 ? { ...x, activation_epoch: 5n } : x)));
      w.dispose();
    }
  });

  it('prove paths into records: pubkey and field leaves verify against the root', () => {
    const v = State.toView({ slot: 3n, validators: values(16), balances: BigUint64Array.of(1n, 2n) });
    const root = v.hashTreeRoot();
    const proof = State.createProof(v, [['validators', 5, 'pubkey'], ['validators', 5, 'slashed'], ['validators', 2, 'withdrawable_epoch']]);
    expect(verifyProof(root, proof)).toBe(true);
    if (proof.kind !== 'multi') throw new Error('three paths make a multiproof');
    expect(toHex(proof.leaves[0]!)).toBe(toHex(peerType(Validator.fields.pubkey).hashTreeRoot(validator(5).pubkey)));
    expect(proof.leaves[1]![0]).toBe(validator(5).slashed ? 1 : 0);
    const tampered = { ...proof, leaves: proof.leaves.map((l, i) => (i === 1 ? new Uint8Array(32).fill(1) : l)) };
    expect(verifyProof(root, tampered)).toBe(false);
    const single = State.createProof(v, [['validators', 9, 'pubkey']]);
    expect(verifyProof(root, single)).toBe(true);
  });

  it('build whole lists as one bulk record tree: counts across hash batches and pages agree with @chainsafe/ssz', () => {
    const store = new NodeStore();
    const peer = peerType(Validators);
    // 2048 records a hash batch and a record page: below, at and across both.
    for (const n of [1, 2, 3, 2047, 2049, 4097]) {
      const vs = values(n, n);
      const expected = toHex(peer.hashTreeRoot(peerValue(Validators, vs)));
      const fromValues = Validators.toView(vs, store);
      const fromBytes = Validators.deserializeToView(Validators.serialize(vs), store);
      // Hashed as built: only the two length mix-ins wait for a flush, and for an odd count the last record
      // (a single beside the zero chunk, after the pairs) and its path of 40 branches in each list.
      expect(store.stats().pending).toBe(n % 2 === 0 ? 2 : 2 + 2 * 41);
      expect(toHex(fromValues.hashTreeRoot())).toBe(expected);
      expect(toHex(fromBytes.hashTreeRoot())).toBe(expected);
      expect(fromBytes.get(n - 1).toValue()).toEqual(vs[n - 1]);
      expect(toHex(store.recordBytes(fromValues.get(n >>> 1).rootNode))).toBe(toHex(Validator.serialize(vs[n >>> 1]!)));
      fromValues.dispose();
      fromBytes.dispose();
    }
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('reject a bad value in a bulk build with its path, leaving nothing behind', () => {
    const store = new NodeStore();
    const vs = values(3000);
    vs[2500] = { ...vs[2500]!, effective_balance: -1n };
    const err = (() => {
      try {
        Validators.toView(vs, store);
      } catch (e) {
        return e;
      }
      return null;
    })() as SszError;
    expect(err).toBeInstanceOf(SszError);
    expect(err.code).toBe('INVALID_VALUE');
    expect(err.typePath).toContain('[2500]');
    expect(err.typePath).toContain('effective_balance');
    expect(() => Validators.hashTreeRoot(vs)).toThrow(err.message);
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('reject bad booleans from bytes with the decoder code, path and offset', () => {
    const vs = values(8);
    const bytes = Validators.serialize(vs);
    const at = 3 * 121 + 88; // validators[3].slashed (after pubkey 48, credentials 32, effective_balance 8)
    bytes[at] = 2;
    const err = (() => {
      try {
        Validators.deserializeToView(bytes);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(SszError);
    const decodeErr = (() => {
      try {
        Validators.deserialize(bytes);
      } catch (e) {
        return e;
      }
      return null;
    })() as SszError;
    expect((err as SszError).code).toBe('BAD_BOOLEAN');
    expect((err as SszError).offset).toBe(at);
    expect((err as SszError).typePath).toBe(decodeErr.typePath);
    expect((err as SszError).offset).toBe(decodeErr.offset);
    const lone = Validator.serialize(vs[0]!);
    lone[88] = 9;
    expect(() => Validator.deserializeToView(lone)).toThrow(/slashed/);
  });

  it('reject a record a generic chunk write made invalid, as serialize and fromTree', () => {
    const store = new NodeStore();
    const tree = Validator.toTree(validator(1), store);
    const chunk = new Uint8Array(32);
    chunk[0] = 2;
    tree.setChunk(8 + 3, chunk); // slashed's chunk: the record's bytes can hold it, so it stays a record
    expect(store.recordKind(tree.rootNode)).toBeGreaterThanOrEqual(10);
    for (const f of [() => Validator.serializeTree(tree.rootNode, store), () => Validator.fromTree(tree)]) {
      let error: unknown = null;
      try {
        f();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SszError);
      expect((error as SszError).code).toBe('BAD_BOOLEAN');
    }
  });

  it('report 282 bytes a record pair in memory reports, no preimage table', () => {
    const store = new NodeStore();
    const n = 1024;
    const view = Validators.deserializeToView(Validators.serialize(values(n)), store);
    const m = view.memory();
    // n / 2 pairs of 2 · 121 + 40 B, n / 2 - 1 branches of 48 B above them, 30 more up to depth 40 (the pairs sit at
    // depth 39), the list's length leaf and its root branch: 166.4 B a validator.
    expect(m.bytes).toBe((n / 2) * 282 + (n / 2 - 1) * 48 + 48 * (39 - 9) + 40 + 48);
    const b = view.clone();
    b.get(1).effective_balance = 1n;
    const s = b.sharedWith(view);
    // A field write: one new pair and the 39 branches above it, plus the list's root.
    expect(s.bytes - s.sharedBytes).toBe(282 + 48 * 40);
  });
});
