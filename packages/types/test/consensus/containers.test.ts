/**
 * The consensus containers: every container of every fork and preset builds,
 * and its default value round-trips; field counts and shapes match the spec.
 */
import { describe, expect, it } from 'vitest';
import { SszType, toHex } from '../../src/index.js';
import { FORKS, mainnet, minimal } from '../../src/consensus/index.js';

const PRESETS = { mainnet, minimal };

function containersOf(fork: object): [string, SszType<unknown>][] {
  return Object.entries(fork).filter((e): e is [string, SszType<unknown>] => e[1] instanceof SszType && /^[A-Z]/.test(e[0]));
}

describe('consensus containers', () => {
  for (const [presetName, preset] of Object.entries(PRESETS)) {
    for (const fork of FORKS) {
      it(`${presetName}.${fork}: every container's default value round-trips`, () => {
        const types = containersOf(preset[fork]);
        expect(types.length).toBeGreaterThan(20);
        for (const [name, type] of types) {
          if (name === 'Blob') continue; // 128 KiB of zeros; covered by the byte-vector tests
          const value = type.defaultValue();
          const bytes = type.serialize(value);
          expect(bytes.length, name).toBe(type.fixedSize ?? bytes.length);
          const back = type.deserialize(bytes);
          expect(type.equals(back, value), name).toBe(true);
          expect(toHex(type.hashTreeRoot(back)), name).toBe(toHex(type.hashTreeRoot(value)));
        }
      });
    }
  }

  it('state and body field lists follow each fork', () => {
    const count = (t: { fields: object }) => Object.keys(t.fields).length;
    expect(FORKS.map((f) => count(mainnet[f].BeaconState))).toEqual([21, 24, 25, 28, 28, 37, 38, 46, 46]);
    expect(FORKS.map((f) => count(mainnet[f].BeaconBlockBody))).toEqual([8, 9, 10, 11, 12, 13, 13, 13, 13]);
    expect(Object.keys(mainnet.gloas.BeaconBlockBody.fields).slice(-3)).toEqual(['signed_execution_payload_bid', 'payload_attestations', 'parent_execution_requests']);
    expect(Object.keys(mainnet.gloas.BeaconState.fields)).not.toContain('latest_execution_payload_header');
    expect(Object.keys(mainnet.electra.BeaconBlockBody.fields).slice(-2)).toEqual(['blob_kzg_commitments', 'execution_requests']);
    expect(Object.keys(mainnet.altair.BeaconState.fields).slice(15, 18)).toEqual([
      'previous_epoch_participation',
      'current_epoch_participation',
      'justification_bits',
    ]);
  });

  it('sizes match the spec', () => {
    expect(mainnet.phase0.Validator.fixedSize).toBe(121);
    expect(mainnet.phase0.Attestation.fixedSize).toBeNull();
    expect(mainnet.electra.Attestation.fields.committee_bits.length).toBe(64);
    expect(minimal.electra.Attestation.fields.aggregation_bits.limit).toBe(2048 * 4);
    expect(mainnet.altair.SyncAggregate.fixedSize).toBe(64 + 96);
    expect(minimal.altair.SyncCommittee.fixedSize).toBe(32 * 48 + 48);
    expect(mainnet.deneb.BlobSidecar.fields.kzg_commitment_inclusion_proof.length).toBe(17);
    expect(mainnet.bellatrix.ExecutionPayloadHeader.fixedSize).toBeNull();
    expect(mainnet.fulu.BeaconState.fields.proposer_lookahead.length).toBe(64);
    expect(minimal.fulu.ProposerLookahead.length).toBe(16);
    expect(mainnet.fulu.Cell.fixedSize).toBe(2048);
    expect(mainnet.fulu.MatrixEntry.fixedSize).toBe(2048 + 48 + 8 + 8);
    expect(mainnet.fulu.DataColumnSidecars.limit).toBe(128 * 128);
    expect(mainnet.electra.BlobSidecars.limit).toBe(128 * 9);
    expect(mainnet.deneb.BlobSidecars.limit).toBe(128 * 6);
    expect(mainnet.fulu.Status.fixedSize).toBe(4 + 32 + 8 + 32 + 8 + 8);
    expect(mainnet.fulu.Metadata.fixedSize).toBe(8 + 8 + 1 + 8);
    expect(mainnet.phase0.ENRForkID.fixedSize).toBe(16);
  });

  it('unchanged types are the very objects of the fork before', () => {
    expect(mainnet.fulu.BeaconBlockBody).toBe(mainnet.electra.BeaconBlockBody);
    expect(mainnet.fulu.LightClientUpdate).toBe(mainnet.electra.LightClientUpdate);
    expect(mainnet.fulu.Validator).toBe(mainnet.phase0.Validator);
    expect(mainnet.fulu.BeaconState).not.toBe(mainnet.electra.BeaconState);
    expect(mainnet.electra.Metadata).toBe(mainnet.altair.Metadata);
    expect(mainnet.gloas.Metadata).toBe(mainnet.fulu.Metadata);
    expect(mainnet.gloas.Status).toBe(mainnet.fulu.Status);
    expect(mainnet.gloas.ExecutionPayloadHeader).toBe(mainnet.fulu.ExecutionPayloadHeader);
    expect(mainnet.heze.DataColumnSidecar).toBe(mainnet.gloas.DataColumnSidecar);
    expect(mainnet.heze.LightClientUpdate).toBe(mainnet.gloas.LightClientUpdate);
    expect(mainnet.heze.ExecutionPayloadEnvelope).toBe(mainnet.gloas.ExecutionPayloadEnvelope);
    expect(mainnet.heze.BeaconState).not.toBe(mainnet.gloas.BeaconState);
  });

  it('gloas and heze sizes and progressive shapes match the spec', () => {
    const g = mainnet.gloas;
    expect(g.DataColumnSidecar.fixedPartSize).toBe(8 + 4 + 4 + 8 + 32);
    expect(g.Builder.fixedSize).toBe(48 + 1 + 20 + 8 + 8 + 8);
    expect(g.BuilderPendingPayment.fixedSize).toBe(8 + (20 + 8 + 8) + 8);
    expect(g.PayloadAttestationData.fixedSize).toBe(32 + 8 + 1 + 1);
    expect(g.PayloadAttestation.fixedSize).toBe(512 / 8 + 42 + 96);
    expect(minimal.gloas.PTCBits.length).toBe(16);
    expect(g.PTCWindow.length).toBe(3 * 32);
    expect(minimal.gloas.PTCWindow.length).toBe(3 * 8);
    expect(g.BuilderPendingPayments.length).toBe(64);
    expect(g.ExecutionPayloadAvailability.length).toBe(8192);
    expect(g.ProposerPreferences.fixedSize).toBe(32 + 8 + 8 + 20 + 8);
    expect(g.ExecutionPayloadEnvelopeRoots.limit).toBe(128);
    expect(g.SignedExecutionPayloadEnvelopes.limit).toBe(128);
    expect(g.DataColumnSidecars.limit).toBe(128 * 128);
    expect(g.BeaconState.activeFields).toEqual(new Array(46).fill(true));
    expect(g.ExecutionPayload.activeFields).toHaveLength(19);
    expect(mainnet.heze.ExecutionPayloadBid.activeFields).toHaveLength(13);
    expect(mainnet.heze.InclusionListBits.length).toBe(16);
    expect(mainnet.heze.InclusionListsByIndicesRequest.fixedSize).toBe(8 + 32 + 2);
    expect(mainnet.heze.SignedInclusionLists.limit).toBe(16);
    // The progressive containers serialize as containers of the same fields.
    expect(g.Attestation.serialize(g.Attestation.defaultValue()).length).toBe(4 + 128 + 96 + 8 + 1);
  });
});
