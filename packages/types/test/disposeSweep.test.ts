/**
 * Views in synchronous loops: `dispose()` is a safe point where the store's
 * nursery is swept once it is large (core `Tree.dispose`), so programs that
 * build, hash and dispose views without ever yielding keep their store
 * bounded; a view's commit holds that sweep off while it keeps floating
 * field nodes in hand, so commits that dispose child views stay correct.
 */
import { NodeStore } from '@ssztree/core';
import { describe, expect, it } from 'vitest';
import { container, list, toHex, uint64 } from '../src/index.js';
import { Validator } from './validatorSchema.js';

const Validators = list(Validator, 2 ** 40);
const State = container({ slot: uint64, validators: Validators, balances: list(uint64, 2 ** 40) }, 'State');
const FAR = 2n ** 64n - 1n;

function validators(n: number, round: number) {
  return Array.from({ length: n }, (_, i) => ({
    pubkey: new Uint8Array(48).fill((i + round) & 255),
    withdrawal_credentials: new Uint8Array(32).fill(i % 7),
    effective_balance: 32_000_000_000n + BigInt(round),
    slashed: false,
    activation_eligibility_epoch: BigInt(i),
    activation_epoch: BigInt(i >>> 3),
    exit_epoch: FAR,
    withdrawable_epoch: FAR,
  }));
}

/** Storage after each round: nodes, bytes, floating. */
type Sample = { nodes: number; bytes: number; floating: number };
const sample = (store: NodeStore): Sample => {
  const s = store.stats();
  return { nodes: s.nodes, bytes: s.bytes, floating: s.floating };
};

describe('views in a synchronous build → root → dispose loop', () => {
  const N = 1 << 15; // more records than the sweep threshold (2^14) per build

  it('deserializeToView: round 3 and round 20 hold exactly the same storage', () => {
    const store = new NodeStore();
    const values = validators(N, 0);
    const bytes = Validators.serialize(values);
    const expected = toHex(Validators.hashTreeRoot(values));
    const seen: Sample[] = [];
    for (let round = 0; round < 20; round++) {
      const view = Validators.deserializeToView(bytes, store);
      expect(toHex(view.hashTreeRoot())).toBe(expected);
      view.dispose();
      seen.push(sample(store));
    }
    // The first rounds settle the pools (free runs are carved while the branch pool's top grows); from then on every round reuses the same slots.
    expect(seen[19]).toEqual(seen[7]);
    expect(seen[19]!.nodes).toBe(0);
    expect(seen[19]!.floating).toBe(0);
  });

  it('toView with different values each round stays bounded', () => {
    const store = new NodeStore();
    const seen: Sample[] = [];
    for (let round = 0; round < 20; round++) {
      const values = validators(N, round);
      const view = Validators.toView(values, store);
      if (round % 9 === 0) expect(toHex(view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(values)));
      else view.hashTreeRoot();
      view.dispose();
      seen.push(sample(store));
    }
    // The first rounds settle the pools (free runs are carved while the branch pool's top grows); from then on every round reuses the same slots.
    expect(seen[19]).toEqual(seen[7]);
    expect(seen[19]!.nodes).toBe(0);
  });

  it('blocks on clones, old states disposed, stay bounded and correct', () => {
    const store = new NodeStore();
    const n = 1 << 12;
    let state = State.toView({ slot: 0n, validators: validators(n, 0), balances: BigUint64Array.from({ length: n }, (_, i) => BigInt(i)) }, store);
    state.hashTreeRoot();
    let x = 12345;
    const rand = (m: number): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) % m;
    const seen: Sample[] = [];
    for (let block = 0; block < 60; block++) {
      const next = state.clone();
      next.slot = BigInt(block + 1);
      for (let k = 0; k < 64; k++) next.balances.set(rand(n), BigInt(rand(1 << 30)));
      for (let k = 0; k < 16; k++) {
        const v = next.validators.get(rand(n));
        v.effective_balance = BigInt(rand(1 << 30));
        v.slashed = rand(2) === 1;
      }
      next.hashTreeRoot();
      state.dispose();
      state = next;
      // A large build floated alongside every 10th block: the next dispose sweeps it.
      if (block % 10 === 5) Validators.toView(validators(N, block), store).dispose();
      seen.push(sample(store));
    }
    expect(toHex(state.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(state.toValue())));
    // Nothing is left floating after any dispose; the live state is one version whose node count settles once the first blocks have rewritten its build-time shape.
    for (const s of seen) expect(s.floating).toBe(0);
    for (const s of seen.slice(19)) expect(s.nodes).toBe(seen[19]!.nodes);
    // What the loop freed is reused; the bulk builds mixed in fragment the pools a little before they settle (a bound, not equality).
    expect(seen[59]!.bytes).toBeLessThanOrEqual(seen[19]!.bytes * 1.2);
    state.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('a commit that disposes child views keeps the field nodes it made (sweeps held off)', () => {
    const store = new NodeStore();
    const n = 64;
    const view = State.toView({ slot: 1n, validators: validators(n, 0), balances: BigUint64Array.of(1n, 2n) }, store);
    view.hashTreeRoot();
    // Nursery at the sweep threshold: an unheld dispose now would sweep.
    for (let i = 0; i < 1 << 14; i++) store.leaf(new Uint8Array(32).fill(i & 255));
    // Field 0 (slot) becomes a new floating leaf in the commit before field 1's list commit disposes its child views.
    view.slot = 99n;
    view.validators.get(3).effective_balance = 7n;
    view.validators.get(5).slashed = true;
    const root = toHex(view.hashTreeRoot());
    const value = view.toValue();
    expect(value.slot).toBe(99n);
    expect(value.validators[3]!.effective_balance).toBe(7n);
    expect(root).toBe(toHex(State.hashTreeRoot(value)));
    // The next dispose (outside a commit) is the safe point.
    view.validators.get(0).dispose();
    expect(store.stats().floating).toBe(0);
    expect(toHex(view.hashTreeRoot())).toBe(root);
    view.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});

describe('replaced child views', () => {
  it('a set over a cached or written child view disposes that view at the commit: no version of it stays live', () => {
    // `view` replaces child views it has cached or written; `plain` makes the same writes directly. Same nodes, commit after commit.
    const store = new NodeStore();
    const plainStore = new NodeStore();
    const view = Validators.toView(validators(8, 0), store);
    const plain = Validators.toView(validators(8, 0), plainStore);
    for (let round = 1; round <= 20; round++) {
      const [a, b] = validators(8, round);
      // A child read and written, then the element replaced wholesale …
      view.get(3).effective_balance = BigInt(round);
      view.set(3, a!);
      // … and a pushed child replaced before any commit.
      view.push(b!);
      view.set(view.length - 1, a!);
      // A replaced child stays usable until the commit, as every child does.
      expect(view.get(3).slashed).toBe(false);
      plain.set(3, a!);
      plain.push(a!);
      expect(toHex(view.hashTreeRoot())).toBe(toHex(plain.hashTreeRoot()));
      expect(store.stats().nodes).toBe(plainStore.stats().nodes);
    }
    view.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('a field write over a cached child view disposes that view at the commit (and a stale handle says so)', () => {
    const store = new NodeStore();
    const plainStore = new NodeStore();
    const start = { slot: 0n, validators: validators(4, 0), balances: BigUint64Array.of(1n, 2n, 3n) };
    const view = State.toView(start, store);
    const plain = State.toView(start, plainStore);
    for (let round = 1; round <= 10; round++) {
      const balances = BigUint64Array.from({ length: 3 + round }, (_, i) => BigInt(round * 100 + i));
      const old = view.balances; // cached, then replaced twice before the commit
      old.set(0, 7n);
      view.setField('balances', BigUint64Array.of(5n));
      view.setField('balances', balances);
      expect(old.get(0)).toBe(7n); // usable until the commit
      plain.setField('balances', balances);
      expect(toHex(view.hashTreeRoot())).toBe(toHex(plain.hashTreeRoot()));
      expect(store.stats().nodes).toBe(plainStore.stats().nodes);
      expect(() => old.get(0)).toThrow(expect.objectContaining({ code: 'STALE_VIEW' }));
    }
    view.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});
