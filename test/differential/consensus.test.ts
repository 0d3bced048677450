/**
 * Differential tests against @chainsafe/ssz for the consensus containers of
 * every fork: every container of the minimal preset on random values, and
 * the big ones (blocks, states) of the mainnet preset on a few.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { SszType } from '@ssztree/types';
import { FORKS, mainnet } from '@ssztree/types/consensus';
import { expectAgreement } from './agree.js';
import { arbitrary } from './arbitrary.js';
import { newTypesByFork, runsFor } from './forkTypes.js';

const sample = (t: SszType<unknown>) => fc.sample(arbitrary(t), { seed: 1, numRuns: 1 })[0];

const MINIMAL_BY_FORK = newTypesByFork('minimal');

describe('differential: consensus containers agree with @chainsafe/ssz', () => {
  for (const fork of FORKS) {
    it(`minimal.${fork}: every type it adds or changes`, () => {
      for (const [, type] of MINIMAL_BY_FORK[fork]) {
        fc.assert(
          fc.property(arbitrary(type), (value) => expectAgreement(type, value)),
          { numRuns: runsFor(type, 8, sample) },
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
