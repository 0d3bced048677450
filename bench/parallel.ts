/**
 * Parallel hashing benchmark: the same workloads with the worker pool off
 * and with 1..N worker threads, one process per setting, rounds interleaved,
 * speed-ups paired round by round against the pool-off row.
 * Workloads: merkleize of 2^22 chunks, single layers of 2^8..2^20 messages,
 * and four view workloads on 2^20 validators (a list from bytes to root, a
 * state {validators, balances} from bytes to root, an epoch's full balance
 * rewrite + root, a block's commit + root).
 *   npm run bench:parallel -- [--rounds 7] [--threads 0,1] [--workloads a,b] [--write]
 */
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { writeSection } from './lib/docs.js';
import { RowProcess } from './lib/rowProcess.js';
import { fmt, pairedRatio, summarize } from './lib/stats.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const rounds = Number(arg('rounds') ?? 7);
const threadSettings = (arg('threads') ?? `0,${Math.max(1, cpus().length - 1)}`).split(',').map(Number);
const ALL = ['merkleize-22', ...[8, 10, 12, 14, 16, 18, 20].map((k) => `layer-${k}`), 'validators-20', 'state-20', 'epoch-20', 'block-20'];
const workloads = arg('workloads')?.split(',') ?? ALL;
for (const w of workloads) if (!ALL.includes(w)) throw new Error(`unknown workload ${w}; known: ${ALL.join(', ')}`);
const script = fileURLToPath(new URL('./parallelRow.ts', import.meta.url));

const samples = new Map<string, number[]>();
const procs = new Map(threadSettings.map((t) => [t, new RowProcess(script, String(t))]));
try {
  for (const [t, p] of procs) for (let i = 0; i < 2; i++) for (const w of workloads) await run(p, t, w, false);
  for (const [t, p] of procs) await run(p, t, 'check-pool', false);
  for (let r = 0; r < rounds; r++) {
    process.stdout.write(`round ${r + 1}/${rounds}\r`);
    for (const w of workloads) {
      for (let i = 0; i < threadSettings.length; i++) {
        const t = threadSettings[(i + r) % threadSettings.length]!;
        await run(procs.get(t)!, t, w, true);
      }
    }
  }
} finally {
  for (const p of procs.values()) p.close();
}

async function run(p: RowProcess, t: number, w: string, record: boolean): Promise<void> {
  const reply = await p.run(w);
  if (reply.kind === 'error') throw new Error(`threads=${t} ${w}: ${reply.message}`);
  if (!record) return;
  const key = `${t}|${w}`;
  samples.set(key, [...(samples.get(key) ?? []), reply.ms]);
}

const lines: string[] = [];
lines.push(`Machine: ${cpus().length} × ${cpus()[0]?.model}, Node ${process.version}, default hasher backend. ${new Date().toISOString().slice(0, 10)}; load average (1 min) ${loadavg()[0]!.toFixed(2)} at the end (the machine is shared). ${rounds} rounds after 2 warm-up runs, settings interleaved, one process per setting.`);
const workloadArg = workloads.length === ALL.length ? '' : ` --workloads ${workloads.join(',')}`;
lines.push(`Command: \`npm run bench:parallel -- --rounds ${rounds} --threads ${threadSettings.join(',')}${workloadArg}\``, '');
lines.push(`| workload | ${threadSettings.map((t) => (t === 0 ? 'pool off, ms' : `${t} worker${t > 1 ? 's' : ''}, ms (speed-up)`)).join(' | ')} |`);
lines.push(`|---|${threadSettings.map(() => '---:').join('|')}|`);
for (const w of workloads) {
  const base = samples.get(`0|${w}`);
  const cells = threadSettings.map((t) => {
    const s = summarize(samples.get(`${t}|${w}`)!);
    const cell = `${fmt(s.median, 2)} (${fmt(s.min, 2)}–${fmt(s.max, 2)})`;
    if (t === 0 || base === undefined) return cell;
    const q = pairedRatio(base, samples.get(`${t}|${w}`)!);
    return `${cell}, ×${fmt(q.median, 2)}`;
  });
  lines.push(`| ${w} | ${cells.join(' | ')} |`);
}
lines.push('', 'Speed-up: pool-off time over the row\'s time, paired by round (median).');
// The pool's targets, judged on the first pooled setting.
const pooled = threadSettings.find((t) => t > 0);
if (pooled !== undefined && samples.has('0|block-20')) {
  const verdict = (w: string, test: (q: number) => boolean, target: string) => {
    if (!samples.has(`0|${w}`)) return;
    const q = pairedRatio(samples.get(`0|${w}`)!, samples.get(`${pooled}|${w}`)!).median;
    lines.push(`| ${w} | ${target} | ×${fmt(q, 2)} | ${test(q) ? 'met' : 'not met'} |`);
  };
  lines.push('', `Targets, ${pooled} worker${pooled > 1 ? 's' : ''} against pool off:`, '', '| workload | target | measured | status |', '|---|---|---:|---|');
  // Two cores: a large merkleize should near halve; the view workloads (much of them JavaScript the
  // pool cannot split) should still gain 1.4×; a block must not pay for the pool.
  verdict('merkleize-22', (q) => q >= 1.6, 'speed-up ≥ 1.6');
  verdict('validators-20', (q) => q >= 1.4, 'speed-up ≥ 1.4');
  verdict('state-20', (q) => q >= 1.4, 'speed-up ≥ 1.4');
  verdict('epoch-20', (q) => q >= 1.4, 'speed-up ≥ 1.4');
  verdict('block-20', (q) => q >= 0.98, 'slowdown ≤ 2% (speed-up ≥ 0.98)');
}
const report = lines.join('\n');
process.stdout.write(`\n${report}\n`);
if (process.argv.includes('--write')) writeSection('Parallel hashing', report);
