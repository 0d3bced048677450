/**
 * Record pairs (wide/recordPairs.ts): two base records as one node a level up,
 * an odd tail a single record beside the zero chunk. Every tree is checked
 * against the same list built of single records (`recordTree`) and against
 * merkleize of the records' roots: roots, the nodes read back at the
 * element level (base records with the same bytes), proofs into both halves
 * and into the odd tail,
 * batched and single writes (which keep pairs compact and leave old trees
 * as they were), paired level collection, memory per node, and layouts with
 * fewer fields than chunks (the second half's fields start at chunk 2^d).
 */
import { merkleize } from '@ssztree/hasher';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeStore, nodeByteSize, registerRecordLayout, registerRecordPairs, Tree, verifySingleProof, type RecordLayout } from '../src/index.js';
import { layoutOf } from '../src/nodes/recordLayouts.js';
import { expandRecord, hex, VALIDATOR_LAYOUT as LAYOUT } from './helpers.js';

/** Fewer fields than chunks, a long field last: chunks 3 and 7 of a pair are zero. */
const SPARSE: RecordLayout = { size: 70, depth: 2, fields: [[0, 3], [3, 3], [6, 64]] };
const KIND = registerRecordLayout(LAYOUT);
const PAIR = registerRecordPairs(KIND);
const SPARSE_KIND = registerRecordLayout(SPARSE);
const SPARSE_PAIR = registerRecordPairs(SPARSE_KIND);

function recordBytes(size: number, n: number, seed: number): Uint8Array {
  return new Uint8Array(size * n).map((_, i) => (i * 31 + seed * 7 + (i >>> 7)) & 0xff);
}

/** The root of `n` records as SSZ merkleizes them: each record's root, padded to depth. */
function modelRoot(layout: RecordLayout, bytes: Uint8Array, n: number, depth: number): string {
  const roots = new Uint8Array(32 * Math.max(n, 1));
  for (let i = 0; i < n; i++) roots.set(merkleize(expandRecord(layout, bytes, i * layout.size)), 32 * i);
  return hex(merkleize(roots.subarray(0, 32 * n), 2 ** depth));
}

describe('record pairs', () => {
  it('register once per base: one kind, a layout of twice the size one level deeper', () => {
    expect(PAIR).toBeGreaterThan(KIND);
    expect(registerRecordPairs(KIND)).toBe(PAIR);
    expect(layoutOf(PAIR)).toMatchObject({ size: 242, depth: 4, base: KIND, halves: 2 });
    expect(Array.from(layoutOf(SPARSE_PAIR)!.chunks)).toEqual([0, 1, 2, 4, 5, 6]);
    expect(() => registerRecordPairs(PAIR)).toThrow();
    expect(nodeByteSize((5 << 4) | PAIR)).toBe(242 + 40);
  });

  for (const [name, layout, kind] of [
    ['validator-shaped', LAYOUT, KIND],
    ['sparse', SPARSE, SPARSE_KIND],
  ] as const) {
    it(`${name}: build roots, element reads and proofs agree with single records for odd and even counts`, () => {
      const store = new NodeStore();
      const depth = 12;
      for (const n of [0, 1, 2, 3, 4, 5, 64, 127, 2047, 2048, 2049]) {
        const bytes = recordBytes(layout.size, n, n);
        const paired = new Tree(store.recordPairTreeFromBytes(kind, bytes, 0, n, depth), store);
        const single = new Tree(store.recordTreeFromBytes(kind, bytes, 0, n, depth), store);
        expect(hex(paired.root), `n=${n}`).toBe(hex(single.root));
        expect(hex(paired.root)).toBe(modelRoot(layout, bytes, n, depth));
        if (n > 1) expect(store.recordKind(paired.getNodeAtDepth(depth - 1, 0))).toBe(kind === KIND ? PAIR : SPARSE_PAIR);
        if (n % 2 === 1) expect(store.kind(paired.getNodeAtDepth(depth - 1, (n - 1) / 2))).toBe('branch');
        for (const i of new Set([0, 1, n - 2, n - 1, n >> 1].filter((i) => i >= 0 && i < n))) {
          const node = paired.getNodeAtDepth(depth, i);
          expect(store.recordKind(node)).toBe(kind);
          expect(hex(store.recordBytes(node))).toBe(hex(bytes.subarray(i * layout.size, (i + 1) * layout.size)));
          expect(hex(store.hash(node))).toBe(hex(store.hash(single.getNodeAtDepth(depth, i))));
          // A proof of the element and of its last field's chunk, both halves alike.
          for (const g of [2 ** depth + i, (2 ** depth + i) * 2 ** layout.depth + layout.fields.length - 1]) {
            const proof = paired.singleProof(g);
            expect(hex(proof.leaf)).toBe(hex(single.singleProof(g).leaf));
            expect(proof.branch.map(hex)).toEqual(single.singleProof(g).branch.map(hex));
            expect(verifySingleProof(paired.root, g, proof.leaf, proof.branch)).toBe(true);
          }
        }
        if (n % 2 === 1) {
          // The odd tail's sibling: the zero chunk SSZ pads with.
          expect(paired.getNodeAtDepth(depth, n)).toBe(store.zero(0));
          expect(hex(paired.singleProof(2 ** depth + n - 1).branch[0]!)).toBe(hex(new Uint8Array(32)));
        }
        const all = [...paired.iterateNodesAtDepth(depth, 0, Math.max(n, 1))];
        if (n > 0) expect(all.map((id) => hex(store.recordBytes(id))).join('')).toBe(hex(bytes));
        const collected = store.collectPaired(paired.rootNode, depth, n)!;
        expect(collected.length).toBe(n);
        for (let i = 0; i + 1 < n; i += 2) expect(collected[i]).toBe(collected[i + 1]);
        if (n % 2 === 1) expect(store.recordKind(collected[n - 1]!)).toBe(kind);
        paired.dispose();
        single.dispose();
      }
      store.collect();
      expect(store.stats().nodes).toBe(0);
    });
  }

  it('writes of base records make new pairs, equal bytes change nothing, other writes stay right, old trees stay', () => {
    const store = new NodeStore();
    const depth = 6;
    const n = 41;
    const bytes = recordBytes(121, n, 3);
    const a = new Tree(store.recordPairTreeFromBytes(KIND, bytes, 0, n, depth), store);
    const rootA = hex(a.root);
    const b = a.clone();
    const c = new Tree(store.recordTreeFromBytes(KIND, bytes, 0, n, depth), store);
    // Same bytes: the very same root id.
    b.setNodesAtDepth(depth, [4, 5], [store.record(KIND, bytes, 4 * 121), store.record(KIND, bytes, 5 * 121)]);
    expect(b.rootNode).toBe(a.rootNode);
    b.setNode(2 ** depth + 39, store.record(KIND, bytes, 39 * 121));
    expect(b.rootNode).toBe(a.rootNode);
    // New bytes into the left half, the right half, both, a push onto the odd tail and past it.
    const fresh = recordBytes(121, 6, 99);
    const rec = (k: number) => store.record(KIND, fresh, k * 121);
    b.setNodesAtDepth(depth, [2, 7, 8, 9, 41], [rec(0), rec(1), rec(2), rec(3), rec(4)]);
    c.setNodesAtDepth(depth, [2, 7, 8, 9, 41], [rec(0), rec(1), rec(2), rec(3), rec(4)]);
    b.setNode(2 ** depth + 42, rec(5));
    c.setNode(2 ** depth + 42, rec(5));
    b.setNode(2 ** depth + 43, rec(1));
    c.setNode(2 ** depth + 43, rec(1));
    expect(hex(b.root)).toBe(hex(c.root));
    // Pairs stay pairs, and records written beside a single one (the odd tail, 40) or side by side (41, 42) pair up.
    for (const p of [1, 3, 4, 20, 21]) expect(store.recordKind(b.getNodeAtDepth(depth - 1, p))).toBe(PAIR);
    expect(store.recordKind(b.getNodeAtDepth(depth, 41))).toBe(KIND);
    // Zero chunks (truncation) at the element level: no pair says that, a branch over a record and zero does.
    b.setNodesAtDepth(depth, [0, 1, 11], [store.zero(0), store.zero(0), store.zero(0)]);
    c.setNodesAtDepth(depth, [0, 1, 11], [store.zero(0), store.zero(0), store.zero(0)]);
    expect(store.kind(b.getNodeAtDepth(depth - 1, 5))).toBe('branch');
    expect(hex(b.root)).toBe(hex(c.root));
    // A chunk write into a field, and a non-record node at the element level: the generic paths, still right.
    const chunk = new Uint8Array(32).fill(7);
    b.setChunk((2 ** depth + 13) * 8 + 2, chunk);
    c.setChunk((2 ** depth + 13) * 8 + 2, chunk);
    b.setNode(2 ** depth + 14, store.wide(new Uint8Array(256).fill(1)));
    c.setNode(2 ** depth + 14, store.wide(new Uint8Array(256).fill(1)));
    expect(hex(b.root)).toBe(hex(c.root));
    expect(hex(a.root)).toBe(rootA);
    expect(hex(store.recordBytes(a.getNodeAtDepth(depth, 7)))).toBe(hex(bytes.subarray(7 * 121, 8 * 121)));
    for (const t of [a, b, c]) t.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('random writes of records and zero chunks agree with single records (property)', () => {
    const depth = 5;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 32 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 31 }), fc.integer({ min: -1, max: 200 }), fc.boolean()), { maxLength: 30 }),
        (n, writes) => {
          const store = new NodeStore();
          const bytes = recordBytes(121, n, 5);
          const pairs = new Tree(store.recordPairTreeFromBytes(KIND, bytes, 0, n, depth), store);
          const singles = new Tree(store.recordTreeFromBytes(KIND, bytes, 0, n, depth), store);
          const before = hex(pairs.root);
          const versions = [pairs.clone()];
          for (const [i, seed, batched] of writes) {
            const node = seed < 0 ? store.zero(0) : store.record(KIND, recordBytes(121, 1, seed), 0);
            if (batched) {
              pairs.setNodesAtDepth(depth, [i], [node]);
              singles.setNodesAtDepth(depth, [i], [node]);
            } else {
              pairs.setNode(2 ** depth + i, node);
              singles.setNode(2 ** depth + i, node);
            }
            versions.push(pairs.clone());
          }
          expect(hex(pairs.root)).toBe(hex(singles.root));
          expect(hex(versions[0]!.root)).toBe(before);
          for (let i = 0; i < 32; i++) expect(hex(store.hash(pairs.getNodeAtDepth(depth, i)))).toBe(hex(store.hash(singles.getNodeAtDepth(depth, i))));
        },
      ),
      { numRuns: 60 },
    );
  });
});
