/**
 * Record layouts: the node kinds that store a small subtree of 2^d chunks as
 * the bytes the chunks are made from (for SSZ: a fixed-size container's
 * serialization) plus a cached root (wide/records.ts makes and reads them).
 *
 * A `RecordLayout` says how the bytes become chunks — pure merkleization,
 * nothing SSZ-specific: field i is bytes [offset, offset + length); a field
 * of at most 32 bytes is chunk i, zero-padded; a longer one (at most 64
 * bytes) is chunk i = the hash of its bytes zero-padded to 64; chunks past
 * the last field are zero. Layouts are registered process-wide, one kind tag
 * each (KIND_RECORD_BASE..15, at most 6); registering the same layout twice
 * gives the same kind, and when no tag is free registration returns -1 so
 * the caller keeps another representation (wide leaves).
 *
 * A base layout may also get a *pair* layout (`registerRecordPairs`,
 * wide/recordPairs.ts): two records of the base back to back as one node one
 * level up, root H(root(A), root(B)) — the branch a list has above two
 * elements. Its fields are the base fields, then the base fields again s
 * bytes and 2^d chunks on; a layout keeps its fields' chunks (`chunks`,
 * `fieldAt`), its base kind and how many records it holds.
 *
 * Invariant: a kind's layout never changes once registered (a base
 * layout's `pair` is set once, from -1), and `KIND_DEPTH` of a record kind
 * is its layout's depth from registration on. Imports only nodes/ids.ts and
 * errors.ts: the flush (hash/) and the record nodes (wide/) both read it.
 * @module
 */
import { CoreError } from '../errors.js';
import { KIND_COUNT, KIND_DEPTH, KIND_RECORD_BASE, MAX_WIDE_DEPTH, type NodeId } from './ids.js';

/** How a record's bytes become its 2^depth chunks (see the module comment). */
export interface RecordLayout {
  /** Bytes per record. */
  readonly size: number;
  /** Inner depth d (1..6): the record stands for a subtree of 2^d chunks. */
  readonly depth: number;
  /** Field i as [offset, length] in the record's bytes: length 1..64; at most 2^depth fields. */
  readonly fields: readonly (readonly [number, number])[];
}

/** A registered layout in the flat form the hot loops read. */
export interface Layout {
  readonly kind: number;
  readonly size: number;
  readonly depth: number;
  readonly offs: Int32Array;
  readonly lens: Int32Array;
  /** Indices of the fields longer than 32 bytes (hashed into their chunk). */
  readonly longs: Int32Array;
  /** The chunk of field i (i for registered layouts; the second half of a pair starts at 2^(depth-1)). */
  readonly chunks: Int32Array;
  /** The field of chunk c, or -1 (a zero chunk). */
  readonly fieldAt: Int32Array;
  /** Pair layouts: the base kind, and the records held (2); -1 and 0 for other layouts. */
  readonly base: number;
  readonly halves: number;
  /** Base layouts: the kind of their pair once registered (`registerRecordPairs`), else -1. */
  pair: number;
}

const layouts: (Layout | undefined)[] = new Array<Layout | undefined>(KIND_COUNT).fill(undefined);
const byKey = new Map<string, number>();

function checkLayout(layout: RecordLayout): void {
  const { size, depth, fields } = layout;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_WIDE_DEPTH) throw new CoreError('BAD_INPUT', `record layout: depth ${depth} is outside 1..${MAX_WIDE_DEPTH}`);
  if (!Number.isInteger(size) || size < 1 || size > 1 << 16) throw new CoreError('BAD_INPUT', `record layout: size ${size} is outside 1..65536`);
  if (!Array.isArray(fields) || fields.length < 1 || fields.length > 1 << depth) {
    throw new CoreError('BAD_INPUT', `record layout: 1..${1 << depth} fields for depth ${depth}`);
  }
  for (const f of fields) {
    const [o, l] = f;
    if (!Number.isInteger(o) || !Number.isInteger(l) || o < 0 || l < 1 || l > 64 || o + l > size) {
      throw new CoreError('BAD_INPUT', `record layout: field [${String(o)}, ${String(l)}] is not 1..64 bytes inside ${size}`);
    }
  }
}

/**
 * The kind tag of `layout` (registered on first use, process-wide), or -1
 * when all record kinds are taken by other layouts.
 */
export function registerRecordLayout(layout: RecordLayout): number {
  checkLayout(layout);
  const key = `${layout.size}/${layout.depth}/${layout.fields.map(([o, l]) => `${o}:${l}`).join(',')}`;
  const known = byKey.get(key);
  if (known !== undefined) return known;
  const kind = KIND_RECORD_BASE + byKey.size;
  if (kind >= KIND_COUNT) return -1;
  install(kind, key, layout.size, layout.depth, layout.fields, layout.fields.map((_, i) => i), -1, 0);
  return kind;
}

/** Stores a checked layout under `kind` (fields[i] in chunk chunks[i]). */
function install(kind: number, key: string, size: number, depth: number, fields: readonly (readonly [number, number])[], chunks: readonly number[], base: number, halves: number): Layout {
  const fieldAt = new Int32Array(1 << depth).fill(-1);
  chunks.forEach((c, i) => (fieldAt[c] = i));
  const layout: Layout = {
    kind,
    size,
    depth,
    offs: Int32Array.from(fields, (f) => f[0]),
    lens: Int32Array.from(fields, (f) => f[1]),
    longs: Int32Array.from(fields.flatMap((f, i) => (f[1] > 32 ? [i] : []))),
    chunks: Int32Array.from(chunks),
    fieldAt,
    base,
    halves,
    pair: -1,
  };
  layouts[kind] = layout;
  byKey.set(key, kind);
  KIND_DEPTH[kind] = depth;
  return layout;
}

/**
 * Registers the pair layout of base record kind `kind` (see the module
 * comment) and returns its kind, or returns -1 — registering nothing — when
 * the base is too deep or too large to pair (depth 6, size over 32 KiB) or
 * no record kind is free: the caller then keeps single records. Idempotent.
 */
export function registerRecordPairs(kind: number): number {
  const base = layoutFor(kind);
  if (base.halves !== 0) throw new CoreError('BAD_INPUT', `record kind ${kind} is itself a pair layout`);
  if (base.pair >= 0) return base.pair;
  if (base.depth >= MAX_WIDE_DEPTH || 2 * base.size > 1 << 16) return -1;
  const pair = KIND_RECORD_BASE + byKey.size;
  if (pair >= KIND_COUNT) return -1;
  const fields = Array.from(base.offs, (o, i) => [o, base.lens[i]!] as const);
  const chunks = Array.from(base.chunks);
  const span = 1 << base.depth;
  const pairFields = [...fields, ...fields.map(([o, l]) => [o + base.size, l] as const)];
  install(pair, `pair:${kind}`, 2 * base.size, base.depth + 1, pairFields, [...chunks, ...chunks.map((c) => c + span)], kind, 2);
  base.pair = pair;
  return pair;
}

/** The pair kind registered for base record kind `kind` (`registerRecordPairs`), or -1 (none yet, or not a base kind). */
export function recordPairKind(kind: number): number {
  const layout = Number.isInteger(kind) ? layouts[kind] : undefined;
  return layout === undefined ? -1 : layout.pair;
}

/** The layout of a record kind, or undefined. */
export function layoutOf(kind: number): Layout | undefined {
  return layouts[kind];
}

/** Bytes a node occupies in its pool (zero subtrees: 0; see pool.ts). */
export function nodeByteSize(id: NodeId): number {
  const kind = id & 15;
  if (kind === 0) return 0;
  if (kind === 1) return 48;
  const layout = layouts[kind];
  if (layout !== undefined) return layout.size + 40;
  const d = KIND_DEPTH[kind]!;
  return d > 0 ? (32 << d) + 40 : 40;
}

/** The layout of record kind `kind`; throws `BAD_INPUT` when no layout has that kind. */
export function layoutFor(kind: number): Layout {
  const layout = Number.isInteger(kind) ? layouts[kind] : undefined;
  if (layout === undefined) throw new CoreError('BAD_INPUT', `no record layout has kind ${String(kind)}`);
  return layout;
}

