/**
 * The README's API tour, statement by statement, with what its comments
 * promise asserted — so the documented examples cannot drift from the code.
 */
import { digest64, hashInto, hashPair, hashSubtreesInto, merkleize, mixInLength, zeroHash } from '@ssztree/hasher';
import { byteVector, container, SszError, uint64, verifyProof, type ValueOf } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { applyPatches, produce } from '@ssztree/types/immer';
import { produce as immerProduce } from 'immer';
import { describe, expect, it } from 'vitest';

describe('README: @ssztree/hasher tour', () => {
  it('works as documented', () => {
    const left = new Uint8Array(32).fill(1);
    const right = new Uint8Array(32).fill(2);
    const joined = new Uint8Array(64);
    joined.set(left);
    joined.set(right, 32);
    expect(hashPair(left, right)).toEqual(digest64(joined));
    const layer = new Uint8Array(64 * 4).fill(9);
    const next = new Uint8Array(32 * 4);
    hashInto(layer, next);
    hashInto(layer, layer.subarray(0, layer.length / 2));
    expect(layer.subarray(0, 128)).toEqual(next);
    const pages = new Uint8Array(256 * 2).fill(5);
    const pageRoots = new Uint8Array(32 * 2);
    hashSubtreesInto(pages, 3, pageRoots);
    expect(pageRoots.subarray(0, 32)).toEqual(merkleize(pages.subarray(0, 256)));
    expect(pageRoots.subarray(32)).toEqual(merkleize(pages.subarray(256)));
    expect(merkleize(new Uint8Array(0), 2n ** 40n)).toEqual(zeroHash(40));
    expect(mixInLength(zeroHash(40), 0)).toHaveLength(32);
  });
});

describe('README: @ssztree/types tour', () => {
  it('works as documented', () => {
    const Checkpoint = container({ epoch: uint64, root: byteVector(32) }, 'Checkpoint');
    const checkpoint: ValueOf<typeof Checkpoint> = { epoch: 5n, root: new Uint8Array(32) };
    const bytes = Checkpoint.serialize(checkpoint);
    expect(Checkpoint.deserialize(bytes)).toEqual(checkpoint);
    expect(() => Checkpoint.deserialize(bytes.subarray(1))).toThrowError(SszError);
    expect(Checkpoint.hashTreeRoot(checkpoint)).toHaveLength(32);
    expect(Checkpoint.toJson(checkpoint)).toEqual({ epoch: '5', root: `0x${'00'.repeat(32)}` });

    const BeaconState = mainnet.electra.BeaconState;
    const state = BeaconState.deserializeToView(BeaconState.serialize(BeaconState.defaultValue()));
    const before = state.hashTreeRoot();
    state.slot = state.slot + 1n;
    state.balances.push(32_000_000_000n);
    const root = state.hashTreeRoot();
    expect(root).not.toEqual(before);
    expect(root).toEqual(BeaconState.hashTreeRoot(state.toValue()));
    const fork = state.clone();
    fork.slot = 99n;
    expect(fork.hashTreeRoot()).not.toEqual(root);
    expect(state.hashTreeRoot()).toEqual(root);
    const proof = BeaconState.createProof(state, [['slot']]);
    expect(verifyProof(root, proof)).toBe(true);
    expect(verifyProof(before, proof)).toBe(false);

    // A block on a fork: child views, packed lists, the old state untouched and mostly shared.
    state.validators.push(mainnet.electra.Validator.defaultValue());
    const withValidator = state.hashTreeRoot();
    const next = state.clone();
    next.validators.get(0).effective_balance = 31_000_000_000n;
    next.balances.set(0, 31_500_000_000n);
    const nextRoot = next.hashTreeRoot();
    expect(nextRoot).not.toEqual(withValidator);
    expect(nextRoot).toEqual(BeaconState.hashTreeRoot(next.toValue()));
    expect(state.hashTreeRoot()).toEqual(withValidator);
    expect(state.validators.get(0).effective_balance).toBe(0n);
    const mem = next.memory();
    expect(mem.nodes).toBeGreaterThan(0);
    expect(mem.bytes).toBeGreaterThan(0);
    const shared = next.sharedWith(state);
    expect(shared.bytes).toBe(mem.bytes);
    expect(shared.sharedBytes).toBeGreaterThan(0);
    expect(shared.sharedBytes).toBeLessThan(mem.bytes);
    const gindex = BeaconState.gindexOf(['validators', 0, 'effective_balance']);
    expect(BigInt(gindex)).toBeGreaterThan(1n);
    state.dispose();
    expect(next.hashTreeRoot()).toEqual(nextRoot);
  });
});

describe('README: immer tour', () => {
  it('works as documented', () => {
    const BeaconState = mainnet.electra.BeaconState;
    const s0 = immerProduce(BeaconState.defaultValue(), () => {});
    expect(Object.isFrozen(s0)).toBe(true);
    const r0 = BeaconState.hashTreeRoot(s0);
    const s1 = immerProduce(s0, (d) => {
      d.slot = 7n;
    });
    const r1 = BeaconState.hashTreeRoot(s1);
    expect(r1).not.toEqual(r0);
    expect(r1).toEqual(BeaconState.hashTreeRoot(BeaconState.clone(s1)));
    const next = produce(BeaconState, s1, (d) => {
      d.balances = new BigUint64Array([1n]);
    });
    expect(next.view.hashTreeRoot()).toEqual(BeaconState.hashTreeRoot(next.value));
    expect(next.view.hashTreeRoot()).toEqual(BeaconState.hashTreeRoot(BeaconState.clone(next.value)));
    const again = applyPatches(BeaconState, next.view, next.patches);
    expect(again.hashTreeRoot()).toEqual(next.view.hashTreeRoot());
    expect(() => applyPatches(BeaconState, next.view, [{ op: 'replace', path: ['nope'], value: 1 }])).toThrowError(SszError);
  });
});
