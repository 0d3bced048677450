/**
 * The presets: every constant of every fork's preset file, both presets,
 * equals the pinned consensus-specs yaml (committed under
 * test/fixtures/consensus-specs, since CI cannot reach GitHub) and
 * @lodestar/params 1.50, except where lodestar and the spec differ — each
 * such difference is listed below with the reason, and the test checks the
 * reason's arithmetic.
 *
 * Lodestar picks its preset once per process from LODESTAR_PRESET, so each
 * preset is read in a child process of its own.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MAINNET, MINIMAL, P2P, PRESET_FORKS, SPEC_VERSION, mainnet, minimal, type Preset } from '../../src/consensus/index.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'consensus-specs');
const PRESETS: Record<'mainnet' | 'minimal', Preset> = { mainnet: MAINNET, minimal: MINIMAL };

function specYaml(path: string): Record<string, unknown> {
  return parse(readFileSync(join(FIXTURES, path), 'utf8'), { intAsBigInt: true }) as Record<string, unknown>;
}

function lodestarPreset(name: string): { active: string; preset: Record<string, number> } {
  const script = "const p = await import('@lodestar/params'); process.stdout.write(JSON.stringify({ active: p.ACTIVE_PRESET, preset: p.activePreset }))";
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, LODESTAR_PRESET: name }, encoding: 'utf8' });
  return JSON.parse(out) as { active: string; preset: Record<string, number> };
}

/**
 * Where @lodestar/params 1.50 and the pinned spec differ. Ours follow the
 * spec in every case.
 */
const LODESTAR_DIFFERS: Record<string, string> = {
  MAX_DATA_COLUMN_SIDECAR_SIZE: 'absent in lodestar 1.50; the spec defines it in presets/*/gloas.yaml and specs/gloas/p2p-interface.md',
  MAX_PARTIAL_DATA_COLUMN_SIDECAR_SIZE: 'absent in lodestar 1.50; the spec defines it in presets/*/gloas.yaml and specs/gloas/partial-columns/p2p-interface.md',
  MAX_SIGNED_INCLUSION_LIST_SIZE:
    'lodestar 41112 = 152 + 5 × 8192 (every transaction byte a 1-byte transaction with its 4-byte offset); the spec 8348 = 152 + 4 + 8192 (one transaction of MAX_TRANSACTIONS_BYTES_PER_INCLUSION_LIST bytes), in presets/*/heze.yaml and specs/heze/p2p-interface.md',
};

describe('presets', () => {
  it('pin the spec version', () => {
    expect(SPEC_VERSION.commit).toBe('a08d8a6e2b45f0b8c0d379abc15583427c643689');
    const config = readFileSync(join(FIXTURES, 'configs', 'mainnet.yaml'), 'utf8');
    expect(config).toContain('FULU_FORK_EPOCH: 411392');
  });

  for (const [name, preset] of Object.entries(PRESETS)) {
    it(`${name}: every fork's constants equal presets/${name}/<fork>.yaml at the pin`, () => {
      let count = 0;
      for (const fork of PRESET_FORKS) {
        const yaml = specYaml(`presets/${name}/${fork}.yaml`);
        const ours = preset.byFork[fork] as Record<string, number>;
        expect(Object.keys(ours), `${name}/${fork}.yaml names`).toEqual(Object.keys(yaml));
        for (const [k, v] of Object.entries(yaml)) {
          expect(BigInt(ours[k] as number), `${name}.${fork}.${k}`).toBe(v);
          expect((preset as unknown as Record<string, number>)[k], `${name}.${k} (flat)`).toBe(ours[k]);
          count++;
        }
      }
      expect(count).toBe(84); // the names of the nine files at the pin
    });

    it(`${name}: every constant equals @lodestar/params 1.50 (own process), or differs for a stated reason`, () => {
      const { active, preset: theirs } = lodestarPreset(name);
      expect(active).toBe(name);
      const differing: string[] = [];
      for (const fork of PRESET_FORKS) {
        for (const [k, v] of Object.entries(preset.byFork[fork])) {
          if (theirs[k] !== v) differing.push(k);
        }
      }
      expect(differing.sort()).toEqual(Object.keys(LODESTAR_DIFFERS).sort());
      // Everything lodestar's preset has, ours has too.
      expect(Object.keys(theirs).filter((k) => !(k in preset))).toEqual([]);
      // The stated reason for the inclusion-list bound, checked: InclusionList's fixed part is
      // slot 8 + validator_index 8 + dependent_root 32 + offset 4; SignedInclusionList adds an offset and a signature.
      const fixed = 4 + 96 + 8 + 8 + 32 + 4;
      const txBytes = 8192; // MAX_TRANSACTIONS_BYTES_PER_INCLUSION_LIST, configs/*.yaml
      expect(fixed + 4 + txBytes).toBe(preset.MAX_SIGNED_INCLUSION_LIST_SIZE);
      expect(fixed + 5 * txBytes).toBe(theirs['MAX_SIGNED_INCLUSION_LIST_SIZE']);
      expect(theirs['MAX_DATA_COLUMN_SIDECAR_SIZE']).toBeUndefined();
    }, 30_000);
  }

  it('minimal follows the current spec where it once was smaller (blob commitments, execution requests)', () => {
    expect(MINIMAL.MAX_BLOB_COMMITMENTS_PER_BLOCK).toBe(4096);
    expect(MINIMAL.KZG_COMMITMENT_INCLUSION_PROOF_DEPTH).toBe(17);
    expect(MINIMAL.MAX_DEPOSIT_REQUESTS_PER_PAYLOAD).toBe(8192);
    expect(MINIMAL.MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD).toBe(16);
    expect(minimal.deneb.BlobKZGCommitments.limit).toBe(4096);
    expect(minimal.deneb.BlobSidecar.fields.kzg_commitment_inclusion_proof.length).toBe(17);
    expect(minimal.electra.ExecutionRequests.fields.deposits.limit).toBe(8192);
  });

  it('the p2p constants equal both configs at the pin', () => {
    for (const name of ['mainnet', 'minimal']) {
      const config = specYaml(`configs/${name}.yaml`);
      for (const k of ['MAX_REQUEST_BLOCKS', 'MAX_REQUEST_BLOCKS_DENEB', 'ATTESTATION_SUBNET_COUNT', 'MAX_BLOBS_PER_BLOCK', 'MAX_BLOBS_PER_BLOCK_ELECTRA', 'MAX_REQUEST_PAYLOADS', 'MAX_REQUEST_INCLUSION_LIST'] as const) {
        expect(BigInt(P2P[k]), `${name} ${k}`).toBe(config[k]);
      }
    }
    expect(mainnet.phase0.SignedBeaconBlocks.limit).toBe(P2P.MAX_REQUEST_BLOCKS);
  });
});
