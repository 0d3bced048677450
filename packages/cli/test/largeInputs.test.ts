/**
 * Wrong inputs of any size, in real child processes: each is refused with one
 * stderr line (the sizes, or the decoder's code, type path and offset) within
 * 300 MB of peak memory above a run that reads no input at all — a sparse
 * gigabyte of zeros as a state, 5 GiB, a state whose layout fits but which no
 * buffer can hold, inputs too large for a fixed or bounded type, snappy of
 * both formats, JSON and YAML. Their times are measured by
 * `bench/cli-inputs.ts` (docs/CLI.md), not here: a timed test on a shared
 * machine measures the machine. The files are sparse (truncate / ftruncate),
 * so they cost no disk; the framed snappy stream is real (about 50 MB of
 * repeated chunks).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainnet } from '@ssztree/types/consensus';
import { framedZeros, GiB, sparse as sparseIn, stateWithLayoutPast4GiB } from '../scripts/wrongInputs.js';
import { tempDir } from './helpers.js';

const BIN = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const USAGE = fileURLToPath(new URL('../scripts/reportUsage.mjs', import.meta.url));
/** The target: peak memory above a run that reads nothing. */
const MAX_EXTRA_RSS_MB = 300;

const tmp = tempDir();
const sparse = (name: string, size: number) => sparseIn(tmp.dir, name, size);

interface Run {
  readonly code: number | null;
  readonly err: string;
  readonly rssMb: number;
}

function ssztree(args: string[]): Run {
  const report = join(tmp.dir, 'usage.json');
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', USAGE, '--conditions=source', BIN, ...args], {
    env: { ...process.env, SSZTREE_TEST_USAGE: report },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const usage = JSON.parse(readFileSync(report, 'utf8')) as { maxRssKb: number };
  return { code: r.status, err: r.stderr, rssMb: usage.maxRssKb / 1024 };
}

let baseline: Run;

beforeAll(() => {
  // What the CLI costs before it reads anything: the same modules loaded, the type registry built.
  const runs = [ssztree(['--version']), ssztree(['--version'])];
  baseline = { code: 0, err: '', rssMb: Math.min(...runs.map((r) => r.rssMb)) };
}, 120_000);
afterAll(() => tmp.remove());

/** Runs `args`: exit 2, exactly `line` on stderr, and peak memory within the target. */
function expectRefused(args: string[], line: RegExp): Run {
  const run = ssztree(args);
  expect({ code: run.code, lines: run.err.split('\n').length }).toEqual({ code: 2, lines: 2 });
  expect(run.err).toMatch(line);
  expect(run.rssMb - baseline.rssMb, `peak RSS ${run.rssMb.toFixed(0)} MB, idle ${baseline.rssMb.toFixed(0)} MB`).toBeLessThan(MAX_EXTRA_RSS_MB);
  return run;
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('wrong inputs of any size: one line, ≤ 300 MB above idle', () => {
  it('1 GiB of zeros as a BeaconState: the first offset, as the decoder says it', () => {
    const path = sparse('zeros-1g.ssz', GiB);
    expectRefused(['root', 'electra.BeaconState', path], new RegExp(`^ssztree: ${esc(path)}: offset 0 is not the fixed part's end \\d+ \\(BAD_OFFSET\\) at BeaconState\\.historical_roots, byte offset \\d+\\n$`));
  });

  it('5 GiB of zeros: the same, without reading it', () => {
    const path = sparse('zeros-5g.ssz', 5 * GiB);
    expectRefused(['decode', 'electra.BeaconState', path], /: offset 0 is not the fixed part's end \d+ \(BAD_OFFSET\) at BeaconState\.historical_roots, byte offset \d+\n$/);
  });

  it('5 GiB of zeros as a BeaconState named without its fork: the fork is picked from the first bytes, then the same refusal', () => {
    const path = sparse('zeros-5g-forkless.ssz', 5 * GiB);
    // Slot 0 is phase0 on mainnet's schedule: the phase0 state's layout check refuses it without reading the file.
    expectRefused(['root', 'BeaconState', path, '--network', 'mainnet'], /: offset 0 is not the fixed part's end \d+ \(BAD_OFFSET\) at BeaconState\.historical_roots, byte offset \d+\n$/);
  });

  it('a state past 4 GiB whose layout fits: too large to hold, with the sizes', () => {
    const { path, size } = stateWithLayoutPast4GiB(tmp.dir, 'layout-4g.ssz');
    expect(size).toBeGreaterThan(2 ** 32);
    expectRefused(['root', 'electra.BeaconState', path], new RegExp(`^ssztree: ${esc(path)}: ${size} bytes: more than fits in memory at once \\((Node's largest buffer is|this machine has) \\d+ bytes( of memory)?\\)\\n$`));
  });

  it('too large for the type: a fixed-size one and a bounded one, with the sizes', () => {
    const path = sparse('zeros-1g-b.ssz', GiB);
    expectRefused(['root', 'electra.Checkpoint', path], new RegExp(`: ${GiB} bytes, but an electra\\.Checkpoint is always 40 bytes\\n$`));
    expectRefused(['root', 'electra.Attestation', path], new RegExp(`: ${GiB} bytes, but an electra\\.Attestation is at most ${mainnet.electra.Attestation.maxSize} bytes\\n$`));
  });

  it('snappy: 1 GiB of zeros as a raw block declares 0 bytes; framed zeros decompressing to 1 GiB fail on their first offset', () => {
    const block = sparse('zeros-1g.ssz_snappy', GiB);
    expectRefused(['root', 'electra.BeaconState', block], /: 0 bytes once decompressed, but an electra\.BeaconState is at least \d+ bytes\n$/);
    const framed = framedZeros(tmp.dir, 'zeros-framed.ssz_snappy', GiB / 65536);
    expectRefused(['root', 'electra.BeaconState', framed], /: offset 0 is not the fixed part's end \d+ \(BAD_OFFSET\) at BeaconState\.historical_roots, byte offset \d+ of the decompressed SSZ\n$/);
  });

  it('JSON and YAML: too long to be a string, or not text', () => {
    const big = sparse('zeros-1g.json', GiB);
    expectRefused(['root', 'electra.BeaconState', big], new RegExp(`: ${GiB} bytes is too large for JSON text here \\(at most \\d+ bytes: Node's longest string\\)\\n$`));
    const bin = sparse('zeros-400m.yaml', 400 * 2 ** 20);
    expectRefused(['encode', 'electra.BeaconState', bin, '-o', join(tmp.dir, 'out.ssz')], /: not text: control byte 0x00 at byte 0 \(use --format ssz for binary input\)\n$/);
  });
});
