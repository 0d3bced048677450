/**
 * Views of progressive kinds against @chainsafe/ssz 1.9's ViewDU: a
 * gloas-shaped progressive state (progressive lists of validators, balances
 * and participation; a progressive container of them, with a gap in its
 * pattern) and random sequences of writes and pushes — around every subtree
 * boundary — applied to our view and to ChainSafe's; after each commit the
 * roots agree, and clones taken along the way keep their roots.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { byteVector, progressiveContainer, progressiveList, toHex, uint8, uint64, type SszType } from '@ssztree/types';
import { minimal } from '@ssztree/types/consensus';
import { arbitrary } from './arbitrary.js';
import { peerType, peerValue } from './bridge.js';

const Validator = minimal.electra.Validator;
const State = progressiveContainer(
  {
    slot: uint64,
    validators: progressiveList(Validator),
    balances: progressiveList(uint64),
    participation: progressiveList(uint8),
    roots: progressiveList(byteVector(32)),
  },
  [1, 1, 1, 0, 1, 1],
  'GloasShaped',
);

// biome-ignore lint: test-only dynamic access to both libraries' views by field name.
type View = Record<string, any>;

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const op = fc.oneof(
  fc.record({ op: fc.constant('slot' as const), v: u64 }),
  fc.record({ op: fc.constant('setBalance' as const), i: fc.nat(), v: u64 }),
  fc.record({ op: fc.constant('pushBalance' as const), v: u64, n: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant('effectiveBalance' as const), i: fc.nat(), v: u64 }),
  fc.record({ op: fc.constant('pushValidator' as const), v: arbitrary(Validator), n: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constant('setValidator' as const), i: fc.nat(), v: arbitrary(Validator) }),
  fc.record({ op: fc.constant('participation' as const), i: fc.nat(), v: fc.nat(255) }),
  fc.record({ op: fc.constant('pushParticipation' as const), v: fc.nat(255) }),
  fc.record({ op: fc.constant('pushRoot' as const), v: fc.uint8Array({ minLength: 32, maxLength: 32 }) }),
  fc.record({ op: fc.constant('commit' as const) }),
  fc.record({ op: fc.constant('clone' as const) }),
);

/** A ChainSafe ViewDU of one of our Validator values. */
function validatorDU(v: unknown): View {
  const peer = peerType(Validator as unknown as SszType<unknown>) as unknown as { toViewDU(x: unknown): View };
  return peer.toViewDU(peerValue(Validator as unknown as SszType<unknown>, v));
}

type Op = typeof op extends fc.Arbitrary<infer O> ? O : never;

function applyBoth(ours: View, theirs: View, o: Op, clones: { ours: View; root: string }[]): void {
  switch (o.op) {
    case 'slot':
      ours.slot = o.v;
      theirs.slot = o.v;
      return;
    case 'setBalance':
      if (ours.balances.length === 0) return;
      ours.balances.set(o.i % ours.balances.length, o.v);
      theirs.balances.set(o.i % theirs.balances.length, o.v);
      return;
    case 'pushBalance':
      for (let k = 0; k < o.n; k++) {
        ours.balances.push(o.v + BigInt(k) > 2n ** 64n - 1n ? o.v : o.v + BigInt(k));
        theirs.balances.push(o.v + BigInt(k) > 2n ** 64n - 1n ? o.v : o.v + BigInt(k));
      }
      return;
    case 'effectiveBalance':
      if (ours.validators.length === 0) return;
      ours.validators.get(o.i % ours.validators.length).effective_balance = o.v;
      theirs.validators.get(o.i % theirs.validators.length).effective_balance = o.v;
      return;
    case 'pushValidator':
      for (let k = 0; k < o.n; k++) {
        ours.validators.push(o.v);
        theirs.validators.push(validatorDU(o.v));
      }
      return;
    case 'setValidator':
      if (ours.validators.length === 0) return;
      ours.validators.set(o.i % ours.validators.length, o.v);
      theirs.validators.set(o.i % theirs.validators.length, validatorDU(o.v));
      return;
    case 'participation':
      if (ours.participation.length === 0) return;
      ours.participation.set(o.i % ours.participation.length, o.v);
      theirs.participation.set(o.i % theirs.participation.length, o.v);
      return;
    case 'pushParticipation':
      ours.participation.push(o.v);
      theirs.participation.push(o.v);
      return;
    case 'pushRoot':
      ours.roots.push(o.v);
      theirs.roots.push(o.v);
      return;
    case 'commit': {
      theirs.commit();
      expect(toHex(ours.hashTreeRoot())).toBe(toHex(theirs.hashTreeRoot()));
      return;
    }
    case 'clone': {
      const c = ours.clone();
      clones.push({ ours: c, root: toHex(c.hashTreeRoot()) });
    }
  }
}

describe('progressive views: random writes and pushes agree with @chainsafe/ssz ViewDU', () => {
  it('a gloas-shaped progressive state, lengths around every subtree boundary', () => {
    const peer = peerType(State as unknown as SszType<unknown>) as unknown as { toViewDU(v: unknown): View };
    fc.assert(
      fc.property(fc.constantFrom(0, 1, 4, 5, 20, 21, 22, 84, 85, 86), fc.array(op, { maxLength: 40 }), (n, list) => {
        const value = State.defaultValue();
        value.validators = Array.from({ length: n }, (_, i) => ({ ...Validator.defaultValue(), effective_balance: BigInt(i) }));
        value.balances = BigUint64Array.from({ length: 4 * n + (n % 3) }, (_, i) => BigInt(i));
        value.participation = Uint8Array.from({ length: 32 * n + 1 }, (_, i) => i & 7);
        const ours = State.toView(value) as unknown as View;
        const theirs = peer.toViewDU(peerValue(State as unknown as SszType<unknown>, value));
        const clones: { ours: View; root: string }[] = [];
        for (const o of list) applyBoth(ours, theirs, o, clones);
        theirs.commit();
        expect(toHex(ours.hashTreeRoot())).toBe(toHex(theirs.hashTreeRoot()));
        for (const c of clones) {
          expect(toHex(c.ours.hashTreeRoot())).toBe(c.root);
          c.ours.dispose();
        }
        ours.dispose();
      }),
      { numRuns: 40 },
    );
  });
});
