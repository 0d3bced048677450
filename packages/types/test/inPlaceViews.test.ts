/**
 * Views commit in place where they own their version (core write/inPlace.ts, view
 * `_inPlaceWrite`): a state view that no other holder shares keeps its root
 * node id across blocks, and its root is the value API's. Every other holder
 * — a clone of the view, a handle from `commit()`, a clone of a child view —
 * makes the commit copy the paths it shares, and what it holds never
 * changes. A property test mixes all of them with random writes.
 */
import { NodeStore, Tree } from '@ssztree/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boolean, container, list, toHex, uint64 } from '../src/index.js';
import { Validator } from './validatorSchema.js';

const State = container({ slot: uint64, validators: list(Validator, 2 ** 40), balances: list(uint64, 2 ** 40), flag: boolean }, 'InPlaceState');
const COUNT = 300;

function initialValue(): ReturnType<typeof State.defaultValue> {
  const value = State.defaultValue();
  for (let i = 0; i < COUNT; i++) {
    const v = Validator.defaultValue();
    v.pubkey = new Uint8Array(48).fill(i & 0xff);
    v.pubkey[0] = i >>> 8;
    v.effective_balance = 32_000_000_000n + BigInt(i);
    v.exit_epoch = 2n ** 64n - 1n;
    value.validators.push(v);
  }
  value.balances = State.fields.balances.elementType._arrayFrom(Array.from({ length: COUNT }, (_, i) => 32_000_000_000n + BigInt(i)));
  return value;
}

// biome-ignore lint: a state view's fields are driven dynamically here.
type StateView = any;

/** A block's worth of writes: balances, two validator fields, the slot. */
function block(state: StateView, seed: number): void {
  for (let k = 0; k < 12; k++) state.balances.set((seed * 7 + k * 31) % COUNT, BigInt(seed * 1000 + k));
  for (let k = 0; k < 3; k++) {
    const v = state.validators.get((seed * 13 + k * 97) % COUNT);
    v.effective_balance = BigInt(seed + k);
    v.slashed = (seed + k) % 2 === 0;
  }
  state.slot = BigInt(seed);
}

const rootOf = (state: StateView) => toHex(State.hashTreeRoot(state.toValue()));

describe('views commit in place where they own their version', () => {
  it('keeps the root node of an unshared state across blocks, with the value root', () => {
    const store = new NodeStore();
    const state: StateView = State.toView(initialValue(), store);
    state.hashTreeRoot();
    const rootNode = state.rootNode;
    const children = [state.validators.rootNode, state.balances.rootNode];
    for (let b = 1; b <= 5; b++) {
      block(state, b);
      expect(toHex(state.hashTreeRoot())).toBe(rootOf(state));
      expect(state.rootNode).toBe(rootNode);
      // The fields too: the state vouched for its child views, which rewrote their own roots in place.
      expect([state.validators.rootNode, state.balances.rootNode]).toEqual(children);
    }
    state.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('copies for a clone, a commit() handle and a child clone, none of which change', () => {
    const store = new NodeStore();
    const state: StateView = State.toView(initialValue(), store);
    state.hashTreeRoot();
    const clone = state.clone();
    const handle = state.commit();
    const balances = state.balances.clone();
    const snapshot = { root: toHex(clone.hashTreeRoot()), bytes: toHex(clone.serialize()), balances: toHex(balances.serialize()) };
    const rootNode = state.rootNode;
    block(state, 1);
    expect(toHex(state.hashTreeRoot())).toBe(rootOf(state));
    expect(state.rootNode).not.toBe(rootNode);
    expect(toHex(clone.hashTreeRoot())).toBe(snapshot.root);
    expect(toHex(clone.serialize())).toBe(snapshot.bytes);
    expect(toHex(handle.root)).toBe(snapshot.root);
    expect(toHex(balances.serialize())).toBe(snapshot.balances);
    // The others gone, the state owns its version again: the next block goes in place.
    clone.dispose();
    handle.dispose();
    balances.dispose();
    const next = state.rootNode;
    block(state, 2);
    expect(toHex(state.hashTreeRoot())).toBe(rootOf(state));
    expect(state.rootNode).toBe(next);
    state.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('does not vouch for a child whose path another holder shares', () => {
    const store = new NodeStore();
    const state: StateView = State.toView(initialValue(), store);
    state.hashTreeRoot();
    // A handle on the state's left half (slot and validators), taken through a commit() handle dropped since.
    const handle = state.commit();
    const half = new Tree(handle.getNodeAtDepth(1, 0), store);
    handle.dispose();
    const halfRoot = toHex(half.root);
    const validators = state.validators.rootNode;
    block(state, 3);
    expect(toHex(state.hashTreeRoot())).toBe(rootOf(state));
    expect(state.validators.rootNode).not.toBe(validators); // copied: its path is shared
    expect(toHex(half.root)).toBe(halfRoot);
    half.dispose();
    state.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('property: random blocks among clones, commit handles and child clones keep every kept version', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            { arbitrary: fc.record({ op: fc.constant('block' as const), seed: fc.nat(10_000) }), weight: 5 },
            { arbitrary: fc.record({ op: fc.constant('root' as const) }), weight: 2 },
            { arbitrary: fc.record({ op: fc.constant('clone' as const) }), weight: 1 },
            { arbitrary: fc.record({ op: fc.constant('handle' as const) }), weight: 1 },
            { arbitrary: fc.record({ op: fc.constant('childClone' as const) }), weight: 1 },
            { arbitrary: fc.record({ op: fc.constant('drop' as const), which: fc.nat(5) }), weight: 2 },
          ),
          { maxLength: 25 },
        ),
        (ops) => {
          const store = new NodeStore();
          const state: StateView = State.toView(initialValue(), store);
          const kept: { check: () => string; expected: string; dispose: () => void }[] = [];
          for (const step of ops) {
            if (step.op === 'block') block(state, step.seed);
            else if (step.op === 'root') expect(toHex(state.hashTreeRoot())).toBe(rootOf(state));
            else if (step.op === 'clone') {
              const c = state.clone();
              kept.push({ check: () => toHex(c.serialize()), expected: toHex(c.serialize()), dispose: () => c.dispose() });
            } else if (step.op === 'handle') {
              const t = state.commit();
              kept.push({ check: () => toHex(t.root), expected: toHex(t.root), dispose: () => t.dispose() });
            } else if (step.op === 'childClone') {
              const b = state.balances.clone();
              kept.push({ check: () => toHex(b.serialize()), expected: toHex(b.serialize()), dispose: () => b.dispose() });
            } else if (kept.length > 0) kept.splice(step.which % kept.length, 1)[0]!.dispose();
            for (const k of kept) expect(k.check()).toBe(k.expected);
          }
          expect(toHex(state.hashTreeRoot())).toBe(rootOf(state));
          for (const k of kept) k.dispose();
          state.dispose();
          store.collect();
          expect(store.stats().nodes).toBe(0);
        },
      ),
      { numRuns: 60 },
    );
  });
});
