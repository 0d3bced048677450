/**
 * The element table of composite list views (types view/elementTable.ts):
 * random sequences of element reads, field writes through element views,
 * wholesale sets, pushes, clones and commits on lists of Validators (record
 * pairs) and of a container that is not a record, long enough that the
 * table is filled in one walk (≥ 4096 elements, ≥ 256 walks) and that its
 * overlay is folded into a private copy (> 4096 dropped positions). Every
 * read is checked against a plain array model; every commit's root against
 * the value's root (@chainsafe/ssz agrees on it in recordPairs.test.ts);
 * every version kept along the way (clones taken before later writes)
 * must still read, serialize and hash as its own model at the end.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { container, list, progressiveList, toHex, uint64, type ViewOf } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { distinctValidator } from './validatorValues.js';
import { indices } from '../../packages/types/test/seeded.js';

const { Validator } = mainnet.electra;
type V = ReturnType<typeof Validator.defaultValue>;
const Validators = list(Validator, 2 ** 40);
/** The same elements in a progressive list: one composite view per subtree, their tables handed to clones. */
const PValidators = progressiveList(Validator);
/** Not a record: a container with a list field (a branch per element). */
const Holder = container({ a: uint64, xs: list(uint64, 8) }, 'Holder');
const Holders = list(Holder, 2 ** 20);

const validator = distinctValidator;

type Op =
  | { kind: 'reads'; seed: number; count: number }
  | { kind: 'writes'; seed: number; count: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'push'; value: number }
  | { kind: 'clone' }
  | { kind: 'commit' }
  | { kind: 'switch'; to: number }
  | { kind: 'drop'; at: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('reads' as const), seed: fc.nat(), count: fc.integer({ min: 1, max: 400 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('writes' as const), seed: fc.nat(), count: fc.integer({ min: 1, max: 2500 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('push' as const), value: fc.nat() }), weight: 1 },
  { arbitrary: fc.constant({ kind: 'clone' as const }), weight: 2 },
  { arbitrary: fc.constant({ kind: 'commit' as const }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('switch' as const), to: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }), weight: 1 },
);

/** A task turn: old versions' nodes are freed there, so their slots are reused by the next writes. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('element table of composite list views', () => {
  it('validators (record pairs): random reads, writes, sets, pushes, clones, drops and commits agree with the model; old versions unchanged', async () => {
    const base = Array.from({ length: 4201 }, (_, i) => validator(i));
    const bytes = Validators.serialize(base);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 14 }), fc.boolean(), async (ops, fromBytes) => {
        type View = ViewOf<typeof Validators>;
        const head: View = fromBytes ? Validators.deserializeToView(bytes) : Validators.toView(base);
        const versions: { view: View; model: V[] }[] = [{ view: head, model: base.slice() }];
        let cur = 0;
        const kept: { view: View; model: V[]; root: string }[] = [];
        for (const o of ops) {
          const { view, model } = versions[cur]!;
          switch (o.kind) {
            case 'reads':
              for (const i of indices(o.seed, o.count, model.length)) {
                const v = view.get(i);
                expect(v.effective_balance).toBe(model[i]!.effective_balance);
                expect(v.withdrawable_epoch).toBe(model[i]!.withdrawable_epoch);
              }
              break;
            case 'writes':
              for (const i of indices(o.seed, o.count, model.length)) {
                const b = BigInt(o.seed % 1000) + BigInt(i);
                view.get(i).effective_balance = b;
                model[i] = { ...model[i]!, effective_balance: b };
              }
              break;
            case 'set': {
              const i = o.at % model.length;
              const value = validator(o.value);
              view.set(i, value);
              model[i] = value;
              break;
            }
            case 'push': {
              const value = validator(o.value);
              view.push(value);
              model.push(value);
              break;
            }
            case 'clone':
              // The clone commits the view; the version it leaves behind must not change afterwards.
              versions.push({ view: view.clone(), model: model.slice() });
              break;
            case 'commit': {
              const root = toHex(view.hashTreeRoot());
              expect(root).toBe(toHex(Validators.hashTreeRoot(model)));
              kept.push({ view: view.clone(), model: model.slice(), root });
              break;
            }
            case 'switch':
              cur = o.to % versions.length;
              break;
            case 'drop':
              // Another version goes away: what only it held is freed at the turn and reused.
              if (versions.length > 1) {
                const k = o.at % versions.length;
                if (k !== cur) {
                  versions[k]!.view.dispose();
                  versions.splice(k, 1);
                  if (k < cur) cur--;
                }
              }
              await turn();
              break;
          }
        }
        for (const { view, model } of versions) {
          expect(toHex(view.hashTreeRoot())).toBe(toHex(Validators.hashTreeRoot(model)));
          for (let i = 0; i < model.length; i++) expect(view.get(i).pubkey[0]).toBe(model[i]!.pubkey[0]);
          for (const i of indices(7, 50, model.length)) expect(view.get(i).effective_balance).toBe(model[i]!.effective_balance);
        }
        for (const { view, model, root } of kept) {
          expect(toHex(view.hashTreeRoot())).toBe(root);
          expect(toHex(view.serialize())).toBe(toHex(Validators.serialize(model)));
        }
        for (const { view } of [...versions, ...kept]) view.dispose();
      }),
      { numRuns: 12 },
    );
  }, 240_000);

  for (const [name, T] of [
    ['List[Validator, 2^40]', Validators],
    ['ProgressiveList[Validator]', PValidators],
  ] as const) {
    it(`${name}: a clone writes one half of each pair, the version it came from is dropped: the other halves read from the new pairs`, async () => {
      const n = 4201;
      const model = Array.from({ length: n }, (_, i) => validator(i));
      let view = (T as typeof Validators).deserializeToView(T.serialize(model));
      for (let i = 0; i < n; i++) view.get(i); // fills the table
      for (let round = 0; round < 4; round++) {
        const next = view.clone();
        for (let i = round & 1; i < n; i += 2) {
          const b = BigInt(round * 10_000 + i);
          next.get(i).effective_balance = b;
          model[i] = { ...model[i]!, effective_balance: b };
        }
        next.hashTreeRoot();
        // The old pairs were held by `view` alone: freed at the turn, their slots reused by the next round.
        view.dispose();
        view = next;
        await turn();
        for (let i = 0; i < n; i++) expect(view.get(i).effective_balance).toBe(model[i]!.effective_balance);
      }
      expect(toHex(view.hashTreeRoot())).toBe(toHex(T.hashTreeRoot(model)));
      view.dispose();
    });
  }

  it('elements that are not records (a branch each): the same sequences agree with the model', () => {
    type H = { a: bigint; xs: BigUint64Array };
    const base: H[] = Array.from({ length: 4100 }, (_, i) => ({ a: BigInt(i), xs: BigUint64Array.of(BigInt(i), 1n) }));
    fc.assert(
      fc.property(fc.array(op, { minLength: 4, maxLength: 10 }), (ops) => {
        type View = ViewOf<typeof Holders>;
        const versions: { view: View; model: H[] }[] = [{ view: Holders.toView(base), model: base.slice() }];
        let cur = 0;
        for (const o of ops) {
          const { view, model } = versions[cur]!;
          switch (o.kind) {
            case 'reads':
              for (const i of indices(o.seed, o.count, model.length)) {
                const h = view.get(i);
                expect(h.a).toBe(model[i]!.a);
                if (model[i]!.xs.length > 0) expect(h.xs.get(0)).toBe(model[i]!.xs[0]);
              }
              break;
            case 'writes':
              for (const i of indices(o.seed, o.count, model.length)) {
                const a = BigInt(o.seed % 977) * 3n + BigInt(i);
                view.get(i).a = a;
                model[i] = { ...model[i]!, a };
              }
              break;
            case 'set': {
              const i = o.at % model.length;
              const value = { a: BigInt(o.value), xs: BigUint64Array.of(BigInt(o.value)) };
              view.set(i, value);
              model[i] = value;
              break;
            }
            case 'push': {
              const value = { a: BigInt(o.value), xs: new BigUint64Array(0) };
              view.push(value);
              model.push(value);
              break;
            }
            case 'clone':
              versions.push({ view: view.clone(), model: model.slice() });
              break;
            case 'commit':
              expect(toHex(view.hashTreeRoot())).toBe(toHex(Holders.hashTreeRoot(model)));
              break;
            case 'switch':
              cur = o.to % versions.length;
              break;
          }
        }
        for (const { view, model } of versions) {
          expect(toHex(view.hashTreeRoot())).toBe(toHex(Holders.hashTreeRoot(model)));
          expect(view.toValue()).toEqual(model);
          view.dispose();
        }
      }),
      { numRuns: 8 },
    );
  }, 240_000);
});
