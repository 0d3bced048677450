/**
 * Preimage tables (issue #8 finding 5): one per store, entries kept only
 * while a live node holds their root, compacted as the table grows, so a
 * process that keeps building and dropping records with new pubkeys stays
 * flat; live records, views and leaves keep reading back their pubkeys.
 *
 * Validators are compact records (core wide/records.ts, no table) while a record
 * kind is free; this file takes every record kind first, so its Validator
 * runs the fallback path the tables serve: wide leaves of field roots.
 */
import { NodeStore, registerRecordLayout } from '@ssztree/core';
import { describe, expect, it } from 'vitest';
import { byteVector, list, SszError, toHex } from '../src/index.js';
import { compactPreimages, preimageBytes, preimages } from '../src/tree/preimages.js';
import { Validator } from './validatorSchema.js';

// Take every free record kind (distinct layouts) before any container asks for one.
for (let size = 1; registerRecordLayout({ size, depth: 1, fields: [[0, size]] }) >= 0; size++);

const Validators = list(Validator, 2 ** 40);
type V = ReturnType<typeof Validator.defaultValue>;

/** `n` validators whose pubkeys are unique across calls with different `seed`s. */
function validators(n: number, seed: number): V[] {
  return Array.from({ length: n }, (_, i) => {
    const pubkey = new Uint8Array(48);
    new DataView(pubkey.buffer).setUint32(0, i, true);
    new DataView(pubkey.buffer).setUint32(4, seed, true);
    pubkey[47] = 0x5a;
    return {
      pubkey,
      withdrawal_credentials: new Uint8Array(32).fill(seed & 255),
      effective_balance: BigInt(32e9 + i),
      slashed: (i & 1) === 1,
      activation_eligibility_epoch: BigInt(i),
      activation_epoch: BigInt(seed),
      exit_epoch: 2n ** 64n - 1n,
      withdrawable_epoch: 2n ** 64n - 1n,
    };
  });
}

const table = (store: NodeStore) => preimages(store, 48);

describe('preimage tables', () => {
  it('serve the fallback: with no record kind free, Validator is a wide leaf of field roots', () => {
    expect(Validator._compactKind()).toBe(-1);
    const store = new NodeStore();
    const view = Validators.toView(validators(4, 1), store);
    const node = view.get(2).rootNode;
    expect(store.kind(node)).toBe('wide');
    expect(store.recordKind(node)).toBe(-1);
    expect(view.get(2).pubkey).toEqual(validators(4, 1)[2]!.pubkey);
    expect(Validators.deserializeToView(Validators.serialize(validators(4, 1)), store).toValue()).toEqual(validators(4, 1));
  });

  it('map roots to their bytes through growth (reserved or not), unknown roots to null', () => {
    const t = preimages(new NodeStore(), 48);
    const key = (i: number) => {
      const k = new Uint8Array(32);
      new DataView(k.buffer).setUint32(0, Math.imul(i, 0x9e3779b1), true); // spread like hash output
      new DataView(k.buffer).setUint32(28, i, true);
      return k;
    };
    const value = (i: number) => {
      const v = new Uint8Array(48).fill(0x77);
      new DataView(v.buffer).setUint32(0, i, true);
      return v;
    };
    t.reserve(3000);
    const bytes = t.byteLength;
    for (let i = 0; i < 3000; i++) t.set(key(i), 0, value(i), 0);
    expect(t.byteLength).toBe(bytes); // reserved: no growth mid-batch
    // One at a time past the reservation: the unreserved growth path (set never compacts).
    for (let i = 3000; i < 6000; i++) t.set(key(i), 0, value(i), 0);
    for (let i = 0; i < 3000; i++) t.set(key(i), 0, value(i + 1), 0); // already known: kept as is
    expect(t.size).toBe(6000);
    for (let i = 0; i < 6000; i += 7) expect(t.get(key(i), 0)).toEqual(value(i));
    expect(t.get(key(6000), 0)).toBeNull();
    // Nothing in the store holds these roots: a compaction drops them all.
    t.compact();
    expect(t.size).toBe(0);
    expect(t.get(key(5), 0)).toBeNull();
  });

  it('setFromViews stores what set stores (offset views, a value length not a multiple of 4, growth past the reservation)', () => {
    const store = new NodeStore();
    const a = preimages(store, 48);
    const b = preimages(store, 45);
    const c = preimages(new NodeStore(), 45);
    // Roots and values at odd offsets inside larger buffers, read through views of a subarray.
    const roots = new Uint8Array(3 + 32 * 2000);
    const vals = new Uint8Array(5 + 121 * 2000);
    for (let i = 0; i < 2000; i++) {
      new DataView(roots.buffer).setUint32(3 + 32 * i, Math.imul(i + 1, 0x9e3779b1), true);
      new DataView(roots.buffer).setUint32(3 + 32 * i + 28, i, true);
      for (let k = 0; k < 48; k++) vals[5 + 121 * i + k] = (i * 7 + k) & 255;
    }
    const r = roots.subarray(3);
    const v = vals.subarray(5);
    const rv = new DataView(r.buffer, r.byteOffset, r.byteLength);
    const vv = new DataView(v.buffer, v.byteOffset, v.byteLength);
    a.reserve(1000); // the second thousand grows the table mid-run
    for (let i = 0; i < 2000; i++) a.setFromViews(r, rv, 32 * i, vv, 121 * i);
    for (let i = 0; i < 2000; i++) b.setFromViews(r, rv, 32 * i, vv, 121 * i);
    for (let i = 0; i < 2000; i++) c.set(r, 32 * i, v, 121 * i);
    for (let i = 0; i < 1000; i++) a.setFromViews(r, rv, 32 * i, vv, 121 * i + 1); // already known: kept as is
    expect([a.size, b.size]).toEqual([2000, 2000]);
    for (let i = 0; i < 2000; i++) {
      expect(a.get(r, 32 * i)).toEqual(v.slice(121 * i, 121 * i + 48));
      expect(b.get(r, 32 * i)).toEqual(c.get(r, 32 * i));
    }
  });

  it('cost at most 96 bytes per pubkey after a bulk build (80 of entry, the rest index)', () => {
    const store = new NodeStore();
    const view = Validators.deserializeToView(Validators.serialize(validators(4096, 11)), store);
    view.hashTreeRoot();
    expect(table(store).size).toBe(4096);
    expect(preimageBytes(store) / 4096).toBeLessThanOrEqual(96);
  });

  it('are per store: another store neither sees nor keeps a store’s pubkeys', () => {
    const a = new NodeStore();
    const b = new NodeStore();
    const vals = validators(100, 1);
    const tree = Validators.toTree(vals, a);
    expect(table(a).size).toBe(100);
    expect(table(b).size).toBe(0);
    expect(preimageBytes(b)).toBe(table(b).byteLength);
    expect(Validators.fromTree(tree)).toEqual(vals);
    // The record read with the wrong store's table: its pubkey is unknown there, a typed error.
    const record = Validator.toTree(vals[3] as V, a);
    const other = b.wide(a.wideChunks(record.rootNode));
    const err = (() => {
      try {
        Validator.fromTree(other, b);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(SszError);
    expect((err as SszError).code).toBe('BAD_TREE');
    expect((err as SszError).message).toContain('pubkey');
  });

  it('drop the pubkeys of dead records and keep the live ones', () => {
    const store = new NodeStore();
    const keptVals = validators(500, 7);
    const kept = Validators.toTree(keptVals, store);
    const gone = Validators.deserializeToView(Validators.serialize(validators(3000, 8)), store);
    gone.hashTreeRoot();
    expect(table(store).size).toBe(3500);
    gone.dispose();
    store.collect();
    compactPreimages(store);
    expect(table(store).size).toBe(500);
    expect(Validators.fromTree(kept)).toEqual(keptVals);
    kept.dispose();
    store.collect();
    compactPreimages(store);
    expect(table(store).size).toBe(0);
    // Back to about an empty table's storage (arrays under 4× the need are kept, against churn).
    expect(table(store).byteLength).toBeLessThanOrEqual(4 * table(new NodeStore()).byteLength);
    // Emptied again after a larger set: the storage shrinks with it.
    const big = Validators.toTree(validators(5000, 9), store);
    const grown = table(store).byteLength;
    big.dispose();
    store.collect();
    compactPreimages(store);
    expect(table(store).size).toBe(0);
    expect(table(store).byteLength).toBeLessThan(grown / 4);
  });

  it('stay flat when records with new pubkeys are built and dropped over and over (automatic compaction)', () => {
    const store = new NodeStore();
    const liveVals = validators(200, 1000);
    const live = Validators.toView(liveVals, store);
    live.hashTreeRoot();
    const sizes: number[] = [];
    for (let round = 0; round < 40; round++) {
      const v = round % 2 === 0 ? Validators.toView(validators(2000, round), store) : Validators.deserializeToView(Validators.serialize(validators(2000, round)), store);
      v.hashTreeRoot();
      v.dispose();
      store.collect();
      sizes.push(table(store).byteLength);
    }
    // 40 × 2000 = 80 000 pubkeys seen; the table holds at most a few rounds' worth.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(sizes[9] as number);
    expect(table(store).size).toBeLessThan(4 * 2200);
    expect(live.toValue()).toEqual(liveVals);
  });

  it('keep pubkeys written through views and cut-out field leaves across compactions', () => {
    const store = new NodeStore();
    const vals = validators(64, 3);
    const view = Validators.toView(vals, store);
    const old = view.clone();
    const fresh = validators(1, 99)[0]?.pubkey as Uint8Array;
    view.get(5).pubkey = fresh;
    view.hashTreeRoot();
    // Churn enough new pubkeys to force automatic compactions.
    for (let round = 0; round < 6; round++) {
      const t = Validators.toTree(validators(1500, 200 + round), store);
      t.dispose();
      store.collect();
    }
    compactPreimages(store);
    expect(toHex(view.get(5).pubkey)).toBe(toHex(fresh));
    const again = Validators.fromTree(view.rootNode, store);
    expect(Validators.deserialize(view.serialize())).toEqual(again);
    expect(toHex((again[5] as V).pubkey)).toBe(toHex(fresh));
    expect(again[6]).toEqual(vals[6]);
    // The tree from before the write still holds (and reads) the old pubkey.
    expect(old.toValue()).toEqual(vals);
    expect(Validators.hashTreeRoot(again)).toEqual(view.hashTreeRoot());
    // A pubkey leaf cut out of its record (a single-field read through the tree) keeps its preimage too.
    const leaf = store.getNodeAtDepth(store.getNodeAtDepth(store.left(view.rootNode), 40, 5), 3, 0);
    compactPreimages(store);
    expect(toHex(byteVector(48).fromTree(leaf, store))).toBe(toHex(fresh));
  });
});
