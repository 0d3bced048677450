/**
 * How long the CLI takes to refuse wrong inputs of any size, and its peak
 * memory while doing so, each against a run that reads no input at all
 * (`ssztree --version`: the same modules loaded), paired round by round so the
 * shared machine's load cancels. The inputs are those of
 * packages/cli/test/largeInputs.test.ts (sparse files: no disk cost).
 *
 * Each round runs the idle command and every input once, in a rotated
 * order, each in its own child process (the CLI from its sources through
 * tsx, as the tests run it); the time is measured inside the child, from
 * its first preloaded module to its exit.
 *
 * Usage: npx tsx --conditions=source bench/cli-inputs.ts [--rounds 5]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { framedZeros, GiB, sparse, stateWithLayoutPast4GiB } from '../packages/cli/scripts/wrongInputs.js';
import { fmt, median, summarize } from './lib/stats.js';

const BIN = fileURLToPath(new URL('../packages/cli/src/cli.ts', import.meta.url));
const USAGE = fileURLToPath(new URL('../packages/cli/scripts/reportUsage.mjs', import.meta.url));
const i = process.argv.indexOf('--rounds');
const rounds = i >= 0 ? Number(process.argv[i + 1]) : 5;

const dir = mkdtempSync(join(tmpdir(), 'ssztree-bench-inputs-'));
const report = join(dir, 'usage.json');

function run(args: string[]): { ms: number; rssMb: number; code: number | null } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', USAGE, '--conditions=source', BIN, ...args], {
    env: { ...process.env, SSZTREE_TEST_USAGE: report },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const u = JSON.parse(readFileSync(report, 'utf8')) as { maxRssKb: number; ms: number };
  return { ms: u.ms, rssMb: u.maxRssKb / 1024, code: r.status };
}

try {
  const zeros1 = sparse(dir, 'zeros-1g.ssz', GiB);
  const zeros5 = sparse(dir, 'zeros-5g.ssz', 5 * GiB);
  const past4 = stateWithLayoutPast4GiB(dir, 'layout-4g.ssz');
  const block = sparse(dir, 'zeros-1g.ssz_snappy', GiB);
  const framed = framedZeros(dir, 'zeros-framed.ssz_snappy', GiB / 65536);
  const json = sparse(dir, 'zeros-1g.json', GiB);
  const yaml = sparse(dir, 'zeros-400m.yaml', 400 * 2 ** 20);
  const cases: [string, string[]][] = [
    ['1 GiB of zeros as electra.BeaconState (.ssz)', ['root', 'electra.BeaconState', zeros1]],
    ['5 GiB of zeros as electra.BeaconState (.ssz)', ['root', 'electra.BeaconState', zeros5]],
    [`a state of ${past4.size} bytes, layout right (.ssz)`, ['root', 'electra.BeaconState', past4.path]],
    ['1 GiB of zeros as electra.Checkpoint', ['root', 'electra.Checkpoint', zeros1]],
    ['1 GiB of zeros as electra.Attestation', ['root', 'electra.Attestation', zeros1]],
    ['1 GiB of zeros as raw-block snappy', ['root', 'electra.BeaconState', block]],
    ['framed snappy of 1 GiB of zeros (48 MB)', ['root', 'electra.BeaconState', framed]],
    ['1 GiB of zeros as .json', ['root', 'electra.BeaconState', json]],
    ['400 MiB of zeros as .yaml', ['encode', 'electra.BeaconState', yaml, '-o', join(dir, 'out.ssz')]],
  ];
  const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`# cli-inputs: ${rounds} rounds, ${cpus().length} × ${cpus()[0]?.model}, node ${process.version}, load ${load()}`);
  const extraMs = cases.map((): number[] => []);
  const extraRss = cases.map((): number[] => []);
  const idleMs: number[] = [];
  const idleRss: number[] = [];
  run(['--version']); // warm-up: tsx's cache, the page cache
  for (let r = 0; r < rounds; r++) {
    const idle = run(['--version']);
    idleMs.push(idle.ms);
    idleRss.push(idle.rssMb);
    for (let k = 0; k < cases.length; k++) {
      const c = (k + r) % cases.length;
      const res = run(cases[c]![1]);
      if (res.code !== 2) throw new Error(`${cases[c]![0]}: exit ${res.code}, expected 2`);
      extraMs[c]!.push(res.ms - idle.ms);
      extraRss[c]!.push(res.rssMb - idle.rssMb);
    }
  }
  console.log(`idle run (ssztree --version): median ${fmt(median(idleMs), 0)} ms, ${fmt(median(idleRss), 0)} MB peak RSS\n`);
  console.log('| wrong input | time above idle: median (min–max) | peak RSS above idle: median (max) |');
  console.log('| --- | --- | --- |');
  cases.forEach(([name], c) => {
    const t = summarize(extraMs[c]!);
    const m = summarize(extraRss[c]!);
    console.log(`| ${name} | ${fmt(t.median, 0)} ms (${fmt(t.min, 0)}–${fmt(t.max, 0)}) | ${fmt(m.median, 0)} MB (${fmt(m.max, 0)}) |`);
  });
  console.log(`\nload at the end: ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
