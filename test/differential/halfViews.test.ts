/**
 * Element views of record pairs ("half views", types view/container.ts
 * `_pair`): a Validator of a list built as record pairs is read in place
 * from its pair, borrows the list's handle until the list commits, and is
 * committed with its neighbour as one new pair. Random sequences of element
 * reads and field writes (no-op writes among them) through views held
 * across other operations, the element views' own API (root, value, bytes,
 * commit, clone), wholesale sets (of values and of other element views),
 * pushes, list commits and clones, checked against a plain array model:
 * every read, every element root, every list root (and the root node kept
 * by a commit that changes nothing), every kept version at the end; views
 * held over a list commit or clone are stale.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { list, toHex, type ViewOf } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { distinctValidator, type ValidatorValue } from './validatorValues.js';

const { Validator } = mainnet.electra;
const Validators = list(Validator, 2 ** 40);
type ListView = ViewOf<typeof Validators>;
type ElementView = ReturnType<ListView['get']>;

const FIELDS = ['effective_balance', 'slashed', 'exit_epoch', 'withdrawable_epoch'] as const;
type Field = (typeof FIELDS)[number];

type Op =
  | { kind: 'get'; at: number }
  | { kind: 'write'; at: number; field: number; value: number; same: boolean }
  | { kind: 'read'; at: number }
  | { kind: 'element'; at: number; what: number }
  | { kind: 'set'; at: number; value: number; fromView: boolean }
  | { kind: 'push'; value: number }
  | { kind: 'commit' }
  | { kind: 'clone'; keep: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('get' as const), at: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('write' as const), at: fc.nat(), field: fc.nat(3), value: fc.nat(), same: fc.boolean() }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('read' as const), at: fc.nat() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('element' as const), at: fc.nat(), what: fc.nat(4) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.nat(), fromView: fc.boolean() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('push' as const), value: fc.nat() }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'commit' as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('clone' as const), keep: fc.boolean() }), weight: 1 },
);

function fieldValue(field: Field, value: number): bigint | boolean {
  return field === 'slashed' ? value % 2 === 1 : BigInt(value);
}

function expectStale(f: () => unknown): void {
  expect(f).toThrow(expect.objectContaining({ code: 'STALE_VIEW' }));
}

describe('half views of record pairs', () => {
  it('random reads, writes (no-op ones too), element commits and clones, sets, pushes, list commits and clones agree with the model', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.boolean(), fc.array(op, { minLength: 1, maxLength: 60 }), (n, fromBytes, ops) => {
        const model: ValidatorValue[] = Array.from({ length: n }, (_, i) => distinctValidator(i));
        let view: ListView = fromBytes ? Validators.deserializeToView(Validators.serialize(model)) : Validators.toView(model);
        let committed = toHex(view.hashTreeRoot());
        let committedNode = view.rootNode;
        let changed = false;
        /** Element views got since the list's last commit, by index (the list returns the same view again). */
        let held = new Map<number, ElementView>();
        /** Views from before a list commit or clone: stale now. */
        let stale: ElementView[] = [];
        const kept: { view: ListView; model: ValidatorValue[]; root: string }[] = [];
        const endCommit = () => {
          stale = [...held.values()];
          held = new Map();
        };
        for (const o of ops) {
          const i = o.kind === 'push' || o.kind === 'commit' || o.kind === 'clone' ? 0 : o.at % model.length;
          switch (o.kind) {
            case 'get': {
              const v = view.get(i);
              if (held.has(i)) expect(v).toBe(held.get(i));
              held.set(i, v);
              break;
            }
            case 'write': {
              const v = held.get(i) ?? view.get(i);
              held.set(i, v);
              const field = FIELDS[o.field]!;
              const value = o.same ? model[i]![field] : fieldValue(field, o.value);
              (v as unknown as Record<Field, unknown>)[field] = value;
              if (value !== model[i]![field]) changed = true;
              model[i] = { ...model[i]!, [field]: value };
              expect(v[field]).toBe(value);
              break;
            }
            case 'read': {
              const v = held.get(i) ?? view.get(i);
              held.set(i, v);
              for (const field of FIELDS) expect(v[field]).toBe(model[i]![field]);
              expect(toHex(v.pubkey)).toBe(toHex(model[i]!.pubkey));
              break;
            }
            case 'element': {
              // The element view's own API: it commits on its own (a record of its own), and stays usable.
              const v = held.get(i) ?? view.get(i);
              held.set(i, v);
              if (o.what === 0) expect(toHex(v.hashTreeRoot())).toBe(toHex(Validator.hashTreeRoot(model[i]!)));
              else if (o.what === 1) expect(Validator.equals(v.toValue(), model[i]!)).toBe(true);
              else if (o.what === 2) expect(toHex(v.serialize())).toBe(toHex(Validator.serialize(model[i]!)));
              else if (o.what === 3) {
                const tree = v.commit();
                expect(toHex(tree.root)).toBe(toHex(Validator.hashTreeRoot(model[i]!)));
                tree.dispose();
              } else {
                // A clone is independent of the element and of the list.
                const c = v.clone();
                c.effective_balance = 12345n;
                expect(v.effective_balance).toBe(model[i]!.effective_balance);
                expect(toHex(c.hashTreeRoot())).toBe(toHex(Validator.hashTreeRoot({ ...model[i]!, effective_balance: 12345n })));
                c.dispose();
              }
              break;
            }
            case 'set': {
              let value: ValidatorValue;
              if (o.fromView) {
                // Another element's view (held or new) assigned whole: a copy of its current value.
                const j = o.value % model.length;
                const w = held.get(j) ?? view.get(j);
                held.set(j, w);
                value = model[j]!;
                view.set(i, w);
              } else {
                value = distinctValidator(o.value);
                view.set(i, value);
              }
              if (!Validator.equals(value, model[i]!)) changed = true;
              model[i] = value;
              // The view held for i (if any) is replaced: the list's get returns the new one.
              held.delete(i);
              break;
            }
            case 'push': {
              const value = distinctValidator(o.value);
              view.push(value);
              model.push(value);
              changed = true;
              break;
            }
            case 'commit': {
              const root = toHex(view.hashTreeRoot());
              expect(root).toBe(toHex(Validators.hashTreeRoot(model)));
              // A commit of writes that change no byte keeps the root node.
              if (!changed) expect(view.rootNode).toBe(committedNode);
              committed = root;
              committedNode = view.rootNode;
              changed = false;
              endCommit();
              break;
            }
            case 'clone': {
              const c = view.clone();
              expect(toHex(c.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
              committed = toHex(view.hashTreeRoot());
              committedNode = view.rootNode;
              changed = false;
              endCommit();
              if (o.keep) {
                // The old version is kept; writing goes on in the clone.
                kept.push({ view, model: model.slice(), root: committed });
                view = c;
              } else c.dispose();
              break;
            }
          }
          for (const s of stale) expectStale(() => s.effective_balance);
          stale = [];
        }
        expect(toHex(view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
        expect(toHex(view.serialize())).toBe(toHex(Validators.serialize(model)));
        for (let i = 0; i < model.length; i++) expect(Validator.equals(view.get(i).toValue(), model[i]!)).toBe(true);
        for (const k of kept) {
          expect(toHex(k.view.hashTreeRoot())).toBe(k.root);
          expect(toHex(k.view.serialize())).toBe(toHex(Validators.serialize(k.model)));
          k.view.dispose();
        }
        view.dispose();
      }),
      { numRuns: 150 },
    );
  }, 240_000);

  it('a half view disposed on its own is stale; its list is not affected', () => {
    const model = Array.from({ length: 10 }, (_, i) => distinctValidator(i));
    const view = Validators.deserializeToView(Validators.serialize(model));
    const v = view.get(3);
    // Read in place from its pair (the path these tests are about).
    expect((v as unknown as { _pair: number })._pair).toBeGreaterThanOrEqual(0);
    expect(v.effective_balance).toBe(model[3]!.effective_balance);
    v.dispose();
    expectStale(() => v.effective_balance);
    expect(view.get(4).effective_balance).toBe(model[4]!.effective_balance);
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
    view.dispose();
  });

  it('both halves of every pair written, then one half of each, across clones: roots and old versions agree with the model', () => {
    const n = 101;
    const model = Array.from({ length: n }, (_, i) => distinctValidator(i));
    let view = Validators.deserializeToView(Validators.serialize(model));
    const versions: { view: ListView; model: ValidatorValue[] }[] = [];
    for (let round = 0; round < 4; round++) {
      const before = model.slice();
      const next = view.clone();
      for (let i = round % 2; i < n; i += 1 + (round % 2)) {
        const v = next.get(i);
        v.slashed = !model[i]!.slashed;
        v.withdrawable_epoch = BigInt(round * 1000 + i);
        model[i] = { ...model[i]!, slashed: !model[i]!.slashed, withdrawable_epoch: BigInt(round * 1000 + i) };
      }
      expect(toHex(next.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
      versions.push({ view, model: before });
      view = next;
    }
    for (const v of versions) {
      expect(toHex(v.view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(v.model)));
      expect(toHex(v.view.serialize())).toBe(toHex(Validators.serialize(v.model)));
      v.view.dispose();
    }
    for (let i = 0; i < n; i++) expect(Validator.equals(view.get(i).toValue(), model[i]!)).toBe(true);
    view.dispose();
  });

  it('the same on one owned view (no clone: written halves rewritten inside their pairs in place): roots agree with the model', () => {
    const n = 101;
    const model = Array.from({ length: n }, (_, i) => distinctValidator(i));
    const view = Validators.deserializeToView(Validators.serialize(model));
    const first = toHex(Validators.hashTreeRoot(model));
    expect(toHex(view.hashTreeRoot())).toBe(first);
    const held = view.commit(); // a version held apart from the view: the first round copies, the rest write in place
    for (let round = 0; round < 4; round++) {
      for (let i = round % 2; i < n; i += 1 + (round % 2)) {
        const v = view.get(i);
        v.slashed = !model[i]!.slashed;
        v.withdrawable_epoch = BigInt(round * 1000 + i);
        model[i] = { ...model[i]!, slashed: !model[i]!.slashed, withdrawable_epoch: BigInt(round * 1000 + i) };
      }
      expect(toHex(view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
    }
    expect(toHex(held.root)).toBe(first);
    held.dispose();
    for (let i = 0; i < n; i++) expect(Validator.equals(view.get(i).toValue(), model[i]!)).toBe(true);
    view.dispose();
  });
});
