/**
 * Random immer recipes over consensus BeaconStates of any fork, shared by
 * the frozen-cache and immer tests: each op is plain data (so fast-check can
 * shrink it) and `recipeOf` turns a list of ops into an immer recipe that
 * edits whichever of the touched fields the fork has. Typed arrays
 * (balances, participation) cannot be drafted by immer, so they are
 * replaced by edited copies, as immer's contract requires.
 */
import fc from 'fast-check';
import type { AnyType } from '../src/type.js';

export interface Op {
  readonly kind: number;
  readonly a: number;
  readonly b: number;
}

export const opArb: fc.Arbitrary<Op> = fc.record({ kind: fc.nat(19), a: fc.nat(1000), b: fc.nat(1000) });
/** A sequence of steps, each a recipe of 1..6 ops. */
export const stepsArb = (maxSteps: number): fc.Arbitrary<Op[][]> => fc.array(fc.array(opArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: maxSteps });

const bytes = (n: number, fill: number): Uint8Array => new Uint8Array(n).fill(fill & 255);

type Draft = Record<string, any>;

/** A copy of a typed or plain array with `edit` applied, in the same form. */
function edited<A extends { slice(): A; length: number }>(a: A, edit: (c: A) => A): A {
  return edit(a.slice());
}

function grow(a: any, value: unknown): any {
  if (Array.isArray(a)) return [...a, value];
  const out = new (a.constructor as any)(a.length + 1);
  out.set(a);
  out[a.length] = value;
  return out;
}

function validator(type: AnyType, i: number): unknown {
  const v = (type as any).fields.validators.elementType.defaultValue();
  return { ...v, pubkey: bytes(48, i), withdrawal_credentials: bytes(32, i + 1), effective_balance: BigInt(i) * 1000n, exit_epoch: BigInt(i) };
}

function applyOp(type: AnyType, d: Draft, op: Op): void {
  const has = (name: string) => name in (type as any).fields;
  const { a, b } = op;
  switch (op.kind) {
    case 0: d.slot = d.slot + 1n; break;
    case 1: d.fork.epoch = BigInt(a); break;
    case 2: d.latest_block_header.state_root = bytes(32, a); break;
    case 3: d.block_roots[a % d.block_roots.length] = bytes(32, b); break;
    case 4: if (d.historical_roots.length < 40) d.historical_roots.push(bytes(32, a)); break;
    case 5: d.historical_roots.length = Math.max(0, d.historical_roots.length - 1 - (a % 3)); break;
    case 6: if (d.validators.length < 40) d.validators.push(validator(type, a)); break;
    case 7: if (d.validators.length > 0) { const v = d.validators[a % d.validators.length]; v.effective_balance = BigInt(b); v.slashed = !v.slashed; } break;
    case 8: if (d.validators.length > 0) d.validators[a % d.validators.length] = validator(type, b); break;
    case 9: d.validators.length = Math.max(0, d.validators.length - (a % 3)); break;
    case 10:
      d.balances = d.balances.length === 0 || b % 2 === 0 ? grow(d.balances, BigInt(b)) : edited(d.balances, (c: any) => ((c[a % c.length] = BigInt(b)), c));
      break;
    case 11: d.slashings = edited(d.slashings, (c: any) => ((c[a % c.length] = BigInt(b)), c)); break;
    case 12: if (d.eth1_data_votes.length < 16) d.eth1_data_votes.push({ deposit_root: bytes(32, a), deposit_count: BigInt(b), block_hash: bytes(32, b) }); break;
    case 13: d.eth1_data.deposit_count = BigInt(a); break;
    case 14: d.previous_justified_checkpoint.epoch = BigInt(a); break;
    case 15: if (has('inactivity_scores')) d.inactivity_scores = grow(d.inactivity_scores, BigInt(a)); break;
    case 16: if (has('previous_epoch_participation')) d.previous_epoch_participation = grow(d.previous_epoch_participation, a & 7); break;
    case 17: d.randao_mixes[a % d.randao_mixes.length] = bytes(32, b); break;
    case 18: d.slot = d.slot; break; // a no-op write: immer returns the base itself
    default: if (d.eth1_data_votes.length > 0) d.eth1_data_votes[a % d.eth1_data_votes.length].deposit_count = BigInt(b); break;
  }
}

/** The immer recipe for one step. */
export function recipeOf(type: AnyType, ops: readonly Op[]): (d: Draft) => void {
  return (d) => {
    for (const op of ops) applyOp(type, d, op);
  };
}
