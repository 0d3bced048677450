/**
 * Conformance: the 27 phase0 `ssz_static` types of spec v0.12.x, minimal
 * preset, every case (123 per type): decode serialized.ssz, re-encode to the
 * same bytes, root equals roots.yaml, value equals value.yaml.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { toHex, type SszType } from '@ssztree/types';
import { minimal } from '@ssztree/types/consensus';
import { listDirs, readBytes, readRoot, readYaml, specTestsDir } from './specFiles.js';

const TYPES = [
  'AggregateAndProof', 'Attestation', 'AttestationData', 'AttesterSlashing', 'BeaconBlock', 'BeaconBlockBody',
  'BeaconBlockHeader', 'BeaconState', 'Checkpoint', 'Deposit', 'DepositData', 'DepositMessage', 'Eth1Block',
  'Eth1Data', 'Fork', 'ForkData', 'HistoricalBatch', 'IndexedAttestation', 'PendingAttestation', 'ProposerSlashing',
  'SignedAggregateAndProof', 'SignedBeaconBlock', 'SignedBeaconBlockHeader', 'SignedVoluntaryExit', 'SigningData',
  'Validator', 'VoluntaryExit',
] as const;

let root = '';

describe('ssz_static phase0 minimal (spec v0.12.x)', () => {
  beforeAll(() => {
    root = join(specTestsDir(), 'tests/minimal/phase0/ssz_static');
  }, 600_000);

  it('covers every type in the vectors', () => {
    expect(listDirs(root)).toEqual([...TYPES]);
  });

  for (const name of TYPES) {
    it(`${name}: 123 cases decode, re-encode, and match root and value (also through toTree/fromTree/serializeTree)`, () => {
      const type = minimal.phase0[name] as unknown as SszType<unknown>;
      let cases = 0;
      for (const suite of listDirs(join(root, name))) {
        for (const c of listDirs(join(root, name, suite))) {
          const dir = join(root, name, suite, c);
          const bytes = readBytes(join(dir, 'serialized.ssz'));
          const value = type.deserialize(bytes);
          const label = `${name}/${suite}/${c}`;
          expect(toHex(type.serialize(value)), label).toBe(toHex(bytes));
          expect(toHex(type.hashTreeRoot(value)), label).toBe(readRoot(join(dir, 'roots.yaml')));
          // The same root through the tree path, and the value back from the tree.
          const tree = type.toTree(value);
          expect(toHex(tree.root), label).toBe(readRoot(join(dir, 'roots.yaml')));
          expect(type.equals(type.fromTree(tree), value), label).toBe(true);
          // The bytes straight out of the tree, and out of a view built from the bytes.
          expect(toHex(type.serializeTree(tree)), label).toBe(toHex(bytes));
          expect(toHex(type.deserializeToView(bytes).serialize()), label).toBe(toHex(bytes));
          tree.dispose();
          expect(type.equals(value, type.fromJson(readYaml(join(dir, 'value.yaml')))), label).toBe(true);
          cases++;
        }
      }
      expect(cases).toBe(123);
    });
  }
});
