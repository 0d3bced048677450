/**
 * Differential tests against @chainsafe/ssz for the consensus containers of
 * every fork: every container of the minimal preset on random values, and
 * the big ones (blocks, states) of the mainnet preset on a few.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { SszType } from '@ssztree/types';
import { FORKS, mainnet, minimal } from '@ssztree/types/consensus';
import { expectAgreement } from './agree.js';
import { arbitrary } from './arbitrary.js';

function containersOf(fork: object): [string, SszType<unknown>][] {
  return Object.entries(fork).filter((e): e is [string, SszType<unknown>] => e[1] instanceof SszType && /^[A-Z]/.test(e[0]) && e[0] !== 'Blob');
}

describe('differential: consensus containers agree with @chainsafe/ssz', () => {
  for (const fork of FORKS) {
    it(`minimal.${fork}: every container`, () => {
      for (const [, type] of containersOf(minimal[fork])) {
        fc.assert(
          fc.property(arbitrary(type), (value) => expectAgreement(type, value)),
          { numRuns: 8 },
        );
      }
    });
    it(`mainnet.${fork}: BeaconState, SignedBeaconBlock and Validator`, () => {
      const big = mainnet[fork];
      for (const type of [big.BeaconState, big.SignedBeaconBlock, big.Validator] as unknown as SszType<unknown>[]) {
        fc.assert(
          fc.property(arbitrary(type), (value) => expectAgreement(type, value)),
          { numRuns: 2 },
        );
      }
    }, 120_000);
  }
});
