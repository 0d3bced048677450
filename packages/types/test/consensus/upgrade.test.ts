/**
 * electra → fulu upgrade on views: the plan (37 fields carried, one new),
 * the upgraded root equals the value API's, every carried subtree is the
 * old one (shared bytes), the old view is unchanged, given values replace
 * fields, and the generic plan builder's convert / shape-change rules.
 */
import { describe, expect, it } from 'vitest';
import { container, list, toHex, uint16, uint64, vector } from '../../src/index.js';
import { mainnet, minimal, planUpgrade, upgradePlans, upgradeState, upgradeView } from '../../src/consensus/index.js';

function electraState(n: number) {
  const T = minimal.electra.BeaconState;
  const v = T.defaultValue();
  v.slot = 12345n;
  v.validators = Array.from({ length: n }, (_, i) => ({ ...minimal.electra.Validator.defaultValue(), pubkey: new Uint8Array(48).fill(i & 0xff), effective_balance: 32_000_000_000n }));
  v.balances = new BigUint64Array(n).fill(31_000_000_000n);
  v.inactivity_scores = new BigUint64Array(n);
  v.previous_epoch_participation = new Uint8Array(n).fill(3);
  v.current_epoch_participation = new Uint8Array(n).fill(7);
  v.pending_deposits = [{ ...minimal.electra.PendingDeposit.defaultValue(), amount: 5n }];
  return v;
}

describe('upgrade electra → fulu', () => {
  it('plans 37 carried fields and one new', () => {
    const plan = upgradePlans('mainnet').fulu;
    const kinds = Object.values(plan.steps).map((s) => s.kind);
    expect(kinds.filter((k) => k === 'carry')).toHaveLength(37);
    expect(plan.steps.proposer_lookahead).toEqual({ kind: 'new' });
    expect(plan.from).toBe(mainnet.electra.BeaconState);
    expect(plan.to).toBe(mainnet.fulu.BeaconState);
  });

  it('the upgraded root equals the value API’s, carried subtrees are shared, the old view is untouched', () => {
    const value = electraState(300);
    const old = minimal.electra.BeaconState.toView(value);
    const oldRoot = toHex(old.hashTreeRoot());
    const lookahead = new BigUint64Array(16).map((_, i) => BigInt(i * 3));
    const fork = { previous_version: new Uint8Array([5, 0, 0, 1]), current_version: new Uint8Array([6, 0, 0, 1]), epoch: 1543n };
    const fulu = upgradeState(old, 'fulu', { preset: 'minimal', values: { proposer_lookahead: lookahead, fork } });
    const expected = minimal.fulu.BeaconState.hashTreeRoot({ ...value, fork, proposer_lookahead: lookahead });
    expect(toHex(fulu.hashTreeRoot())).toBe(toHex(expected));
    expect(toHex(old.hashTreeRoot())).toBe(oldRoot);
    expect(fulu.validators.length).toBe(300);
    expect(fulu.proposer_lookahead.get(5)).toBe(15n);
    // Every carried field is the very subtree of the old view.
    const fuluFields = fulu.store.getNodesAtDepth(fulu.rootNode, 6, 0, 37);
    const oldFields = old.store.getNodesAtDepth(old.rootNode, 6, 0, 37);
    fuluFields.forEach((node, i) => {
      if (i !== 3) expect(node, `field ${i}`).toBe(oldFields[i]);
    });
    const shared = fulu.sharedWith(old);
    expect(shared.sharedBytes / shared.bytes).toBeGreaterThan(0.9);
    // The new view is a working view: writes, commits, serializes like the value.
    fulu.slot = 12346n;
    fulu.commit();
    expect(toHex(fulu.serialize())).toBe(toHex(minimal.fulu.BeaconState.serialize({ ...value, fork, proposer_lookahead: lookahead, slot: 12346n })));
    expect(old.slot).toBe(12345n);
    old.dispose();
    fulu.dispose();
  });

  it('defaults new fields; commits pending writes of the source first', () => {
    const old = minimal.electra.BeaconState.toView(electraState(3));
    old.slot = 99n;
    const fulu = upgradeState(old, 'fulu', { preset: 'minimal' });
    expect(fulu.slot).toBe(99n);
    expect(Array.from(fulu.proposer_lookahead.toValue())).toEqual(new Array(16).fill(0n));
    expect(() => upgradeState(minimal.fulu.BeaconState.toView(minimal.fulu.BeaconState.defaultValue()) as never, 'fulu', { preset: 'minimal' })).toThrow(/plan upgrades a BeaconState/);
  });

  it('the plan builder: carry by shape, convert where given, refuse an unconverted change of shape', () => {
    const A = container({ a: uint64, xs: list(uint16, 8), b: uint64 }, 'A');
    const B = container({ a: uint64, xs: vector(uint16, 8), b: uint64, c: uint64 }, 'B');
    expect(() => planUpgrade(A, B)).toThrow(/field xs changes shape/);
    // A conversion: the list's contents (its left child) are the vector's tree (8 uint16 = one chunk).
    const plan = planUpgrade(A, B, { xs: (store, node) => store.leftOf(node) });
    expect(plan.steps.a).toEqual({ kind: 'carry', from: 'a' });
    expect(plan.steps.c).toEqual({ kind: 'new' });
    const xs = Uint16Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    const v = upgradeView(plan, A.toView({ a: 1n, xs, b: 2n }), { c: 3n });
    expect(toHex(v.hashTreeRoot())).toBe(toHex(B.hashTreeRoot({ a: 1n, xs, b: 2n, c: 3n })));
  });
});
