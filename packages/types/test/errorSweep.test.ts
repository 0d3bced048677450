/**
 * Only `SszError` leaves the public view and proof API. Every schema kind
 * (one line each in `KINDS`; consensus containers of every fork follow) is
 * swept with out-of-range and wrong-type paths, indices and values through
 * `gindexOf`, `createProof` (on a view and on a tree), `get`/`set`/`push`,
 * field reads and writes, `setField`, `value =` and the methods of a
 * disposed view. Each call either succeeds — and then a proof verifies
 * against the root at the gindex `gindexOf` gives — or throws an `SszError`
 * whose code names the problem: `BAD_PATH` for a path or index the value
 * does not have, `INVALID_VALUE` for a value the type cannot hold,
 * `LIMIT_EXCEEDED` for a push onto a full list, `STALE_VIEW` after dispose.
 * Never a `CoreError`, a `TypeError` or a `RangeError`.
 *
 * The rule for lists (docs/VIEWS.md, "Proofs past a list's length"): a path
 * may name an element only below the length the proven tree stores; that
 * is what makes `createProof` past the length `BAD_PATH` for every kind.
 */
import { Tree } from '@ssztree/core';
import { describe, expect, it } from 'vitest';
import {
  BitArray,
  bitlist,
  bitvector,
  boolean,
  byteList,
  byteVector,
  container,
  list,
  SszError,
  SszType,
  TreeView,
  uint8,
  uint16,
  uint32,
  uint64,
  uint64Number,
  uint128,
  uint256,
  union,
  vector,
  verifyProof,
  type Path,
  type PathSegment,
  type SszErrorCode,
} from '../src/index.js';
import { FORKS, minimal } from '../src/consensus/index.js';

interface Kind {
  readonly name: string;
  readonly type: SszType<unknown>;
  readonly value: unknown;
}
const kind = <V>(name: string, type: SszType<V>, value: V): Kind => ({ name, type: type as SszType<unknown>, value });

const Pair = container({ a: uint64, b: boolean }, 'Pair');
const Nested = container({ n: uint16, pairs: list(Pair, 8), bits: bitlist(20), tail: byteList(40) }, 'Nested');
const bits = (n: number, set: number[]) => BitArray.fromBoolArray(Array.from({ length: n }, (_, i) => set.includes(i)));

/** One line per schema kind: a new kind (progressive lists, …) is one more line. */
const KINDS: Kind[] = [
  kind('uint8', uint8, 7),
  kind('uint32', uint32, 70_000),
  kind('uint64', uint64, 5n),
  kind('uint64 as number', uint64Number, 12),
  kind('uint128', uint128, 2n ** 100n),
  kind('uint256', uint256, 2n ** 200n),
  kind('boolean', boolean, true),
  kind('bitvector', bitvector(300), bits(300, [0, 299])),
  kind('bitlist', bitlist(600), bits(260, [3, 259])),
  kind('empty bitlist', bitlist(600), bits(0, [])),
  kind('byte vector', byteVector(48), new Uint8Array(48).fill(9)),
  kind('byte list', byteList(100), new Uint8Array(40).fill(3)),
  kind('empty byte list', byteList(100), new Uint8Array(0)),
  kind('packed vector', vector(uint64, 9), BigUint64Array.from({ length: 9 }, (_, i) => BigInt(i))),
  kind('composite vector', vector(Pair, 3), [0, 1, 2].map((i) => ({ a: BigInt(i), b: i % 2 === 0 }))),
  kind('packed list', list(uint64, 100), BigUint64Array.from([1n, 2n, 3n, 4n, 5n])),
  kind('packed list of bytes', list(uint8, 100), Uint8Array.from([1, 2, 3])),
  kind('empty packed list', list(uint32, 100), new Uint32Array(0)),
  kind('composite list', list(Pair, 100), [{ a: 1n, b: true }, { a: 2n, b: false }]),
  kind('empty composite list', list(Pair, 100), []),
  kind('container', Nested, { n: 3, pairs: [{ a: 9n, b: true }], bits: bits(5, [1]), tail: new Uint8Array(33).fill(1) }),
  kind('union', union([null, uint64, Pair]), { selector: 2, value: { a: 4n, b: false } }),
  kind('union of none', union([null, uint64]), { selector: 0, value: null }),
];

/** Consensus containers: every container of every fork (minimal preset) at its default value, plus a state with validators. */
function consensusKinds(): Kind[] {
  const out: Kind[] = [];
  for (const fork of FORKS) {
    for (const [name, type] of Object.entries(minimal[fork])) {
      if (type instanceof SszType && /^[A-Z]/.test(name)) out.push(kind(`${fork}.${name}`, type as SszType<unknown>, (type as SszType<unknown>).defaultValue()));
    }
  }
  const State = minimal.electra.BeaconState;
  const state = State.defaultValue();
  const validator = minimal.electra.Validator.defaultValue();
  state.validators = [0, 1, 2].map((i) => ({ ...validator, effective_balance: BigInt(i) }));
  state.balances = BigUint64Array.from([1n, 2n, 3n]);
  out.push(kind('electra.BeaconState with 3 validators', State, state));
  return out;
}

/** Segments that are not positions of anything, or of no value here. */
const BAD_SEGMENTS: unknown[] = [-1, 1.5, NaN, Infinity, -Infinity, 2 ** 53, 2 ** 32, 'nope', '', '0', null, undefined, {}, [], true, 10n, Symbol('s')];
/** Values no SSZ type accepts as an element or a field, or accepts only some kinds of. */
const WRONG_VALUES: unknown[] = ['x', -1, 1.5, NaN, 2n ** 300n, -1n, null, undefined, {}, [], new Uint8Array(3), true, Symbol('v')];

interface Outcome {
  readonly what: string;
  readonly error?: unknown;
}

/** Calls `f`; a throw is kept for checking, a non-SszError included. */
function attempt(what: string, f: () => void): Outcome {
  try {
    f();
    return { what };
  } catch (error) {
    return { what, error };
  }
}

/** Every error an SszError with one of `codes`, whose message names the code. */
function expectTyped(outcomes: readonly Outcome[], codes: readonly SszErrorCode[]): void {
  const wrong = outcomes
    .filter((o) => o.error !== undefined && !(o.error instanceof SszError && codes.includes(o.error.code) && o.error.message.startsWith(o.error.code)))
    .map((o) => `${o.what}: ${o.error instanceof Error ? `${o.error.name} ${(o.error as { code?: string }).code ?? ''} ${o.error.message}` : String(o.error)}`);
  expect(wrong).toEqual([]);
}

const show = (p: readonly unknown[]): string => `[${p.map((s) => (typeof s === 'symbol' ? 'Symbol' : typeof s === 'bigint' ? `${s}n` : JSON.stringify(s) ?? String(s))).join(', ')}]`;

/**
 * Valid prefixes of a value's paths, found by trying candidate segments and
 * keeping the ones `createProof` proves (so lists contribute present
 * elements only): [] first, then down to `depth` levels, at most `most`.
 */
function prefixes(k: Kind, view: TreeView<unknown>, outcomes: Outcome[], depth = 3, most = 40): Path[] {
  const found: Path[] = [[]];
  for (let i = 0; i < found.length && found.length < most; i++) {
    const p = found[i]!;
    if (p.length >= depth) continue;
    const type = typeAt(k.type, p);
    if (type === null) continue;
    const fields = (type as { fieldNames?: readonly string[] }).fieldNames ?? [];
    for (const seg of [...fields, 0, 1, 2, 'length', 'selector', 'value']) {
      const next = [...p, seg];
      const tried = attempt(`createProof ${show(next)}`, () => void k.type.createProof(view, [next]));
      // Not a position of this value: the error is checked with the rest.
      if (tried.error !== undefined) outcomes.push(tried);
      else if (found.length < most) found.push(next);
    }
  }
  return found;
}

/** The type at `path` (null: a chunk of basic values), through the schema's own steps. */
function typeAt(type: SszType<unknown>, path: Path): SszType<unknown> | null {
  let cur: SszType<unknown> | null = type;
  for (const seg of path) cur = cur === null ? null : (cur._pathStep(seg).next as SszType<unknown> | null);
  return cur;
}

/** Out-of-range indices for the sequence at `path`: its length and past it, its limit and past it. */
function rangeSegments(type: SszType<unknown> | null, view: TreeView<unknown>, path: Path): number[] {
  if (type === null) return [];
  const t = type as { limit?: number; length?: number };
  const out = [t.limit, t.limit === undefined ? undefined : t.limit - 1, t.length, t.length === undefined ? undefined : t.length + 1];
  const at = viewAt(view, path);
  const length = (at as unknown as { length?: unknown } | undefined)?.length;
  if (typeof length === 'number') out.push(length, length + 1);
  return out.filter((n): n is number => typeof n === 'number' && n >= 0);
}

/** The view at `path` when the path goes through views (undefined where it reaches a value). */
function viewAt(view: TreeView<unknown>, path: Path): TreeView<unknown> | undefined {
  let cur: unknown = view;
  for (const seg of path) {
    if (!(cur instanceof TreeView)) return undefined;
    const c = cur as unknown as { get?: (i: number) => unknown; fieldNames?: unknown } & Record<string, unknown>;
    if (typeof seg === 'number' && typeof c.get === 'function') cur = c.get(seg);
    else if (typeof seg === 'string' && seg in c && seg !== 'length') cur = c[seg];
    else return undefined;
  }
  return cur instanceof TreeView ? cur : undefined;
}

/** The sweep on a view built from the value and on one decoded from bytes (packed records, wide leaves). */
function sweepPaths(k: Kind): Outcome[] {
  return [...sweepPathsOf(k, k.type.toView(k.value)), ...sweepPathsOf(k, k.type.deserializeToView(k.type.serialize(k.value)))];
}

function sweepPathsOf(k: Kind, view: TreeView<unknown>): Outcome[] {
  const tree = view.commit();
  const root = view.hashTreeRoot();
  const outcomes: Outcome[] = [];
  for (const p of prefixes(k, view, outcomes)) {
    const type = typeAt(k.type, p);
    for (const seg of [...BAD_SEGMENTS, ...rangeSegments(type, view, p)]) {
      const path = [...p, seg] as PathSegment[];
      let gindex: bigint | undefined;
      outcomes.push(attempt(`gindexOf ${show(path)}`, () => void (gindex = k.type.gindexOf(path))));
      for (const [on, source] of [['view', view], ['tree', tree]] as const) {
        outcomes.push(
          attempt(`createProof(${on}) ${show(path)}`, () => {
            const proof = k.type.createProof(source, [path]);
            // A proof that is made must verify, at the gindex the schema gives.
            expect(proof.kind === 'single' && proof.gindex === gindex && verifyProof(root, proof), `${k.name} ${show(path)}`).toBe(true);
          }),
        );
      }
      // The same path in a multiproof beside a good one (the root: they overlap when the path is good).
      outcomes.push(attempt(`createProof(multi) ${show(path)}`, () => void k.type.createProof(view, [[], path])));
      // Through an element past the length, one level further down.
      if (typeof seg === 'number' && type !== null) {
        let below: PathSegment = 0;
        try {
          below = (typeAt(k.type, path) as { fieldNames?: readonly string[] } | null)?.fieldNames?.[0] ?? 0;
        } catch {
          // not a position of the schema: any segment below it will do
        }
        outcomes.push(attempt(`createProof ${show([...path, below])}`, () => void k.type.createProof(view, [[...path, below]])));
      }
    }
    // A multiproof of overlapping or repeated good paths.
    if (p.length > 0) {
      outcomes.push(attempt(`createProof(multi) [] and ${show(p)}`, () => void k.type.createProof(view, [[], p])));
      outcomes.push(attempt(`createProof(multi) ${show(p)} twice`, () => void k.type.createProof(view, [p, p])));
    }
  }
  // Paths that are not arrays, sources that are not views or trees, a view of another type.
  const other = uint64.toView(1n);
  for (const [what, f] of [
    ['gindexOf of a string', () => k.type.gindexOf('slot' as unknown as Path)],
    ['gindexOf of null', () => k.type.gindexOf(null as unknown as Path)],
    ['createProof of a string path', () => k.type.createProof(view, ['slot'] as unknown as Path[])],
    ['createProof of no array', () => k.type.createProof(view, 'slot' as unknown as Path[])],
    ['createProof of no paths', () => k.type.createProof(view, [])],
    ['createProof of an object', () => k.type.createProof({} as TreeView<unknown>, [[]])],
    ['createProof of null', () => k.type.createProof(null as unknown as TreeView<unknown>, [[]])],
    ['createProof of a view of another type', () => (k.type === (uint64 as SszType<unknown>) ? undefined : k.type.createProof(other as TreeView<unknown>, [[]]))],
  ] as const) {
    outcomes.push(attempt(what, f));
  }
  tree.dispose();
  view.dispose();
  return outcomes;
}

type Seq = TreeView<unknown> & { length: number; get(i: unknown): unknown; set(i: unknown, v: unknown): void; push(v: unknown): void };
type Fields = TreeView<unknown> & Record<string, unknown> & { setField(name: unknown, v: unknown): void; readonly type: { fieldNames: readonly string[] } };

/** Views reachable from the root by field reads and element gets (a few per level). */
function views(root: TreeView<unknown>, most = 30): TreeView<unknown>[] {
  const found = [root];
  for (let i = 0; i < found.length && found.length < most; i++) {
    const v = found[i]!;
    const children: unknown[] = [];
    if (typeof (v as Seq).get === 'function') for (let j = 0; j < Math.min((v as Seq).length, 2); j++) children.push((v as Seq).get(j));
    else if (typeof (v as Fields).setField === 'function') for (const f of (v as Fields).type.fieldNames) children.push((v as Fields)[f]);
    for (const c of children) if (c instanceof TreeView && found.length < most) found.push(c);
  }
  return found;
}

function sweepViews(k: Kind): { paths: Outcome[]; values: Outcome[]; full: Outcome[]; stale: Outcome[] } {
  const paths: Outcome[] = [];
  const values: Outcome[] = [];
  const full: Outcome[] = [];
  const root = k.type.toView(k.value);
  for (const v of views(root)) {
    const name = `${k.name} ${v.type.typeName}`;
    if (typeof (v as Seq).get === 'function') {
      const s = v as Seq;
      const limit = (v.type as { limit?: number }).limit;
      const isList = limit !== undefined || (v.type as { maxLength?: number }).maxLength !== undefined;
      for (const i of [...BAD_SEGMENTS, s.length, s.length + 1, ...(limit === undefined ? [] : [limit, limit + 1])]) {
        paths.push(attempt(`${name}.get(${show([i])})`, () => void s.get(i)));
        if (s.length > 0) {
          const first = s.get(0);
          paths.push(attempt(`${name}.set(${show([i])}, element 0)`, () => s.set(i, first instanceof TreeView ? first.toValue() : first)));
        }
      }
      for (const w of WRONG_VALUES) {
        if (s.length > 0) values.push(attempt(`${name}.set(0, ${show([w])})`, () => s.set(0, w)));
        // A vector has no push (BAD_PATH); a list — a progressive one too, which has no limit — either
        // takes the value or rejects it.
        (isList ? values : paths).push(attempt(`${name}.push(${show([w])})`, () => s.push(w)));
      }
      if (limit !== undefined && limit <= 100) {
        // Fill a list of this type to the limit, then one more: LIMIT_EXCEEDED. (A fresh view: a clone of this one
        // would commit it, and a commit of a list disposes the child views this sweep still holds.)
        const fill = v.type.toView(v.type.defaultValue()) as Seq;
        const element = (v.type as unknown as { elementType: SszType<unknown> }).elementType.defaultValue();
        while (fill.length < limit) fill.push(element);
        full.push(attempt(`${name}.push past the limit`, () => fill.push(element)));
        fill.dispose();
      }
    } else if (typeof (v as Fields).setField === 'function') {
      const c = v as Fields;
      for (const n of BAD_SEGMENTS) paths.push(attempt(`${name}.setField(${show([n])})`, () => c.setField(n, 1n)));
      for (const f of c.type.fieldNames) {
        for (const w of WRONG_VALUES) {
          values.push(attempt(`${name}.setField(${f}, ${show([w])})`, () => c.setField(f, w)));
          values.push(attempt(`${name}.${f} = ${show([w])}`, () => void (c[f] = w)));
        }
      }
    } else if ('value' in v) {
      for (const w of WRONG_VALUES) values.push(attempt(`${name}.value = ${show([w])}`, () => void ((v as { value: unknown }).value = w)));
    }
  }
  // Whatever was rejected, the view still commits, serializes and decodes (to what it now holds).
  const after = root.serialize();
  expect(k.type.serialize(k.type.deserialize(after))).toEqual(after);

  // A disposed view: every method is STALE_VIEW.
  const stale: Outcome[] = [];
  const dead = k.type.toView(k.value);
  dead.dispose();
  for (const [what, f] of [
    ['hashTreeRoot', () => dead.hashTreeRoot()],
    ['serialize', () => dead.serialize()],
    ['toValue', () => dead.toValue()],
    ['commit', () => dead.commit()],
    ['clone', () => dead.clone()],
    ['memory', () => dead.memory()],
    ['createProof', () => k.type.createProof(dead, [[]])],
    ['get', () => (dead as unknown as Seq).get?.(0)],
    ['value', () => (dead as unknown as { value?: unknown }).value],
  ] as const) {
    stale.push(attempt(`disposed ${k.name}.${what}`, f));
  }
  root.dispose();
  return { paths, values, full, stale };
}

describe('only SszError leaves the view and proof API', () => {
  const all = [...KINDS, ...consensusKinds()];

  it('covers every schema kind and every consensus container', () => {
    expect(KINDS.length).toBeGreaterThanOrEqual(20);
    expect(all.filter((k) => k.name.includes('.')).length).toBeGreaterThan(6 * 20);
  });

  describe.each(all.map((k) => [k.name, k] as const))('%s', (_, k) => {
    it('paths: gindexOf and createProof (view, tree, multiproof) give a verifying proof or BAD_PATH', () => {
      const outcomes = sweepPaths(k);
      expect(outcomes.filter((o) => o.error !== undefined).length).toBeGreaterThan(0);
      expectTyped(outcomes, ['BAD_PATH', 'INVALID_VALUE']);
      // Not-a-view sources and views of another type are INVALID_VALUE; everything about the path is BAD_PATH.
      for (const o of outcomes) {
        if (o.error instanceof SszError && o.error.code === 'INVALID_VALUE') expect(o.what).toMatch(/^createProof of (an object|null|a view of another type)$/);
      }
    });

    it('views: get/set/push/fields/value with bad indices and wrong values are BAD_PATH, INVALID_VALUE, LIMIT_EXCEEDED; disposed views STALE_VIEW', () => {
      const { paths, values, full, stale } = sweepViews(k);
      expectTyped(paths, ['BAD_PATH']);
      // A union value without a valid selector is BAD_SELECTOR: the code names what is wrong with it.
      expectTyped(values, ['INVALID_VALUE', 'BAD_SELECTOR']);
      expectTyped(full, ['LIMIT_EXCEEDED']);
      expect(full.every((o) => o.error !== undefined)).toBe(true);
      expectTyped(stale, ['STALE_VIEW']);
    });
  });
});

describe('proofs past a list\'s length (every list kind)', () => {
  const P = container({ a: uint64 }, 'P');
  const T = container({ packed: list(uint64, 1000), composite: list(P, 1000), bits: bitlist(1000), bytes: byteList(1000) }, 'T');
  const view = T.toView({ packed: BigUint64Array.from([1n, 2n, 3n]), composite: [{ a: 1n }], bits: bits(10, [9]), bytes: new Uint8Array(5) });
  const root = view.hashTreeRoot();

  it.each([
    ['packed', 3, 'packed[3] shares its chunk with packed[0..2]'],
    ['composite', 1, 'composite[1] is a zero subtree'],
    ['bits', 10, 'bit 10 shares its chunk with bits 0..9'],
    ['bytes', 5, 'byte 5 shares its chunk with bytes 0..4'],
  ] as const)('%s: index %i is BAD_PATH naming the path and the length; below it and `length` prove (%s)', (field, length, _why) => {
    for (const index of [length, length + 1, 999]) {
      let error: unknown;
      try {
        T.createProof(view, [[field, index]]);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SszError);
      expect((error as SszError).code).toBe('BAD_PATH');
      expect((error as SszError).typePath).toBe(`T.${field}`);
      expect((error as SszError).detail).toContain(`index ${index} is past the list's length ${length}`);
    }
    // Below the length and the length itself: proofs that verify.
    expect(verifyProof(root, T.createProof(view, [[field, length - 1]]))).toBe(true);
    expect(verifyProof(root, T.createProof(view, [[field, 'length']]))).toBe(true);
    // gindexOf is the schema's: the position exists up to the limit.
    expect(T.gindexOf([field, 999])).toBeTypeOf('bigint');
  });

  it('a path through an element past the length fails at the list, not in the tree', () => {
    expect(() => T.createProof(view, [['composite', 5, 'a']])).toThrowError(/BAD_PATH at T\.composite: index 5 is past the list's length 1/);
  });

  it('a tree of another shape is BAD_TREE, never a core error', () => {
    const other = new Tree(uint64.toView(3n).commit().rootNode);
    let error: unknown;
    try {
      T.createProof(other, [['composite', 0, 'a']]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SszError);
    expect((error as SszError).code).toBe('BAD_TREE');
  });
});

describe('verifyProof answers false for anything that does not prove, never throws', () => {
  const T = container({ a: uint64, xs: list(uint64, 8) }, 'T');
  const view = T.toView({ a: 1n, xs: BigUint64Array.from([1n]) });
  const root = view.hashTreeRoot();
  const single = T.createProof(view, [['a']]);
  const multi = T.createProof(view, [['a'], ['xs', 0]]);
  const chunk = new Uint8Array(32);

  it('accepts the real proofs', () => {
    expect([verifyProof(root, single), verifyProof(root, multi)]).toEqual([true, true]);
  });

  it.each([
    ['null', null],
    ['a number', 5],
    ['no kind', { gindex: 2n, leaf: chunk, branch: [] }],
    ['an unknown kind', { ...single, kind: 'double' }],
    ['gindex 0', { ...single, gindex: 0n }],
    ['a negative gindex', { ...single, gindex: -3 }],
    ['a string gindex', { ...single, gindex: 'two' }],
    ['a fractional gindex', { ...single, gindex: 2.5 }],
    ['no branch', { ...single, branch: undefined }],
    ['a short leaf', { ...single, leaf: new Uint8Array(31) }],
    ['a branch of strings', { ...single, branch: single.kind === 'single' ? single.branch.map(() => 'x') : [] }],
    ['overlapping multiproof indices', { ...multi, gindices: [1n, 2n], leaves: [chunk, chunk] }],
    ['repeated multiproof indices', { ...multi, gindices: [2n, 2n], leaves: [chunk, chunk] }],
    ['multiproof gindex 0', { ...multi, gindices: [0n, 3n], leaves: [chunk, chunk] }],
    ['multiproof without leaves', { ...multi, leaves: undefined }],
    ['multiproof helpers of the wrong count', { ...multi, proof: [] }],
  ])('%s', (_, proof) => {
    expect(verifyProof(root, proof as never)).toBe(false);
    expect(verifyProof(new Uint8Array(3), proof as never)).toBe(false);
  });
});
