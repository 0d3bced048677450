/**
 * Copying a level of records out (`NodeStore.copyRecordLevel`,
 * wide/recordLevel.ts), whole and in ranges: for lists built as record pairs and as single
 * records, at odd and even counts, after writes that put records out of
 * their build's slot runs (in place and as new versions), the bytes copied
 * are the records' bytes in order, the same as reading each record; a
 * level holding anything else (wide leaves, records of another kind, a
 * zero subtree inside the count) says false; bad arguments are
 * `CoreError`s; the trees read are left as they were.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, registerRecordLayout, registerRecordPairs, Tree } from '../src/index.js';
import { hex, VALIDATOR_LAYOUT as LAYOUT } from './helpers.js';

const KIND = registerRecordLayout(LAYOUT);
registerRecordPairs(KIND);
const OTHER = registerRecordLayout({ size: 40, depth: 2, fields: [[0, 8], [8, 32]] });
const SIZE = LAYOUT.size;

function recordBytes(n: number, seed: number): Uint8Array {
  return new Uint8Array(SIZE * n).map((_, i) => (i * 31 + seed * 7 + (i >>> 7)) & 0xff);
}

/** Every record's bytes read one by one from the tree (a pair one level up: its half). */
function readOneByOne(store: NodeStore, tree: Tree, depth: number, n: number): Uint8Array {
  const out = new Uint8Array(SIZE * n);
  for (let i = 0; i < n; i++) {
    const record = tree.recordAtDepth(depth, i);
    if (record >= 0) store.copyRecordInto(record, out, i * SIZE);
    else store.copyRecordRange(tree.recordAtDepth(depth - 1, i >>> 1), (i & 1) * SIZE, SIZE, out, i * SIZE);
  }
  return out;
}

describe('copyRecordLevel', () => {
  it('pairs and single records, odd and even counts, after writes: the records’ bytes in order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 0, max: 9 }),
        fc.nat(100),
        (n, paired, writes, depthExtra, cut) => {
          const store = new NodeStore();
          const depth = Math.max(1, Math.ceil(Math.log2(Math.max(n, 1)))) + depthExtra;
          const bytes = recordBytes(n, n + writes.length);
          const build = paired ? store.recordPairTreeFromBytes(KIND, bytes, 0, n, depth) : store.recordTreeFromBytes(KIND, bytes, 0, n, depth);
          const tree = new Tree(build, store);
          const before = tree.clone();
          const beforeRoot = hex(before.root);
          if (n > 0) {
            // Each write a record elsewhere in the pool: the slot runs of the build break there.
            const positions = [...new Set(writes.map((w) => w % n))].sort((a, b) => a - b);
            const fresh = recordBytes(positions.length, 99);
            const nodes = positions.map((_, j) => store.record(KIND, fresh, j * SIZE));
            tree.setNodesAtDepth(depth, positions, nodes);
            positions.forEach((p, j) => bytes.set(fresh.subarray(j * SIZE, (j + 1) * SIZE), p * SIZE));
          }
          tree.root;
          const out = new Uint8Array(SIZE * n + 7).fill(0xee);
          expect(store.copyRecordLevel(tree.rootNode, depth, 0, n, KIND, out, 3)).toBe(true);
          expect(hex(out.subarray(3, 3 + SIZE * n))).toBe(hex(bytes));
          expect(hex(out.subarray(3, 3 + SIZE * n))).toBe(hex(readOneByOne(store, tree, depth, n)));
          expect(out.subarray(0, 3).every((b) => b === 0xee) && out.subarray(3 + SIZE * n).every((b) => b === 0xee)).toBe(true);
          // Ranges too, in pieces as a build asks for them (a range may start at a pair's second half and end after a first).
          const pieces = new Uint8Array(SIZE * n);
          for (let at = 0, step = 1 + (cut % 7); at < n; at += step, step = 1 + ((step * 5 + cut) % 13)) {
            const len = Math.min(step, n - at);
            expect(store.copyRecordLevel(tree.rootNode, depth, at, len, KIND, pieces, at * SIZE)).toBe(true);
          }
          expect(hex(pieces)).toBe(hex(bytes));
          expect(hex(before.root)).toBe(beforeRoot);
          tree.dispose();
          before.dispose();
        },
      ),
      { numRuns: 80 },
    );
  });

  it('says false for a level of anything else, and checks its arguments', () => {
    const store = new NodeStore();
    const bytes = recordBytes(6, 1);
    const tree = new Tree(store.recordPairTreeFromBytes(KIND, bytes, 0, 6, 4), store);
    const out = new Uint8Array(SIZE * 8);
    // Past the records: the zero chunks.
    expect(store.copyRecordLevel(tree.rootNode, 4, 0, 7, KIND, out, 0)).toBe(false);
    expect(store.copyRecordLevel(tree.rootNode, 4, 6, 1, KIND, out, 0)).toBe(false);
    // Records of another kind.
    expect(store.copyRecordLevel(tree.rootNode, 4, 0, 6, OTHER, new Uint8Array(40 * 6), 0)).toBe(false);
    // A wide leaf of chunks where a record stands.
    const wide = new Tree(tree.rootNode, store);
    wide.setNodesAtDepth(3, [1], [store.wide(new Uint8Array(32 * 2).fill(3))]);
    expect(store.copyRecordLevel(wide.rootNode, 4, 0, 6, KIND, out, 0)).toBe(false);
    // The range past the wide leaf (positions 2 and 3) is still records.
    expect(store.copyRecordLevel(wide.rootNode, 4, 4, 2, KIND, out, 0)).toBe(true);
    expect(hex(out.subarray(0, 2 * SIZE))).toBe(hex(bytes.subarray(4 * SIZE, 6 * SIZE)));
    expect(store.copyRecordLevel(tree.rootNode, 4, 0, 6, KIND, out, 0)).toBe(true);
    const code = (fn: () => unknown): string => {
      try {
        fn();
      } catch (e) {
        return e instanceof CoreError ? e.code : `not a CoreError: ${String(e)}`;
      }
      return 'none';
    };
    expect(code(() => store.copyRecordLevel(tree.rootNode, 4, 0, 6, KIND, new Uint8Array(SIZE * 6 - 1), 0))).toBe('BAD_INPUT');
    expect(code(() => store.copyRecordLevel(tree.rootNode, 4, 10, 7, KIND, new Uint8Array(SIZE * 17), 0))).toBe('BAD_INPUT');
    expect(code(() => store.copyRecordLevel(tree.rootNode, 4, 0, 6, 3, out, 0))).toBe('BAD_INPUT');
    expect(code(() => store.copyRecordLevel(tree.rootNode, 4, 0, 6, registerRecordPairs(KIND), out, 0))).toBe('BAD_INPUT');
    expect(code(() => store.copyRecordLevel(tree.rootNode, 4, 0, 6, KIND, out, -1))).toBe('BAD_INPUT');
    wide.dispose();
    tree.dispose();
  });
});
