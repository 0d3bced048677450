/**
 * The bin as a real child process (source entry through tsx): stdout bytes,
 * stderr lines and exit codes as a shell sees them.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainnet } from '@ssztree/types/consensus';
import { readBytes, readRoot, specTestsDir, tempDir } from './helpers.js';

const BIN = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const tmp = tempDir();
let dir = '';

function ssztree(args: string[], input?: Uint8Array | string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', BIN, ...args], { input, maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, out: r.stdout.toString('utf8'), err: r.stderr.toString('utf8') };
}

beforeAll(() => {
  dir = join(specTestsDir(), 'tests/minimal/phase0/ssz_static/BeaconState/ssz_random');
}, 600_000);
afterAll(() => tmp.remove());

describe('ssztree as a process', () => {
  it('--version and -v print the package\'s version', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) expect(ssztree([flag])).toMatchObject({ code: 0, out: `${manifest.version}\n`, err: '' });
  });

  it('a failing output (a full disk) is one line and exit 2, not a stack', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', BIN, 'types'], { stdio: ['ignore', full, 'pipe'] });
      expect([r.status, r.stderr.toString('utf8')]).toEqual([2, 'ssztree: cannot write the output: ENOSPC: no space left on device, write\n']);
    } finally {
      closeSync(full);
    }
  });

  it('proof of a path past a list\'s length: exit 2, one line naming the path and the length; below it, a proof', () => {
    const S = mainnet.electra.BeaconState;
    const value = S.defaultValue();
    value.validators = [0, 1, 2].map(() => mainnet.electra.Validator.defaultValue());
    value.balances = BigUint64Array.from([1n, 2n, 3n]);
    const file = tmp.write('three.ssz', S.serialize(value));
    for (const path of [['validators', '3', 'slashed'], ['validators', '3'], ['balances', '3'], ['balances', '5']]) {
      const r = ssztree(['proof', 'electra.BeaconState', file, ...path]);
      expect([r.code, r.out]).toEqual([2, '']);
      expect(r.err).toBe(`ssztree: ${file}: index ${path[1]} is past the list's length 3: nothing there to prove (prove its 'length' to show the element is absent) (BAD_PATH) at BeaconState.${path[0]}\n`);
    }
    const ok = ssztree(['proof', 'electra.BeaconState', file, 'validators', '2', 'slashed']);
    expect([ok.code, ok.err]).toEqual([0, '']);
    expect(JSON.parse(ok.out).paths).toEqual([['validators', 2, 'slashed']]);
  });

  it('root prints the root and exits 0', () => {
    const r = ssztree(['root', 'phase0.BeaconState', join(dir, 'case_2/serialized.ssz'), '--preset', 'minimal']);
    expect([r.code, r.out, r.err]).toEqual([0, `${readRoot(join(dir, 'case_2/roots.yaml'))}\n`, '']);
  });

  it('encode writes the exact SSZ bytes to a pipe (value.yaml from stdin)', () => {
    const r = ssztree(['encode', 'phase0.BeaconState', '-', '--format', 'yaml', '--preset', 'minimal'], readBytes(join(dir, 'case_2/value.yaml')));
    expect(r.code).toBe(0);
    expect(Buffer.compare(r.stdout, Buffer.from(readBytes(join(dir, 'case_2/serialized.ssz'))))).toBe(0);
  });

  it('diff exits 1 when different, 0 when equal', () => {
    const a = join(dir, 'case_2/serialized.ssz');
    const different = ssztree(['diff', 'phase0.BeaconState', a, join(dir, 'case_3/serialized.ssz'), '--preset', 'minimal']);
    expect(different.code).toBe(1);
    expect(different.out).toMatch(/^genesis_time: "\d+" -> "\d+"\n/);
    const same = ssztree(['diff', 'phase0.BeaconState', a, join(dir, 'case_2/value.yaml'), '--preset', 'minimal']);
    expect([same.code, same.out]).toEqual([0, '']);
  });

  it('a corrupt file: exit 2, one stderr line with type path and byte offset, no stack', () => {
    const bytes = readBytes(join(dir, 'case_2/serialized.ssz'));
    const r = ssztree(['decode', 'phase0.BeaconState', tmp.write('cut.ssz', bytes.subarray(0, bytes.length - 3)), '--preset', 'minimal']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n')).toHaveLength(2);
    expect(r.err).toMatch(/^ssztree: .*cut\.ssz: .* at BeaconState\.\S+, byte offset \d+\n$/);
  });
});
