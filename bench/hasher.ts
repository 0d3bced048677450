/**
 * Hasher benchmark: W1 = SHA-256 of 2^20 independent 64-byte inputs;
 * W2 = merkleize 2^20 chunks with limit 2^20 and with limit 2^40.
 *
 * Every row (each of our backends, each peer) lives in its own process; after
 * a warm-up, rounds run the rows interleaved (rotating the order each round)
 * on identical inputs. Reports medians, min–max, and ratios paired round by
 * round. Usage:
 *   npm run bench:hasher -- [--rounds 7] [--rows "ssztree/wasm,as-sha256 hashInto"] [--write]
 * `--write` records the table in docs/BENCHMARKS.md, in this CPU's section
 * (`## Hasher — <CPU model>`), leaving other CPUs' sections.
 * With `--per-size` it runs bench/hasherSizes.ts instead (hashInto per layer
 * size 2^4 … 2^22, one process, against raw hashtree).
 */
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { RowProcess } from './lib/rowProcess.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';
import { writeSection } from './lib/docs.js';
import { listHashers } from '@ssztree/hasher';

const N = 2 ** 20;
const WORKLOADS = ['W1', 'W2-20', 'W2-40'] as const;
type Workload = (typeof WORKLOADS)[number];
const WORKLOAD_TITLE: Record<Workload, string> = {
  W1: 'W1: SHA-256 of 2^20 independent 64-byte inputs',
  'W2-20': 'W2: merkleize 2^20 chunks, limit 2^20',
  'W2-40': 'W2: merkleize 2^20 chunks, limit 2^40',
};

const ROWS: Record<string, readonly Workload[]> = {
  'ssztree/auto': WORKLOADS,
  'ssztree/shani': WORKLOADS,
  'ssztree/avx512': WORKLOADS,
  'ssztree/hashtree': WORKLOADS,
  'ssztree/wasm': WORKLOADS,
  'ssztree/js': WORKLOADS,
  'ssztree/noble': WORKLOADS,
  'hashtree hashInto': ['W1'],
  'as-sha256 hashInto': ['W1'],
  'noble sha256 per input': ['W1'],
  'pmt + hashtree': ['W2-20', 'W2-40'],
  'pmt + as-sha256': ['W2-20', 'W2-40'],
  'pmt + noble': ['W2-20', 'W2-40'],
};

/** Which peer each of our rows is compared with, per workload. */
const PEERS: Record<Workload, readonly string[]> = {
  W1: ['hashtree hashInto', 'as-sha256 hashInto', 'noble sha256 per input'],
  'W2-20': ['pmt + hashtree', 'pmt + as-sha256', 'pmt + noble'],
  'W2-40': ['pmt + hashtree', 'pmt + as-sha256', 'pmt + noble'],
};

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const rounds = Number(arg('rounds') ?? 7);
const warmup = Number(arg('warmup') ?? 2);
const rowFilter = arg('rows')?.split(',').map((s) => s.trim());
// Our native kernels exist only where scripts/build-native.mjs could build them and the CPU has their extensions.
// Computed in main(): with --per-size nothing here may load the backends before hasherSizes.ts times their first use.
let rowNames: string[] = [];
const script = fileURLToPath(new URL('./hasherRow.ts', import.meta.url));

const samples = new Map<string, number[]>(); // `${row}|${workload}` -> ms per round
const loadAtStart = loadavg()[0]!;
const key = (row: string, w: Workload) => `${row}|${w}`;

async function main(): Promise<void> {
  const unavailable = listHashers().filter((h) => !h.available).map((h) => `ssztree/${h.name}`);
  rowNames = Object.keys(ROWS).filter((r) => (rowFilter === undefined || rowFilter.includes(r)) && !unavailable.includes(r));
  const procs = new Map(rowNames.map((row) => [row, new RowProcess(script, row)]));
  try {
    const jobs = WORKLOADS.flatMap((w) => rowNames.filter((r) => ROWS[r]!.includes(w)).map((r) => [r, w] as const));
    process.stdout.write(`warming up ${jobs.length} row×workload pairs (${warmup} runs each)…\n`);
    for (let i = 0; i < warmup; i++) for (const [r, w] of jobs) await runOnce(procs.get(r)!, r, w, false);
    for (let round = 0; round < rounds; round++) {
      process.stdout.write(`round ${round + 1}/${rounds}\r`);
      for (const w of WORKLOADS) {
        const rows = rowNames.filter((r) => ROWS[r]!.includes(w));
        // Rotate the order so no row always runs right after the same neighbour.
        for (let i = 0; i < rows.length; i++) {
          const r = rows[(i + round) % rows.length]!;
          await runOnce(procs.get(r)!, r, w, true);
        }
      }
    }
  } finally {
    for (const p of procs.values()) p.close();
  }
  const report = renderReport();
  process.stdout.write(`\n${report}\n`);
  if (process.argv.includes('--write')) {
    writeSection(`Hasher — ${cpus()[0]?.model?.trim() ?? 'unknown CPU'}`, report);
    process.stdout.write('wrote docs/BENCHMARKS.md\n');
  }
}

async function runOnce(proc: RowProcess, row: string, w: Workload, record: boolean): Promise<void> {
  const reply = await proc.run(w);
  if (reply.kind === 'error') throw new Error(`${row} ${w}: ${reply.message}`);
  if (!record) return;
  const list = samples.get(key(row, w)) ?? [];
  list.push(reply.ms);
  samples.set(key(row, w), list);
}

function renderReport(): string {
  const lines: string[] = [];
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  lines.push(`Machine: ${cpus().length} × ${cpu}, Node ${process.version}, one thread. ${new Date().toISOString().slice(0, 10)}; load average (1 min) ${fmt(loadAtStart, 2)} at the start, ${fmt(loadavg()[0]!, 2)} at the end (the machine is shared). ${rounds} rounds after ${warmup} warm-up runs, rows interleaved, one process per row.`);
  lines.push(`Command: \`npm run bench:hasher -- --rounds ${rounds}${rowFilter ? ` --rows "${rowFilter.join(',')}"` : ''}\``);
  for (const w of WORKLOADS) {
    const rows = rowNames.filter((r) => ROWS[r]!.includes(w));
    if (rows.length === 0) continue;
    const peers = PEERS[w].filter((p) => rows.includes(p));
    lines.push('', `### ${WORKLOAD_TITLE[w]}`, '');
    lines.push(`| row | median ms | min–max ms | M hashes/s | ${peers.map((p) => `× vs ${p}`).join(' | ')} |`);
    lines.push(`|---|---:|---:|---:|${peers.map(() => '---:').join('|')}|`);
    for (const r of rows) {
      const s = summarize(samples.get(key(r, w))!);
      // W1 hashes N messages; merkleize of N chunks hashes N - 1 pairs plus the padding climb.
      const mhs = N / 1e6 / (s.median / 1e3);
      const ratios = peers.map((p) => {
        if (p === r) return '1.00';
        // Speed-up: the peer's time over ours, round by round.
        const q = pairedRatio(samples.get(key(p, w))!, samples.get(key(r, w))!);
        return `${fmt(q.median, 2)} (${fmt(q.min, 2)}–${fmt(q.max, 2)})`;
      });
      lines.push(`| ${r} | ${fmt(s.median)} | ${fmt(s.min)}–${fmt(s.max)} | ${fmt(mhs, 2)} | ${ratios.join(' | ')} |`);
    }
  }
  // The fold overhead: merkleize time over the time to hash as many inputs, same row, same round.
  const ours = rowNames.filter((r) => r.startsWith('ssztree/'));
  if (ours.length > 0) {
    lines.push('', '### Fold overhead: merkleize (limit 2^20) time ÷ W1 time, same backend, paired by round', '');
    lines.push('| backend | ratio (median, min–max) |', '|---|---:|');
    for (const r of ours) {
      const q = pairedRatio(samples.get(key(r, 'W2-20'))!, samples.get(key(r, 'W1'))!);
      lines.push(`| ${r} | ${fmt(q.median, 3)} (${fmt(q.min, 3)}–${fmt(q.max, 3)}) |`);
    }
  }
  lines.push('', 'Speed-up columns are the peer\'s time divided by the row\'s, per round; > 1 means the row is faster.');
  lines.push(...targetVerdicts());
  return lines.join('\n');
}

/** The hasher's targets, judged from this run's samples (rows that did not run are skipped). */
function targetVerdicts(): string[] {
  const has = (r: string, w: Workload) => samples.has(key(r, w));
  const mhs = (r: string) => N / 1e6 / (summarize(samples.get(key(r, 'W1'))!).median / 1e3);
  const paired = (a: string, b: string, w: Workload) => pairedRatio(samples.get(key(a, w))!, samples.get(key(b, w))!).median;
  const rows: string[] = [];
  const verdict = (ok: boolean) => (ok ? 'met' : 'not met');
  if (has('ssztree/wasm', 'W1')) {
    const v = mhs('ssztree/wasm');
    const asRatio = has('as-sha256 hashInto', 'W1') ? paired('as-sha256 hashInto', 'ssztree/wasm', 'W1') : Number.NaN;
    rows.push(`| wasm ≥ 6 M hashes/s on W1, > 3× as-sha256 | ${fmt(v, 2)} M/s, ${fmt(asRatio, 2)}× as-sha256 | ${verdict(v >= 6 && asRatio > 3)} |`);
  }
  if (has('ssztree/js', 'W1')) {
    const v = mhs('ssztree/js');
    const nobleRatio = has('noble sha256 per input', 'W1') ? paired('noble sha256 per input', 'ssztree/js', 'W1') : Number.NaN;
    rows.push(`| js ≥ 1.5 M hashes/s on W1 (4× noble per input) | ${fmt(v, 2)} M/s, ${fmt(nobleRatio, 2)}× noble | ${verdict(v >= 1.5)} (${verdict(nobleRatio >= 4)} for 4×) |`);
  }
  if (has('ssztree/hashtree', 'W1') && has('hashtree hashInto', 'W1')) {
    const r = paired('ssztree/hashtree', 'hashtree hashInto', 'W1');
    rows.push(`| hashtree through our API within 5% of raw hashInto (W1) | ${fmt(r, 3)}× raw time | ${verdict(r <= 1.05)} |`);
  }
  for (const r of rowNames.filter((x) => x.startsWith('ssztree/'))) {
    if (!has(r, 'W1') || !has(r, 'W2-20')) continue;
    const q = paired(r, r, 'W1') === 1 ? pairedRatio(samples.get(key(r, 'W2-20'))!, samples.get(key(r, 'W1'))!).median : Number.NaN;
    rows.push(`| ${r}: merkleize 2^20 ≤ 1.1× hashing 2^20 inputs | ${fmt(q, 3)}× | ${verdict(q <= 1.1)} |`);
  }
  if (rows.length === 0) return [];
  return ['', '### Targets, judged from this run', '', '| target | this run | verdict |', '|---|---:|---|', ...rows];
}

if (process.argv.includes('--per-size')) await import('./hasherSizes.js');
else await main();
