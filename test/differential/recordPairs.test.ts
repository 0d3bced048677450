/**
 * Validator record pairs (issue #5, core wide/recordPairs.ts): a list of
 * Validators is built as pairs of records one level above the elements (an
 * odd last one a single record beside the zero chunk). Checked against
 * @chainsafe/ssz and our value API: odd and even lengths across hash-batch
 * and page boundaries, built from values and from bytes; element reads;
 * pushes onto odd and even lists; writes into either half; proofs by path
 * into both halves and into the odd tail; serialize / deserialize / toValue
 * / fromTree round trips; clones independent and old trees unchanged; a
 * fast-check property of random writes and pushes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore } from '@ssztree/core';
import { container, list, SszError, toHex, verifyProof } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { peerType, peerValue } from './bridge.js';
import { distinctValidator } from './validatorValues.js';

const { Validator } = mainnet.electra;
const Validators = list(Validator, 2 ** 40);
type V = ReturnType<typeof Validator.defaultValue>;
/** The level of the pairs below a list's root: contents 1 + limit depth 40, less one (the elements are at 41). */
const PAIRS = 40;

const validator = distinctValidator;
const values = (n: number, from = 0): V[] => Array.from({ length: n }, (_, i) => validator(from + i));
const peerRoot = (vs: V[]) => toHex(peerType(Validators).hashTreeRoot(peerValue(Validators, vs)));

describe('validator record pairs', () => {
  it('build odd and even lists as pairs from values and bytes; roots, reads and round trips agree', () => {
    const store = new NodeStore();
    for (const n of [0, 1, 2, 3, 4, 5, 2047, 2048, 2049, 4097]) {
      const vs = values(n, n);
      const bytes = Validators.serialize(vs);
      const expected = peerRoot(vs);
      const fromValues = Validators.toView(vs, store);
      const fromBytes = Validators.deserializeToView(bytes, store);
      for (const view of [fromValues, fromBytes]) {
        expect(toHex(view.hashTreeRoot()), `n=${n}`).toBe(expected);
        const tree = view.commit();
        if (n >= 2) expect(store.recordHalves(tree.getNodeAtDepth(PAIRS, 0))).toBe(2);
        if (n % 2 === 1) expect(store.kind(tree.getNodeAtDepth(PAIRS, (n - 1) / 2))).toBe('branch');
        expect(toHex(view.serialize())).toBe(toHex(bytes));
        expect(toHex(Validators.serializeTree(tree))).toBe(toHex(bytes));
        if (n <= 5 || n === 2049) {
          expect(view.toValue()).toEqual(vs);
          expect(Validators.fromTree(tree)).toEqual(vs);
        }
        tree.dispose();
        for (const i of new Set([0, 1, n >>> 1, n - 2, n - 1].filter((i) => i >= 0 && i < n))) {
          expect(view.get(i).toValue()).toEqual(vs[i]);
          expect(toHex(view.get(i).hashTreeRoot())).toBe(toHex(Validator.hashTreeRoot(vs[i]!)));
          expect(view.get(i).pubkey).toEqual(vs[i]!.pubkey);
        }
      }
      fromValues.dispose();
      fromBytes.dispose();
    }
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('push onto odd and even lists, write either half, prove into both halves and the odd tail; old trees and clones stay', () => {
    const store = new NodeStore();
    for (const n of [6, 7]) {
      const vs = values(n);
      const a = Validators.toView(vs, store);
      const rootA = toHex(a.hashTreeRoot());
      const b = a.clone();
      const model = vs.map((v) => ({ ...v }));
      b.push(validator(100));
      b.push(validator(101));
      b.push(validator(102));
      model.push(validator(100), validator(101), validator(102));
      // Committed before the first pushed one is replaced (replacing an uncommitted push leaks its view's record:
      // a known issue of CompositeSequenceView, not of pairs).
      expect(toHex(b.hashTreeRoot())).toBe(peerRoot(model));
      b.get(2).effective_balance = 5n; // a left half
      b.get(3).slashed = true; // a right half
      b.get(4).pubkey = new Uint8Array(48).fill(9);
      b.get(5).exit_epoch = 3n; // both halves of one pair in one commit
      b.set(n, validator(200)); // the first pushed one, replaced whole
      model[2]!.effective_balance = 5n;
      model[3]!.slashed = true;
      model[4]!.pubkey = new Uint8Array(48).fill(9);
      model[5]!.exit_epoch = 3n;
      model[n] = validator(200);
      const root = b.hashTreeRoot();
      expect(toHex(root)).toBe(peerRoot(model));
      expect(toHex(root)).toBe(toHex(Validators.hashTreeRoot(model)));
      expect(b.toValue()).toEqual(model);
      expect(toHex(b.serialize())).toBe(toHex(Validators.serialize(model)));
      expect(Validators.deserialize(b.serialize())).toEqual(model);
      // Pairs stay pairs under writes of whole records and of fields; the odd list's push made a pair of its tail.
      // Pushes pair up too: two pushed side by side, or one beside the odd last record.
      const tree = b.commit();
      for (let p = 0; p < model.length >>> 1; p++) expect(store.recordHalves(tree.getNodeAtDepth(PAIRS, p)), `pair ${p}`).toBe(2);
      tree.dispose();
      // Proofs by path: both halves of a pair, and the last (odd) element.
      const last = model.length - 1;
      const proof = Validators.createProof(b, [[2, 'effective_balance'], [3, 'pubkey'], [5, 'exit_epoch'], [last, 'withdrawable_epoch']]);
      expect(verifyProof(root, proof)).toBe(true);
      for (const i of [0, 1, last]) expect(verifyProof(root, Validators.createProof(b, [[i]]))).toBe(true);
      expect(verifyProof(root, Validators.createProof(a, [[3, 'slashed']]))).toBe(false); // a's root is not b's
      // The original and a clone of it are untouched.
      expect(toHex(a.hashTreeRoot())).toBe(rootA);
      expect(a.toValue()).toEqual(vs);
      const c = b.clone();
      c.get(3).slashed = false;
      c.hashTreeRoot();
      expect(b.toValue()).toEqual(model);
      for (const v of [a, b, c]) v.dispose();
    }
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('serialize through another container of the same layout; a bad last value of an odd list leaves nothing behind', () => {
    const store = new NodeStore();
    // Same layout, another ContainerType that never built a list: it shares the record kinds, and reads the pairs.
    const Twin = container({ ...Validator.fields }, 'Twin');
    const vs = values(9);
    const view = Validators.toView(vs, store);
    const tree = view.commit();
    expect(store.recordHalves(tree.getNodeAtDepth(PAIRS, 0))).toBe(2);
    expect(toHex(list(Twin, 2 ** 40).serializeTree(tree))).toBe(toHex(Validators.serialize(vs)));
    expect(list(Twin, 2 ** 40).fromTree(tree)).toEqual(vs);
    tree.dispose();
    view.dispose();
    const bad = values(2049);
    bad[2048] = { ...bad[2048]!, exit_epoch: -1n };
    let error: unknown = null;
    try {
      Validators.toView(bad, store);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SszError);
    expect((error as SszError).typePath).toContain('[2048]');
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('random field writes, whole writes and pushes agree with the value API and @chainsafe/ssz (property)', () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant('field' as const), i: fc.nat(), v: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }) }),
      fc.record({ t: fc.constant('slash' as const), i: fc.nat() }),
      fc.record({ t: fc.constant('whole' as const), i: fc.nat(), seed: fc.nat(1000) }),
      fc.record({ t: fc.constant('push' as const), seed: fc.nat(1000) }),
      fc.constant({ t: 'commit' as const }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9 }), fc.array(op, { maxLength: 25 }), (n, ops) => {
        const store = new NodeStore();
        const view = Validators.toView(values(n), store);
        const model = values(n);
        const versions: [ReturnType<typeof view.clone>, V[]][] = [];
        /** Elements pushed, replaced or read as child views since the last commit. */
        const touched = new Set<number>();
        for (const o of ops) {
          if (o.t === 'push') {
            view.push(validator(o.seed));
            model.push(validator(o.seed));
            touched.add(model.length - 1);
            continue;
          }
          if (o.t === 'commit' || (o.t === 'whole' && model.length > 0 && touched.has(o.i % model.length))) {
            // (Replacing an element whose child view exists since the commit leaks that view's record — a known
            // CompositeSequenceView issue, not one of pairs, the same with single records: commit first.)
            touched.clear();
            view.hashTreeRoot();
            versions.push([view.clone(), model.map((v) => ({ ...v }))]);
            if (o.t === 'commit') continue;
          }
          if (model.length === 0) continue;
          const i = o.i % model.length;
          touched.add(i);
          if (o.t === 'field') {
            view.get(i).activation_epoch = o.v;
            model[i] = { ...model[i]!, activation_epoch: o.v };
          } else if (o.t === 'slash') {
            view.get(i).slashed = !model[i]!.slashed;
            model[i] = { ...model[i]!, slashed: !model[i]!.slashed };
          } else {
            view.set(i, validator(o.seed));
            model[i] = validator(o.seed);
          }
        }
        expect(toHex(view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
        expect(toHex(view.hashTreeRoot())).toBe(peerRoot(model));
        expect(toHex(view.serialize())).toBe(toHex(Validators.serialize(model)));
        for (const [old, value] of versions) {
          expect(toHex(old.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(value)));
          old.dispose();
        }
        view.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});
