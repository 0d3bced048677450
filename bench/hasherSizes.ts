/**
 * Hasher benchmark per layer size: `hashInto` on layers of 2^4 … 2^22
 * random 64-byte messages with the default backend (`auto`, the size
 * dispatch), each of our native kernels forced, and raw `@chainsafe/hashtree`
 * `hashInto`, side by side in one process; then merkleize of 2^20 chunks
 * against hashing 2^20 messages on the default backend.
 *
 * Method: after a warm-up round, every round runs, size by size, each column
 * `--samples` times interleaved (A B C D A B C D …, the order rotated by
 * round) and keeps each column's best sample of the round, so a sample the
 * shared machine preempted does not count; a figure is the median over
 * rounds (min–max), a speed-up the median of the per-round ratios. Small
 * layers are timed over repeated calls (at least 2^15 messages a sample).
 * The clock is the process's CPU time (`process.cpuUsage`, user + system;
 * only the main thread works while a sample runs), so time the shared
 * machine kept the process off a core does not count; `--clock wall` uses
 * `performance.now()` instead.
 * `--wasm` adds our WebAssembly backend as a column (slow: meant for small sizes).
 *   npm run bench:hasher -- --per-size [--rounds 9] [--samples 3] [--sizes 4-22] [--clock cpu|wall] [--wasm] [--write]
 * `--write` records the table in docs/BENCHMARKS.md, in the section for this
 * CPU (`## Hasher per layer size — <CPU>`), leaving other CPUs' sections.
 */
import { hashInto as rawHashtree } from '@chainsafe/hashtree';
import { configureThreads, getHasher, hashInto, hasherReport, listHashers, merkleize, setHasher } from '@ssztree/hasher';
import { cpus, loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { writeSection } from './lib/docs.js';
import { fmt, median, pairedRatio, summarize } from './lib/stats.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const rounds = Number(arg('rounds') ?? 9);
const samplesPerRound = Number(arg('samples') ?? 3);
const [lo, hi] = (arg('sizes') ?? '4-22').split('-').map(Number) as [number, number];
const exponents = Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
const MIN_SAMPLE_MESSAGES = 2 ** 15;
const clockKind = arg('clock') ?? 'cpu';
if (clockKind !== 'cpu' && clockKind !== 'wall') throw new Error(`--clock cpu|wall, got ${clockKind}`);
/** Milliseconds on the chosen clock. */
const clock = clockKind === 'wall' ? () => performance.now() : () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const MERKLE_CHUNKS = 2 ** 20;

configureThreads(0);
// The first call chooses the backend: loads and self-checks the native ones, then calibrates `auto`.
const firstUseStart = { cpu: process.cpuUsage(), wall: performance.now() };
const defaultName = getHasher();
const firstUseCpu = process.cpuUsage(firstUseStart.cpu);
const firstUse = { cpuMs: (firstUseCpu.user + firstUseCpu.system) / 1000, wallMs: performance.now() - firstUseStart.wall };
const ours = (['shani', 'avx512', ...(process.argv.includes('--wasm') ? (['wasm'] as const) : [])] as const).filter((n) => listHashers().find((h) => h.name === n)!.available);
/** A column: `use` (untimed) selects the backend before a sample, `run` is the timed call. */
interface Column {
  readonly key: string;
  readonly use: () => void;
  readonly run: (input: Uint8Array, output: Uint8Array) => void;
}
const none = () => {};
const columns: Column[] = [
  { key: `default (${defaultName})`, use: () => setHasher(defaultName), run: hashInto },
  { key: 'hashtree hashInto', use: none, run: rawHashtree },
  ...ours.map((name): Column => ({ key: name, use: () => setHasher(name), run: hashInto })),
];
const DEFAULT = columns[0]!.key;
const RAW = columns[1]!.key;

function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  const words = new Uint32Array(out.buffer);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < words.length; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
    words[i] = x >>> 0;
  }
  return out;
}

const maxMessages = 2 ** Math.max(...exponents, 20);
const input = pseudoRandomBytes(64 * maxMessages, 0x5eed);
const output = new Uint8Array(32 * maxMessages);
const loadStart = loadavg();
const started = new Date();

/** ns per message of one sample: `reps` calls of the column's `run` on the first n messages. */
function sample(column: Column, n: number): number {
  const reps = Math.max(1, Math.ceil(MIN_SAMPLE_MESSAGES / n));
  const i = input.subarray(0, 64 * n);
  const o = output.subarray(0, 32 * n);
  const run = column.run;
  column.use();
  const t0 = clock();
  for (let r = 0; r < reps; r++) run(i, o);
  return ((clock() - t0) * 1e6) / (reps * n);
}

/** Each op's best of `samplesPerRound` interleaved samples, in this round's rotated order. */
function bestOf(ops: readonly (() => number)[], round: number): number[] {
  const best = ops.map(() => Infinity);
  for (let s = 0; s < samplesPerRound; s++) {
    for (let k = 0; k < ops.length; k++) {
      const c = (k + round) % ops.length;
      best[c] = Math.min(best[c]!, ops[c]!());
    }
  }
  return best;
}

const layer = new Map<string, number[]>(); // `${exp}|${column}` -> ns/msg per round
const merkle = { merkleize: [] as number[], hash: [] as number[] }; // ms per round
const chunks = input.subarray(0, 32 * MERKLE_CHUNKS);

function runRound(round: number, record: boolean): void {
  for (const e of exponents) {
    const best = bestOf(columns.map((c) => () => sample(c, 2 ** e)), round);
    if (record) columns.forEach((c, k) => layer.set(`${e}|${c.key}`, [...(layer.get(`${e}|${c.key}`) ?? []), best[k]!]));
  }
  setHasher(defaultName);
  const [m, h] = bestOf(
    [
      () => { const t0 = clock(); merkleize(chunks, MERKLE_CHUNKS); return clock() - t0; },
      () => { const t0 = clock(); hashInto(input.subarray(0, 64 * MERKLE_CHUNKS), output.subarray(0, 32 * MERKLE_CHUNKS)); return clock() - t0; },
    ],
    round,
  );
  if (record) {
    merkle.merkleize.push(m!);
    merkle.hash.push(h!);
  }
}

process.stdout.write('warm-up round…\n');
runRound(0, false);
for (let r = 0; r < rounds; r++) {
  process.stdout.write(`round ${r + 1}/${rounds}\r`);
  runRound(r, true);
}
setHasher(defaultName);

function cpuLabel(): string {
  const model = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  let flags: string[] = [];
  try {
    flags = readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1]?.split(/\s+/) ?? [];
  } catch {
    // Not Linux: the model alone.
  }
  const ext = [flags.includes('avx512f') ? 'AVX-512' : '', flags.includes('sha_ni') ? 'SHA-NI' : ''].filter(Boolean);
  return ext.length > 0 ? `${model} (${ext.join(', ')})` : model;
}

function render(): string {
  const report = hasherReport();
  const auto = report.dispatch;
  const lines: string[] = [];
  const loadEnd = loadavg();
  lines.push(
    `Machine: ${cpus().length} × ${cpuLabel()}, Node ${process.version}, one thread (pool off). ${started.toISOString().slice(0, 10)}; load average (1/5/15 min) ${loadStart.map((l) => fmt(l, 2)).join('/')} at the start, ${loadEnd.map((l) => fmt(l, 2)).join('/')} at the end: the machine is shared.`,
    `Command: \`npm run bench:hasher -- --per-size --rounds ${rounds} --samples ${samplesPerRound} --sizes ${lo}-${hi}${clockKind === 'wall' ? ' --clock wall' : ''}${ours.includes('wasm') ? ' --wasm' : ''}\` (one process; ${rounds} rounds after a warm-up round, each round every column's best of ${samplesPerRound} interleaved samples; ${clockKind === 'wall' ? 'wall-clock time' : 'CPU time of the process'}).`,
  );
  if (auto !== undefined) {
    const dispatch = auto.thresholds.map((t) => `${t.backend} from ${t.fromMessages}`).join(', ');
    const how = auto.calibrated ? `calibrated here: ${auto.passes} pass${auto.passes === 1 ? '' : 'es'}, ${auto.cost.messages} messages, ${fmt(auto.cost.ms, 1)} ms wall in all` : `not calibrated: ${auto.reason}`;
    lines.push(`The default backend \`${defaultName}\` dispatched: ${dispatch} (${how}). Its first use (loading and self-checking the native backends, then the first calibration pass) took ${fmt(firstUse.cpuMs, 1)} ms of CPU, ${fmt(firstUse.wallMs, 1)} ms wall.`);
  }
  lines.push('', `| layer | default ns/msg | ${RAW} ns/msg | default speed-up over ${RAW} | ${ours.map((o) => `${o} ns/msg`).join(' | ')} |`);
  lines.push(`|---|---:|---:|---:|${ours.map(() => '---:').join('|')}|`);
  for (const e of exponents) {
    const get = (key: string) => layer.get(`${e}|${key}`)!;
    const cell = (key: string) => {
      const s = summarize(get(key));
      return `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`;
    };
    const q = pairedRatio(get(RAW), get(DEFAULT));
    const via = auto === undefined || defaultName !== 'auto' ? '' : ` ${auto.thresholds.filter((t) => t.fromMessages <= 2 ** e).at(-1)!.backend}`;
    lines.push(`| 2^${e} |${via} ${cell(DEFAULT)} | ${cell(RAW)} | ${fmt(q.median, 2)} (${fmt(q.min, 2)}–${fmt(q.max, 2)}) | ${ours.map(cell).join(' | ')} |`);
  }
  const fold = pairedRatio(merkle.merkleize, merkle.hash);
  lines.push(
    '',
    `merkleize of 2^20 chunks: ${fmt(median(merkle.merkleize), 2)} ms against ${fmt(median(merkle.hash), 2)} ms for hashInto of 2^20 messages on the default backend; ratio ${fmt(fold.median, 3)} (${fmt(fold.min, 3)}–${fmt(fold.max, 3)}), paired by round.`,
    '',
    'The default column names the kernel the dispatch used at that size. Speed-up: the raw hashtree time over the default time, per round; > 1 means the default is faster.',
  );
  const from10 = exponents.filter((e) => e >= 10).map((e) => pairedRatio(layer.get(`${e}|${RAW}`)!, layer.get(`${e}|${DEFAULT}`)!).median);
  const all = exponents.map((e) => pairedRatio(layer.get(`${e}|${RAW}`)!, layer.get(`${e}|${DEFAULT}`)!).median);
  const verdict = (ok: boolean) => (ok ? 'met' : 'not met');
  lines.push(
    '',
    '| target | this run | verdict |',
    '|---|---:|---|',
    from10.length === 0
      ? '| default ≥ 1.2× raw hashtree at every size from 2^10 | no size from 2^10 in this run | not judged |'
      : `| default ≥ 1.2× raw hashtree at every size from 2^10 | lowest ${fmt(Math.min(...from10), 2)}× | ${verdict(Math.min(...from10) >= 1.2)} |`,
    `| default never below 1.0× raw hashtree | lowest ${fmt(Math.min(...all), 2)}× | ${verdict(Math.min(...all) >= 1.0)} |`,
    `| merkleize 2^20 chunks ≤ 1.05× hashing 2^20 messages (default) | ${fmt(fold.median, 3)}× | ${verdict(fold.median <= 1.05)} |`,
  );
  return lines.join('\n');
}

const text = render();
process.stdout.write(`\n${text}\n`);
if (process.argv.includes('--write')) {
  writeSection(`Hasher per layer size — ${cpus()[0]?.model?.trim() ?? 'unknown CPU'}`, text);
  process.stdout.write('wrote docs/BENCHMARKS.md\n');
}
