/**
 * Indexing of progressive list views (view/progressive.ts finds an index's
 * subtree by arithmetic and calls that subtree's view directly): random
 * `get`/`set` at and around every subtree boundary, for every elements-per-
 * chunk (uint8 … uint256, boolean, a container), interleaved with commits,
 * clones and pushes, against a plain array; after each commit the root is
 * the value API's, every clone keeps the root and values it was taken with;
 * bad indices (negative, fractional, past the length, non-numbers, 2^31)
 * and disposed views throw typed errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boolean, container, progressiveList, SszError, toHex, uint8, uint16, uint32, uint64, uint128, uint256, type SszType } from '../src/index.js';

// biome-ignore lint: views of several element types are driven alike.
type Dyn = any;

const Pair = container({ a: uint64, b: uint8 }, 'Pair');

/** A schema, elements per chunk, and a random element. */
const kinds: [string, Dyn, number, fc.Arbitrary<unknown>][] = [
  ['uint8', progressiveList(uint8), 32, fc.nat(255)],
  ['uint16', progressiveList(uint16), 16, fc.nat(65535)],
  ['uint32', progressiveList(uint32), 8, fc.nat(2 ** 32 - 1)],
  ['uint64', progressiveList(uint64), 4, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })],
  ['uint128', progressiveList(uint128), 2, fc.bigInt({ min: 0n, max: 2n ** 128n - 1n })],
  ['uint256', progressiveList(uint256), 1, fc.bigInt({ min: 0n, max: 2n ** 256n - 1n })],
  ['boolean', progressiveList(boolean), 32, fc.boolean()],
  ['container', progressiveList(Pair), 1, fc.record({ a: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), b: fc.nat(255) })],
];

/** Element indices around each subtree's first element (subtree k starts at perChunk·(4^k − 1)/3), up to `n`. */
function boundaryIndices(perChunk: number, n: number): number[] {
  const out: number[] = [];
  for (let k = 0; perChunk * ((4 ** k - 1) / 3) < n + 2; k++) {
    const first = perChunk * ((4 ** k - 1) / 3);
    for (const d of [-2, -1, 0, 1, 2]) if (first + d >= 0 && first + d < n) out.push(first + d);
  }
  return out;
}

/** The list as a value of its schema, from the plain array. */
function valueOf(name: string, model: unknown[]): unknown {
  if (name === 'uint8') return Uint8Array.from(model as number[]);
  if (name === 'uint16') return Uint16Array.from(model as number[]);
  if (name === 'uint32') return Uint32Array.from(model as number[]);
  if (name === 'uint64') return BigUint64Array.from(model as bigint[]);
  return [...model];
}

/** Element i of the view as a plain value (a container's view read field by field). */
function read(name: string, view: Dyn, i: number): unknown {
  const e = view.get(i);
  return name === 'container' ? { a: e.a, b: e.b } : e;
}

describe('progressive list views index every subtree by arithmetic', () => {
  for (const [name, type, perChunk, elem] of kinds) {
    it(`${name}: get/set across subtree boundaries, commits, clones, pushes`, () => {
      const n0 = perChunk * ((4 ** 4 - 1) / 3) + 3; // into subtree 4
      fc.assert(
        fc.property(
          fc.array(elem, { minLength: n0, maxLength: n0 }),
          fc.array(
            fc.oneof(
              fc.record({ op: fc.constant('set' as const), at: fc.nat(), boundary: fc.boolean(), v: elem }),
              fc.record({ op: fc.constant('get' as const), at: fc.nat(), boundary: fc.boolean() }),
              fc.record({ op: fc.constant('push' as const), v: elem, n: fc.integer({ min: 1, max: 2 * perChunk + 1 }) }),
              fc.record({ op: fc.constant('commit' as const) }),
              fc.record({ op: fc.constant('clone' as const) }),
            ),
            { maxLength: 60 },
          ),
          (start, ops) => {
            const model = [...start];
            let view: Dyn = type.toView(valueOf(name, model));
            const clones: { view: Dyn; model: unknown[]; root: string }[] = [];
            const pick = (at: number, boundary: boolean) => {
              const near = boundaryIndices(perChunk, model.length);
              return boundary ? (near[at % near.length] as number) : at % model.length;
            };
            for (const o of ops) {
              if (o.op === 'set') {
                const i = pick(o.at, o.boundary);
                view.set(i, o.v);
                model[i] = o.v;
              } else if (o.op === 'get') {
                const i = pick(o.at, o.boundary);
                expect(read(name, view, i)).toEqual(model[i]);
              } else if (o.op === 'push') {
                for (let k = 0; k < o.n; k++) {
                  view.push(o.v);
                  model.push(o.v);
                }
              } else if (o.op === 'commit') {
                view.commit();
                expect(toHex(view.hashTreeRoot())).toBe(toHex((type as SszType<unknown>).hashTreeRoot(valueOf(name, model))));
              } else {
                const root = toHex(view.hashTreeRoot());
                clones.push({ view, model: [...model], root });
                view = view.clone();
              }
            }
            expect(view.length).toBe(model.length);
            for (const i of boundaryIndices(perChunk, model.length)) expect(read(name, view, i)).toEqual(model[i]);
            expect(toHex(view.hashTreeRoot())).toBe(toHex((type as SszType<unknown>).hashTreeRoot(valueOf(name, model))));
            for (const c of clones) {
              expect(toHex(c.view.hashTreeRoot())).toBe(c.root);
              for (const i of boundaryIndices(perChunk, c.model.length)) expect(read(name, c.view, i)).toEqual(c.model[i]);
            }
          },
        ),
        { numRuns: 25 },
      );
    });
  }

  it('bad indices and disposed views throw typed errors, reads and writes alike', () => {
    const view: Dyn = progressiveList(uint8).toView(Uint8Array.from({ length: 100 }, (_, i) => i));
    expect(view.get(99)).toBe(99);
    for (const bad of [-1, 100, 1.5, Number.NaN, 2 ** 31, 2 ** 40, '3', 3n, undefined]) {
      expect(() => view.get(bad)).toThrow(SszError);
      expect(() => view.set(bad, 1)).toThrow(SszError);
    }
    expect(() => view.set(5, 256)).toThrow(SszError);
    expect(() => view.set(50, -1)).toThrow(SszError);
    expect(view.get(5)).toBe(5);
    view.set(40, 7); // subtree 1's view made
    view.dispose();
    expect(() => view.get(40)).toThrow(SszError);
    expect(() => view.set(40, 1)).toThrow(SszError);
    expect(() => view.get(0)).toThrow(SszError);
  });
});
