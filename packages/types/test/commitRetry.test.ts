/**
 * A commit that throws part way — after some child views (container fields,
 * list elements) have committed, before the batch write linking their new
 * roots into the parent is done — leaves the view able to commit again: the
 * retry writes every child committed since the last complete commit, so the
 * root equals the value API's and the version a clone was taken from never
 * changes. The failure is injected once into one of the tree's batch writes
 * (`Tree.setNodesAt`, `setNodesAtDepth`, `setWidesAtDepth`,
 * `setChunksAtDepth`, `setRecordsAtDepth`), for views that own their tree
 * (in-place commits) and clones. Progressive lists: progressiveRetry.test.ts.
 */
import { Tree } from '@ssztree/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byteList, container, list, progressiveContainer, progressiveList, type SszType, toHex, uint8, uint64 } from '../src/index.js';
import { Validator } from './validatorSchema.js';

afterEach(() => vi.restoreAllMocks());

const METHODS = ['setNodesAt', 'setNodesAtDepth', 'setWidesAtDepth', 'setChunksAtDepth', 'setRecordsAtDepth'] as const;

/** Makes the next call of `method` throw (once; later calls run as usual). */
function failNext(method: (typeof METHODS)[number]): void {
  const real = Tree.prototype[method] as (...args: unknown[]) => unknown;
  const spy = vi.spyOn(Tree.prototype, method).mockImplementationOnce(() => {
    spy.mockImplementation(real as never);
    throw new Error('injected');
  });
}

// biome-ignore lint: the cases drive views of several schemas by shape.
type Dyn = any;
interface Case {
  name: string;
  type: SszType<Dyn>;
  make(): Dyn;
  /** The same writes on a view and on a plain value. */
  write(view: Dyn, value: Dyn): void;
}

/** The value of both containers of a uint64 and two uint64 lists, and writes to all three fields. */
const twoLists = () => ({ a: 1n, b: BigUint64Array.from({ length: 100 }, (_, i) => BigInt(i)), c: BigUint64Array.from({ length: 50 }, (_, i) => BigInt(i)) });
function writeTwoLists(v: Dyn, m: Dyn): void {
  v.a = m.a = 5n;
  v.b.set(3, 9n);
  m.b[3] = 9n;
  v.c.set(40, 8n);
  m.c[40] = 8n;
}

const Inner = container({ a: uint64, b: byteList(64) }, 'Inner');
const CASES: Case[] = [
  {
    name: 'container of a uint64 and two lists',
    type: container({ a: uint64, b: list(uint64, 1024), c: list(uint64, 1024) }, 'C'),
    make: twoLists,
    write(v, m) {
      writeTwoLists(v, m);
      v.c.push(1n);
      m.c = BigUint64Array.from([...m.c, 1n]);
    },
  },
  {
    name: 'progressive container of a uint64 and two progressive lists',
    type: progressiveContainer({ a: uint64, b: progressiveList(uint64), c: progressiveList(uint64) }, [1, 1, 0, 1], 'P'),
    make: twoLists,
    write: writeTwoLists,
  },
  {
    name: 'List[uint64] (pages)',
    type: list(uint64, 1 << 20),
    make: () => BigUint64Array.from({ length: 5000 }, (_, i) => BigInt(i)),
    write(v, m) {
      for (const i of [1, 700, 4000, 4999]) {
        v.set(i, 9n);
        m[i] = 9n;
      }
    },
  },
  {
    name: 'List[uint8] (a share of all pages)',
    type: list(uint8, 1 << 20),
    make: () => Uint8Array.from({ length: 5000 }, (_, i) => i & 255),
    write(v, m) {
      for (let i = 0; i < 5000; i += 7) {
        v.set(i, 3);
        m[i] = 3;
      }
    },
  },
  {
    name: 'List[Validator] (record pairs, element views)',
    type: list(Validator, 1 << 20),
    make: () => Array.from({ length: 300 }, (_, i) => ({ ...Validator.defaultValue(), effective_balance: BigInt(i) })),
    write(v, m) {
      for (const i of [0, 1, 77, 299]) {
        v.get(i).slashed = true;
        m[i].slashed = true;
      }
    },
  },
  {
    name: 'List[container with a byte list] (element subtrees), a push',
    type: list(Inner, 1024),
    make: () => Array.from({ length: 100 }, (_, i) => ({ a: BigInt(i), b: new Uint8Array([i]) })),
    write(v, m) {
      for (const i of [0, 50, 99]) {
        v.get(i).a = 5n;
        m[i].a = 5n;
      }
      v.push({ a: 1n, b: new Uint8Array(3) });
      m.push({ a: 1n, b: new Uint8Array(3) });
    },
  },
];

describe('a commit retried after a failed batch write', () => {
  for (const c of CASES) {
    const failedBy = new Set<string>();
    for (const method of METHODS) {
      for (const clone of [false, true]) {
        it(`${c.name}: ${method} fails once, ${clone ? 'a clone' : 'an owned view'}`, () => {
          const base = c.type.toView(c.make()) as Dyn;
          base.hashTreeRoot();
          const view = clone ? base.clone() : base;
          const model = c.make();
          c.write(view, model);
          failNext(method);
          // The injected failure reaches the commit only when this view's commit uses that write.
          try {
            view.commit();
          } catch (e) {
            expect((e as Error).message).toContain('injected');
            failedBy.add(method);
          }
          expect(toHex(view.hashTreeRoot())).toBe(toHex(c.type.hashTreeRoot(model)));
          expect(c.type.equals(view.toValue(), model)).toBe(true);
          if (clone) expect(toHex(base.hashTreeRoot())).toBe(toHex(c.type.hashTreeRoot(c.make())));
        });
      }
    }
    it(`${c.name}: its commits reach at least one failed write (the cases above test something)`, () => {
      expect(failedBy.size).toBeGreaterThan(0);
    });
  }
});
