/**
 * Model tests of tree-backed views on BeaconState (minimal preset, several
 * forks): random sequences of writes applied to our view, to a plain value
 * (the model) and to @chainsafe/ssz's ViewDU; after every commit the roots
 * agree, the view's value equals the model, and clones taken along the way
 * are unchanged by later writes (some are checked and disposed part way, so
 * the view owns its version again and commits in place after them).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitArray, toHex, type SszType, type TreeView } from '@ssztree/types';
import { minimal } from '@ssztree/types/consensus';
import { arbitrary } from './arbitrary.js';
import { peerType, peerValue } from './bridge.js';

type Ops = ReturnType<typeof opsFor>;

/** Write operations on the fields every fork's BeaconState has. */
function opsFor(fork: 'phase0' | 'altair' | 'deneb' | 'electra') {
  const t = minimal[fork];
  const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
  const small = fc.bigInt({ min: 0n, max: 3n }); // often equal to what is there: no-op writes
  const bytes32 = fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.constant(new Uint8Array(32)));
  return fc.oneof(
    fc.record({ op: fc.constant('slot' as const), v: fc.oneof(u64, small) }),
    fc.record({ op: fc.constant('pushBalance' as const), v: u64 }),
    fc.record({ op: fc.constant('setBalance' as const), i: fc.nat(), v: fc.oneof(u64, small) }),
    fc.record({ op: fc.constant('pushValidator' as const), v: arbitrary(t.Validator) }),
    fc.record({ op: fc.constant('setValidator' as const), i: fc.nat(), v: arbitrary(t.Validator) }),
    fc.record({
      op: fc.constant('validatorField' as const),
      i: fc.nat(),
      field: fc.constantFrom('effective_balance' as const, 'exit_epoch' as const),
      v: fc.oneof(u64, small),
    }),
    fc.record({ op: fc.constant('slashed' as const), i: fc.nat(), v: fc.boolean() }),
    fc.record({ op: fc.constant('pubkey' as const), i: fc.nat(), v: fc.uint8Array({ minLength: 48, maxLength: 48 }) }),
    fc.record({ op: fc.constant('blockRoot' as const), i: fc.nat(), v: bytes32 }),
    fc.record({ op: fc.constant('finalized' as const), epoch: fc.oneof(u64, small), root: bytes32 }),
    fc.record({ op: fc.constant('justifiedEpoch' as const), v: fc.oneof(u64, small) }),
    fc.record({ op: fc.constant('justificationBits' as const), v: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }) }),
    fc.record({ op: fc.constant('commit' as const) }),
    fc.record({ op: fc.constant('clone' as const) }),
    // A kept clone checked and disposed: the view owns its version again, so later commits go in place.
    fc.record({ op: fc.constant('dropClone' as const), which: fc.nat() }),
  );
}

type Op = Ops extends fc.Arbitrary<infer O> ? O : never;
// biome-ignore lint: test-only dynamic access to both libraries' views by field name.
type State = Record<string, any>;
/** The part of ChainSafe's composite types these tests use. */
interface PeerComposite {
  toViewDU(value: unknown): State;
}
const du = (t: SszType<unknown>): PeerComposite => peerType(t) as unknown as PeerComposite;

/** Fails with the error and seed only (a whole BeaconState counterexample is megabytes of text). */
function shortReport<T>(out: fc.RunDetails<T>): void {
  if (out.failed) throw new Error(`${String(out.errorInstance)}\nseed ${out.seed} path ${out.counterexamplePath}\nops ${JSON.stringify((out.counterexample as unknown[] | null)?.[1], (_k, v) => (typeof v === 'bigint' ? `${v}n` : v))}`);
}

function hex(b: Uint8Array): string {
  return toHex(b);
}

describe('views: random writes agree with the value model and with @chainsafe/ssz ViewDU', () => {
  for (const fork of ['phase0', 'altair', 'deneb', 'electra'] as const) {
    it(`minimal.${fork}.BeaconState`, () => {
      const T = minimal[fork].BeaconState as unknown as SszType<State>;
      const V = minimal[fork].Validator as unknown as SszType<State>;
      const Cp = minimal[fork].Checkpoint as unknown as SszType<State>;
      const peer = du(T);
      const peerV = du(V);
      const peerCp = du(Cp);
      fc.assert(
        fc.property(arbitrary(T), fc.array(opsFor(fork), { minLength: 1, maxLength: 25 }), (initial, ops: Op[]) => {
          const model = T.clone(initial as State);
          const view = T.toView(model) as unknown as State & TreeView<State>;
          const theirs = peer.toViewDU(peerValue(T, initial));
          const clones: { view: TreeView<State>; root: string; value: State }[] = [];
          const check = () => {
            const root = hex(view.hashTreeRoot());
            expect(root).toBe(hex(T.hashTreeRoot(model)));
            expect(root).toBe(hex(theirs.hashTreeRoot()));
            expect(T.equals(view.toValue(), model)).toBe(true);
            // Bytes copied straight out of the tree equal the model's serialization.
            expect(hex(view.serialize())).toBe(hex(T.serialize(model)));
          };
          const checkClone = (c: { view: TreeView<State>; root: string; value: State }) => {
            expect(hex(c.view.hashTreeRoot())).toBe(c.root);
            expect(T.equals(c.view.toValue(), c.value)).toBe(true);
            expect(hex(c.view.serialize())).toBe(hex(T.serialize(c.value)));
          };
          for (const op of ops) {
            const nVal = model.validators.length as number;
            const nBal = model.balances.length as number;
            switch (op.op) {
              case 'slot':
                view.slot = op.v;
                theirs.slot = op.v;
                model.slot = op.v;
                break;
              case 'pushBalance':
                view.balances.push(op.v);
                theirs.balances.push(op.v);
                model.balances = BigUint64Array.from([...model.balances, op.v]);
                break;
              case 'setBalance':
                if (nBal === 0) break;
                view.balances.set(op.i % nBal, op.v);
                theirs.balances.set(op.i % nBal, op.v);
                model.balances[op.i % nBal] = op.v;
                break;
              case 'pushValidator':
                view.validators.push(op.v);
                theirs.validators.push(peerV.toViewDU(peerValue(V, op.v)));
                model.validators.push(V.clone(op.v as State));
                break;
              case 'setValidator':
                if (nVal === 0) break;
                view.validators.set(op.i % nVal, op.v);
                theirs.validators.set(op.i % nVal, peerV.toViewDU(peerValue(V, op.v)));
                model.validators[op.i % nVal] = V.clone(op.v as State);
                break;
              case 'validatorField':
                if (nVal === 0) break;
                view.validators.get(op.i % nVal)[op.field] = op.v;
                theirs.validators.get(op.i % nVal)[op.field] = op.v;
                model.validators[op.i % nVal][op.field] = op.v;
                break;
              case 'slashed':
                if (nVal === 0) break;
                view.validators.get(op.i % nVal).slashed = op.v;
                theirs.validators.get(op.i % nVal).slashed = op.v;
                model.validators[op.i % nVal].slashed = op.v;
                break;
              case 'pubkey':
                if (nVal === 0) break;
                view.validators.get(op.i % nVal).pubkey = op.v;
                theirs.validators.get(op.i % nVal).pubkey = op.v;
                model.validators[op.i % nVal].pubkey = op.v.slice();
                break;
              case 'blockRoot': {
                const i = op.i % model.block_roots.length;
                view.block_roots.set(i, op.v);
                theirs.block_roots.set(i, op.v);
                model.block_roots[i] = op.v.slice();
                break;
              }
              case 'finalized': {
                const cp = { epoch: op.epoch, root: op.root };
                view.setField('finalized_checkpoint', cp);
                theirs.finalized_checkpoint = peerCp.toViewDU(peerValue(Cp, cp));
                model.finalized_checkpoint = Cp.clone(cp);
                break;
              }
              case 'justifiedEpoch':
                view.current_justified_checkpoint.epoch = op.v;
                theirs.current_justified_checkpoint.epoch = op.v;
                model.current_justified_checkpoint.epoch = op.v;
                break;
              case 'justificationBits': {
                const bits = BitArray.fromBoolArray(op.v);
                view.justification_bits = bits;
                const bitsType = (T as unknown as { fields: Record<string, SszType<unknown>> }).fields['justification_bits'] as SszType<unknown>;
                theirs.justification_bits = du(bitsType).toViewDU(peerValue(bitsType, bits));
                model.justification_bits = bits.clone();
                break;
              }
              case 'commit':
                check();
                break;
              case 'clone': {
                const c = view.clone();
                clones.push({ view: c, root: hex(T.hashTreeRoot(model)), value: T.clone(model) });
                break;
              }
              case 'dropClone': {
                if (clones.length === 0) break;
                const [c] = clones.splice(op.which % clones.length, 1);
                checkClone(c!);
                c!.view.dispose();
                break;
              }
            }
          }
          check();
          for (const c of clones) checkClone(c);
          // Bytes straight back: deserializeToView(bytes).serialize() is the same bytes.
          const bytes = T.serialize(model);
          expect(hex(T.deserializeToView(bytes).serialize())).toBe(hex(bytes));
        }),
        { numRuns: fork === 'phase0' ? 25 : 10, reporter: shortReport },
      );
    }, 120_000);
  }
});

describe('proof paths agree with @chainsafe/ssz', () => {
  it('gindices of BeaconState paths (every fork, minimal)', () => {
    const paths: (string | number)[][] = [
      ['slot'],
      ['validators', 5, 'effective_balance'],
      ['validators', 0, 'pubkey'],
      ['balances', 37],
      ['block_roots', 3],
      ['finalized_checkpoint', 'root'],
      ['justification_bits'],
    ];
    for (const fork of ['phase0', 'altair', 'deneb', 'electra'] as const) {
      const T = minimal[fork].BeaconState as unknown as SszType<State>;
      const peer = peerType(T) as unknown as { getPathInfo(path: (string | number)[]): { gindex: bigint } };
      for (const path of paths) expect(T.gindexOf(path), `${fork} ${path.join('.')}`).toBe(peer.getPathInfo(path).gindex);
    }
  });
});
