/**
 * The spec's generalized-index constants of every fork through fulu, each
 * computed with `gindexOf` on our types and compared with the value the
 * spec prints next to its definition (light-client sync-protocol.md,
 * deneb and fulu p2p-interface.md), and the branch and proof lengths the
 * containers use, which the spec derives from them.
 */
import { describe, expect, it } from 'vitest';
import { FORKS, MAINNET, MINIMAL, mainnet, minimal, type ForkName } from '../../src/consensus/index.js';

const floorLog2 = (g: bigint) => g.toString(2).length - 1;
const ceilLog2 = (n: number) => Math.ceil(Math.log2(n));
const from = (fork: ForkName) => FORKS.slice(FORKS.indexOf(fork));
/** `get_subtree_index`: the gindex without its leading bit. */
const subtreeIndex = (g: bigint) => g - (1n << BigInt(floorLog2(g)));

describe('generalized indices', () => {
  for (const [name, types] of [['mainnet', mainnet], ['minimal', minimal]] as const) {
    it(`${name}: light-client gindices (altair … deneb: 105, 54, 55; electra, fulu: 169, 86, 87)`, () => {
      for (const fork of from('altair')) {
        const t = types[fork] as (typeof types)['altair'];
        const state = t.BeaconState;
        const electra = FORKS.indexOf(fork) >= FORKS.indexOf('electra');
        const expected = electra ? [169n, 86n, 87n] : [105n, 54n, 55n];
        const got = [state.gindexOf(['finalized_checkpoint', 'root']), state.gindexOf(['current_sync_committee']), state.gindexOf(['next_sync_committee'])];
        expect(got, fork).toEqual(expected);
        expect([t.FinalityBranch.length, t.CurrentSyncCommitteeBranch.length, t.NextSyncCommitteeBranch.length], fork).toEqual(expected.map(floorLog2));
      }
    });

    it(`${name}: EXECUTION_PAYLOAD_GINDEX = 25 (capella and later)`, () => {
      for (const fork of from('capella')) {
        const t = types[fork] as (typeof types)['capella'];
        expect(t.BeaconBlockBody.gindexOf(['execution_payload']), fork).toBe(25n);
        expect(t.ExecutionBranch.length, fork).toBe(4);
        expect(t.LightClientHeader.fields.execution_branch.length, fork).toBe(4);
      }
    });

    it(`${name}: blob KZG commitment inclusion proof (deneb and later): depth 17, index of blob i`, () => {
      const preset = name === 'mainnet' ? MAINNET : MINIMAL;
      for (const fork of from('deneb')) {
        const t = types[fork] as (typeof types)['deneb'];
        const body = t.BeaconBlockBody;
        const list = body.gindexOf(['blob_kzg_commitments']);
        expect(list, fork).toBe(27n);
        const depth = floorLog2(list) + 1 + ceilLog2(preset.MAX_BLOB_COMMITMENTS_PER_BLOCK);
        expect(depth, fork).toBe(preset.KZG_COMMITMENT_INCLUSION_PROOF_DEPTH);
        expect(depth, fork).toBe(17);
        expect(t.BlobSidecar.fields.kzg_commitment_inclusion_proof.length, fork).toBe(17);
        // get_subtree_index(get_generalized_index(BeaconBlockBody, 'blob_kzg_commitments', i)), the proof's index
        for (const i of [0, 1, 4095]) {
          const g = body.gindexOf(['blob_kzg_commitments', i]);
          expect(floorLog2(g), `${fork} [${i}]`).toBe(17);
          expect(subtreeIndex(g), `${fork} [${i}]`).toBe(BigInt(11 * 2 * 4096 + i));
        }
      }
    });

    it(`${name}: data column KZG commitments inclusion proof (fulu): depth 4, index 11`, () => {
      const preset = name === 'mainnet' ? MAINNET : MINIMAL;
      const g = types.fulu.BeaconBlockBody.gindexOf(['blob_kzg_commitments']);
      expect(floorLog2(g)).toBe(preset.KZG_COMMITMENTS_INCLUSION_PROOF_DEPTH);
      expect(floorLog2(g)).toBe(4);
      expect(subtreeIndex(g)).toBe(11n);
      expect(types.fulu.DataColumnSidecar.fields.kzg_commitments_inclusion_proof.length).toBe(4);
    });
  }
});
