/**
 * The catalog against the spec's own text, every fork: each SSZ class the
 * pinned markdown of specs/<fork>/ defines in its python blocks (extracted
 * into fixtures/consensus-specs/types/<fork>.json by
 * scripts/extract-spec-types.mjs) is a type of that fork here, or an alias
 * in `primitives`; a Container has the spec's fields in the spec's order.
 * (gloas and heze are checked deeper, field type by field type, in
 * specText.test.ts; field types of the earlier forks are compared with
 * @lodestar/types in test/differential.) The p2p req/resp containers the
 * spec writes as plain blocks (Status, Metadata, the ByRange requests) are
 * not python classes: the named list below checks them in every fork from
 * the one that introduces them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContainerType, ProgressiveContainerType, SszType } from '../../src/index.js';
import { FORKS, mainnet, minimal, primitives, type ForkName } from '../../src/consensus/index.js';

interface SpecClass {
  readonly name: string;
  readonly base: string;
  readonly fields: readonly [string, string][];
  readonly file: string;
}
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'consensus-specs', 'types');
const classes = (fork: ForkName): SpecClass[] => (JSON.parse(readFileSync(join(FIXTURES, `${fork}.json`), 'utf8')) as { classes: SpecClass[] }).classes;

/** Containers and lists users exchange, by the fork that introduces them (p2p, light-client, validator). */
const NAMED: Partial<Record<ForkName, readonly string[]>> = {
  // (Goodbye and Ping carry a bare uint64: the spec names no type for them.)
  phase0: ['Status', 'Metadata', 'ENRForkID', 'ErrorMessage', 'BeaconBlocksByRangeRequest', 'AggregateAndProof', 'SignedAggregateAndProof', 'Eth1Block'],
  altair: [
    'LightClientHeader',
    'LightClientBootstrap',
    'LightClientUpdate',
    'LightClientFinalityUpdate',
    'LightClientOptimisticUpdate',
    'LightClientUpdatesByRangeRequest',
    'SyncCommitteeMessage',
    'SyncCommitteeContribution',
    'ContributionAndProof',
    'SignedContributionAndProof',
    'SyncAggregatorSelectionData',
  ],
  bellatrix: ['PowBlock'],
  capella: ['HistoricalSummary', 'SignedBLSToExecutionChange'],
  deneb: ['BlobSidecar', 'BlobIdentifier', 'BlobSidecarsByRangeRequest'],
  electra: ['SingleAttestation'],
  fulu: ['DataColumnSidecar', 'MatrixEntry', 'DataColumnsByRootIdentifier', 'DataColumnSidecarsByRangeRequest', 'BeaconBlocksByHeadRequest'],
  gloas: ['Builder', 'SignedExecutionPayloadBid', 'SignedExecutionPayloadEnvelope', 'PayloadAttestation', 'PayloadAttestationMessage', 'ExecutionPayloadEnvelopesByRangeRequest', 'ExecutionPayloadEnvelopeRoots', 'SignedExecutionPayloadEnvelopes'],
  heze: ['SignedInclusionList', 'InclusionListsByIndicesRequest'],
};

describe('the type catalog against the spec text, every fork', () => {
  for (const fork of FORKS) {
    it(`${fork}: every class of specs/${fork}/*.md is a type here (containers with the spec's fields in order)`, () => {
      const specClasses = classes(fork);
      let containers = 0;
      for (const preset of [mainnet, minimal]) {
        const types = preset[fork] as unknown as Record<string, SszType<unknown> | undefined>;
        for (const c of specClasses) {
          const type = types[c.name] ?? (primitives as Record<string, SszType<unknown> | undefined>)[c.name];
          expect(type, `${fork}.${c.name} (${c.file})`).toBeInstanceOf(SszType);
          if (c.base === 'Container' || c.base === 'ProgressiveContainer') {
            expect(type, `${fork}.${c.name}`).toBeInstanceOf(c.base === 'Container' ? ContainerType : ProgressiveContainerType);
            expect(Object.keys((type as ContainerType<never>).fields), `${fork}.${c.name} fields`).toEqual(c.fields.map(([n]) => n));
            if (preset === mainnet) containers++;
          }
        }
      }
      console.log(`${fork}: ${specClasses.length} classes of the spec text found (${containers} containers with their fields in order)`);
    });
  }

  it('the p2p, light-client and validator containers exist in every fork from the one that introduces them', () => {
    for (const [i, fork] of FORKS.entries()) {
      const names = FORKS.slice(0, i + 1).flatMap((f) => NAMED[f] ?? []);
      for (const name of names) {
        const type = (mainnet[fork] as unknown as Record<string, unknown>)[name];
        expect(type, `${fork}.${name}`).toBeInstanceOf(SszType);
      }
    }
  });
});
