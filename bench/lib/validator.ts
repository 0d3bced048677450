/**
 * The Validator schema every benchmark builds on (the consensus container's
 * fields, uint64 as bigint, in a plain container of its own), the peer's
 * equivalent, and the synthetic validator values the benchmarks feed both —
 * defined once so all rows measure the same type on the same inputs.
 */
import * as cs from '@chainsafe/ssz';
import { container } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';

export const Validator = container({ ...mainnet.electra.Validator.fields }, 'Validator');

export type ValidatorValue = ReturnType<typeof Validator.defaultValue>;

/**
 * @chainsafe/ssz's Validator with the same fields, as a
 * `ContainerNodeStructType` (how Lodestar stores validators), uint64 as bigint.
 */
export const PeerValidator = new cs.ContainerNodeStructType(
  {
    pubkey: new cs.ByteVectorType(48),
    withdrawal_credentials: new cs.ByteVectorType(32),
    effective_balance: new cs.UintBigintType(8),
    slashed: new cs.BooleanType(),
    activation_eligibility_epoch: new cs.UintBigintType(8),
    activation_epoch: new cs.UintBigintType(8),
    exit_epoch: new cs.UintBigintType(8),
    withdrawable_epoch: new cs.UintBigintType(8),
  },
  { typeName: 'Validator' },
);

const FAR = 2n ** 64n - 1n;

/**
 * Synthetic validator i: a pubkey unique for i < 2^24 (i's three low bytes,
 * `pubkeyTag` in its last byte), withdrawal credentials of i % 7, an active
 * validator's balance and epochs.
 */
export function validatorValue(i: number, pubkeyTag = 0): ValidatorValue {
  const pubkey = new Uint8Array(48);
  pubkey[0] = i & 255;
  pubkey[1] = (i >>> 8) & 255;
  pubkey[2] = i >>> 16;
  pubkey[47] = pubkeyTag;
  return {
    pubkey,
    withdrawal_credentials: new Uint8Array(32).fill(i % 7),
    effective_balance: 32_000_000_000n,
    slashed: false,
    activation_eligibility_epoch: BigInt(i),
    activation_epoch: BigInt(i >>> 3),
    exit_epoch: FAR,
    withdrawable_epoch: FAR,
  };
}

/** Validators 0..n-1 (`validatorValue`). */
export function makeValidators(n: number, pubkeyTag = 0): ValidatorValue[] {
  const out = new Array<ValidatorValue>(n);
  for (let i = 0; i < n; i++) out[i] = validatorValue(i, pubkeyTag);
  return out;
}

/** A small deterministic generator (xorshift32: the same sequence in every process), values in [0, 1). */
export function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}
