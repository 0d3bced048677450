/**
 * Model-based property tests: random sequences of writes, batch writes,
 * subtree replacements (packed builds, wide leaves, records, zero subtrees), clones and
 * root computations against a plain byte-array model. Every root must equal
 * `merkleize` of the model, and every earlier version must keep its root and
 * leaves after later writes.
 */
import fc from 'fast-check';
import { digest64 } from '@ssztree/hasher';
import { describe, expect, it } from 'vitest';
import { NodeStore, registerRecordLayout, Tree, type RecordLayout } from '../src/index.js';
import { chunkOf, chunksOf, hex, modelRoot } from './helpers.js';

type Op =
  | { t: 'set'; i: number; seed: number }
  | { t: 'noop'; i: number }
  | { t: 'batch'; writes: [number, number][]; asChunks: boolean }
  | { t: 'subtree'; level: number; pos: number; seeds: number[] }
  | { t: 'wide'; level: number; pos: number; seeds: number[] }
  | { t: 'zero'; level: number; pos: number }
  | { t: 'record'; pos: number; seed: number }
  | { t: 'short'; i: number; seed: number }
  | { t: 'clone' }
  | { t: 'drop'; which: number }
  | { t: 'root' };

function opArb(depth: number): fc.Arbitrary<Op> {
  const index = fc.integer({ min: 0, max: 2 ** depth - 1 });
  const seed = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60000 }));
  const level = fc.integer({ min: 0, max: depth });
  return fc.oneof(
    { weight: 4, arbitrary: fc.record({ t: fc.constant('set' as const), i: index, seed }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('noop' as const), i: index }) },
    { weight: 3, arbitrary: fc.record({ t: fc.constant('batch' as const), writes: fc.array(fc.tuple(index, seed), { maxLength: 12 }), asChunks: fc.boolean() }) },
    {
      weight: 2,
      arbitrary: fc.record({ t: fc.constant('subtree' as const), level, pos: fc.nat(), seeds: fc.array(seed, { maxLength: 2 ** depth }) }),
    },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('wide' as const), level, pos: fc.nat(), seeds: fc.array(seed, { minLength: 64, maxLength: 64 }) }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('zero' as const), level, pos: fc.nat() }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('record' as const), pos: fc.nat(), seed }) },
    { weight: 2, arbitrary: fc.record({ t: fc.constant('short' as const), i: index, seed }) },
    { weight: 2, arbitrary: fc.constant({ t: 'clone' as const }) },
    { weight: 1, arbitrary: fc.record({ t: fc.constant('drop' as const), which: fc.nat() }) },
    { weight: 2, arbitrary: fc.constant({ t: 'root' as const }) },
  );
}

/** A record layout of depth 3: a long field (hashed), short ones of 32, 8, 1 and 20 bytes, three zero chunks. */
const LAYOUT: RecordLayout = { size: 109, depth: 3, fields: [[0, 48], [48, 32], [80, 8], [88, 1], [89, 20]] };
const RECORD = registerRecordLayout(LAYOUT);

function recordOf(seed: number): Uint8Array {
  return new Uint8Array(LAYOUT.size).map((_, i) => (seed * 7 + i * 31 + (seed >>> 3)) & 0xff);
}

function expandRecord(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(32 << LAYOUT.depth);
  LAYOUT.fields.forEach(([o, l], i) => {
    if (l > 32) {
      const padded = new Uint8Array(64);
      padded.set(bytes.subarray(o, o + l));
      out.set(digest64(padded), 32 * i);
    } else out.set(bytes.subarray(o, o + l), 32 * i);
  });
  return out;
}

interface Version {
  tree: Tree;
  model: Uint8Array;
  root: string;
}

function run(depth: number, ops: Op[]): void {
  const store = new NodeStore();
  const size = 2 ** depth;
  const model = new Uint8Array(32 * size);
  const tree = Tree.zero(depth, store);
  const versions: Version[] = [];
  const check = (): void => expect(hex(tree.root)).toBe(modelRoot(model, depth));

  for (const op of ops) {
    switch (op.t) {
      case 'set': {
        tree.setChunk(size + op.i, chunkOf(op.seed));
        model.set(chunkOf(op.seed), 32 * op.i);
        break;
      }
      case 'noop': {
        const before = tree.rootNode;
        tree.setChunk(size + op.i, model.slice(32 * op.i, 32 * op.i + 32));
        expect(tree.rootNode).toBe(before);
        break;
      }
      case 'batch': {
        const byIndex = new Map(op.writes);
        const indices = [...byIndex.keys()].sort((a, b) => a - b);
        if (op.asChunks) {
          tree.setChunksAtDepth(depth, indices, chunksOf(indices.map((i) => byIndex.get(i)!)));
        } else {
          tree.setNodesAtDepth(depth, indices, indices.map((i) => store.leaf(chunkOf(byIndex.get(i)!))));
        }
        for (const i of indices) model.set(chunkOf(byIndex.get(i)!), 32 * i);
        break;
      }
      case 'subtree': {
        const sub = depth - op.level; // depth of the replaced subtree
        const pos = op.pos % 2 ** op.level;
        const seeds = op.seeds.slice(0, 2 ** sub);
        const node = store.fromChunks(chunksOf(seeds), sub);
        tree.setNode(2 ** op.level + pos, node);
        const region = new Uint8Array(32 * 2 ** sub);
        region.set(chunksOf(seeds));
        model.set(region, 32 * pos * 2 ** sub);
        break;
      }
      case 'wide': {
        const sub = Math.min(depth - op.level, 6);
        if (sub < 1) break;
        const level = depth - sub;
        const pos = op.pos % 2 ** level;
        const seeds = op.seeds.slice(0, 2 ** sub);
        tree.setNode(2 ** level + pos, store.wide(chunksOf(seeds)));
        model.set(chunksOf(seeds), 32 * pos * 2 ** sub);
        break;
      }
      case 'record': {
        // A record standing for 8 chunks; later chunk writes into it keep it a record or make a wide leaf.
        if (depth < 3) break;
        const pos = op.pos % 2 ** (depth - 3);
        tree.setNode(2 ** (depth - 3) + pos, store.record(RECORD, recordOf(op.seed)));
        model.set(expandRecord(recordOf(op.seed)), 32 * 8 * pos);
        break;
      }
      case 'short': {
        // A chunk of 8 value bytes and zero padding: a record's 8-, 20- or 32-byte field can hold it.
        const chunk = new Uint8Array(32);
        chunk.set(chunkOf(op.seed).subarray(0, 8));
        tree.setChunk(size + op.i, chunk);
        model.set(chunk, 32 * op.i);
        break;
      }
      case 'zero': {
        const sub = depth - op.level;
        const pos = op.pos % 2 ** op.level;
        tree.setNode(2 ** op.level + pos, store.zero(sub));
        model.fill(0, 32 * pos * 2 ** sub, 32 * (pos + 1) * 2 ** sub);
        break;
      }
      case 'clone': {
        versions.push({ tree: tree.clone(), model: model.slice(), root: modelRoot(model, depth) });
        break;
      }
      case 'drop': {
        if (versions.length > 0) versions.splice(op.which % versions.length, 1)[0]!.tree.dispose();
        break;
      }
      case 'root':
        break;
    }
    check();
  }

  // Every surviving version: same root, same leaves, read two ways.
  for (const v of [...versions, { tree, model, root: modelRoot(model, depth) }]) {
    expect(hex(v.tree.root)).toBe(v.root);
    for (let i = 0; i < size; i++) expect(hex(v.tree.getChunk(size + i))).toBe(hex(v.model.subarray(32 * i, 32 * i + 32)));
    const leaves = v.tree.getNodesAtDepth(depth, 0, size).map((id) => {
      const out = new Uint8Array(32);
      store.hashInto(id, out);
      return hex(out);
    });
    expect(leaves).toEqual(Array.from({ length: size }, (_, i) => hex(v.model.subarray(32 * i, 32 * i + 32))));
  }
  for (const v of versions) v.tree.dispose();
  tree.dispose();
  store.collect();
  // Everything was released: the store is empty again.
  expect(store.stats().nodes).toBe(0);
}

describe('persistent tree against a plain array model', () => {
  for (const depth of [1, 3, 5, 8]) {
    it(`depth ${depth}: every root equals merkleize of the model, old versions never change`, () => {
      fc.assert(
        fc.property(fc.array(opArb(depth), { maxLength: 40 }), (ops) => run(depth, ops)),
        { numRuns: depth === 8 ? 60 : 150 },
      );
    });
  }
});
