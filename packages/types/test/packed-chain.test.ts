/**
 * Packed views along a chain of clones, as a client's state cache makes
 * them (each block written on a clone of the previous head): what a clone
 * inherits from its origin — the page table, the count of page walks that
 * decides when the table is filled in one walk, and whether the last commit
 * rebuilt most pages (then the clone loads every page at its first write
 * and its commit samples which changed) — against a plain model. Heavy,
 * light, unchanged and come-back blocks in any order; every kept version's
 * root unchanged; the root node id kept when nothing changed; every node
 * given back once the views are dropped.
 */
import { NodeStore } from '@ssztree/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { container, list, toHex, uint64, uint8 } from '../src/index.js';

const Flags = list(uint8, 2 ** 20);
const Balances = list(uint64, 2 ** 40);
/** The lists as fields of a container, as in a state: the container's root must see every child commit. */
const State = container({ slot: uint64, flags: Flags, balances: Balances }, 'ChainState');

/** What one block writes: most pages, a few pages, values already there, or writes that come back. */
type Block = { kind: 'heavy' | 'light' | 'same' | 'back'; seed: number; keepOld: boolean };
const block = fc.record({ kind: fc.constantFrom('heavy', 'light', 'same', 'back'), seed: fc.integer({ min: 1, max: 2 ** 30 }), keepOld: fc.boolean() }) as fc.Arbitrary<Block>;

/** A small deterministic generator (the property's seeds drive it). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

describe('packed views along a chain of clones', () => {
  it('property: List[uint8] flags (bulk commits predicted from the origin) agree with the model, keep old versions and give every node back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 256 * 256, max: 256 * 300 }), fc.array(block, { minLength: 1, maxLength: 6 }), (n, blocks) => {
        const store = new NodeStore();
        let model = new Uint8Array(n);
        for (let i = 0; i < n; i += 7) model[i] = i & 3;
        let head = Flags.toView(model.slice(), store);
        const kept: { view: typeof head; root: string; bytes: Uint8Array }[] = [];
        for (const b of blocks) {
          const next = head.clone();
          const before = next.rootNode;
          const r = rng(b.seed);
          const m = model.slice();
          const writes = b.kind === 'heavy' ? n / 4 : b.kind === 'light' ? 40 : 200;
          for (let k = 0; k < writes; k++) {
            const i = Math.floor(r() * n);
            if (b.kind === 'same') next.set(i, next.get(i));
            else if (b.kind === 'back') {
              next.set(i, (m[i]! + 1) & 255);
              next.set(i, m[i]!);
            } else {
              m[i] = m[i]! | (1 << Math.floor(r() * 3));
              next.set(i, next.get(i) | (m[i]! & 7));
            }
          }
          const root = toHex(next.hashTreeRoot());
          expect(root).toBe(toHex(Flags.hashTreeRoot(m)));
          if (b.kind === 'same' || b.kind === 'back') expect(next.rootNode).toBe(before);
          for (let k = 0; k < 50; k++) {
            const i = Math.floor(r() * n);
            expect(next.get(i)).toBe(m[i]);
          }
          if (b.keepOld) kept.push({ view: head, root: toHex(head.hashTreeRoot()), bytes: model });
          else head.dispose();
          head = next;
          model = m;
        }
        for (const k of kept) {
          expect(toHex(k.view.hashTreeRoot())).toBe(k.root);
          expect(toHex(k.view.serialize())).toBe(toHex(k.bytes));
          k.view.dispose();
        }
        expect(toHex(head.serialize())).toBe(toHex(model));
        head.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 20 },
    );
  });

  it('property: List[uint64] of 4096+ pages, sparse blocks on clones (the page table filled once along the chain) agree with the model', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4096 * 32, max: 4200 * 32 }), fc.array(block, { minLength: 2, maxLength: 6 }), (n, blocks) => {
        const store = new NodeStore();
        let model = new BigUint64Array(n);
        for (let i = 0; i < n; i++) model[i] = BigInt(i) * 3n;
        let head = Balances.toView(model.slice(), store);
        const kept: { view: typeof head; root: string }[] = [];
        for (const b of blocks) {
          const next = head.clone();
          const r = rng(b.seed);
          const m = model.slice();
          // A block touches ~100 of 4096+ pages: past the fill threshold (128 walks) only along the chain.
          const writes = b.kind === 'same' ? 20 : 100;
          for (let k = 0; k < writes; k++) {
            const i = Math.floor(r() * n);
            if (b.kind === 'same') next.set(i, next.get(i));
            else {
              m[i] = BigInt(b.seed) + BigInt(k);
              next.set(i, m[i]!);
            }
          }
          for (let k = 0; k < 100; k++) {
            const i = Math.floor(r() * n);
            expect(next.get(i)).toBe(m[i]);
          }
          expect(toHex(next.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(m)));
          if (b.keepOld) kept.push({ view: head, root: toHex(Balances.hashTreeRoot(model)) });
          else head.dispose();
          head = next;
          model = m;
        }
        for (const k of kept) {
          expect(toHex(k.view.hashTreeRoot())).toBe(k.root);
          k.view.dispose();
        }
        for (let i = 0; i < n; i += 997) expect(head.get(i)).toBe(model[i]);
        head.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 8 },
    );
  });

  it('property: the lists as fields of a container on a chain of clones: the container root agrees with the model after every block', () => {
    fc.assert(
      fc.property(fc.array(block, { minLength: 2, maxLength: 5 }), (blocks) => {
        const store = new NodeStore();
        const n = 256 * 260;
        let flags = new Uint8Array(n);
        let balances = new BigUint64Array(4096 * 32 + 5);
        for (let i = 0; i < balances.length; i++) balances[i] = BigInt(i);
        let slot = 0n;
        let head = State.toView({ slot, flags: flags.slice(), balances: balances.slice() }, store);
        head.hashTreeRoot();
        const kept: { view: typeof head; root: string }[] = [];
        for (const b of blocks) {
          const next = head.clone();
          const r = rng(b.seed);
          const f = flags.slice();
          const bal = balances.slice();
          slot++;
          next.slot = slot;
          const fv = next.flags;
          const bv = next.balances;
          const writes = b.kind === 'heavy' ? n / 4 : b.kind === 'light' ? 30 : 150;
          for (let k = 0; k < writes; k++) {
            const i = Math.floor(r() * n);
            if (b.kind === 'same') fv.set(i, fv.get(i));
            else if (b.kind === 'back') {
              fv.set(i, (f[i]! + 1) & 255);
              fv.set(i, f[i]!);
            } else {
              f[i] = f[i]! | (1 << Math.floor(r() * 3));
              fv.set(i, fv.get(i) | (f[i]! & 7));
            }
            if (k % 4 === 0 && b.kind !== 'same') {
              const j = Math.floor(r() * bal.length);
              bal[j] = BigInt(b.seed) + BigInt(k);
              bv.set(j, bal[j]!);
            }
          }
          const root = toHex(next.hashTreeRoot());
          expect(root).toBe(toHex(State.hashTreeRoot({ slot, flags: f, balances: bal })));
          if (b.keepOld) kept.push({ view: head, root: toHex(head.hashTreeRoot()) });
          else head.dispose();
          head = next;
          flags = f;
          balances = bal;
        }
        for (const k of kept) {
          expect(toHex(k.view.hashTreeRoot())).toBe(k.root);
          k.view.dispose();
        }
        head.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
      }),
      { numRuns: 10 },
    );
  });
});
