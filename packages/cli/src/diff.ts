/**
 * Which fields of two values of one schema differ, found through their
 * merkle trees: a subtree whose root is the same in both is skipped whole,
 * so the cost follows the number of differences, not the size of the value.
 * Containers (progressive ones too) recurse into fields; lists and vectors
 * descend their element trees only where hashes differ, and report
 * differing indices (the first `limit` per sequence in detail, then a
 * count). A binary sequence's elements sit under one subtree; a progressive
 * list's under one subtree per spine node (1, 4, 16, … chunks), each walked
 * the same way. The element walk descends by node ids (one hash compare per
 * node) wherever both sides are branches, and by gindex below wide leaves.
 *
 * Values shown come from the trees too (only at differing leaves), so no
 * decoded copy of either input is needed.
 *
 * Invariant: a path is reported iff the values differ there; equal roots
 * report nothing. Trees are read only (`getChunk`, `getNode`), never changed.
 * @module
 */
import {
  BasicType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
  ProgressiveContainerType,
  ProgressiveListBasicType,
  ProgressiveListCompositeType,
  VectorBasicType,
  VectorCompositeType,
  type PathSegment,
  type SszType,
} from '@ssztree/types';
import type { Tree } from './tree.js';


/** Longer JSON values are cut to this many characters in the report. */
const MAX_SHOWN = 100;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

type NodeId = ReturnType<Tree['getNode']>;

/** Branches and zero subtrees (above the leaf level, where the walk uses this) have children to descend to by id. */
function descendable(store: Tree['store'], id: NodeId): boolean {
  const kind = store.kind(id);
  return kind === 'branch' || kind === 'zero';
}

/** A fixed-size container whose fields are all leaves of the diff (no containers or sequences inside). */
function isFlatRecord(type: ContainerType<Record<string, SszType<unknown>>>): boolean {
  if (type.fixedSize === null) return false;
  return Object.values(type.fields as Record<string, SszType<unknown>>).every(
    (f) => !(f instanceof ContainerType || f instanceof ListCompositeType || f instanceof VectorCompositeType || f instanceof ListBasicType || f instanceof VectorBasicType),
  );
}

function bitLength(g: bigint): number {
  return g.toString(2).length;
}

export function formatPath(path: readonly PathSegment[]): string {
  if (path.length === 0) return '(root)';
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function leUint(chunk: Uint8Array): number {
  let n = 0;
  for (let i = 7; i >= 0; i--) n = n * 256 + (chunk[i] as number);
  return n;
}

function show(type: SszType<unknown>, value: unknown): string {
  const json = JSON.stringify(type.toJson(value));
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN - 3)}...` : json;
}

type Sequence =
  | ListCompositeType<unknown>
  | VectorCompositeType<unknown>
  | ListBasicType<unknown, ArrayLike<unknown>>
  | VectorBasicType<unknown, ArrayLike<unknown>>
  | ProgressiveListCompositeType<unknown, SszType<unknown>>
  | ProgressiveListBasicType<unknown, ArrayLike<unknown>>;

/** Where a run of element positions sits: the subtree root's gindex, its depth, and its first position. */
interface Segment {
  readonly g: bigint;
  readonly depth: number;
  readonly first: number;
}

export class TreeDiff {
  readonly lines: string[] = [];

  constructor(
    private readonly root: SszType<unknown>,
    private readonly a: Tree,
    private readonly b: Tree,
    private readonly limit: number,
  ) {}

  /** Diffs the whole trees; returns the report lines (empty when equal). */
  run(): string[] {
    this.visit(this.root, [], 1n);
    return this.lines;
  }

  private same(g: bigint): boolean {
    return sameBytes(this.a.getChunk(g), this.b.getChunk(g));
  }

  /** The value of `type` at gindex `g` of `tree`. */
  private valueAt(tree: Tree, type: SszType<unknown>, g: bigint): unknown {
    return type.fromTree(tree.getNode(g), tree.store);
  }

  private visit(type: SszType<unknown>, path: PathSegment[], g: bigint): void {
    if (this.same(g)) return;
    if (type instanceof ContainerType || type instanceof ProgressiveContainerType) {
      const fields = type.fields as Record<string, SszType<unknown>>;
      if (type instanceof ContainerType && isFlatRecord(type)) {
        // A small fixed-size record (a Validator): read whole and compared field by field. Its fields may have no
        // node of their own to read back (a compact record stores bytes; a pubkey chunk is only a root).
        const va = this.valueAt(this.a, type, g) as Record<string, unknown>;
        const vb = this.valueAt(this.b, type, g) as Record<string, unknown>;
        for (const [name, ft] of Object.entries(fields)) {
          if (!ft.equals(va[name], vb[name])) this.lines.push(`${formatPath([...path, name])}: ${show(ft, va[name])} -> ${show(ft, vb[name])}`);
        }
        return;
      }
      for (const name of Object.keys(fields)) {
        const sub = [...path, name];
        this.visit(fields[name] as SszType<unknown>, sub, this.root.gindexOf(sub));
      }
      return;
    }
    if (
      type instanceof ListCompositeType ||
      type instanceof VectorCompositeType ||
      type instanceof ListBasicType ||
      type instanceof VectorBasicType ||
      type instanceof ProgressiveListCompositeType ||
      type instanceof ProgressiveListBasicType
    ) {
      this.sequence(type as Sequence, path, g);
      return;
    }
    this.lines.push(`${formatPath(path)}: ${show(type, this.valueAt(this.a, type, g))} -> ${show(type, this.valueAt(this.b, type, g))}`);
  }

  private sequence(type: Sequence, path: PathSegment[], g: bigint): void {
    const progressive = type instanceof ProgressiveListCompositeType || type instanceof ProgressiveListBasicType;
    const isList = progressive || type instanceof ListCompositeType || type instanceof ListBasicType;
    let lenA: number;
    let lenB: number;
    if (isList) {
      // A list's length is the right child of its root.
      lenA = leUint(this.a.getChunk(2n * g + 1n));
      lenB = leUint(this.b.getChunk(2n * g + 1n));
    } else lenA = lenB = (type as VectorCompositeType<unknown>).length;
    const n = Math.min(lenA, lenB);
    const where = formatPath(path);
    if (lenA !== lenB) {
      const [lo, hi, side] = lenA < lenB ? [lenA, lenB, 'b'] : [lenB, lenA, 'a'];
      const range = hi - lo === 1 ? `element ${lo}` : `elements ${lo}..${hi - 1}`;
      this.lines.push(`${where}: length ${lenA} -> ${lenB} (${range} only in ${side})`);
    }
    if (n === 0) return;
    const elem = type.elementType as SszType<unknown>;
    const packed = elem instanceof BasicType;
    const size = packed ? (elem as BasicType<unknown, never>).byteLength : 0;
    const perChunk = packed ? 32 / size : 1;
    const positions = Math.ceil(n / perChunk);
    const segments: Segment[] = [];
    if (progressive) {
      // Subtree k holds positions [(4^k − 1)/3, …) 2k levels below its root; the first element's gindex locates it.
      for (let k = 0, first = 0; first < positions; first += 4 ** k, k++) {
        segments.push({ g: this.root.gindexOf([...path, first * perChunk]) >> BigInt(2 * k), depth: 2 * k, first });
      }
    } else {
      // The element (or packed chunk) level: index 0's gindex sits `depth` levels below the contents root.
      const contents = isList ? 2n * g : g;
      segments.push({ g: contents, depth: bitLength(this.root.gindexOf([...path, 0])) - bitLength(contents), first: 0 });
    }
    let shown = 0;
    let more = 0;
    for (const seg of segments) {
      this.walkNodes(seg.g, this.a.getNode(seg.g), this.b.getNode(seg.g), seg.depth, 0, positions - seg.first, (rel) => {
        const pos = seg.first + rel;
        const leaf = (seg.g << BigInt(seg.depth)) | BigInt(rel);
        if (!packed) {
          if (shown++ < this.limit) this.visit(elem, [...path, pos], leaf);
          else more++;
          return;
        }
        // Packed: the chunk differs; compare its elements' bytes.
        const chunkA = this.a.getChunk(leaf);
        const chunkB = this.b.getChunk(leaf);
        const start = pos * perChunk;
        for (let i = start; i < Math.min(n, start + perChunk); i++) {
          const at = (i - start) * size;
          const x = chunkA.subarray(at, at + size);
          const y = chunkB.subarray(at, at + size);
          if (sameBytes(x, y)) continue;
          if (shown++ >= this.limit) {
            more++;
            continue;
          }
          this.lines.push(`${formatPath([...path, i])}: ${show(elem, elem.deserialize(x))} -> ${show(elem, elem.deserialize(y))}`);
        }
      });
    }
    if (more > 0) this.lines.push(`${where}: ${more} more differing element${more === 1 ? '' : 's'} not shown (raise --limit)`);
  }

  /**
   * `walk`, descending by node ids (`a`, `b`: the nodes at `g` in each tree)
   * instead of from the root for every chunk read, while both sides are
   * branches or zero subtrees; below anything else (wide leaves of packed
   * pages, opaque nodes) it continues by gindex.
   */
  private walkNodes(g: bigint, a: NodeId, b: NodeId, depth: number, start: number, count: number, found: (pos: number) => void): void {
    if (start >= count) return;
    const store = this.a.store;
    if (sameBytes(store.hash(a), store.hash(b))) return;
    if (depth === 0) {
      found(start);
      return;
    }
    if (!descendable(store, a) || !descendable(store, b)) {
      this.walk(g, depth, start, count, found);
      return;
    }
    const half = 2 ** (depth - 1);
    this.walkNodes(2n * g, store.left(a), store.left(b), depth - 1, start, count, found);
    this.walkNodes(2n * g + 1n, store.right(a), store.right(b), depth - 1, start + half, count, found);
  }

  /**
   * Calls `found` with each position below `g` (`depth` levels down, the
   * range starting at `start`) under `count` whose hashes differ, in order.
   * Plain recursion, not a generator: a yield would pass through every level.
   */
  private walk(g: bigint, depth: number, start: number, count: number, found: (pos: number) => void): void {
    if (start >= count || this.same(g)) return;
    if (depth === 0) {
      found(start);
      return;
    }
    const half = 2 ** (depth - 1);
    this.walk(2n * g, depth - 1, start, count, found);
    this.walk(2n * g + 1n, depth - 1, start + half, count, found);
  }
}
