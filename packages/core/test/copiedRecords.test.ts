/**
 * Records written from bytes (`Tree.setRecordsAtDepth`): under a shared
 * root, a batch of 64 positions or more is the fused copy
 * (write/copiedRecords.ts: records hashed in one batch as made, every path
 * copied level by level and hashed at once, nothing listed), an epoch's
 * batch too; smaller batches, positions past the built records (zero
 * subtrees on the paths) and owned roots take the walk. Checked against a byte model of the
 * records: roots equal merkleize of the model's record roots, every version
 * kept (clones) keeps its root, nothing is left pending by the fused pass,
 * and every node is given back once the handles are dropped.
 */
import { merkleize } from '@ssztree/hasher';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore, registerRecordLayout, registerRecordPairs, Tree } from '../src/index.js';
import { expandRecord, hex, randomBytes, rng, VALIDATOR_LAYOUT as LAYOUT } from './helpers.js';

const KIND = registerRecordLayout(LAYOUT);
const PAIR = registerRecordPairs(KIND);
const SIZE = LAYOUT.size;

/** `n` random records' bytes (the flag byte kept 0/1 is not needed: core stores any bytes). */
function records(n: number, r: () => number): Uint8Array {
  return randomBytes(n * SIZE, r);
}

/** A list of records as bytes (a zero-length tail past `count`), with each record's root cached. */
class Model {
  readonly roots: Uint8Array;
  constructor(
    readonly bytes: Uint8Array,
    readonly count: number,
    readonly depth: number,
    roots?: Uint8Array,
  ) {
    this.roots = roots ?? new Uint8Array(32 * 2 ** depth);
    if (roots === undefined) for (let i = 0; i < count; i++) this.#root(i);
  }
  #root(i: number): void {
    this.roots.set(merkleize(expandRecord(LAYOUT, this.bytes, i * SIZE)), 32 * i);
  }
  write(i: number, src: Uint8Array, from: number): void {
    this.bytes.set(src.subarray(from, from + SIZE), i * SIZE);
    this.#root(i);
  }
  copy(): Model {
    return new Model(this.bytes.slice(), this.count, this.depth, this.roots.slice());
  }
  root(): string {
    return hex(merkleize(this.roots, 2 ** this.depth));
  }
}

describe('records from bytes (setRecordsAtDepth)', () => {
  it('a large batch of pairs under a shared root: copied and hashed at once, the old version unchanged', () => {
    const store = new NodeStore();
    const depth = 12;
    const n = 3000;
    const r = rng(11);
    const model = new Model(new Uint8Array(2 ** depth * SIZE), n, depth);
    model.bytes.set(records(n, r));
    for (let i = 0; i < n; i++) model.write(i, model.bytes, i * SIZE);
    const tree = new Tree(store.recordPairTreeFromBytes(KIND, model.bytes, 0, n, depth), store);
    const old = tree.clone();
    const oldRoot = hex(old.root);
    const pairs = Array.from({ length: 130 }, (_, k) => k * 11 + (k % 5));
    const data = records(2 * pairs.length, r);
    const created: number[] = [];
    const before = store.stats().pending;
    tree.setRecordsAtDepth(depth - 1, pairs, PAIR, data, 0, created);
    expect(store.stats().pending).toBe(before);
    pairs.forEach((p, k) => {
      model.write(2 * p, data, 2 * k * SIZE);
      model.write(2 * p + 1, data, (2 * k + 1) * SIZE);
    });
    expect(hex(tree.root)).toBe(model.root());
    created.forEach((id, k) => {
      expect(store.recordKind(id)).toBe(PAIR);
      expect(hex(store.recordBytes(id))).toBe(hex(data.subarray(2 * k * SIZE, 2 * (k + 1) * SIZE)));
      expect(tree.getNodeAtDepth(depth - 1, pairs[k]!)).toBe(id);
    });
    expect(hex(old.root)).toBe(oldRoot);
    old.dispose();
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('every position is written, the bytes already there too (as setWidesAtDepth writes every page): the same root, new records', () => {
    const store = new NodeStore();
    const depth = 10;
    const n = 1024;
    const bytes = records(n, rng(3));
    const tree = new Tree(store.recordPairTreeFromBytes(KIND, bytes, 0, n, depth), store);
    const keep = tree.clone();
    const root = hex(tree.root);
    const pairs = Array.from({ length: 100 }, (_, k) => 5 * k);
    const same = new Uint8Array(pairs.length * 2 * SIZE);
    pairs.forEach((p, k) => same.set(bytes.subarray(2 * p * SIZE, (2 * p + 2) * SIZE), 2 * k * SIZE));
    const created: number[] = [];
    tree.setRecordsAtDepth(depth - 1, pairs, PAIR, same, 0, created);
    expect(hex(tree.root)).toBe(root);
    pairs.forEach((p, k) => {
      expect(created[k]).toBe(tree.getNodeAtDepth(depth - 1, p));
      expect(created[k]).not.toBe(keep.getNodeAtDepth(depth - 1, p));
    });
    keep.dispose();
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('an epoch-sized batch (8192 pair positions) takes the fused copy too: nothing listed, the model\'s root, the old version kept', () => {
    const store = new NodeStore();
    const depth = 14;
    const n = 2 ** depth;
    const r = rng(5);
    const model = new Model(new Uint8Array(n * SIZE), n, depth);
    model.bytes.set(records(n, r));
    for (let i = 0; i < n; i++) model.write(i, model.bytes, i * SIZE);
    const tree = new Tree(store.recordPairTreeFromBytes(KIND, model.bytes, 0, n, depth), store);
    const old = tree.clone();
    const oldRoot = hex(old.root);
    const pairs = Array.from({ length: 8192 }, (_, k) => k);
    const data = records(2 * pairs.length, r);
    const before = store.stats().pending;
    tree.setRecordsAtDepth(depth - 1, pairs, PAIR, data, 0);
    expect(store.stats().pending).toBe(before);
    expect(hex(old.root)).toBe(oldRoot);
    pairs.forEach((p, k) => {
      model.write(2 * p, data, 2 * k * SIZE);
      model.write(2 * p + 1, data, (2 * k + 1) * SIZE);
    });
    expect(hex(tree.root)).toBe(model.root());
    old.dispose();
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('records hashed straight from the caller\'s bytes: a buffer at an odd byte offset, read from an odd offset in it, over several record batches', () => {
    const store = new NodeStore();
    const depth = 13;
    const n = 2 ** depth;
    const r = rng(23);
    const model = new Model(new Uint8Array(n * SIZE), n, depth);
    model.bytes.set(records(n, r));
    for (let i = 0; i < n; i++) model.write(i, model.bytes, i * SIZE);
    const tree = new Tree(store.recordPairTreeFromBytes(KIND, model.bytes, 0, n, depth), store);
    const old = tree.clone();
    // 2100 pairs: two record batches (RECORD_BATCH 2048), the second a short one.
    const pairs = Array.from({ length: 2100 }, (_, k) => Math.floor(k * 1.9));
    const skip = 3 * SIZE + 5;
    const backing = records(2 * pairs.length + 8, r);
    const data = backing.subarray(7);
    const created: number[] = [];
    tree.setRecordsAtDepth(depth - 1, pairs, PAIR, data, skip, created);
    pairs.forEach((p, k) => {
      model.write(2 * p, data, skip + 2 * k * SIZE);
      model.write(2 * p + 1, data, skip + (2 * k + 1) * SIZE);
    });
    expect(hex(tree.root)).toBe(model.root());
    // Each new record's own hash is its root (read back through a proof-free path: the record's hash slot).
    for (const k of [0, 1, 2047, 2048, 2099]) expect(hex(store.hash(created[k]!))).toBe(hex(merkleize(new Uint8Array([...merkleize(expandRecord(LAYOUT, data, skip + 2 * k * SIZE)), ...merkleize(expandRecord(LAYOUT, data, skip + (2 * k + 1) * SIZE))]))));
    old.dispose();
    tree.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('bad input is a CoreError', () => {
    const store = new NodeStore();
    const tree = new Tree(store.recordPairTreeFromBytes(KIND, records(8, rng(1)), 0, 8, 4), store);
    expect(() => tree.setRecordsAtDepth(3, [0, 1], PAIR, new Uint8Array(2 * SIZE))).toThrow(/do not fit/);
    expect(() => tree.setRecordsAtDepth(3, [1, 0], PAIR, new Uint8Array(4 * SIZE))).toThrow(/ascending/);
    expect(() => tree.setRecordsAtDepth(3, [0], 99, new Uint8Array(4 * SIZE))).toThrow(/no record layout/);
    tree.dispose();
  });

  type Op = { kind: 'dense' | 'small' | 'same' | 'owned' | 'past' | 'base' | 'root' | 'drop'; seed: number };
  const op = fc.record({
    kind: fc.constantFrom('dense', 'dense', 'small', 'same', 'owned', 'past', 'base', 'root', 'drop'),
    seed: fc.integer({ min: 1, max: 2 ** 30 }),
  }) as fc.Arbitrary<Op>;

  it('property: batches of pairs (and of base records) among clones and dropped versions agree with the model and give every node back', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 1400 }), fc.array(op, { minLength: 1, maxLength: 10 }), (count, ops) => {
        const store = new NodeStore();
        const depth = 11;
        const n = 2 * Math.floor(count / 2);
        let model = new Model(new Uint8Array(2 ** depth * SIZE), n, depth);
        model.bytes.set(records(n, rng(count)));
        for (let i = 0; i < n; i++) model.write(i, model.bytes, i * SIZE);
        let tree = new Tree(store.recordPairTreeFromBytes(KIND, model.bytes, 0, n, depth), store);
        const kept: { tree: Tree; model: Model; root: string }[] = [];
        for (const { kind, seed } of ops) {
          const r = rng(seed);
          if (kind === 'root') {
            tree.root;
            continue;
          }
          if (kind === 'drop') {
            const k = kept.splice(Math.floor(r() * kept.length), 1)[0];
            k?.tree.dispose();
            continue;
          }
          if (kind !== 'owned') {
            // The write goes to a clone of the last version, which is kept (the write's root is shared).
            kept.push({ tree, model, root: model.root() });
            tree = tree.clone();
            model = model.copy();
          }
          const pairs = n / 2;
          // 'past' writes pairs past the built ones too: zero subtrees on the paths, so the walk takes them.
          const span = kind === 'past' ? 2 ** (depth - 1) : pairs;
          const want = kind === 'small' ? 1 + Math.floor(r() * 40) : 64 + Math.floor(r() * (span - 64) * 0.5);
          const set = new Set<number>();
          while (set.size < Math.min(want, span)) set.add(Math.floor(r() * span));
          const at = [...set].sort((a, b) => a - b);
          if (kind === 'base') {
            // Base records at the element level, below the pairs: the walk, which keeps them paired.
            const data = records(at.length, r);
            tree.setRecordsAtDepth(depth, at, KIND, data, 0);
            at.forEach((i, k) => model.write(i, data, k * SIZE));
          } else {
            const data = records(2 * at.length, r);
            if (kind === 'same') {
              // Half the pairs written with the bytes already there.
              at.forEach((p, k) => k % 2 === 0 && data.set(model.bytes.subarray(2 * p * SIZE, (2 * p + 2) * SIZE), 2 * k * SIZE));
            }
            const created: number[] = [];
            const pendingBefore = store.stats().pending;
            tree.setRecordsAtDepth(depth - 1, at, PAIR, data, 0, created, kind === 'owned' ? { holders: 1 } : undefined);
            if (kind === 'dense') expect(store.stats().pending).toBe(pendingBefore);
            at.forEach((p, k) => {
              model.write(2 * p, data, 2 * k * SIZE);
              model.write(2 * p + 1, data, (2 * k + 1) * SIZE);
            });
            for (let k = 0; k < at.length; k++) expect(hex(store.recordBytes(created[k]!))).toBe(hex(data.subarray(2 * k * SIZE, 2 * (k + 1) * SIZE)));
          }
          expect(hex(tree.root)).toBe(model.root());
        }
        for (const k of kept) {
          expect(hex(k.tree.root)).toBe(k.root);
          k.tree.dispose();
        }
        tree.dispose();
        store.collect();
        expect(store.stats().nodes).toBe(0);
        expect(store.stats().floating).toBe(0);
      }),
      { numRuns: 40 },
    );
  });
});
