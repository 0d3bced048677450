/**
 * Views assigned across structurally identical schemas: a container field or
 * a sequence element accepts a view of a separately built schema with the
 * same SSZ definition (an altair state's two participation lists, built apart, a
 * Checkpoint built elsewhere under another name), copies it (later writes to
 * the source do not reach the target), and rejects any other definition
 * (limits, lengths, field names, field order, uint widths) with `SszError`
 * `INVALID_VALUE` at the field's path. Roots agree with the plain value's
 * and with @chainsafe/ssz's.
 */
import { describe, expect, it } from 'vitest';
import { boolean, byteVector, container, list, SszError, toHex, uint32, uint64, uint64Number, uint8, vector, type SszType, type TreeView } from '@ssztree/types';
import { minimal } from '@ssztree/types/consensus';
import { NodeStore } from '@ssztree/core';
import { peerType, peerValue } from './bridge.js';

// The spec types both participation lists as one `EpochParticipation` (one schema object here): this
// state builds its previous list separately, so an assignment crosses two schema objects of one definition.
const BeaconState = container(
  { ...minimal.altair.BeaconState.fields, previous_epoch_participation: list(uint8, minimal.altair.EpochParticipation.limit) },
  'BeaconState',
);
// biome-ignore lint: test-only dynamic access to view fields by name.
type AnyView = Record<string, any> & TreeView<unknown>;

/** Root of our view, of the plain value, and of @chainsafe/ssz for the same value: all equal. */
function expectRoots(type: SszType<unknown>, view: TreeView<unknown>): void {
  const value = view.toValue();
  const ours = toHex(view.hashTreeRoot());
  expect(ours).toBe(toHex(type.hashTreeRoot(value)));
  expect(ours).toBe(toHex(peerType(type).hashTreeRoot(peerValue(type, value)) as Uint8Array));
}

function stateWith(n: number) {
  const v = BeaconState.defaultValue();
  const t = BeaconState.fields;
  const participation = (seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * seed) & 7);
  return {
    ...v,
    slot: 9n,
    balances: BigUint64Array.from({ length: n }, (_, i) => BigInt(32e9 + i)),
    validators: Array.from({ length: n }, (_, i) => ({ ...t.validators.elementType.defaultValue(), effective_balance: BigInt(i) })),
    previous_epoch_participation: participation(3),
    current_epoch_participation: participation(5),
    inactivity_scores: BigUint64Array.from({ length: n }, (_, i) => BigInt(i)),
  };
}

describe('views of structurally identical schemas', () => {
  it('the two participation lists are distinct schema objects with one definition', () => {
    const f = BeaconState.fields;
    expect(f.previous_epoch_participation).not.toBe(f.current_epoch_participation);
  });

  it('previous_epoch_participation = current_epoch_participation (altair state): copied, roots agree', () => {
    const n = 100;
    const state = BeaconState.toView(stateWith(n) as never) as unknown as AnyView;
    const current = Uint8Array.from(state.current_epoch_participation.toValue() as Uint8Array);
    state.previous_epoch_participation = state.current_epoch_participation;
    // The new current list, as a block processor does at an epoch.
    state.current_epoch_participation = new Uint8Array(n);
    expect(state.previous_epoch_participation.type).toBe(BeaconState.fields.previous_epoch_participation);
    expect(Array.from(state.previous_epoch_participation.toValue() as Uint8Array)).toEqual(Array.from(current));
    expectRoots(BeaconState as SszType<unknown>, state);

    // Writing the source after the assignment does not reach the target.
    const again = BeaconState.toView(stateWith(n) as never) as unknown as AnyView;
    const source = again.current_epoch_participation;
    again.previous_epoch_participation = source;
    source.set(0, 7);
    source.set(99, 6);
    const value = again.toValue() as { previous_epoch_participation: Uint8Array; current_epoch_participation: Uint8Array };
    expect(value.previous_epoch_participation[0]).toBe(0);
    expect(value.previous_epoch_participation[99]).toBe((99 * 5) & 7);
    expect(value.current_epoch_participation[0]).toBe(7);
    expectRoots(BeaconState as SszType<unknown>, again);
    state.dispose();
    again.dispose();
  });

  it('a container field takes a view of an identical container built separately (another name)', () => {
    const Other = container({ epoch: uint64, root: byteVector(32) }, 'MyCheckpoint');
    const state = BeaconState.toView(stateWith(4) as never) as unknown as AnyView;
    const cp = Other.toView({ epoch: 77n, root: new Uint8Array(32).fill(9) }) as unknown as AnyView;
    state.finalized_checkpoint = cp;
    cp.epoch = 78n; // after the assignment: not seen by the state
    expect(state.finalized_checkpoint.type).toBe(BeaconState.fields.finalized_checkpoint);
    expect(state.finalized_checkpoint.epoch).toBe(77n);
    state.finalized_checkpoint.epoch = 80n; // the adopted child is writable through the parent
    const value = state.toValue() as { finalized_checkpoint: { epoch: bigint; root: Uint8Array } };
    expect(value.finalized_checkpoint.epoch).toBe(80n);
    expect(value.finalized_checkpoint.root).toEqual(new Uint8Array(32).fill(9));
    expect(cp.epoch).toBe(78n);
    expectRoots(BeaconState as SszType<unknown>, state);
    // setField takes the same path.
    state.setField('current_justified_checkpoint', Other.toView({ epoch: 5n, root: new Uint8Array(32).fill(1) }));
    expect((state.toValue() as { current_justified_checkpoint: { epoch: bigint } }).current_justified_checkpoint.epoch).toBe(5n);
    expectRoots(BeaconState as SszType<unknown>, state);
  });

  it('list elements take views of an identical element schema (records and nested lists)', () => {
    const Pair = container({ a: uint64, b: list(uint8, 8) }, 'Pair');
    const Pairs = list(Pair, 16);
    const Twin = container({ a: uint64, b: list(uint8, 8) }, 'Twin');
    const view = Pairs.toView([{ a: 1n, b: Uint8Array.of(1) }, { a: 2n, b: Uint8Array.of(2, 2) }]) as unknown as AnyView;
    const twin = Twin.toView({ a: 5n, b: Uint8Array.of(5, 5, 5) });
    view.set(1, twin);
    view.push(twin);
    expect(view.toValue()).toEqual([
      { a: 1n, b: Uint8Array.of(1) },
      { a: 5n, b: Uint8Array.of(5, 5, 5) },
      { a: 5n, b: Uint8Array.of(5, 5, 5) },
    ]);
    expectRoots(Pairs as SszType<unknown>, view);
    // Validator-like records of the consensus schema, from an identical schema built here.
    const V = minimal.altair.Validator;
    const MyValidator = container(Object.fromEntries(Object.entries(V.fields)) as typeof V.fields, 'MyValidator');
    const state = BeaconState.toView(stateWith(3) as never) as unknown as AnyView;
    state.validators.set(2, MyValidator.toView({ ...V.defaultValue(), effective_balance: 31n, slashed: true }));
    const vs = (state.toValue() as { validators: { effective_balance: bigint; slashed: boolean }[] }).validators;
    expect(vs[2]).toMatchObject({ effective_balance: 31n, slashed: true });
    expectRoots(BeaconState as SszType<unknown>, state);
  });

  it('uint64 as bigint and as number share a definition (same bytes, same tree)', () => {
    const A = container({ x: uint64, y: list(uint64, 4) }, 'A');
    const B = container({ x: uint64Number, y: list(uint64Number, 4) }, 'B');
    const Outer = container({ inner: A }, 'Outer');
    const outer = Outer.toView({ inner: { x: 0n, y: new BigUint64Array(0) } }) as unknown as AnyView;
    outer.inner = B.toView({ x: 3, y: [1, 2] });
    expect(outer.toValue()).toEqual({ inner: { x: 3n, y: BigUint64Array.of(1n, 2n) } });
    expectRoots(Outer as SszType<unknown>, outer);
  });

  it('rejects views of other definitions with INVALID_VALUE at the field path, leaving the view unchanged', () => {
    const Holder = container({ flags: list(uint8, 16), cp: container({ epoch: uint64, root: byteVector(32) }, 'Cp'), vs: list(container({ a: uint64 }, 'E'), 4) }, 'Holder');
    const view = Holder.toView({ flags: Uint8Array.of(1, 2), cp: { epoch: 1n, root: new Uint8Array(32) }, vs: [{ a: 1n }] }) as unknown as AnyView;
    const before = toHex(view.hashTreeRoot());
    const bad: [string, () => unknown][] = [
      ['other limit', () => (view.flags = list(uint8, 17).toView(Uint8Array.of(1)))],
      ['other element width', () => (view.flags = list(uint32, 16).toView(Uint32Array.of(1)))],
      ['boolean is not uint8', () => (view.flags = list(boolean, 16).toView([true]))],
      ['a vector is not a list', () => (view.flags = vector(uint8, 16).toView(new Uint8Array(16)))],
      ['other field name', () => (view.cp = container({ epoch: uint64, hash: byteVector(32) }, 'Cp').toView({ epoch: 1n, hash: new Uint8Array(32) }))],
      ['other field order', () => (view.cp = container({ root: byteVector(32), epoch: uint64 }, 'Cp').toView({ root: new Uint8Array(32), epoch: 1n }))],
      ['other field length', () => (view.cp = container({ epoch: uint64, root: byteVector(31) }, 'Cp').toView({ epoch: 1n, root: new Uint8Array(31) }))],
      ['an extra field', () => (view.cp = container({ epoch: uint64, root: byteVector(32), x: uint8 }, 'Cp').toView({ epoch: 1n, root: new Uint8Array(32), x: 0 }))],
      ['element of another definition', () => view.vs.set(0, container({ b: uint64 }, 'E').toView({ b: 1n }))],
      ['pushed element of another definition', () => view.vs.push(container({ a: uint32 }, 'E').toView({ a: 1 }))],
    ];
    for (const [what, write] of bad) {
      let err: unknown;
      try {
        write();
      } catch (e) {
        err = e;
      }
      expect(err, what).toBeInstanceOf(SszError);
      expect((err as SszError).code, what).toBe('INVALID_VALUE');
      const path = what.includes('element of') ? /^List\[E, 4\]\[[01]\]$/ : /^\.(flags|cp)$/;
      expect((err as SszError).typePath, what).toMatch(path);
      expect((err as SszError).message, what).toMatch(/identical SSZ definition/);
    }
    expect(toHex(view.hashTreeRoot())).toBe(before);
  });

  it('rejects a view of another store (it would link foreign node ids)', () => {
    const Holder = container({ flags: list(uint8, 16) }, 'Holder');
    const view = Holder.toView({ flags: Uint8Array.of(1) }) as unknown as AnyView;
    const foreign = list(uint8, 16).toView(Uint8Array.of(2), new NodeStore());
    expect(() => (view.flags = foreign)).toThrow(SszError);
    expect(Array.from((view.toValue() as { flags: Uint8Array }).flags)).toEqual([1]);
  });
});
