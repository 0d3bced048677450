/**
 * Views of progressive lists and containers: random write/push sequences,
 * compared after each commit with the value API (roots, values, bytes);
 * storage inside the subtrees (uint pages as wide leaves, validator record
 * pairs); pushes across a subtree boundary that leave every other subtree's
 * node as it was; in-place commits of an unshared state (root ids kept)
 * and copies where a clone shares it; clones taken mid-sequence and
 * written independently, every version checked after every commit; proofs by path at the right
 * generalized indices; memory reports; dispose.
 */
import { NodeStore, Tree } from '@ssztree/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boolean,
  byteVector,
  container,
  list,
  progressiveBitlist,
  progressiveByteList,
  progressiveContainer,
  progressiveList,
  toHex,
  uint8,
  uint16,
  uint64,
  verifyProof,
  BitArray,
  type ValueOf,
} from '../src/index.js';
import { produce } from '../src/immer/index.js';
import { Validator } from './validatorSchema.js';

const Balances = progressiveList(uint64);
const Validators = progressiveList(Validator);
const Small = container({ a: uint64, b: byteVector(32), c: boolean }, 'Small');
const State = progressiveContainer(
  {
    slot: uint64,
    validators: Validators,
    balances: Balances,
    participation: progressiveList(uint8),
    roots: progressiveList(byteVector(32)),
    smalls: progressiveList(Small),
    bits: progressiveBitlist(),
    extra: progressiveByteList(),
    flags: list(uint16, 100),
  },
  [1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1],
  'PState',
);
type StateValue = ValueOf<typeof State>;

function validator(i: number): ValueOf<typeof Validator> {
  const v = Validator.defaultValue();
  v.pubkey = new Uint8Array(48).fill(i & 0xff);
  v.pubkey[0] = i >>> 8;
  v.effective_balance = 32_000_000_000n + BigInt(i);
  v.exit_epoch = 2n ** 64n - 1n;
  return v;
}

function stateOf(n: number): StateValue {
  const s = State.defaultValue();
  s.slot = 7n;
  s.validators = Array.from({ length: n }, (_, i) => validator(i));
  s.balances = BigUint64Array.from({ length: n }, (_, i) => 32_000_000_000n + BigInt(i));
  s.participation = Uint8Array.from({ length: n }, (_, i) => i & 7);
  s.roots = Array.from({ length: Math.min(n, 30) }, (_, i) => new Uint8Array(32).fill(i));
  s.smalls = Array.from({ length: Math.min(n, 25) }, (_, i) => ({ a: BigInt(i), b: new Uint8Array(32).fill(i + 1), c: i % 2 === 0 }));
  s.bits = BitArray.fromBoolArray(Array.from({ length: n }, (_, i) => i % 3 === 0));
  s.extra = Uint8Array.from({ length: n % 70 }, (_, i) => i);
  return s;
}

// biome-ignore lint: the state view's fields are driven dynamically here.
type StateView = any;

/** One random operation on the view and the model alike. */
type Op =
  | { kind: 'balance'; at: number; value: bigint }
  | { kind: 'pushBalance'; value: bigint }
  | { kind: 'validator'; at: number; value: bigint; slashed: boolean }
  | { kind: 'pushValidator'; seed: number }
  | { kind: 'setValidator'; at: number; seed: number }
  | { kind: 'participation'; at: number; value: number }
  | { kind: 'pushRoot'; fill: number }
  | { kind: 'small'; at: number; a: bigint }
  | { kind: 'slot'; value: bigint }
  | { kind: 'bits'; n: number }
  | { kind: 'commit' };

const ops: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('balance' as const), at: fc.nat(), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('pushBalance' as const), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('validator' as const), at: fc.nat(), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), slashed: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('pushValidator' as const), seed: fc.nat(5000) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('setValidator' as const), at: fc.nat(), seed: fc.nat(5000) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('participation' as const), at: fc.nat(), value: fc.nat(255) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('pushRoot' as const), fill: fc.nat(255) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('small' as const), at: fc.nat(), a: fc.bigInt({ min: 0n, max: 99n }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('slot' as const), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('bits' as const), n: fc.nat(600) }) },
    { weight: 2, arbitrary: fc.constant({ kind: 'commit' as const }) },
  ),
  { maxLength: 60 },
);

function apply(view: StateView, model: StateValue, op: Op): void {
  switch (op.kind) {
    case 'balance': {
      if (model.balances.length === 0) return;
      const i = op.at % model.balances.length;
      view.balances.set(i, op.value);
      model.balances[i] = op.value;
      return;
    }
    case 'pushBalance':
      view.balances.push(op.value);
      model.balances = BigUint64Array.from([...model.balances, op.value]);
      return;
    case 'validator': {
      if (model.validators.length === 0) return;
      const i = op.at % model.validators.length;
      const v = view.validators.get(i);
      v.effective_balance = op.value;
      v.slashed = op.slashed;
      model.validators[i] = { ...model.validators[i]!, effective_balance: op.value, slashed: op.slashed };
      return;
    }
    case 'pushValidator':
      view.validators.push(validator(op.seed));
      model.validators.push(validator(op.seed));
      return;
    case 'setValidator': {
      if (model.validators.length === 0) return;
      const i = op.at % model.validators.length;
      view.validators.set(i, validator(op.seed));
      model.validators[i] = validator(op.seed);
      return;
    }
    case 'participation': {
      if (model.participation.length === 0) return;
      const i = op.at % model.participation.length;
      view.participation.set(i, op.value);
      model.participation[i] = op.value;
      return;
    }
    case 'pushRoot':
      view.roots.push(new Uint8Array(32).fill(op.fill));
      model.roots.push(new Uint8Array(32).fill(op.fill));
      return;
    case 'small': {
      if (model.smalls.length === 0) return;
      const i = op.at % model.smalls.length;
      view.smalls.get(i).a = op.a;
      model.smalls[i] = { ...model.smalls[i]!, a: op.a };
      return;
    }
    case 'slot':
      view.slot = op.value;
      model.slot = op.value;
      return;
    case 'bits':
      view.bits = BitArray.fromBoolArray(Array.from({ length: op.n }, (_, i) => i % 5 === 1));
      model.bits = BitArray.fromBoolArray(Array.from({ length: op.n }, (_, i) => i % 5 === 1));
      return;
    case 'commit':
      view.commit().dispose();
  }
}

const SIZES = [0, 1, 3, 4, 5, 20, 21, 22, 84, 85, 86, 200, 340, 341, 342];

describe('progressive views against the value API', () => {
  it('random writes and pushes on a state of progressive lists and a progressive container: roots, values and bytes after each commit', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SIZES), ops, fc.boolean(), (n, list, fromBytes) => {
        const store = new NodeStore();
        const model = stateOf(n);
        const view: StateView = fromBytes ? State.deserializeToView(State.serialize(model), store) : State.toView(model, store);
        for (const op of list) {
          apply(view, model, op);
          if (op.kind === 'commit') expect(toHex(view.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(model)));
        }
        expect(toHex(view.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(model)));
        expect(State.equals(view.toValue(), model)).toBe(true);
        expect(toHex(view.serialize())).toBe(toHex(State.serialize(model)));
        expect(view.balances.length).toBe(model.balances.length);
        expect([...view.balances]).toEqual([...model.balances]);
        view.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 60 },
    );
  });
});

describe('clones keep their versions through random sequences', () => {
  // Clones taken mid-sequence (a block's clone of the state), then written independently of the
  // original: each version committed in place where it owns its tree and copied where it shares it,
  // every version checked against its own model after every commit, the others included.
  const cloneOps = fc.array(
    fc.oneof(
      { weight: 8, arbitrary: ops.map((list) => ({ kind: 'ops' as const, list: list.slice(0, 8) })) },
      { weight: 2, arbitrary: fc.constant({ kind: 'clone' as const }) },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('switch' as const), to: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
    ),
    { maxLength: 16 },
  );

  it('every version equals its model after every commit, whichever version was written', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SIZES), cloneOps, fc.boolean(), (n, steps, fromBytes) => {
        const store = new NodeStore();
        const first = stateOf(n);
        const versions: { view: StateView; model: StateValue }[] = [
          { view: fromBytes ? State.deserializeToView(State.serialize(first), store) : State.toView(first, store), model: first },
        ];
        let at = 0;
        const checkAll = () => {
          for (const { view, model } of versions) expect(toHex(view.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(model)));
        };
        for (const step of steps) {
          const current = versions[at]!;
          if (step.kind === 'ops') {
            for (const op of step.list) {
              apply(current.view, current.model, op);
              if (op.kind === 'commit') checkAll();
            }
            checkAll();
          } else if (step.kind === 'clone') {
            versions.push({ view: current.view.clone(), model: State.deserialize(State.serialize(current.model)) });
            at = versions.length - 1;
          } else if (step.kind === 'switch') {
            at = step.to % versions.length;
          } else if (versions.length > 1) {
            const [gone] = versions.splice(step.at % versions.length, 1);
            gone!.view.dispose();
            at = 0;
            checkAll();
          }
        }
        for (const { view, model } of versions) {
          expect(State.equals(view.toValue(), model)).toBe(true);
          expect(toHex(view.serialize())).toBe(toHex(State.serialize(model)));
          view.dispose();
        }
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});

describe('storage inside the subtrees', () => {
  it('uint pages are wide leaves and validators record pairs inside every subtree', () => {
    const store = new NodeStore();
    const view: StateView = State.deserializeToView(State.serialize(stateOf(400)), store);
    const balances = view.balances;
    // Subtree 3 (64 chunks: 256 balances, from balance 84) is 8 pages of 8 chunks.
    const sub3 = balances._tree.getNodeAtDepth(5, 2 ** 4 - 2);
    expect(store.kind(store.getNodeAtDepth(sub3, 3, 0))).toBe('wide');
    expect(store.wideDepth(store.getNodeAtDepth(sub3, 3, 7))).toBe(3);
    // Validators 85..340 (subtree 4, depth 8): pairs one level above the records.
    const sub4 = view.validators._tree.getNodeAtDepth(6, 2 ** 5 - 2);
    expect(store.recordHalves(store.getNodeAtDepth(sub4, 7, 0))).toBe(2);
    // Memory: records in pairs, balances in pages, as a binary list stores them.
    const perValidator = view.validators.memory().bytes / 400;
    const perBalance = view.balances.memory().bytes / 400;
    expect(perValidator).toBeLessThan(200);
    expect(perBalance).toBeLessThan(16);
    view.dispose();
  });

  it('a push across a subtree boundary adds the next subtree on the spine and rebuilds no other', () => {
    const store = new NodeStore();
    const b = Balances.toView(BigUint64Array.from({ length: 84 }, (_, i) => BigInt(i)), store); // 21 chunks: subtrees 0..2 full
    b.hashTreeRoot();
    const before = [0, 1, 2].map((k) => b._tree.getNodeAtDepth(k + 2, 2 ** (k + 1) - 2));
    b.push(1000n);
    b.hashTreeRoot();
    expect([0, 1, 2].map((k) => b._tree.getNodeAtDepth(k + 2, 2 ** (k + 1) - 2))).toEqual(before);
    expect(toHex(b.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(BigUint64Array.from([...Array.from({ length: 84 }, (_, i) => BigInt(i)), 1000n]))));
    const v = Validators.toView(Array.from({ length: 5 }, (_, i) => validator(i)), store);
    v.hashTreeRoot();
    const first = [0, 1].map((k) => v._tree.getNodeAtDepth(k + 2, 2 ** (k + 1) - 2));
    v.push(validator(9));
    v.hashTreeRoot();
    expect([0, 1].map((k) => v._tree.getNodeAtDepth(k + 2, 2 ** (k + 1) - 2))).toEqual(first);
    b.dispose();
    v.dispose();
  });
});

describe('in place and shared', () => {
  it('an unshared state keeps its root node and its lists theirs across blocks; a clone makes the writes copy and keeps its version', () => {
    const store = new NodeStore();
    const model = stateOf(500);
    const view: StateView = State.toView(model, store);
    view.hashTreeRoot();
    const root = view.rootNode;
    const lists = [view.validators.rootNode, view.balances.rootNode];
    // Subtree 4 of each list (balances 340.., validators 85..): written in place inside, by its own view.
    const subtrees = () => [view.balances._tree.getNodeAtDepth(6, 30), view.validators._tree.getNodeAtDepth(6, 30)];
    const before = subtrees();
    for (let blk = 1; blk <= 4; blk++) {
      for (let k = 0; k < 40; k++) {
        const i = (blk * 37 + k * 13) % 500;
        view.balances.set(i, BigInt(blk * 1000 + k));
        model.balances[i] = BigInt(blk * 1000 + k);
      }
      const j = (blk * 101) % 500;
      view.validators.get(j).effective_balance = BigInt(blk);
      model.validators[j] = { ...model.validators[j]!, effective_balance: BigInt(blk) };
      expect(toHex(view.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(model)));
      expect(view.rootNode).toBe(root);
      expect([view.validators.rootNode, view.balances.rootNode]).toEqual(lists);
      expect(subtrees()).toEqual(before);
    }
    const clone = view.clone();
    const kept = toHex(clone.hashTreeRoot());
    view.balances.set(3, 1n);
    view.validators.get(400).slashed = true;
    view.hashTreeRoot();
    expect(toHex(clone.hashTreeRoot())).toBe(kept);
    expect(view.rootNode).not.toBe(root);
    const shared = view.sharedWith(clone);
    expect(shared.sharedBytes).toBeGreaterThan(shared.bytes / 2);
    clone.dispose();
    view.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});

describe('proofs by path through views', () => {
  it('gindices follow the tree shape, and proofs verify against the root', () => {
    const store = new NodeStore();
    const view: StateView = State.toView(stateOf(100), store);
    view.balances.set(50, 5n);
    const root = view.hashTreeRoot();
    for (const path of [['slot'], ['validators', 0, 'slashed'], ['validators', 99, 'pubkey'], ['balances', 50], ['balances', 'length'], ['smalls', 4, 'b'], ['bits', 99], ['flags', 'length'], ['extra']]) {
      const proof = State.createProof(view, [path]);
      expect(verifyProof(root, proof), JSON.stringify(path)).toBe(true);
      if (proof.kind === 'single') expect(proof.gindex).toBe(State.gindexOf(path));
    }
    const multi = State.createProof(view, [['validators', 5, 'effective_balance'], ['balances', 7], ['slot']]);
    expect(verifyProof(root, multi)).toBe(true);
    // The leaf of balances[50] is its chunk: balances 48..51, little-endian.
    const single = State.createProof(view, [['balances', 50]]);
    if (single.kind === 'single') expect(new DataView(single.leaf.buffer, single.leaf.byteOffset).getBigUint64(16, true)).toBe(5n);
    view.dispose();
  });
});

describe('index checks with the last subtree remembered', () => {
  /** The code and message of what `f` throws. */
  const fault = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return `${(e as { code?: string }).code}: ${(e as Error).message}`;
    }
    return 'no error';
  };

  it('indices past the length, fractional or negative ones, and a disposed view fail as without the shortcut; a push extends it', () => {
    const view = Balances.toView(BigUint64Array.from({ length: 21 }, (_, i) => BigInt(i)));
    view.set(20, 7n); // subtree 2 (chunks 5..20) remembered, the length 21 inside it
    expect(fault(() => view.get(21))).toMatch(/^BAD_PATH: .*index 21 is outside 0\.\.20/);
    expect(fault(() => view.set(20.5, 1n))).toMatch(/^BAD_PATH: .*index 20\.5 is outside 0\.\.20/);
    expect(fault(() => view.get(-1))).toMatch(/^BAD_PATH: .*index -1 is outside 0\.\.20/);
    view.push(8n);
    expect(view.get(21)).toBe(8n);
    view.set(21, 9n);
    expect(view.get(20)).toBe(7n);
    expect(view.get(0)).toBe(0n); // another subtree, then back
    expect(view.get(21)).toBe(9n);
    const want = BigUint64Array.from({ length: 22 }, (_, i) => BigInt(i));
    want[20] = 7n;
    want[21] = 9n;
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(want)));
    view.dispose();
    expect(fault(() => view.get(20))).toMatch(/^STALE_VIEW: /);
    expect(fault(() => view.set(20, 1n))).toMatch(/^STALE_VIEW: /);
  });
});

describe('views of a tree and of bytes agree, and are independent', () => {
  it('viewOf a tree, toValue, dispose', () => {
    const store = new NodeStore();
    const value = stateOf(90);
    const tree = State.toTree(value, store);
    const view: StateView = State.viewOf(tree);
    view.balances.push(9n);
    view.hashTreeRoot();
    expect(toHex(tree.root)).toBe(toHex(State.hashTreeRoot(value)));
    expect(view.balances.length).toBe(91);
    tree.dispose();
    view.dispose();
    const t2 = new Tree(store.zero(0), store);
    t2.dispose();
  });
});

describe('frozen values and immer', () => {
  it('produce on a progressive container: the next value and its view have the value root; frozen roots equal fresh ones', () => {
    const S = progressiveContainer({ slot: uint64, balances: progressiveList(uint64), inner: container({ l: progressiveList(uint64), x: uint64 }) }, [1, 0, 1, 1], 'ImmerState');
    const first = produce(S, S.defaultValue(), (d) => {
      d.slot = 5n;
      d.inner.x = 3n;
      d.balances = BigUint64Array.of(4n, 5n);
    });
    const second = produce(S, first.value, (d) => {
      d.inner.l = BigUint64Array.of(1n, 2n);
    });
    for (const p of [first, second]) {
      const fresh = toHex(S.hashTreeRoot(S.clone(p.value)));
      expect(toHex(S.hashTreeRoot(p.value))).toBe(fresh);
      expect(toHex(p.view.hashTreeRoot())).toBe(fresh);
    }
  });
});
