/**
 * Which fields of two values of one schema differ, found through their
 * merkle trees: a subtree whose root is the same in both is skipped whole,
 * so the cost follows the number of differences, not the size of the value.
 * Containers recurse into fields; lists and vectors descend their element
 * trees only where hashes differ, and report differing indices (the first
 * `limit` per sequence in detail, then a count).
 *
 * Invariant: a path is reported iff the values differ there; equal roots
 * report nothing. Trees are read only (`getChunk`), never changed.
 * @module
 */
import {
  BasicType,
  ContainerType,
  ListBasicType,
  ListCompositeType,
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

function bitLength(g: bigint): number {
  return g.toString(2).length;
}

export function formatPath(path: readonly PathSegment[]): string {
  if (path.length === 0) return '(root)';
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function show(type: SszType<unknown>, value: unknown): string {
  const json = JSON.stringify(type.toJson(value));
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN - 3)}...` : json;
}

type Sequence =
  | ListCompositeType<unknown>
  | VectorCompositeType<unknown>
  | ListBasicType<unknown, ArrayLike<unknown>>
  | VectorBasicType<unknown, ArrayLike<unknown>>;

export class TreeDiff {
  readonly lines: string[] = [];

  constructor(
    private readonly root: SszType<unknown>,
    private readonly a: Tree,
    private readonly b: Tree,
    private readonly limit: number,
  ) {}

  /** Diffs the whole values; returns the report lines (empty when equal). */
  run(valueA: unknown, valueB: unknown): string[] {
    this.visit(this.root, [], 1n, valueA, valueB);
    return this.lines;
  }

  private same(g: bigint): boolean {
    return sameBytes(this.a.getChunk(g), this.b.getChunk(g));
  }

  private visit(type: SszType<unknown>, path: PathSegment[], g: bigint, va: unknown, vb: unknown): void {
    if (this.same(g)) return;
    if (type instanceof ContainerType) {
      const fields = type.fields as Record<string, SszType<unknown>>;
      const a = va as Record<string, unknown>;
      const b = vb as Record<string, unknown>;
      for (const name of Object.keys(fields)) {
        const sub = [...path, name];
        this.visit(fields[name] as SszType<unknown>, sub, this.root.gindexOf(sub), a[name], b[name]);
      }
      return;
    }
    if (type instanceof ListCompositeType || type instanceof VectorCompositeType || type instanceof ListBasicType || type instanceof VectorBasicType) {
      this.sequence(type as Sequence, path, g, va as ArrayLike<unknown>, vb as ArrayLike<unknown>);
      return;
    }
    this.lines.push(`${formatPath(path)}: ${show(type, va)} -> ${show(type, vb)}`);
  }

  private sequence(type: Sequence, path: PathSegment[], g: bigint, va: ArrayLike<unknown>, vb: ArrayLike<unknown>): void {
    const isList = type instanceof ListCompositeType || type instanceof ListBasicType;
    const n = Math.min(va.length, vb.length);
    const where = formatPath(path);
    if (isList && va.length !== vb.length) {
      const [lo, hi, side] = va.length < vb.length ? [va.length, vb.length, 'b'] : [vb.length, va.length, 'a'];
      const range = hi - lo === 1 ? `element ${lo}` : `elements ${lo}..${hi - 1}`;
      this.lines.push(`${where}: length ${va.length} -> ${vb.length} (${range} only in ${side})`);
    }
    if (n === 0) return;
    // The element (or packed chunk) level: index 0's gindex sits `depth` levels below the contents root.
    const contents = isList ? 2n * g : g;
    const first = this.root.gindexOf([...path, 0]);
    const depth = bitLength(first) - bitLength(contents);
    const elem = type.elementType as SszType<unknown>;
    const packed = elem instanceof BasicType;
    const perChunk = packed ? 32 / (elem as BasicType<unknown, never>).byteLength : 1;
    const positions = Math.ceil(n / perChunk);
    let shown = 0;
    let more = 0;
    for (const pos of this.walk(contents, depth, 0, positions)) {
      const start = pos * perChunk;
      const end = Math.min(n, start + perChunk);
      for (let i = start; i < end; i++) {
        if (packed && elem.equals(va[i], vb[i])) continue;
        if (shown >= this.limit) {
          more++;
          continue;
        }
        shown++;
        const sub = [...path, i];
        if (packed) this.lines.push(`${formatPath(sub)}: ${show(elem, va[i])} -> ${show(elem, vb[i])}`);
        else this.visit(elem, sub, (contents << BigInt(depth)) | BigInt(i), va[i], vb[i]);
      }
    }
    if (more > 0) this.lines.push(`${where}: ${more} more differing element${more === 1 ? '' : 's'} not shown (raise --limit)`);
  }

  /** Positions below `g` (`depth` levels down, position range starting at `start`) under `count` whose hashes differ. */
  private *walk(g: bigint, depth: number, start: number, count: number): Generator<number> {
    if (start >= count || this.same(g)) return;
    if (depth === 0) {
      yield start;
      return;
    }
    const half = 2 ** (depth - 1);
    yield* this.walk(2n * g, depth - 1, start, count);
    yield* this.walk(2n * g + 1n, depth - 1, start + half, count);
  }
}
