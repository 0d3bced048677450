/**
 * The Validator schema every benchmark builds on (the consensus container's
 * fields, uint64 as bigint), defined once so all rows measure the same type.
 */
import { boolean, byteVector, container, uint64 } from '@ssztree/types';

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
