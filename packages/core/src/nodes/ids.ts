/**
 * Node ids: 31-bit non-negative integers (V8 small integers) that carry their
 * pool in the low 4 bits and their slot inside that pool in the upper 27.
 *
 *   id = (slot << 4) | kind
 *
 * The kind tag lets every pool store only what its nodes need (a leaf pays
 * for no child links) and lets hot loops find a node's storage with two
 * shifts and a mask, no lookup table keyed by id.
 *
 * Invariant: ids of the zero pool are `zeroId(depth) = depth << 4` for depths
 * 0..64; they are created once, pre-hashed, and never freed.
 * @module
 */

/** A node of a `NodeStore`, as returned by its constructors and navigation. */
export type NodeId = number;

/** Kind tags (the low 4 bits of an id). */
export const KIND_ZERO = 0;
export const KIND_BRANCH = 1;
export const KIND_LEAF = 2;
export const KIND_OPAQUE = 3;
/** Wide leaves of inner depth d (2^d chunks) have kind KIND_WIDE_BASE + d - 1. */
export const KIND_WIDE_BASE = 4;
/** Deepest wide leaf: 2^6 = 64 chunks (2 KiB) per record. */
export const MAX_WIDE_DEPTH = 6;
/**
 * Record kinds: KIND_RECORD_BASE.. KIND_COUNT - 1, one per registered record
 * layout (recordLayouts.ts). A record is stored as its serialized bytes and
 * behaves as a wide leaf of its layout's inner depth.
 */
export const KIND_RECORD_BASE = KIND_WIDE_BASE + MAX_WIDE_DEPTH;
export const KIND_COUNT = 16;

/**
 * Inner depth by kind tag: 1..6 for wide leaves, the layout's depth for
 * registered record kinds, 0 for everything else. Written only by the
 * record registry (process-wide, at most once per kind).
 */
export const KIND_DEPTH = new Int8Array(KIND_COUNT);
for (let d = 1; d <= MAX_WIDE_DEPTH; d++) KIND_DEPTH[KIND_WIDE_BASE + d - 1] = d;

export const KIND_BITS = 4;
export const KIND_MASK = 15;
/** Slots per pool: 2^27, so that `slot << 4` stays below 2^31. */
export const MAX_SLOTS = 1 << 27;
/** Deepest zero subtree (SSZ limits reach 2^64 chunks). */
export const MAX_ZERO_DEPTH = 64;

export function kindOf(id: NodeId): number {
  return id & KIND_MASK;
}

export function slotOf(id: NodeId): number {
  return id >>> KIND_BITS;
}

export function makeId(slot: number, kind: number): NodeId {
  return (slot << KIND_BITS) | kind;
}

export function zeroId(depth: number): NodeId {
  return depth << KIND_BITS;
}

/** True for wide leaves and records (nodes that stand for a small subtree of chunks). */
export function isWideKind(kind: number): boolean {
  return KIND_DEPTH[kind]! > 0;
}

/** Inner depth of a wide-leaf or record kind. */
export function wideDepthOfKind(kind: number): number {
  return KIND_DEPTH[kind]!;
}

/** True for record kinds (serialized bytes plus root, see wide/records.ts). */
export function isRecordKind(kind: number): boolean {
  return kind >= KIND_RECORD_BASE;
}

/** What a node is (`NodeStore.kind`): a shared zero subtree, a branch, a leaf chunk, an opaque hash, or a wide leaf. */
export type NodeKind = 'zero' | 'branch' | 'leaf' | 'opaque' | 'wide';

export function kindName(kind: number): NodeKind {
  switch (kind) {
    case KIND_ZERO:
      return 'zero';
    case KIND_BRANCH:
      return 'branch';
    case KIND_LEAF:
      return 'leaf';
    case KIND_OPAQUE:
      return 'opaque';
    default:
      return 'wide';
  }
}
