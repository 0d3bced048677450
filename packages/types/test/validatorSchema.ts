/**
 * The Validator schema the view, preimage and dispose tests build on: the
 * consensus container's fields (uint64 as bigint) in a plain `container` of
 * its own, not the consensus module's type, so these tests exercise generic
 * containers. Not a test file.
 */
import { mainnet } from '../src/consensus/index.js';
import { container } from '../src/index.js';

export const Validator = container({ ...mainnet.electra.Validator.fields }, 'Validator');

/** A distinct, valid Validator value for index `i` (bytes filled with i, an active validator's epochs). */
export function sampleValidator(i: number) {
  return {
    pubkey: new Uint8Array(48).fill(i),
    withdrawal_credentials: new Uint8Array(32).fill(i + 1),
    effective_balance: 32_000_000_000n,
    slashed: false,
    activation_eligibility_epoch: BigInt(i),
    activation_epoch: 0n,
    exit_epoch: 2n ** 64n - 1n,
    withdrawable_epoch: 2n ** 64n - 1n,
  };
}
