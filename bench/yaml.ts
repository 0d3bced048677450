/**
 * YAML at scale, side by side with JSON in one run.
 *
 * Part 1, the CLI: on a mainnet electra BeaconState of 2^18 validators,
 * `ssztree encode` of its JSON and of its YAML, and `ssztree decode` to JSON
 * and with `--yaml`, each run in its own process, interleaved round by round
 * (order rotated); wall time inside the process (from its first preloaded
 * module to exit) and peak RSS, with the YAML/JSON ratios paired by round.
 *
 * Part 2, the ways to read and write that YAML, each sample in a fresh
 * process (time of the step alone, peak RSS of the process), on a state of
 * `--alt-validators` (default 2^15: the `yaml` package's document API takes
 * tens of seconds at 2^18): reading with our subset reader, the `yaml`
 * package's document API (`parse`), its lower-level Parser + Composer, and
 * js-yaml (`--js-yaml <dir>`: js-yaml is no dependency of ours; give the
 * folder of an installed copy); writing with our writer, `yaml.stringify`,
 * js-yaml's `dump`; JSON.parse / JSON.stringify for scale.
 *
 * Usage: npx tsx --conditions=source --expose-gc bench/yaml.ts [--rounds 3] [--alt-validators 32768] [--js-yaml /path/to/node_modules/js-yaml]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Composer, Parser, parse as yamlParse, stringify as yamlStringify } from 'yaml';
import { mainnet } from '@ssztree/types/consensus';
import { readYaml } from '../packages/cli/src/yamlRead.js';
import { writeYaml } from '../packages/cli/src/yamlWrite.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';

const HERE = fileURLToPath(import.meta.url);
const BIN = fileURLToPath(new URL('../packages/cli/src/cli.ts', import.meta.url));
const USAGE = fileURLToPath(new URL('../packages/cli/scripts/reportUsage.mjs', import.meta.url));

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The JSON form of a mainnet electra state of `n` validators (the shape of packages/cli/scripts/bench-states.ts). */
function stateJson(n: number): unknown {
  const S = mainnet.electra.BeaconState;
  const V = S.fields.validators.elementType;
  const state = S.defaultValue();
  state.slot = 9_000_000n;
  for (let i = 0; i < n; i++) {
    const v = V.defaultValue();
    v.pubkey[0] = i & 255;
    v.pubkey[1] = (i >> 8) & 255;
    v.pubkey[2] = i >> 16;
    v.effective_balance = 32_000_000_000n;
    v.exit_epoch = 2n ** 64n - 1n;
    v.withdrawable_epoch = 2n ** 64n - 1n;
    state.validators.push(v);
  }
  state.balances = new BigUint64Array(n).fill(32_000_000_000n);
  state.inactivity_scores = new BigUint64Array(n);
  state.previous_epoch_participation = new Uint8Array(n).fill(7);
  state.current_epoch_participation = new Uint8Array(n).fill(3);
  return S.toJson(state);
}

function yamlText(value: unknown): string {
  const pieces: string[] = [];
  writeYaml(value, (p) => pieces.push(p));
  return pieces.join('');
}

/** One row of part 2, run in this (child) process: prints the step's milliseconds. */
function runRow(row: string, file: string, jsYamlDir: string | undefined): void {
  const text = readFileSync(file, 'utf8');
  const jsYaml = jsYamlDir === undefined ? undefined : (createRequire(join(jsYamlDir, 'package.json'))('./') as { load(t: string): unknown; dump(v: unknown, o?: object): string });
  const value = row.startsWith('write') ? JSON.parse(text) : undefined;
  const steps: Record<string, () => unknown> = {
    'read: JSON.parse': () => JSON.parse(text),
    'read: ours (subset reader)': () => readYaml(text),
    'read: yaml parse (document API)': () => yamlParse(text, { intAsBigInt: true }),
    'read: yaml Parser + Composer': () => {
      const docs = [...new Composer({ intAsBigInt: true }).compose(new Parser().parse(text))];
      return docs[0]!.toJS();
    },
    'read: js-yaml load': () => jsYaml!.load(text),
    'write: JSON.stringify': () => JSON.stringify(value, null, 2),
    'write: ours (writeYaml)': () => yamlText(value),
    'write: yaml stringify': () => yamlStringify(value, { lineWidth: 0 }),
    'write: js-yaml dump': () => jsYaml!.dump(value, { lineWidth: -1 }),
  };
  const started = performance.now();
  steps[row]!();
  process.stdout.write(String(performance.now() - started));
}

/** Runs a child; its stdout is kept only when `keepOut` (the CLI's output is discarded, as a redirect to a file would). */
function child(args: string[], report: string, keepOut = false): { ms: number; rssMb: number; out: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--import', USAGE, '--conditions=source', ...args], {
    env: { ...process.env, SSZTREE_TEST_USAGE: report },
    encoding: 'utf8',
    stdio: ['ignore', keepOut ? 'pipe' : 'ignore', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr}`);
  const u = JSON.parse(readFileSync(report, 'utf8')) as { maxRssKb: number; ms: number };
  return { ms: u.ms, rssMb: u.maxRssKb / 1024, out: r.stdout };
}

function main(): void {
  const row = arg('row');
  if (row !== undefined) return runRow(row, arg('file')!, arg('js-yaml'));

  const rounds = Number(arg('rounds') ?? 3);
  const altN = Number(arg('alt-validators') ?? 2 ** 15);
  const jsYamlDir = arg('js-yaml');
  const dir = mkdtempSync(join(tmpdir(), 'ssztree-bench-yaml-'));
  const report = join(dir, 'usage.json');
  const load = () => loadavg().map((x) => x.toFixed(2)).join(' ');
  try {
    console.log(`# yaml: ${rounds} rounds, ${cpus().length} × ${cpus()[0]?.model}, node ${process.version}, load ${load()}`);
    const S = mainnet.electra.BeaconState;
    const json = stateJson(2 ** 18);
    const ssz = S.serialize(S.fromJson(json as never));
    writeFileSync(join(dir, 'state.ssz'), ssz);
    const jsonText = `${JSON.stringify(json, null, 2)}\n`;
    writeFileSync(join(dir, 'state.json'), jsonText);
    const yaml = yamlText(json);
    writeFileSync(join(dir, 'state.yaml'), yaml);
    console.log(`2^18 validators: ${(ssz.length / 1e6).toFixed(1)} MB SSZ, ${(jsonText.length / 1e6).toFixed(1)} MB JSON, ${(yaml.length / 1e6).toFixed(1)} MB YAML\n`);

    const cli: [string, string[]][] = [
      ['encode JSON', ['encode', 'electra.BeaconState', join(dir, 'state.json'), '-o', join(dir, 'out.ssz')]],
      ['encode YAML', ['encode', 'electra.BeaconState', join(dir, 'state.yaml'), '-o', join(dir, 'out.ssz')]],
      ['decode (JSON)', ['decode', 'electra.BeaconState', join(dir, 'state.ssz')]],
      ['decode --yaml', ['decode', 'electra.BeaconState', join(dir, 'state.ssz'), '--yaml']],
    ];
    const ms = cli.map((): number[] => []);
    const rss = cli.map((): number[] => []);
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < cli.length; k++) {
        const c = (k + r) % cli.length;
        const res = child([BIN, ...cli[c]![1]], report);
        ms[c]!.push(res.ms);
        rss[c]!.push(res.rssMb);
      }
    }
    console.log('| CLI command (2^18 validators) | wall: median (min–max) | peak RSS: median | YAML / JSON, paired: time, memory |');
    console.log('| --- | --- | --- | --- |');
    cli.forEach(([name], c) => {
      const t = summarize(ms[c]!);
      const m = summarize(rss[c]!);
      const pair = c % 2 === 1 ? `×${fmt(pairedRatio(ms[c]!, ms[c - 1]!).median, 2)}, ×${fmt(pairedRatio(rss[c]!, rss[c - 1]!).median, 2)}` : '';
      console.log(`| ${name} | ${fmt(t.median / 1000, 2)} s (${fmt(t.min / 1000, 2)}–${fmt(t.max / 1000, 2)}) | ${fmt(m.median, 0)} MB | ${pair} |`);
    });

    // Part 2.
    const alt = stateJson(altN);
    writeFileSync(join(dir, 'alt.json'), JSON.stringify(alt));
    writeFileSync(join(dir, 'alt.yaml'), yamlText(alt));
    const rows: [string, string][] = [
      ['read: JSON.parse', 'alt.json'],
      ['read: ours (subset reader)', 'alt.yaml'],
      ['read: yaml parse (document API)', 'alt.yaml'],
      ['read: yaml Parser + Composer', 'alt.yaml'],
      ...(jsYamlDir === undefined ? [] : ([['read: js-yaml load', 'alt.yaml']] as [string, string][])),
      ['write: JSON.stringify', 'alt.json'],
      ['write: ours (writeYaml)', 'alt.json'],
      ['write: yaml stringify', 'alt.json'],
      ...(jsYamlDir === undefined ? [] : ([['write: js-yaml dump', 'alt.json']] as [string, string][])),
    ];
    const altMs = rows.map((): number[] => []);
    const altRss = rows.map((): number[] => []);
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < rows.length; k++) {
        const c = (k + r) % rows.length;
        const extra = jsYamlDir === undefined ? [] : ['--js-yaml', jsYamlDir];
        const res = child(['--expose-gc', HERE, '--row', rows[c]![0], '--file', join(dir, rows[c]![1]), ...extra], report, true);
        altMs[c]!.push(Number(res.out));
        altRss[c]!.push(res.rssMb);
      }
    }
    console.log(`\n| way (state of ${altN} validators, ${(yamlText(alt).length / 1e6).toFixed(1)} MB YAML) | step: median (min–max) | process peak RSS: median |`);
    console.log('| --- | --- | --- |');
    rows.forEach(([name], c) => {
      const t = summarize(altMs[c]!);
      console.log(`| ${name} | ${fmt(t.median, 0)} ms (${fmt(t.min, 0)}–${fmt(t.max, 0)}) | ${fmt(summarize(altRss[c]!).median, 0)} MB |`);
    });
    if (jsYamlDir === undefined) console.log('\njs-yaml: not measured (give --js-yaml <folder of an installed js-yaml>)');
    console.log(`\nload at the end: ${load()}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
