/**
 * Tables handed over by a build from bytes to progressive lists
 * (schema/progressiveList.ts `recordSegmentTables`, view/progressive.ts
 * `_inherit`): each subtree's page table (packed lists) or element runs
 * (lists of record pairs) reach the segment view made for that subtree, for
 * a list of its own, as a field of a progressive container, and through
 * clones of a loaded state whose lists were never read there. Checked: the
 * views of a value built from bytes read without walking the tree, every
 * read agrees with a plain model through writes, commits, clones and
 * disposes, old versions never change, and a build's hints reach any number
 * of clones (one clone's reads and writes never take them from another).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Tree } from '@ssztree/core';
import { progressiveContainer, progressiveList, toHex, uint64, uint8 } from '../src/index.js';
import { anyBuilt } from '../src/view/built.js';
import { expectClonesIsolated, hex, validator, Validator } from './builtTablesShared.js';
import { indices } from './seeded.js';

const Validators = progressiveList(Validator);
const Balances = progressiveList(uint64);
const Flags = progressiveList(uint8);
const State = progressiveContainer({ slot: uint64, validators: Validators, balances: Balances, flags: Flags }, [1, 0, 1, 1, 1], 'BuiltGloasState');


/**
 * Elements whose reads need no table: subtree 0 of a list of records is one record (the segment's root),
 * and each subtree here holds an even count, so every other element is half of a pair the build placed.
 * Subtrees 0 and 1 of a packed list are a leaf and one wide leaf (no page level to tabulate).
 */
const N_RECORDS = 1 + 4 + 16 + 64 + 256 + 1024 + 2000;
const N_PACKED = 40_000;
const FIRST_TABULATED_UINT64 = 4 * (1 + 4);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('progressive lists: tables from a build from bytes', () => {
  it('a list of record pairs built from bytes reads every element without a walk, and agrees with the values', () => {
    const values = Array.from({ length: N_RECORDS }, (_, i) => validator(i));
    const view = Validators.deserializeToView(Validators.serialize(values));
    expect(anyBuilt()).toBe(false);
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    for (let i = 0; i < N_RECORDS; i++) expect(hex(view.get(i).toValue())).toBe(hex(values[i]!));
    expect(walks).not.toHaveBeenCalled();
    view.dispose();
  });

  it('a packed list built from bytes reads its pages without a walk; writes, commits and clones agree with the model', () => {
    const values = BigUint64Array.from({ length: N_PACKED }, (_, i) => BigInt(i) * 1_000_003n);
    const view = Balances.deserializeToView(Balances.serialize(values));
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    const chunkWalks = vi.spyOn(Tree.prototype, 'chunkWordsAtDepthInto');
    for (const i of indices(3, 3000, N_PACKED - FIRST_TABULATED_UINT64)) expect(view.get(FIRST_TABULATED_UINT64 + i)).toBe(values[FIRST_TABULATED_UINT64 + i]);
    expect(walks).not.toHaveBeenCalled();
    expect(chunkWalks).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    const clone = view.clone();
    const model = values.slice();
    for (const [k, i] of indices(4, 3000, N_PACKED).entries()) {
      clone.set(i, BigInt(k));
      model[i] = BigInt(k);
    }
    clone.commit();
    expect(toHex(clone.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(model)));
    for (let i = 0; i < N_PACKED; i += 7) expect(clone.get(i)).toBe(model[i]);
    // The loaded version is unchanged.
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(values)));
    for (let i = 0; i < N_PACKED; i += 7) expect(view.get(i)).toBe(values[i]);
  });

  it('a clone hands on the build tables of subtrees its parent never read', () => {
    const values = BigUint64Array.from({ length: N_PACKED }, (_, i) => BigInt(i) + 5n);
    const loaded = Balances.deserializeToView(Balances.serialize(values));
    // Read in the last subtree only (subtree 7 of 40 000 uint64: elements 21 844 …), then cloned twice.
    for (let i = 30_000; i < 30_100; i++) expect(loaded.get(i)).toBe(values[i]);
    const clone = loaded.clone().clone();
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    const chunkWalks = vi.spyOn(Tree.prototype, 'chunkWordsAtDepthInto');
    // Subtrees 2–6, never read before the clone: their tables came from the build, through the loaded view.
    for (const i of indices(5, 2000, 21_844 - FIRST_TABULATED_UINT64)) expect(clone.get(FIRST_TABULATED_UINT64 + i)).toBe(values[FIRST_TABULATED_UINT64 + i]);
    expect(walks).not.toHaveBeenCalled();
    expect(chunkWalks).not.toHaveBeenCalled();
  });

  it('a progressive container built from bytes hands its lists their tables; roots and reads agree after blocks on clones', async () => {
    const n = N_RECORDS;
    const value = State.defaultValue();
    value.slot = 7n;
    value.validators = Array.from({ length: n }, (_, i) => validator(i));
    value.balances = BigUint64Array.from({ length: n }, (_, i) => BigInt(i) + 32n);
    value.flags = Uint8Array.from({ length: n }, (_, i) => i % 8);
    const loaded = State.deserializeToView(State.serialize(value));
    expect(anyBuilt()).toBe(false);
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    // Validators everywhere; balances past subtree 1; flags (32 a chunk) from subtree 1's page on: none walks.
    const read = (view: typeof loaded, seed: number) => {
      for (const i of indices(seed, 500, n)) {
        expect(hex(view.validators.get(i).toValue())).toBe(hex(value.validators[i]!));
        const b = FIRST_TABULATED_UINT64 + (i % (n - FIRST_TABULATED_UINT64));
        expect(view.balances.get(b)).toBe(value.balances[b]);
      }
    };
    // A clone of a clone of the loaded state, whose fields' views were never made there: the build's tables reach it.
    const first = loaded.clone().clone();
    read(first, 8);
    // A second such clone: the first one's segments took nothing away from it.
    const second = loaded.clone();
    read(second, 9);
    read(loaded, 10);
    expect(walks).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    first.dispose();
    second.dispose();
    const root0 = toHex(loaded.hashTreeRoot());
    expect(root0).toBe(toHex(State.hashTreeRoot(value)));
    let head = loaded.clone();
    let model = State.clone(value);
    const kept: { view: typeof head; root: string }[] = [];
    for (let block = 0; block < 4; block++) {
      const next = head.clone();
      const m = State.clone(model);
      for (const [k, i] of indices(block * 17 + 1, 400, n).entries()) {
        next.validators.get(i).effective_balance = BigInt(k + block);
        m.validators[i] = { ...m.validators[i]!, effective_balance: BigInt(k + block) };
        next.balances.set(i, BigInt(k * 3));
        m.balances[i] = BigInt(k * 3);
        next.flags.set(i, next.flags.get(i) | (1 << (k % 3)));
        m.flags[i] = m.flags[i]! | (1 << (k % 3));
      }
      expect(toHex(next.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(m)));
      for (const i of indices(block + 50, 300, n)) {
        expect(hex(next.validators.get(i).toValue())).toBe(hex(m.validators[i]!));
        expect(next.balances.get(i)).toBe(m.balances[i]);
        expect(next.flags.get(i)).toBe(m.flags[i]);
      }
      if (block % 2 === 0) kept.push({ view: head, root: toHex(State.hashTreeRoot(model)) });
      else head.dispose();
      head = next;
      model = m;
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const k of kept) expect(toHex(k.view.hashTreeRoot())).toBe(k.root);
    expect(toHex(loaded.hashTreeRoot())).toBe(root0);
    expect(toHex(State.hashTreeRoot(loaded.toValue()))).toBe(root0);
  });

  it("two clones of a loaded state take the build's tables: one's writes never show in the other's reads", () => {
    expectClonesIsolated(State, N_RECORDS);
  });

  it("a clone's subtree page tables reach the clones of versions that never made the list's view or a subtree's segment; a write there never shows in them", () => {
    // Built from values; every subtree past the first two has pages to tabulate.
    const n = N_PACKED;
    const Scored = progressiveContainer({ slot: uint64, scores: Balances }, [1, 1], 'ScoredGloasState');
    const scores = BigUint64Array.from({ length: n }, (_, i) => BigInt(i % 97));
    const origin = Scored.toView({ slot: 1n, scores });
    const noWalks = (read: () => void) => {
      const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
      const fills = vi.spyOn(origin.store, 'collectLevel');
      read();
      expect(walks).not.toHaveBeenCalled();
      expect(fills).not.toHaveBeenCalled();
      vi.restoreAllMocks();
    };
    // (a) the middle version never makes the list's view; (b) it makes the view and one subtree's segment only.
    for (const touch of [(_: typeof origin) => {}, (v: typeof origin) => expect(v.scores.get(n - 1)).toBe(scores[n - 1])]) {
      // A version that reads every page (its subtrees' tables filled), committed, then cloned.
      const reader = origin.clone();
      for (let i = 0; i < n; i += 4) expect(reader.scores.get(i)).toBe(scores[i]);
      reader.commit();
      const middle = reader.clone();
      middle.slot = 2n;
      touch(middle);
      middle.commit();
      const last = middle.clone();
      // The middle version now writes every page (taking the same tables): its entries change.
      for (let i = 0; i < n; i++) middle.scores.set(i, 1000n + BigInt(i));
      middle.commit();
      noWalks(() => {
        for (let i = FIRST_TABULATED_UINT64; i < n; i += 13) expect(last.scores.get(i)).toBe(scores[i]);
      });
      for (let i = 0; i < n; i += 7) expect(middle.scores.get(i)).toBe(1000n + BigInt(i));
      expect(toHex(last.hashTreeRoot())).toBe(toHex(Scored.hashTreeRoot({ slot: 2n, scores })));
      expect(toHex(reader.hashTreeRoot())).toBe(toHex(Scored.hashTreeRoot({ slot: 1n, scores })));
      // The next version of `last` writes through the tables it was passed: roots as the model's.
      const next = last.clone();
      const model = scores.slice();
      for (const i of indices(21, 3000, n)) next.scores.set(i, (model[i] = 7n + BigInt(i)));
      expect(toHex(next.hashTreeRoot())).toBe(toHex(Scored.hashTreeRoot({ slot: 2n, scores: model })));
      expect(toHex(last.hashTreeRoot())).toBe(toHex(Scored.hashTreeRoot({ slot: 2n, scores })));
      for (const v of [reader, middle, last, next]) v.dispose();
    }
  });

  it('the registry is empty after a build that throws, and a value built from values takes no table', () => {
    const v = State.defaultValue();
    v.validators = Array.from({ length: 20 }, (_, i) => validator(i));
    v.flags = new Uint8Array(16).fill(1);
    // Validators build (their tables recorded), then balances fail: 7 bytes are not a whole uint64.
    const bad = State.serialize(v).slice();
    const dv = new DataView(bad.buffer);
    dv.setUint32(16, dv.getUint32(16, true) + 7, true); // the flags offset: balances get 7 bytes
    expect(() => State.deserializeToView(bad)).toThrow(/7 bytes|whole|BAD_SIZE/);
    expect(anyBuilt()).toBe(false);
    const values = Array.from({ length: 301 }, (_, i) => validator(i));
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    const view = Validators.toView(values);
    expect(anyBuilt()).toBe(false);
    for (let i = 0; i < values.length; i += 10) expect(hex(view.get(i).toValue())).toBe(hex(values[i]!));
    expect(walks).toHaveBeenCalled();
  });
});
