/**
 * Distinct electra Validator values for the record tests: every field
 * differs between neighbours (pubkey bytes, balance, the slashed flag every
 * fourth index, epochs), so a record or half read from the wrong position
 * shows in the bytes and the root. Not a test file.
 */
import { mainnet } from '@ssztree/types/consensus';

export type ValidatorValue = ReturnType<typeof mainnet.electra.Validator.defaultValue>;

export function distinctValidator(i: number): ValidatorValue {
  return {
    pubkey: new Uint8Array(48).map((_, k) => (i * 11 + k * 17 + 3) & 0xff),
    withdrawal_credentials: new Uint8Array(32).fill((i * 5) & 0xff),
    effective_balance: BigInt(31e9 + i),
    slashed: i % 4 === 1,
    activation_eligibility_epoch: BigInt(i),
    activation_epoch: BigInt(2 * i),
    exit_epoch: 2n ** 64n - 1n,
    withdrawable_epoch: BigInt(i * 77),
  };
}
