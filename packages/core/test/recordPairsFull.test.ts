/**
 * Record pairs when the registry is full (nodes/recordLayouts.ts is process-wide; this
 * file fills it): `registerRecordPairs` returns -1 and registers nothing,
 * and `recordPairTree` builds single records, the same tree `recordTree`
 * builds.
 */
import { describe, expect, it } from 'vitest';
import { NodeStore, registerRecordLayout, registerRecordPairs, Tree } from '../src/index.js';
import { hex } from './helpers.js';

const BASE = registerRecordLayout({ size: 40, depth: 2, fields: [[0, 33], [33, 7]] });
// Every other record kind, taken by distinct layouts.
for (let size = 1; registerRecordLayout({ size, depth: 1, fields: [[0, size]] }) >= 0; size++);

describe('record pairs with no kind free', () => {
  it('are not registered; pair trees are single-record trees', () => {
    expect(BASE).toBeGreaterThanOrEqual(10);
    expect(registerRecordPairs(BASE)).toBe(-1);
    expect(registerRecordPairs(BASE)).toBe(-1);
    const store = new NodeStore();
    const bytes = new Uint8Array(40 * 5).map((_, i) => (i * 13) & 0xff);
    const pairs = new Tree(store.recordPairTreeFromBytes(BASE, bytes, 0, 5, 4), store);
    const singles = new Tree(store.recordTreeFromBytes(BASE, bytes, 0, 5, 4), store);
    expect(hex(pairs.root)).toBe(hex(singles.root));
    expect(store.recordKind(pairs.getNodeAtDepth(4, 1))).toBe(BASE);
    expect(store.kind(pairs.getNodeAtDepth(3, 0))).toBe('branch');
    pairs.dispose();
    singles.dispose();
    store.collect();
    expect(store.stats().nodes).toBe(0);
  });
});
