/**
 * Tables handed over by a build from bytes (src/view/built.ts): a list of
 * record pairs (Validators) starts with its element table known from where
 * the build put its pairs, packed lists with their page tables, both as
 * lists of their own and as fields of a container. Checked: the views of a
 * value built from bytes read without walking the tree (the tables are
 * used), every read agrees with a plain model through writes, commits,
 * clones and disposes (a position written since the build never reads the
 * built entry), old versions never change, and the registry is empty once
 * a build ends, even one that throws.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Tree } from '@ssztree/core';
import { container, list, toHex, uint64, uint8 } from '../src/index.js';
import { anyBuilt } from '../src/view/built.js';
import { expectClonesIsolated, hex, validator, Validator, type V } from './builtTablesShared.js';
import { indices } from './seeded.js';

const Validators = list(Validator, 2 ** 40);
const Balances = list(uint64, 2 ** 40);
const Flags = list(uint8, 2 ** 40);
const State = container({ slot: uint64, validators: Validators, balances: Balances, flags: Flags }, 'BuiltState');


afterEach(() => {
  vi.restoreAllMocks();
});

describe('tables from a build from bytes', () => {
  it('a list of record pairs built from bytes reads every element without a walk, and agrees with the model', () => {
    // Odd: the last element is a single record beside the pairs, not in the build's runs.
    const n = 5001;
    const values = Array.from({ length: n }, (_, i) => validator(i));
    const view = Validators.deserializeToView(Validators.serialize(values));
    expect(anyBuilt()).toBe(false);
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    const getNode = vi.spyOn(Tree.prototype, 'getNodeAtDepth');
    for (let i = 0; i < n - 1; i++) expect(hex(view.get(i).toValue())).toBe(hex(values[i]!));
    expect(walks).not.toHaveBeenCalled();
    expect(getNode).not.toHaveBeenCalled();
    // The odd last element is found by a walk, as it is not in a pair.
    expect(hex(view.get(n - 1).toValue())).toBe(hex(values[n - 1]!));
    view.dispose();
  });

  it('built element entries: writes, commits, clones and disposes never read a stale entry; old versions unchanged', async () => {
    const n = 9000;
    const values = Array.from({ length: n }, (_, i) => validator(i));
    const bytes = Validators.serialize(values);
    const loaded = Validators.deserializeToView(bytes);
    const root0 = toHex(loaded.hashTreeRoot());
    let head = loaded.clone();
    let model = values.slice();
    const kept: { view: typeof head; model: V[]; root: string }[] = [];
    // Enough writes to fold the overlay past OVERLAY_MAX (the built entries written into a base).
    for (let block = 0; block < 6; block++) {
      const next = head.clone();
      const nextModel = model.slice();
      for (const [k, i] of indices(block * 31 + 7, 1500, n).entries()) {
        const v = next.get(i);
        if (k % 3 === 0) {
          v.effective_balance = BigInt(block * 1e6 + k);
          nextModel[i] = { ...nextModel[i]!, effective_balance: BigInt(block * 1e6 + k) };
        } else if (k % 3 === 1) {
          v.exit_epoch = BigInt(block + k);
          nextModel[i] = { ...nextModel[i]!, exit_epoch: BigInt(block + k) };
        } else {
          const w = validator(n + block * 2000 + k);
          next.set(i, w);
          nextModel[i] = w;
        }
      }
      // Reads before the commit see the pending writes.
      for (const i of indices(block + 99, 200, n)) expect(hex(next.get(i).toValue())).toBe(hex(nextModel[i]!));
      next.commit();
      expect(toHex(next.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(nextModel)));
      // After the commit: every written position and its pair neighbour, and others, read as the model.
      for (let i = 0; i < n; i += 1 + (block % 3)) expect(hex(next.get(i).toValue())).toBe(hex(nextModel[i]!));
      if (block % 2 === 0) kept.push({ view: head, model, root: toHex(Validators.hashTreeRoot(model)) });
      else head.dispose();
      head = next;
      model = nextModel;
      await new Promise((resolve) => setImmediate(resolve)); // a task turn: freed slots are reused
    }
    for (const k of kept) {
      expect(toHex(k.view.hashTreeRoot())).toBe(k.root);
      for (const i of indices(5, 300, n)) expect(hex(k.view.get(i).toValue())).toBe(hex(k.model[i]!));
    }
    expect(toHex(loaded.hashTreeRoot())).toBe(root0);
    for (const i of indices(6, 500, n)) expect(hex(loaded.get(i).toValue())).toBe(hex(values[i]!));
  });

  it('packed lists built from bytes read their pages without a walk; writes, commits and clones agree with the model', () => {
    const n = 40_000;
    const values = BigUint64Array.from({ length: n }, (_, i) => BigInt(i) * 1_000_003n);
    const view = Balances.deserializeToView(Balances.serialize(values));
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    const chunkWalks = vi.spyOn(Tree.prototype, 'chunkWordsAtDepthInto');
    for (const i of indices(3, 2000, n)) expect(view.get(i)).toBe(values[i]);
    expect(walks).not.toHaveBeenCalled();
    expect(chunkWalks).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    const clone = view.clone();
    const model = values.slice();
    for (const [k, i] of indices(4, 3000, n).entries()) {
      clone.set(i, BigInt(k));
      model[i] = BigInt(k);
    }
    clone.commit();
    expect(toHex(clone.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(model)));
    for (let i = 0; i < n; i += 7) expect(clone.get(i)).toBe(model[i]);
    // The loaded version is unchanged.
    expect(toHex(view.hashTreeRoot())).toBe(toHex(Balances.hashTreeRoot(values)));
    for (let i = 0; i < n; i += 7) expect(view.get(i)).toBe(values[i]);
  });

  it('a container built from bytes hands its lists their tables (validators, balances, flags); roots and reads agree after blocks on clones', async () => {
    const n = 6001;
    const value = State.defaultValue();
    value.slot = 7n;
    value.validators = Array.from({ length: n }, (_, i) => validator(i));
    value.balances = BigUint64Array.from({ length: n }, (_, i) => BigInt(i) + 32n);
    value.flags = Uint8Array.from({ length: n }, (_, i) => i % 8);
    const loaded = State.deserializeToView(State.serialize(value));
    expect(anyBuilt()).toBe(false);
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    const chunkWalks = vi.spyOn(Tree.prototype, 'chunkWordsAtDepthInto');
    // A clone of the loaded state, whose fields' views were never made there: the build's tables reach it.
    const first = loaded.clone().clone();
    for (const i of indices(8, 500, n - 1)) {
      expect(hex(first.validators.get(i).toValue())).toBe(hex(value.validators[i]!));
      expect(first.balances.get(i)).toBe(value.balances[i]);
      expect(first.flags.get(i)).toBe(value.flags[i]);
    }
    first.dispose();
    for (const i of indices(9, 500, n - 1)) {
      expect(hex(loaded.validators.get(i).toValue())).toBe(hex(value.validators[i]!));
      expect(loaded.balances.get(i)).toBe(value.balances[i]);
      expect(loaded.flags.get(i)).toBe(value.flags[i]);
    }
    expect(walks).not.toHaveBeenCalled();
    expect(chunkWalks).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    const root0 = toHex(loaded.hashTreeRoot());
    let head = loaded.clone();
    let model = State.clone(value);
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
      head.dispose();
      head = next;
      model = m;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(toHex(loaded.hashTreeRoot())).toBe(root0);
    expect(toHex(State.hashTreeRoot(loaded.toValue()))).toBe(root0);
  });

  it("two clones of a loaded state take the build's tables: one's writes never show in the other's reads", () => {
    expectClonesIsolated(State, 5000);
  });

  it("a clone's page table reaches the clones of versions that never made the field's view, and a write there never shows in them", () => {
    // Built from values: no build tables. 5000 pages (more than a fill needs: TABLE_FILL_MIN_PAGES).
    const n = 5000 * 32;
    const Scored = container({ slot: uint64, scores: Balances }, 'ScoredState');
    const scores = BigUint64Array.from({ length: n }, (_, i) => BigInt(i % 97));
    const root = Scored.toView({ slot: 1n, scores });
    // A version that reads every page (its table filled), committed, then cloned: its clone never makes the view.
    const reader = root.clone();
    for (let i = 0; i < n; i += 32) expect(reader.scores.get(i)).toBe(scores[i]);
    reader.commit();
    const middle = reader.clone();
    middle.slot = 2n;
    middle.commit();
    const last = middle.clone();
    // The middle version makes its view now and writes every page: its table's entries change.
    const model = scores.slice();
    for (let i = 0; i < n; i++) middle.scores.set(i, 1000n + BigInt(i));
    middle.commit();
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    const fills = vi.spyOn(last.store, 'collectLevel');
    for (let i = 0; i < n; i += 13) expect(last.scores.get(i)).toBe(model[i]);
    expect(walks).not.toHaveBeenCalled();
    expect(fills).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    for (let i = 0; i < n; i += 7) expect(middle.scores.get(i)).toBe(1000n + BigInt(i));
    expect(toHex(last.hashTreeRoot())).toBe(toHex(Scored.hashTreeRoot({ slot: 2n, scores: model })));
    expect(toHex(reader.hashTreeRoot())).toBe(toHex(Scored.hashTreeRoot({ slot: 1n, scores: model })));
  });

  it('a packed list assigned as a value (setField) starts with its page table: its first writes walk to no page', () => {
    const n = 5000 * 32;
    const state = State.toView(State.defaultValue());
    state.setField('flags', new Uint8Array(n));
    expect(anyBuilt()).toBe(false);
    state.commit();
    const next = state.clone();
    const walks = vi.spyOn(Tree.prototype, 'recordAtDepth');
    const fills = vi.spyOn(next.store, 'collectLevel');
    const at = indices(12, 3000, n);
    for (const i of at) next.flags.set(i, next.flags.get(i) | 5);
    expect(walks).not.toHaveBeenCalled();
    expect(fills).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    const model = new Uint8Array(n);
    for (const i of at) model[i] = 5;
    const value = State.defaultValue();
    value.flags = model;
    expect(toHex(next.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(value)));
    value.flags = new Uint8Array(n);
    expect(toHex(state.hashTreeRoot())).toBe(toHex(State.hashTreeRoot(value)));
  });

  it('the registry is empty after a build that throws, and a value built from values takes no table', () => {
    // Validators build (their table recorded), then balances fail: 7 bytes are not a whole uint64.
    const v = State.defaultValue();
    v.validators = Array.from({ length: 20 }, (_, i) => validator(i));
    v.flags = new Uint8Array(16).fill(1);
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
