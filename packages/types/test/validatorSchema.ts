/**
 * The Validator schema the view, preimage and dispose tests build on: the
 * consensus container's fields with uint64 as bigint, defined here once
 * (a plain `container`, not the consensus module's, so these tests exercise
 * generic containers). Not a test file.
 */
import { boolean, byteVector, container, uint64 } from '../src/index.js';

export const Validator = container(
  {
    pubkey: byteVector(48),
    withdrawal_credentials: byteVector(32),
    effective_balance: uint64,
    slashed: boolean,
    activation_eligibility_epoch: uint64,
    activation_epoch: uint64,
    exit_epoch: uint64,
    withdrawable_epoch: uint64,
  },
  'Validator',
);
