/**
 * YAML at scale, in real child processes: a mainnet electra BeaconState of
 * 2^15 validators through `decode` and `decode --yaml`, then `encode` of
 * each text back to the same SSZ bytes, with the YAML runs' peak memory
 * within 3× the JSON runs' (each above an idle run of `ssztree --version`).
 * Times are measured by bench/yaml.ts (docs/BENCHMARKS.md `## YAML`), not
 * here: a timed test on a shared machine measures the machine.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { mainnet } from '@ssztree/types/consensus';
import { tempDir } from './helpers.js';

const BIN = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const USAGE = fileURLToPath(new URL('../scripts/reportUsage.mjs', import.meta.url));
const N = 2 ** 15;
const tmp = tempDir();
afterAll(() => tmp.remove());

/** Runs the CLI, stdout to `out` (a file) when given; exit code and peak RSS in MB. */
function ssztree(args: string[], out?: string): { code: number | null; err: string; rssMb: number } {
  const report = join(tmp.dir, 'usage.json');
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', USAGE, '--conditions=source', BIN, ...args], {
    env: { ...process.env, SSZTREE_TEST_USAGE: report },
    maxBuffer: 1 << 30,
    timeout: 300_000,
  });
  if (out !== undefined) writeFileSync(out, r.stdout);
  return { code: r.status, err: r.stderr.toString('utf8'), rssMb: (JSON.parse(readFileSync(report, 'utf8')) as { maxRssKb: number }).maxRssKb / 1024 };
}

describe(`YAML at scale: a state of ${N} validators`, () => {
  it('decode --yaml and encode of its YAML use at most 3× the memory of the JSON runs, and give the same bytes', { timeout: 600_000 }, () => {
    const S = mainnet.electra.BeaconState;
    const state = S.defaultValue();
    for (let i = 0; i < N; i++) {
      const v = mainnet.electra.Validator.defaultValue();
      v.pubkey[0] = i & 255;
      v.pubkey[1] = i >> 8;
      v.effective_balance = 32_000_000_000n;
      state.validators.push(v);
    }
    state.balances = new BigUint64Array(N).fill(32_000_000_000n);
    state.inactivity_scores = new BigUint64Array(N);
    state.previous_epoch_participation = new Uint8Array(N).fill(7);
    state.current_epoch_participation = new Uint8Array(N).fill(3);
    const ssz = S.serialize(state);
    const file = (name: string) => join(tmp.dir, name);
    writeFileSync(file('state.ssz'), ssz);

    const idle = ssztree(['--version']).rssMb;
    const above = (r: { code: number | null; err: string; rssMb: number }) => {
      expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
      return r.rssMb - idle;
    };
    const decodeJson = above(ssztree(['decode', 'electra.BeaconState', file('state.ssz')], file('state.json')));
    const decodeYaml = above(ssztree(['decode', 'electra.BeaconState', file('state.ssz'), '--yaml'], file('state.yaml')));
    const encodeJson = above(ssztree(['encode', 'electra.BeaconState', file('state.json'), '-o', file('a.ssz')]));
    const encodeYaml = above(ssztree(['encode', 'electra.BeaconState', file('state.yaml'), '-o', file('b.ssz')]));
    expect(Buffer.compare(readFileSync(file('a.ssz')), Buffer.from(ssz))).toBe(0);
    expect(Buffer.compare(readFileSync(file('b.ssz')), Buffer.from(ssz))).toBe(0);
    const figures = `MB above idle: decode ${decodeJson.toFixed(0)} / --yaml ${decodeYaml.toFixed(0)}, encode JSON ${encodeJson.toFixed(0)} / YAML ${encodeYaml.toFixed(0)}`;
    expect(decodeYaml, figures).toBeLessThanOrEqual(3 * decodeJson);
    expect(encodeYaml, figures).toBeLessThanOrEqual(3 * encodeJson);
  });
});
