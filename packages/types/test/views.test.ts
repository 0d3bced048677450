/**
 * Unit tests of tree-backed views: no-op writes keep the root node id, bad
 * writes throw SszError and leave the view unchanged, clones are
 * independent, pending writes survive a task boundary, and bytes round trip.
 */
import { describe, expect, it } from 'vitest';
import { BitArray, container, list, SszError, toHex, uint64, vector, byteVector, verifyProof, type ViewProof } from '../src/index.js';
import { minimal } from '../src/consensus/index.js';
import { NodeStore } from '@ssztree/core';
import { sampleValidator, Validator } from './validatorSchema.js';

const State = container({ slot: uint64, validators: list(Validator, 2 ** 40), balances: list(uint64, 2 ** 40), roots: vector(byteVector(32), 8) }, 'State');

const validator = sampleValidator;

function state(n: number) {
  return {
    slot: 10n,
    validators: Array.from({ length: n }, (_, i) => validator(i)),
    balances: BigUint64Array.from({ length: n }, (_, i) => BigInt(i) * 1000n),
    roots: Array.from({ length: 8 }, (_, i) => new Uint8Array(32).fill(i)),
  };
}

function thrown(fn: () => void): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return null;
}

describe('views', () => {
  it('reads and writes fields, elements and nested fields; the root matches the value API', () => {
    const v = State.toView(state(40));
    expect(v.slot).toBe(10n);
    expect(v.validators.length).toBe(40);
    expect(v.balances.get(39)).toBe(39_000n);
    v.slot = 11n;
    v.balances.set(3, 7n);
    v.balances.push(99n);
    v.validators.get(5).effective_balance = 1n;
    v.validators.get(6).slashed = true;
    v.validators.push(validator(77));
    v.roots.set(2, new Uint8Array(32).fill(9));
    expect(v.balances.get(3)).toBe(7n);
    expect(v.validators.get(5).effective_balance).toBe(1n);
    const value = v.toValue();
    expect(value.slot).toBe(11n);
    expect(value.balances.length).toBe(41);
    expect(value.validators[40]!.activation_eligibility_epoch).toBe(77n);
    expect(value.roots[2]![0]).toBe(9);
    expect(toHex(v.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(value)));
    expect([...v.balances].length).toBe(41);
  });

  it('writes that store an equal value change nothing: the root node id stays', () => {
    const v = State.toView(state(70));
    const before = v.rootNode;
    v.slot = 10n;
    v.balances.set(3, 3000n);
    v.validators.get(2).exit_epoch = 2n ** 64n - 1n;
    v.validators.set(4, validator(4));
    v.roots.set(1, new Uint8Array(32).fill(1));
    v.setField('validators', state(70).validators);
    expect(v.rootNode).toBe(before);
    // A write and its undo before the commit also change nothing.
    v.balances.set(5, 1n);
    v.balances.set(5, 5000n);
    v.slot = 12n;
    v.slot = 10n;
    expect(v.rootNode).toBe(before);
  });

  it('bad writes throw SszError and leave the view unchanged', () => {
    const v = State.toView(state(3));
    const root = toHex(v.hashTreeRoot());
    const bad: (() => void)[] = [
      () => ((v as unknown as { slot: unknown }).slot = 'x'),
      () => ((v as unknown as { slot: unknown }).slot = -1n),
      () => v.balances.set(0, 2n ** 64n),
      () => v.balances.set(3, 1n), // past the length
      () => v.balances.get(-1),
      () => v.validators.get(3),
      () => v.validators.set(0, { ...validator(0), pubkey: new Uint8Array(3) }),
      () => v.roots.set(8, new Uint8Array(32)),
      () => v.roots.set(0, new Uint8Array(31)),
      () => (v.balances as unknown as { push(x: unknown): void }).push('no'),
      () => v.setField('slot' as never, 'x' as never),
    ];
    for (const fn of bad) expect(thrown(fn)).toBeInstanceOf(SszError);
    expect(v.balances.length).toBe(3);
    expect(toHex(v.hashTreeRoot())).toBe(root);
    const full = list(uint64, 2).toView(BigUint64Array.from([1n, 2n]));
    expect((thrown(() => full.push(3n)) as SszError).code).toBe('LIMIT_EXCEEDED');
    expect(full.length).toBe(2);
  });

  it('clones are independent of each other and of the tree they came from', () => {
    const a = State.toView(state(20));
    const tree = a.commit();
    const rootA = toHex(a.hashTreeRoot());
    const b = a.clone();
    b.slot = 99n;
    b.validators.get(1).slashed = true;
    b.balances.push(5n);
    expect(toHex(a.hashTreeRoot())).toBe(rootA);
    expect(toHex(tree.root)).toBe(rootA);
    a.balances.set(0, 123n);
    expect(b.balances.get(0)).toBe(0n);
    expect(b.validators.get(1).slashed).toBe(true);
    expect(a.validators.get(1).slashed).toBe(false);
    expect(toHex(State.viewOf(tree).hashTreeRoot())).toBe(rootA);
    expect(toHex(b.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(b.toValue())));
  });

  it('pending writes survive a task boundary (no floating nodes are held)', async () => {
    const v = State.toView(state(10));
    v.validators.get(3).effective_balance = 5n;
    v.validators.push(validator(50));
    v.balances.set(2, 1n);
    await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setImmediate(r));
    expect(toHex(v.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(v.toValue())));
    expect(v.toValue().validators[10]!.activation_eligibility_epoch).toBe(50n);
  });

  it('deserializeToView(bytes).serialize() is the same bytes, and roots agree', () => {
    const bytes = State.serialize(state(33));
    const v = State.deserializeToView(bytes);
    expect(v.serialize()).toEqual(bytes);
    expect(toHex(v.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(State.deserialize(bytes))));
  });

  it('consensus states: typed property access on the generated prototype', () => {
    const T = minimal.electra.BeaconState;
    const v = T.toView(T.defaultValue());
    v.finalized_checkpoint.epoch = 3n;
    v.justification_bits = BitArray.fromBoolArray([true, false, true, false]);
    v.randao_mixes.set(1, new Uint8Array(32).fill(1));
    expect(Object.getOwnPropertyNames(v)).not.toContain('slot'); // accessors live on the prototype
    const value = v.toValue();
    expect(value.finalized_checkpoint.epoch).toBe(3n);
    expect(toHex(v.hashTreeRoot())).toBe(toHex(T.hashTreeRoot(value)));
  });

  it('proofs by path: single and multi, verified against the root; tampering fails', () => {
    const v = State.toView(state(12));
    v.validators.get(5).effective_balance = 31n;
    const single = State.createProof(v, [['validators', 5, 'effective_balance']]);
    const root = v.hashTreeRoot();
    expect(verifyProof(root, single)).toBe(true);
    expect(single.kind === 'single' && single.leaf[0]).toBe(31);
    const multi = State.createProof(v, [['slot'], ['balances', 3], ['validators', 2, 'pubkey'], ['validators', 'length'], ['roots', 7]]);
    expect(verifyProof(root, multi)).toBe(true);
    if (multi.kind === 'multi') {
      expect(multi.leaves[3]![0]).toBe(12); // the length
      const bad: ViewProof = { ...multi, leaves: multi.leaves.map((l, i) => (i === 0 ? new Uint8Array(32).fill(1) : l)) };
      expect(verifyProof(root, bad)).toBe(false);
    }
    expect(State.gindexOf(['slot'])).toBe(4n);
    for (const path of [['nope'], ['validators', -1], ['validators', 2 ** 40], ['slot', 0], ['roots', 8]]) {
      expect((thrown(() => State.gindexOf(path)) as SszError).code).toBe('BAD_PATH');
    }
  });

  it('memory report: bytes held, and bytes shared with a clone after a small write', () => {
    const a = State.toView(state(256));
    const m = a.memory();
    // 256 compact validator records of 121 + 40 B, 32 balance pages of 296 B, branches above them, 8 root leaves.
    expect(m.bytes).toBeGreaterThan(256 * 161 + 32 * 296);
    expect(m.bytes).toBeLessThan((256 * 161 + 32 * 296) * 1.3);
    const b = a.clone();
    b.balances.set(100, 1n);
    const s = b.sharedWith(a);
    expect(s.bytes).toBe(b.memory().bytes);
    // Only the written page and its path (about 45 levels of branches) are new.
    expect(s.bytes - s.sharedBytes).toBeLessThan(296 + 48 * 50);
    expect(a.sharedWith(a).sharedBytes).toBe(m.bytes);
  });

  it('successive blocks on clones, old states disposed: the store stays flat', () => {
    const store = new NodeStore();
    let s = State.toView(state(512), store);
    s.hashTreeRoot();
    let seed = 5;
    const rnd = (n: number) => (seed = (seed * 48271) % 0x7fffffff) % n;
    const counts: number[] = [];
    for (let b = 1; b <= 150; b++) {
      const next = s.clone();
      for (let k = 0; k < 32; k++) next.balances.set(rnd(512), BigInt(rnd(1e9)));
      for (let k = 0; k < 8; k++) next.validators.get(rnd(512)).effective_balance = BigInt(rnd(1e9));
      next.hashTreeRoot();
      s.dispose();
      s = next;
      if (b % 50 === 0) {
        store.collect();
        counts.push(store.stats().nodes);
      }
    }
    expect(counts[2]).toBe(counts[0]);
  });

  it('a child view of a list is stale after its parent commits: SszError STALE_VIEW, never a core error', () => {
    const v = State.toView(state(4));
    const child = v.validators.get(1);
    child.slashed = true;
    v.hashTreeRoot();
    expect(v.validators.get(1).slashed).toBe(true);
    expect((thrown(() => (child.slashed = false)) as SszError).code).toBe('STALE_VIEW');
    expect((thrown(() => child.hashTreeRoot()) as SszError).code).toBe('STALE_VIEW');
    const b = v.balances;
    v.dispose();
    expect((thrown(() => b.get(0)) as SszError).code).toBe('STALE_VIEW');
  });
});
