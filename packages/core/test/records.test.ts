/**
 * Records: one node holding a record's bytes, standing for the subtree of
 * chunks its layout makes of them. Roots equal merkleize of the expanded
 * chunks (short fields padded, long fields hashed), whether built one by one
 * or in bulk; navigation, proofs, level reads and chunk writes treat a record
 * as a wide leaf; writes its bytes can express stay records; slots are
 * reclaimed; stats count them.
 */
import { merkleize } from '@ssztree/hasher';
import { describe, expect, it } from 'vitest';
import { CoreError, NodeStore, nodeByteSize, registerRecordLayout, Tree, verifySingleProof, type RecordLayout } from '../src/index.js';
import { chunkOf, expandRecord, hex } from './helpers.js';

/** A validator-shaped layout: 48-byte key, 32-byte credentials, 1-byte flag, four 8-byte numbers (121 bytes, depth 3). */
const LAYOUT: RecordLayout = {
  size: 121,
  depth: 3,
  fields: [
    [0, 48],
    [48, 32],
    [80, 1],
    [81, 8],
    [89, 8],
    [97, 8],
    [105, 8],
    [113, 8],
  ],
};
const KIND = registerRecordLayout(LAYOUT);

function recordBytes(seed: number): Uint8Array {
  const b = new Uint8Array(LAYOUT.size);
  for (let i = 0; i < b.length; i++) b[i] = (seed * 13 + i * 7) & 0xff;
  b[80] = seed & 1;
  return b;
}

/** The chunks the layout makes of `bytes`, computed independently. */
const expand = (bytes: Uint8Array, layout: RecordLayout = LAYOUT, at = 0): Uint8Array => expandRecord(layout, bytes, at);

describe('records', () => {
  it('register once per layout, with checked layouts', () => {
    expect(KIND).toBeGreaterThanOrEqual(10);
    expect(registerRecordLayout({ ...LAYOUT, fields: LAYOUT.fields.map((f) => [f[0], f[1]] as const) })).toBe(KIND);
    expect(() => registerRecordLayout({ size: 8, depth: 0, fields: [[0, 8]] })).toThrow(CoreError);
    expect(() => registerRecordLayout({ size: 8, depth: 1, fields: [[0, 8], [4, 4], [0, 1]] })).toThrow(CoreError);
    expect(() => registerRecordLayout({ size: 100, depth: 1, fields: [[0, 65]] })).toThrow(CoreError);
    expect(() => registerRecordLayout({ size: 8, depth: 1, fields: [[4, 8]] })).toThrow(CoreError);
    expect(nodeByteSize(KIND)).toBe(121 + 40);
  });

  it('hash to merkleize of their expanded chunks, one by one and in bulk', () => {
    const store = new NodeStore();
    const single = store.record(KIND, recordBytes(1));
    expect(store.kind(single)).toBe('wide');
    expect(store.wideDepth(single)).toBe(3);
    expect(store.recordKind(single)).toBe(KIND);
    expect(hex(store.hash(single))).toBe(hex(merkleize(expand(recordBytes(1)))));
    expect(hex(store.wideChunks(single))).toBe(hex(expand(recordBytes(1))));
    expect(hex(store.recordBytes(single))).toBe(hex(recordBytes(1)));

    // Bulk: 5000 records back to back at an odd offset (more than one flush batch, several pages).
    const n = 5000;
    const bytes = new Uint8Array(3 + n * LAYOUT.size);
    for (let i = 0; i < n; i++) bytes.set(recordBytes(i + 7), 3 + i * LAYOUT.size);
    const ids: number[] = [];
    store.recordRows(KIND, bytes, 3, n, ids);
    expect(store.stats().records).toBe(n + 1);
    expect(store.stats().pending).toBe(n);
    const tree = new Tree(store.fromChunks(new Uint8Array(0), 13), store);
    tree.setNodesAtDepth(13, ids.map((_, i) => i), ids);
    expect(store.stats().pending).toBeGreaterThan(0);
    const leaves = new Uint8Array(32 * 8192);
    for (let i = 0; i < n; i++) leaves.set(merkleize(expand(bytes, LAYOUT, 3 + i * LAYOUT.size)), 32 * i);
    expect(hex(tree.root)).toBe(hex(merkleize(leaves)));
    expect(store.stats().pending).toBe(0);
    ids.forEach((id, i) => i % 997 === 0 && expect(hex(store.recordBytes(id))).toBe(hex(recordBytes(i + 7))));

    expect(() => store.recordRows(KIND, bytes, 4, n, [])).toThrow(CoreError);
    expect(() => store.record(99, bytes)).toThrow(CoreError);
    expect(() => store.recordBytes(store.leaf(chunkOf(1)))).toThrow(CoreError);
  });

  it('are read, proved and level-copied as the wide leaf they stand for', () => {
    const store = new NodeStore();
    const tree = Tree.zero(4, store);
    const bytes = recordBytes(3);
    const chunks = expand(bytes);
    tree.setNode(3, store.record(KIND, bytes)); // depth-1 position 1: chunks 8..15 at depth 4
    const model = new Uint8Array(32 * 16);
    model.set(chunks, 32 * 8);
    expect(hex(tree.root)).toBe(hex(merkleize(model)));
    for (let i = 0; i < 8; i++) expect(hex(tree.getChunk(16 + 8 + i))).toBe(hex(chunks.subarray(32 * i, 32 * i + 32)));
    // An inner node of the record, and a proof of the pubkey-like chunk through it.
    expect(hex(store.hash(tree.getNode(6)))).toBe(hex(merkleize(chunks.subarray(0, 128))));
    expect(hex(store.hash(tree.getNode(13)))).toBe(hex(merkleize(chunks.subarray(64, 128))));
    const proof = tree.singleProof(16 + 8);
    expect(hex(proof.leaf)).toBe(hex(chunks.subarray(0, 32)));
    expect(verifySingleProof(tree.root, 16 + 8, proof.leaf, proof.branch)).toBe(true);
    const out = new Uint8Array(32 * 16);
    expect(store.copyLevelBytes(tree.rootNode, 4, 32 * 16, out, 0)).toBe(true);
    expect(hex(out)).toBe(hex(model));
    expect(store.getNodesAtDepth(tree.rootNode, 4, 8, 8).map((id) => hex(store.chunk(id)))).toEqual(Array.from({ length: 8 }, (_, i) => hex(chunks.subarray(32 * i, 32 * i + 32))));
  });

  it('take writes their bytes can express as new records; others make a wide leaf; old versions never change', () => {
    const store = new NodeStore();
    const bytes = recordBytes(5);
    const tree = new Tree(store.record(KIND, bytes), store);
    const old = tree.clone();
    const first = tree.rootNode;
    // Field 3 (8 bytes at 81): a padded chunk; same value is a no-op.
    const same = new Uint8Array(32);
    same.set(bytes.subarray(81, 89));
    tree.setChunk(8 + 3, same);
    expect(tree.rootNode).toBe(first);
    const value = new Uint8Array(32);
    value.set([1, 2, 3, 4, 5, 6, 7, 8]);
    tree.setChunk(8 + 3, value);
    expect(store.recordKind(tree.rootNode)).toBe(KIND);
    const next = bytes.slice();
    next.set(value.subarray(0, 8), 81);
    expect(hex(store.recordBytes(tree.rootNode))).toBe(hex(next));
    expect(hex(tree.root)).toBe(hex(merkleize(expand(next))));
    // The long field's chunk unchanged stays a record.
    tree.setChunk(8 + 0, expand(next).subarray(0, 32));
    expect(store.recordKind(tree.rootNode)).toBe(KIND);
    // A chunk with bytes past the field's length, or a new hash for the long field: a plain wide leaf.
    const wide = expand(next);
    const junk = chunkOf(77);
    tree.setChunk(8 + 2, junk);
    wide.set(junk, 64);
    expect(store.recordKind(tree.rootNode)).toBe(-1);
    expect(store.wideDepth(tree.rootNode)).toBe(3);
    expect(hex(tree.root)).toBe(hex(merkleize(wide)));
    // The first version is untouched.
    expect(old.rootNode).toBe(first);
    expect(hex(old.root)).toBe(hex(merkleize(expand(bytes))));
    expect(hex(store.recordBytes(first))).toBe(hex(bytes));
    // A whole-subtree write below a record expands it.
    const t2 = new Tree(store.record(KIND, bytes), store);
    t2.setNode(4, store.branch(store.leaf(chunkOf(1)), store.leaf(chunkOf(2))));
    const model = expand(bytes);
    model.set(chunkOf(1), 0);
    model.set(chunkOf(2), 32);
    expect(hex(t2.root)).toBe(hex(merkleize(model)));
  });

  it('copy a range of their bytes (copyRecordRange), checked', () => {
    const store = new NodeStore();
    const bytes = recordBytes(5);
    const id = store.record(KIND, bytes);
    const out = new Uint8Array(200);
    store.copyRecordRange(id, 48, 32, out, 10);
    expect(hex(out.subarray(10, 42))).toBe(hex(bytes.subarray(48, 80)));
    const code = (fn: () => void) => {
      try {
        fn();
      } catch (e) {
        return e instanceof CoreError ? e.code : String(e);
      }
      return 'none';
    };
    expect(code(() => store.copyRecordRange(id, 100, 30, out, 0))).toBe('BAD_INPUT');
    expect(code(() => store.copyRecordRange(id, 0, 121, out, 100))).toBe('BAD_INPUT');
    expect(code(() => store.copyRecordRange(store.leaf(chunkOf(1)), 0, 1, out, 0))).toBe('BAD_NODE');
  });

  it('free their slots for reuse and report their bytes', () => {
    const store = new NodeStore();
    const n = 3000;
    const bytes = new Uint8Array(n * LAYOUT.size);
    for (let i = 0; i < n; i++) bytes.set(recordBytes(i), i * LAYOUT.size);
    const build = (): Tree => {
      const ids: number[] = [];
      store.recordRows(KIND, bytes, 0, n, ids);
      const tree = Tree.zero(12, store);
      tree.setNodesAtDepth(12, ids.map((_, i) => i), ids);
      tree.root;
      return tree;
    };
    const a = build();
    const before = store.stats();
    expect(before.records).toBe(n);
    expect(before.nodes).toBe(n + store.stats().branches);
    const pool = store.pools[KIND]!;
    expect(pool.dataBytes).toBe(121);
    const pages = pool.d8.length;
    const poolBytes = pool.byteLength() - pool.free.byteLength;
    a.dispose();
    store.collect();
    expect(store.stats().records).toBe(0);
    const b = build();
    expect(store.stats().records).toBe(n);
    expect(pool.d8.length).toBe(pages); // the freed slots were reused
    expect(pool.byteLength() - pool.free.byteLength).toBe(poolBytes); // pages only: the free stack's array may grow
    b.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });

  it('hash long fields of any length up to 64 and layouts of other depths', () => {
    const layout: RecordLayout = { size: 100, depth: 2, fields: [[0, 33], [33, 64], [97, 3]] };
    const kind = registerRecordLayout(layout);
    const store = new NodeStore();
    const bytes = new Uint8Array(100).map((_, i) => (i * 29 + 1) & 0xff);
    const ids: number[] = [];
    store.recordRows(kind, bytes, 0, 1, ids);
    const one = store.record(kind, bytes);
    expect(hex(store.hash(ids[0]!))).toBe(hex(merkleize(expand(bytes, layout))));
    expect(hex(store.hash(one))).toBe(hex(merkleize(expand(bytes, layout))));
  });
});
