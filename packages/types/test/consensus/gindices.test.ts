/**
 * The spec's generalized-index constants of every fork, each computed with
 * `gindexOf` on our types and compared with the value the spec prints next
 * to its definition (light-client sync-protocol.md of altair, capella,
 * electra and gloas; deneb and fulu p2p-interface.md), and the branch and
 * proof lengths the containers use, which the spec derives from them. From
 * gloas on the state and body are progressive containers, whose gindices
 * follow from the progressive tree shape (`get_generalized_index` of
 * ssz/merkle-proofs.md does not cover them); heze's state and body keep
 * gloas's positions.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { FORKS, MAINNET, MINIMAL, mainnet, minimal, type ForkName } from '../../src/consensus/index.js';

/** `is_valid_merkle_branch` of the spec, with the index taken from the gindex (`get_subtree_index`). */
function verifyBranch(leaf: Uint8Array, branch: readonly Uint8Array[], gindex: bigint, root: Uint8Array): boolean {
  let value = leaf;
  const index = gindex - (1n << BigInt(branch.length));
  for (let i = 0; i < branch.length; i++) {
    const h = createHash('sha256');
    if ((index >> BigInt(i)) & 1n) h.update(branch[i] as Uint8Array).update(value);
    else h.update(value).update(branch[i] as Uint8Array);
    value = new Uint8Array(h.digest());
  }
  return Buffer.from(value).equals(Buffer.from(root));
}

const floorLog2 = (g: bigint) => g.toString(2).length - 1;
const ceilLog2 = (n: number) => Math.ceil(Math.log2(n));
const from = (fork: ForkName) => FORKS.slice(FORKS.indexOf(fork));
/** The forks from `a` through `b`. */
const span = (a: ForkName, b: ForkName) => FORKS.slice(FORKS.indexOf(a), FORKS.indexOf(b) + 1);
/** `get_subtree_index`: the gindex without its leading bit. */
const subtreeIndex = (g: bigint) => g - (1n << BigInt(floorLog2(g)));

describe('generalized indices', () => {
  for (const [name, types] of [['mainnet', mainnet], ['minimal', minimal]] as const) {
    it(`${name}: light-client gindices (altair … deneb: 105, 54, 55; electra, fulu: 169, 86, 87; gloas, heze: 735, 2945, 2946)`, () => {
      for (const fork of from('altair')) {
        const t = types[fork] as (typeof types)['altair'];
        const state = t.BeaconState;
        const at = FORKS.indexOf(fork);
        const expected =
          at >= FORKS.indexOf('gloas') ? [735n, 2945n, 2946n] : at >= FORKS.indexOf('electra') ? [169n, 86n, 87n] : [105n, 54n, 55n];
        const got = [state.gindexOf(['finalized_checkpoint', 'root']), state.gindexOf(['current_sync_committee']), state.gindexOf(['next_sync_committee'])];
        expect(got, fork).toEqual(expected);
        expect([t.FinalityBranch.length, t.CurrentSyncCommitteeBranch.length, t.NextSyncCommitteeBranch.length], fork).toEqual(expected.map(floorLog2));
      }
    });

    it(`${name}: EXECUTION_PAYLOAD_GINDEX = 25 (capella … fulu)`, () => {
      for (const fork of span('capella', 'fulu')) {
        const t = types[fork] as (typeof types)['capella'];
        expect(t.BeaconBlockBody.gindexOf(['execution_payload']), fork).toBe(25n);
        expect(t.ExecutionBranch.length, fork).toBe(4);
        expect(t.LightClientHeader.fields.execution_branch.length, fork).toBe(4);
      }
    });

    it(`${name}: blob KZG commitment inclusion proof (deneb … fulu): depth 17, index of blob i`, () => {
      const preset = name === 'mainnet' ? MAINNET : MINIMAL;
      for (const fork of span('deneb', 'fulu')) {
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

    it(`${name}: EXECUTION_BLOCK_HASH_GINDEX 412 (capella), _DENEB 812 (deneb … fulu), _GLOAS 2856 (gloas, heze); the gloas ExecutionBranch is 11 long`, () => {
      expect(types.capella.BeaconBlockBody.gindexOf(['execution_payload', 'block_hash'])).toBe(412n);
      for (const fork of span('deneb', 'fulu')) {
        expect((types[fork] as (typeof types)['deneb']).BeaconBlockBody.gindexOf(['execution_payload', 'block_hash']), fork).toBe(812n);
      }
      for (const fork of from('gloas')) {
        const t = types[fork] as (typeof types)['gloas'];
        expect(t.BeaconBlockBody.gindexOf(['signed_execution_payload_bid', 'message', 'parent_block_hash']), fork).toBe(2856n);
        expect([t.ExecutionBranch.length, t.LightClientHeader.fields.execution_branch.length], fork).toEqual([11, 11]);
        // The frozen constant: capella's body still places execution_payload at 25.
        expect(types.capella.BeaconBlockBody.gindexOf(['execution_payload'])).toBe(25n);
      }
      // The header's branch proves the bid's parent block hash against body_root (is_valid_light_client_header).
      expect(Object.keys(types.gloas.LightClientHeader.fields)).toEqual(['beacon', 'execution_block_hash', 'execution_branch']);
    });

    it(`${name}: a gloas light-client branch proves the leaf (compute_merkle_proof on our tree, verified as the spec verifies it)`, () => {
      const t = types.gloas;
      const state = { ...t.BeaconState.defaultValue(), slot: 77n, finalized_checkpoint: { epoch: 3n, root: new Uint8Array(32).fill(9) } };
      const tree = t.BeaconState.toTree(state);
      const root = t.BeaconState.hashTreeRoot(state);
      for (const [path, gindex] of [[['finalized_checkpoint', 'root'], 735n], [['next_sync_committee'], 2946n]] as const) {
        const proof = t.BeaconState.createProof(tree, [[...path]]);
        expect(proof.kind).toBe('single');
        if (proof.kind !== 'single') continue;
        expect(proof.branch.length).toBe(floorLog2(gindex));
        expect(verifyBranch(proof.leaf, proof.branch, gindex, root), path.join('.')).toBe(true);
      }
      tree.dispose();
    });
  }
});
