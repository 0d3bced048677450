/**
 * Damaged trees for the tree-serialization properties: a tree of a valid value
 * with one node (any of its first nodes, breadth first) replaced by random
 * bytes, a small integer (booleans, lengths), a zero subtree or another node of
 * the same tree. The readers of trees must fail on these with a typed error (or
 * read a value the value API reads alike); the tests compare two readers.
 */
import fc from 'fast-check';
import type { NodeId, NodeStore } from '@ssztree/core';

/** The first `cap` nodes of the tree at `root`, breadth first, with their generalized indices. */
export function nodesOf(store: NodeStore, root: NodeId, cap: number): [bigint, NodeId][] {
  const out: [bigint, NodeId][] = [];
  const queue: [bigint, NodeId][] = [[1n, root]];
  while (queue.length > 0 && out.length < cap) {
    const [g, n] = queue.shift() as [bigint, NodeId];
    out.push([g, n]);
    if (store.kind(n) === 'branch') queue.push([2n * g, store.left(n)], [2n * g + 1n, store.right(n)]);
  }
  return out;
}

/** The random choices of one damage: which node, which kind of replacement, its bytes. */
export type Damage = readonly [pick: number, how: number, chunk: Uint8Array, at: number];

export const damageArb: fc.Arbitrary<Damage> = fc.tuple(fc.nat(), fc.nat(3), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat(31));

/** The root of `root`'s tree with one node replaced as `damage` says (the old tree unchanged). */
export function damageTree(store: NodeStore, root: NodeId, [pick, how, chunk, at]: Damage): NodeId {
  const nodes = nodesOf(store, root, 400);
  const [g] = nodes[pick % nodes.length] as [bigint, NodeId];
  const small = new Uint8Array(32);
  small[0] = chunk[0] as number;
  small[at] |= 1;
  const replacement = [store.leaf(chunk), store.leaf(small), store.zero(at % 4), (nodes[(pick >>> 3) % nodes.length] as [bigint, NodeId])[1]][how] as NodeId;
  return g === 1n ? replacement : store.setNode(root, g, replacement);
}
