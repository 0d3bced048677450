/**
 * Memory reports: how many bytes of node storage a tree holds, and how many
 * of them it shares with another tree of the same store (each node counted
 * once, however many paths reach it). Node sizes are those of core's pools
 * (docs/CORE.md): branch 48 B, leaf and opaque 40 B, wide leaf of c chunks
 * 32·c + 40 B, record of s bytes s + 40 B; zero subtrees are shared singletons and cost nothing.
 *
 * Cost: one walk per tree with a set of visited ids, O(nodes) time and
 * memory; meant for reports and tests, not for hot paths.
 * @module
 */
import { nodeByteSize, type NodeId, type NodeStore } from '@ssztree/core';

const KIND_ZERO = 0;
const KIND_BRANCH = 1;

export interface MemoryReport {
  /** Distinct nodes reachable from the root (zero subtrees excluded). */
  readonly nodes: number;
  /** Bytes those nodes occupy in the store. */
  readonly bytes: number;
}

export interface SharedReport extends MemoryReport {
  /** Nodes and bytes also reachable from the other tree. */
  readonly sharedNodes: number;
  readonly sharedBytes: number;
}

/** Bytes one node occupies in the store's pools. */
export function nodeBytes(id: NodeId): number {
  return nodeByteSize(id);
}

/** Every distinct node below `root` (zero subtrees excluded), visited once. */
function walk(store: NodeStore, root: NodeId, visit: (id: NodeId) => void): Set<NodeId> {
  const seen = new Set<NodeId>();
  const stack: NodeId[] = [root];
  while (stack.length > 0) {
    const id = stack.pop() as NodeId;
    if ((id & 15) === KIND_ZERO || seen.has(id)) continue;
    seen.add(id);
    visit(id);
    if ((id & 15) === KIND_BRANCH) stack.push(store.rightOf(id), store.leftOf(id));
  }
  return seen;
}

/** Nodes and bytes held by the tree at `root`. */
export function treeMemory(store: NodeStore, root: NodeId): MemoryReport {
  let bytes = 0;
  const seen = walk(store, root, (id) => {
    bytes += nodeBytes(id);
  });
  return { nodes: seen.size, bytes };
}

/** `treeMemory` of `root`, plus the part shared with the tree at `other`. */
export function sharedMemory(store: NodeStore, root: NodeId, other: NodeId): SharedReport {
  const theirs = walk(store, other, () => {});
  let bytes = 0;
  let sharedBytes = 0;
  let sharedNodes = 0;
  const seen = walk(store, root, (id) => {
    const b = nodeBytes(id);
    bytes += b;
    if (theirs.has(id)) {
      sharedBytes += b;
      sharedNodes++;
    }
  });
  return { nodes: seen.size, bytes, sharedNodes, sharedBytes };
}
