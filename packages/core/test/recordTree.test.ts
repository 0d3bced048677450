/**
 * Bulk record trees (`recordTree` / `recordTreeFromBytes`): the subtree of
 * a list of records built and hashed in one pass. Roots equal merkleize of
 * the records' roots (each merkleize of its expanded chunks) for counts
 * across hash-batch and page boundaries and any depth; records read back
 * byte for byte; freed pages are reused without touching live trees; a fill
 * that throws leaves the store as it was; bad arguments are CoreErrors.
 */
import { merkleize } from '@ssztree/hasher';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, registerRecordLayout, Tree, type RecordLayout } from '../src/index.js';
import { RecordHasher } from '../src/hash/recordHash.js';
import { pageView } from '../src/nodes/pool.js';
import { layoutOf } from '../src/nodes/recordLayouts.js';
import { expandRecord, hex, VALIDATOR_LAYOUT as LAYOUT } from './helpers.js';

const KIND = registerRecordLayout(LAYOUT);
/** Two long fields and chunks past the last field (depth 2, 3 fields): another plan shape. */
const LAYOUT2: RecordLayout = {
  size: 103,
  depth: 2,
  fields: [
    [0, 3],
    [3, 64],
    [67, 36],
  ],
};
const KIND2 = registerRecordLayout(LAYOUT2);

/** `n` records of `layout` from `seed`, back to back after `pad` bytes. */
function rows(layout: RecordLayout, n: number, seed: number, pad = 0): Uint8Array {
  const out = new Uint8Array(pad + n * layout.size);
  for (let i = pad; i < out.length; i++) out[i] = (i * 29 + seed * 7 + (i >>> 9)) & 0xff;
  return out;
}

/** Root of one record, computed independently: expand to chunks, merkleize. */
function recordRoot(layout: RecordLayout, bytes: Uint8Array, at: number): Uint8Array {
  const chunks = expandRecord(layout, bytes, at);
  return merkleize(chunks);
}

function expectedRoot(layout: RecordLayout, bytes: Uint8Array, pad: number, n: number, depth: number): string {
  const roots = new Uint8Array(32 * n);
  for (let i = 0; i < n; i++) roots.set(recordRoot(layout, bytes, pad + i * layout.size), 32 * i);
  return hex(merkleize(roots, 2 ** depth));
}

describe('record trees', () => {
  it('hash to merkleize of the record roots across batch and page boundaries', () => {
    const store = new NodeStore();
    for (const n of [1, 2, 3, 63, 64, 2047, 2048, 2049, 4097, 5003]) {
      const bytes = rows(LAYOUT, n, n, 3);
      for (const depth of [Math.ceil(Math.log2(n)), Math.ceil(Math.log2(n)) + 2, 40]) {
        const tree = new Tree(store.recordTreeFromBytes(KIND, bytes, 3, n, depth), store);
        // Hashed as built: nothing is pending, only the root floated.
        expect(store.stats().pending).toBe(0);
        expect(hex(tree.root)).toBe(expectedRoot(LAYOUT, bytes, 3, n, depth));
        for (const i of [0, n >>> 1, n - 1]) {
          const leaf = store.getNodeAtDepth(tree.rootNode, depth, i);
          expect(store.recordKind(leaf)).toBe(KIND);
          expect(hex(store.recordBytes(leaf))).toBe(hex(bytes.subarray(3 + i * LAYOUT.size, 3 + (i + 1) * LAYOUT.size)));
          expect(hex(store.hash(leaf))).toBe(hex(recordRoot(LAYOUT, bytes, 3 + i * LAYOUT.size)));
        }
        tree.dispose();
      }
    }
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('hash layouts with several long fields and empty chunks', () => {
    const store = new NodeStore();
    for (const n of [1, 5, 2050]) {
      const bytes = rows(LAYOUT2, n, 11);
      const tree = new Tree(store.recordTreeFromBytes(KIND2, bytes, 0, n, 20), store);
      expect(hex(tree.root)).toBe(expectedRoot(LAYOUT2, bytes, 0, n, 20));
      tree.dispose();
    }
  });

  it('spread runs the same with generated code and with the fallback loop, and record by record', () => {
    for (const [layout, kind] of [
      [LAYOUT, KIND],
      [LAYOUT2, KIND2],
    ] as const) {
      const n = 300;
      const page = rows(layout, n, 17, 5);
      const expected = new Uint8Array(32 * n);
      for (let i = 0; i < n; i++) expected.set(recordRoot(layout, page, 5 + i * layout.size), 32 * i);
      for (const generate of [true, false]) {
        const hasher = new RecordHasher(layoutOf(kind)!, generate);
        // Two batches through the same staging: the second must not see the first's bytes.
        for (const count of [n, 7]) {
          hasher.begin(count);
          hasher.spreadRun(pageView(page), page, 5, count);
          const out = new Uint8Array(32 * count + 9);
          hasher.finish(count, out, 9);
          expect(hex(out.subarray(9))).toBe(hex(expected.subarray(0, 32 * count)));
        }
        hasher.begin(n);
        for (let k = 0; k < n; k++) hasher.spread(k, pageView(page), 5 + (n - 1 - k) * layout.size, page);
        const out = new Uint8Array(32 * n);
        hasher.finish(n, out, 0);
        // Row k holds record n - 1 - k: every row, the generated one-record spreader and the plan loop alike.
        for (let k = 0; k < n; k++) expect(hex(out.subarray(32 * k, 32 * k + 32))).toBe(hex(expected.subarray(32 * (n - 1 - k), 32 * (n - k))));
      }
    }
  });

  it('agree with records made one by one and with the pending flush', () => {
    const store = new NodeStore();
    const n = 3001;
    const bytes = rows(LAYOUT, n, 5);
    const bulk = new Tree(store.recordTreeFromBytes(KIND, bytes, 0, n, 12), store);
    const ids: number[] = [];
    store.recordRows(KIND, bytes, 0, n, ids);
    const lazy = new Tree(store.setNodesAtDepth(store.fromChunks(new Uint8Array(0), 12), 12, ids.map((_, i) => i), ids), store);
    expect(hex(lazy.root)).toBe(hex(bulk.root));
  });

  it('hand each fill exactly its run, in order, and take what it writes', () => {
    const store = new NodeStore();
    const n = 4500;
    const bytes = rows(LAYOUT, n, 23);
    // A half-free record page first, so runs start inside pages next to live records.
    const other = new Tree(store.recordTreeFromBytes(KIND, rows(LAYOUT, 3000, 8), 0, 3000, 12), store);
    const gone = new Tree(store.recordTreeFromBytes(KIND, rows(LAYOUT, 3000, 9), 0, 3000, 12), store);
    gone.dispose();
    store.collect();
    let next = 0;
    const tree = new Tree(
      store.recordTree(KIND, n, 13, (out, view, first, count) => {
        expect(first).toBe(next);
        expect(out.length).toBe(count * LAYOUT.size);
        expect(view.byteLength).toBe(out.length);
        expect(view.byteOffset).toBe(out.byteOffset);
        out.set(bytes.subarray(first * LAYOUT.size, (first + count) * LAYOUT.size));
        next = first + count;
      }),
      store,
    );
    expect(next).toBe(n);
    expect(hex(tree.root)).toBe(expectedRoot(LAYOUT, bytes, 0, n, 13));
    expect(hex(other.root)).toBe(expectedRoot(LAYOUT, rows(LAYOUT, 3000, 8), 0, 3000, 12));
  });

  it('reuse freed pages and leave live trees unchanged', () => {
    const store = new NodeStore();
    const a = new Tree(store.recordTreeFromBytes(KIND, rows(LAYOUT, 5000, 1), 0, 5000, 13), store);
    const bBytes = rows(LAYOUT, 3000, 2);
    const b = new Tree(store.recordTreeFromBytes(KIND, bBytes, 0, 3000, 12), store);
    const bRoot = hex(b.root);
    a.dispose();
    store.collect();
    // Built in the slots `a` left (whole free pages, stretches of a partly free one) and fresh ones.
    const cBytes = rows(LAYOUT, 4500, 3, 1);
    const c = new Tree(store.recordTreeFromBytes(KIND, cBytes, 1, 4500, 13), store);
    expect(store.stats().records).toBe(7500);
    expect(hex(c.root)).toBe(expectedRoot(LAYOUT, cBytes, 1, 4500, 13));
    expect(hex(b.root)).toBe(bRoot);
    expect(hex(store.recordBytes(store.getNodeAtDepth(b.rootNode, 12, 2999)))).toBe(hex(bBytes.subarray(2999 * 121)));
    b.dispose();
    c.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('leave the store as it was when the fill throws', () => {
    const store = new NodeStore();
    const keep = new Tree(store.recordTreeFromBytes(KIND, rows(LAYOUT, 100, 9), 0, 100, 7), store);
    const before = store.stats();
    const boom = new Error('bad value');
    let calls = 0;
    expect(() =>
      store.recordTree(KIND, 5000, 40, (out, _view, first, n) => {
        if (++calls === 2) throw boom;
        expect(out.length).toBe(n * LAYOUT.size);
        expect(first).toBe(0);
        out.fill(1);
      }),
    ).toThrow(boom);
    // Same nodes, nothing pending or floating (pages made for the failed build stay as capacity).
    expect({ ...store.stats(), bytes: 0 }).toEqual({ ...before, bytes: 0 });
    // The slots come back: the next build of the same size takes no new pages.
    const grown = store.stats().bytes;
    const bytes = rows(LAYOUT, 5000, 4);
    const t = new Tree(store.recordTreeFromBytes(KIND, bytes, 0, 5000, 40), store);
    expect(store.stats().bytes).toBeLessThanOrEqual(grown + 2 * 5000 * 48);
    expect(hex(t.root)).toBe(expectedRoot(LAYOUT, bytes, 0, 5000, 40));
    expect(hex(keep.root)).toBe(expectedRoot(LAYOUT, rows(LAYOUT, 100, 9), 0, 100, 7));
  });

  it('build the zero subtree for no records and reject bad arguments', () => {
    const store = new NodeStore();
    expect(hex(store.hash(store.recordTreeFromBytes(KIND, new Uint8Array(0), 0, 0, 5)))).toBe(hex(merkleize(new Uint8Array(0), 32)));
    const bytes = rows(LAYOUT, 4, 1);
    expect(() => store.recordTreeFromBytes(KIND, bytes, 0, 5, 3)).toThrow(CoreError);
    expect(() => store.recordTreeFromBytes(KIND, bytes, 1, 4, 3)).toThrow(CoreError);
    expect(() => store.recordTreeFromBytes(KIND, bytes, 0, 4, 1)).toThrow(/do not fit/);
    expect(() => store.recordTreeFromBytes(KIND, bytes, 0, 4, 65)).toThrow(CoreError);
    expect(() => store.recordTreeFromBytes(3, bytes, 0, 1, 3)).toThrow(/no record layout/);
    expect(() => store.recordTree(KIND, 1, 3, null as unknown as () => void)).toThrow(CoreError);
    expect(store.stats().nodes).toBe(0);
  });
});
