/**
 * `@ssztree/types/immer`: `produce` returns the next value and a view whose
 * root equals the value's after every step of random recipes over several
 * forks; `applyPatches` maps immer's patches (including truncations and
 * inserts) onto views; bad patches throw SszError and change nothing; bases
 * are never changed.
 */
import fc from 'fast-check';
import { produceWithPatches, enablePatches, type Patch } from 'immer';
import { describe, expect, it } from 'vitest';
import { bitlist, BitArray, boolean, byteList, container, list, SszError, toHex, uint64, uint64Number, uint8, union, vector } from '../src/index.js';
import type { AnyType } from '../src/type.js';
import { minimal } from '../src/consensus/index.js';
import { cachedTree } from '../src/frozen/cache.js';
import { applyPatches, produce } from '../src/immer/index.js';
import { recipeOf, stepsArb } from './immerRecipes.js';

enablePatches();

const Item = container({ id: uint64, flag: boolean, tags: byteList(16) }, 'Item');
const Box = container(
  {
    n: uint64,
    items: list(Item, 6),
    nums: list(uint64Number, 40),
    small: list(uint8, 100),
    bits: bitlist(16),
    pair: vector(uint64, 2),
    choice: union([null, uint64, Item]),
  },
  'Box',
);
type BoxValue = ReturnType<typeof Box.defaultValue>;

function box(): BoxValue {
  return {
    n: 1n,
    items: [
      { id: 1n, flag: false, tags: new Uint8Array([1, 2]) },
      { id: 2n, flag: true, tags: new Uint8Array(0) },
    ],
    nums: [1, 2, 3, 4, 5, 6, 7, 8, 9],
    small: new Uint8Array([1, 2, 3]),
    bits: BitArray.fromBoolArray([true, false, true]),
    pair: new BigUint64Array([5n, 6n]),
    choice: { selector: 2, value: { id: 9n, flag: true, tags: new Uint8Array([7]) } },
  } as BoxValue;
}

function reference(type: AnyType, value: unknown): string {
  return toHex(type.hashTreeRoot(type.deserialize(type.serialize(value))));
}

function thrown(fn: () => void): SszError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SszError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('immer produce and applyPatches', () => {
  for (const fork of ['phase0', 'altair', 'deneb', 'electra'] as const) {
    it(`${fork}: random recipes, the view root equals the value root after every step`, () => {
      const T = minimal[fork].BeaconState as unknown as AnyType;
      fc.assert(
        fc.property(stepsArb(20), (steps) => {
          let p = produce(T, T.defaultValue(), () => {});
          for (const ops of steps) {
            const prev = p;
            const prevRoot = toHex(prev.view.hashTreeRoot());
            p = produce(T, p, recipeOf(T, ops) as never);
            const want = reference(T, p.value);
            expect(toHex(p.view.hashTreeRoot())).toBe(want);
            expect(toHex(T.hashTreeRoot(p.value))).toBe(want);
            expect(cachedTree(T, p.value as object)).toBeDefined();
            // The base view is untouched.
            expect(toHex(prev.view.hashTreeRoot())).toBe(prevRoot);
            // The same patches through applyPatches on the base view: the same root.
            const again = applyPatches(T, prev.view, p.patches);
            expect(toHex(again.hashTreeRoot())).toBe(want);
            again.dispose();
          }
        }),
        { numRuns: 8 },
      );
    });
  }

  it('truncations (length and remove patches), pushes, nested values without views, unions', () => {
    let p = produce(Box, box(), () => {});
    const recipes: ((d: any) => void)[] = [
      (d) => {
        d.nums.length = 4;
        d.items.pop();
      },
      (d) => {
        d.items.push({ id: 7n, flag: false, tags: new Uint8Array([3]) });
        d.items[0].tags = new Uint8Array([9, 9, 9]);
        d.nums.push(100, 101);
      },
      (d) => {
        d.small = new Uint8Array([4, 5]);
        d.bits = BitArray.fromBoolArray([false, true]);
        d.pair = new BigUint64Array([1n, 2n]);
      },
      (d) => {
        d.choice.value.id = 10n; // a patch inside a union: rewrites the union value
      },
      (d) => {
        d.choice = { selector: 1, value: 3n };
        d.nums.splice(1, 2);
        d.items.length = 0;
      },
      (d) => {
        d.nums.unshift(42); // replaces every index and adds one
      },
    ];
    for (const r of recipes) {
      p = produce(Box, p, r);
      expect(toHex(p.view.hashTreeRoot())).toBe(reference(Box, p.value));
    }
  });

  it('hand-written patches: inserts and removes in the middle, string indices, whole-value replacement', () => {
    const view = Box.toView(box());
    const cases: [Patch[], (v: BoxValue) => void][] = [
      [[{ op: 'add', path: ['nums', 2], value: 77 }], (v) => v.nums.splice(2, 0, 77)],
      [[{ op: 'remove', path: ['nums', '0'] }], (v) => v.nums.splice(0, 1)],
      [[{ op: 'add', path: ['items', 1], value: { id: 5n, flag: true, tags: new Uint8Array(0) } }], (v) => v.items.splice(1, 0, { id: 5n, flag: true, tags: new Uint8Array(0) })],
      [[{ op: 'replace', path: ['items', 0, 'tags', 1], value: 200 }], (v) => (v.items[0]!.tags[1] = 200)],
      [[{ op: 'replace', path: [], value: { ...box(), n: 50n } }], (v) => (v.n = 50n)],
    ];
    for (const [patches, edit] of cases) {
      const want = box();
      edit(want);
      const next = applyPatches(Box, view, patches);
      expect(toHex(next.hashTreeRoot())).toBe(reference(Box, want));
      expect(toHex(view.hashTreeRoot())).toBe(reference(Box, box()));
    }
  });

  it('bad patches throw SszError with the path and leave the view unchanged', () => {
    const view = Box.toView(box());
    const root = toHex(view.hashTreeRoot());
    const bytes = toHex(view.serialize());
    const full = produce(Box, box(), (d) => {
      while (d.items.length < 6) d.items.push({ id: 0n, flag: false, tags: new Uint8Array(0) });
    }).view;
    const bad: [TreeViewLike, Patch[], string, string][] = [
      [view, [{ op: 'replace', path: ['nope'], value: 1 }], 'BAD_PATH', 'Box'],
      [view, [{ op: 'replace', path: ['items', 9, 'id'], value: 1n }], 'BAD_PATH', 'Box.items[9]'],
      [view, [{ op: 'replace', path: ['items', 0, 'flag'], value: 3 }], 'INVALID_VALUE', 'Box.items[0].flag'],
      [view, [{ op: 'replace', path: ['n'], value: 'x' }], 'INVALID_VALUE', 'Box.n'],
      [view, [{ op: 'replace', path: ['nums', 1], value: -5 }], 'INVALID_VALUE', 'Box.nums[1]'],
      [view, [{ op: 'add', path: ['pair', 2], value: 1n }], 'BAD_PATH', 'Box.pair[2]'],
      [view, [{ op: 'remove', path: ['n'] }], 'BAD_PATH', 'Box.n'],
      [view, [{ op: 'replace', path: ['nums', 'length'], value: 50 }], 'BAD_PATH', 'Box.nums'],
      [view, [{ op: 'replace', path: ['items', 'x'], value: 1 }], 'BAD_PATH', 'Box.items'],
      [view, [{ op: 'copy', path: ['n'] } as unknown as Patch], 'INVALID_VALUE', 'Box'],
      [full, [{ op: 'add', path: ['items', 6], value: { id: 0n, flag: false, tags: new Uint8Array(0) } }], 'LIMIT_EXCEEDED', 'Box.items[6]'],
      // A valid patch then a bad one: nothing of either is applied.
      [view, [{ op: 'replace', path: ['n'], value: 2n }, { op: 'replace', path: ['items', 0, 'id'], value: -1n }], 'INVALID_VALUE', 'Box.items[0].id'],
    ];
    for (const [v, patches, code, path] of bad) {
      const before = toHex(v.hashTreeRoot());
      const e = thrown(() => applyPatches(Box, v as never, patches));
      expect(e.code).toBe(code);
      expect(e.typePath).toBe(path);
      expect(e.message).toContain('patch');
      expect(toHex(v.hashTreeRoot())).toBe(before);
    }
    expect(toHex(view.hashTreeRoot())).toBe(root);
    expect(toHex(view.serialize())).toBe(bytes);
  });

  it('produce never changes its base (value or view), and patches match immer produceWithPatches', () => {
    const base = produce(Box, box(), () => {});
    const baseRoot = toHex(base.view.hashTreeRoot());
    const recipe = (d: any) => {
      d.n = 3n;
      d.items[1].flag = false;
    };
    const next = produce(Box, base, recipe);
    const [value, patches] = produceWithPatches(base.value, recipe);
    expect(next.patches).toEqual(patches);
    expect(Box.equals(next.value, value)).toBe(true);
    expect(toHex(base.view.hashTreeRoot())).toBe(baseRoot);
    expect(base.value.n).toBe(1n);
    // Starting from a plain (unfrozen) value or from a view's value works too.
    const plain = produce(Box, box(), recipe);
    expect(toHex(plain.view.hashTreeRoot())).toBe(reference(Box, plain.value));
  });
});

type TreeViewLike = { hashTreeRoot(): Uint8Array };
