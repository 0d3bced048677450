/**
 * The single-record fallback of record pairs (core wide/recordPairs.ts): this
 * file takes every record kind but one before Validator asks, so Validator
 * gets a compact record kind but no pair kind, and lists of Validators are
 * built of single records under branches, as before pairs. Roots, writes,
 * pushes, proofs and round trips still agree with @chainsafe/ssz.
 */
import { describe, expect, it } from 'vitest';
import { NodeStore, registerRecordLayout } from '@ssztree/core';
import { list, toHex, verifyProof } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { peerType, peerValue } from './bridge.js';

// Every record kind but the last, taken by distinct layouts before any container asks for one.
for (let size = 1; ; size++) {
  const kind = registerRecordLayout({ size, depth: 1, fields: [[0, size]] });
  if (kind < 0) throw new Error('the registry was full before the test began');
  if (kind === 14) break;
}

const { Validator } = mainnet.electra;
const Validators = list(Validator, 2 ** 40);
type V = ReturnType<typeof Validator.defaultValue>;

function validator(i: number): V {
  return {
    pubkey: new Uint8Array(48).map((_, k) => (i * 3 + k) & 0xff),
    withdrawal_credentials: new Uint8Array(32).fill(i & 0xff),
    effective_balance: BigInt(32e9 - i),
    slashed: i % 2 === 0,
    activation_eligibility_epoch: BigInt(i),
    activation_epoch: 1n,
    exit_epoch: 2n ** 64n - 1n,
    withdrawable_epoch: BigInt(i + 9),
  };
}
const values = (n: number): V[] => Array.from({ length: n }, (_, i) => validator(i));
const peerRoot = (vs: V[]) => toHex(peerType(Validators).hashTreeRoot(peerValue(Validators, vs)));

describe('validator records without a pair kind', () => {
  it('are single records under branches; roots, writes, pushes, proofs and round trips agree with @chainsafe/ssz', () => {
    expect(Validator._compactKind()).toBe(15);
    const store = new NodeStore();
    for (const n of [0, 1, 2, 3, 2049]) {
      const vs = values(n);
      const view = Validators.deserializeToView(Validators.serialize(vs), store);
      expect(toHex(view.hashTreeRoot())).toBe(peerRoot(vs));
      const tree = view.commit();
      if (n >= 2) {
        expect(store.kind(tree.getNodeAtDepth(40, 0))).toBe('branch');
        expect(store.recordKind(tree.getNodeAtDepth(41, 1))).toBe(15);
      }
      tree.dispose();
      const model = vs.slice();
      view.push(validator(500));
      model.push(validator(500));
      view.get(0).effective_balance = 7n;
      model[0] = { ...model[0]!, effective_balance: 7n };
      const root = view.hashTreeRoot();
      expect(toHex(root)).toBe(peerRoot(model));
      expect(view.toValue()).toEqual(model);
      expect(Validators.deserialize(view.serialize())).toEqual(model);
      expect(verifyProof(root, Validators.createProof(view, [[0, 'effective_balance'], [n, 'pubkey']]))).toBe(true);
      view.dispose();
    }
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});
