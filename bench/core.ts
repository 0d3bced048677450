/**
 * Core benchmark: `@ssztree/core` side by side with
 * `@chainsafe/persistent-merkle-tree` (pmt), both on the hashtree hasher
 * where it loads (as-sha256 / wasm otherwise), on a depth-20 tree of 2^20
 * leaves:
 *   (a) write 1024 random leaves, then root (per version, 16 per sample)
 *   (b) write all 2^20 leaves, then root
 *   (c) build from 2^20 packed chunks, then root (and `merkleize` of them)
 *   (d) bytes per node (heap + array buffers after gc), and the extra bytes
 *       of 100 successive versions each differing by 1024 random leaves,
 *       per node they do not share.
 * Every row lives in its own process (bench/coreRow.ts), so one library's
 * heap, GC and JIT state never slow the other; all rows derive the same
 * inputs from the same seeds. After warm-up rounds, rounds run the rows
 * interleaved (rotating the order); each run is preceded (untimed) by
 * dropping the previous run's versions and a gc. Reports medians, min–max,
 * and ratios paired round by round. pmt is measured both with its batched
 * hashing (setNodesAtDepth + hcByLevel + executeHashComputations) and with
 * its lazy `node.root`.
 *
 *   npx tsx --conditions=source --expose-gc bench/core.ts [--rounds 7] [--warmup 2] [--workloads a,b,c] [--write]
 * (`--workloads` is for quick looks; the recorded report needs all three.)
 * `--write` records the report in docs/BENCHMARKS.md (`## Core`).
 */
import { execFileSync } from 'node:child_process';
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
const warmup = Number(arg('warmup') ?? 2);
const write = process.argv.includes('--write');
const only = arg('workloads')?.split(',');
const script = fileURLToPath(new URL('./coreRow.ts', import.meta.url));

const WORKLOADS = {
  a: { title: '(a) write 1024 random leaves, then root (per version)', rows: ['ssztree', 'ssztree nodes', 'pmt batched', 'pmt lazy'], perRun: 16 },
  b: { title: '(b) write all 2^20 leaves, then root', rows: ['ssztree', 'ssztree nodes', 'pmt batched', 'pmt lazy'], perRun: 1 },
  c: { title: '(c) build from 2^20 packed chunks, then root', rows: ['ssztree', 'merkleize', 'pmt batched', 'pmt lazy'], perRun: 1 },
} as const;
type Workload = keyof typeof WORKLOADS;

interface MemoryResult {
  hasher: string;
  perNode: number;
  perUnshared: number;
  nodes: number;
  unshared: number;
}

function memory(row: 'ssztree' | 'pmt'): MemoryResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--conditions=source', '--expose-gc', script, `mem:${row}`], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as MemoryResult;
}

async function main(): Promise<void> {
  const machine = `${cpus().length}-core ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`;
  const loadBefore = loadavg()[0]!;
  process.stdout.write(`${machine}\nmemory (d)…\n`);
  const memOurs = memory('ssztree');
  const memPmt = memory('pmt');
  process.stdout.write(`memory: ours ${fmt(memOurs.perNode)} B/node, pmt ${fmt(memPmt.perNode)} B/node; hasher ${memOurs.hasher}\n`);

  const rowNames = [...new Set(Object.values(WORKLOADS).flatMap((w) => [...w.rows]))];
  const procs = new Map(rowNames.map((row) => [row, new RowProcess(script, row, ['--expose-gc'])]));
  const samples = new Map<string, number[]>();
  try {
    for (let round = 0; round < warmup + rounds; round++) {
      process.stdout.write(`round ${round + 1}/${warmup + rounds}${round < warmup ? ' (warm-up)' : ''}\n`);
      for (const [key, w] of Object.entries(WORKLOADS) as [Workload, (typeof WORKLOADS)[Workload]][]) {
        if (only !== undefined && !only.includes(key)) continue;
        for (let i = 0; i < w.rows.length; i++) {
          const row = w.rows[(i + round) % w.rows.length]!;
          const reply = await procs.get(row)!.run(key);
          if (reply.kind === 'error') throw new Error(`${row} ${key}: ${reply.message}`);
          if (round >= warmup) {
            const k = `${key}|${row}`;
            samples.set(k, [...(samples.get(k) ?? []), reply.ms / w.perRun]);
          }
        }
      }
    }
  } finally {
    for (const p of procs.values()) p.close();
  }

  const lines: string[] = [];
  lines.push(`Machine: ${machine}, ${new Date().toISOString().slice(0, 10)}. Hasher: ${memOurs.hasher} (both libraries). Command: \`npx tsx --conditions=source --expose-gc bench/core.ts --rounds ${rounds} --warmup ${warmup} --write\` (also \`npm run bench:core -- --write\`).`);
  lines.push('');
  lines.push(`Load average (1 min) ${fmt(loadBefore, 2)} at the start and ${fmt(loadavg()[0]!, 2)} at the end of the run: on a shared 2-core machine, min–max ranges widen with load; the paired ratios are the steadier figures.`);
  lines.push('');
  lines.push(`Each row runs in its own process; ${rounds} rounds after ${warmup} warm-up rounds, rows interleaved with a rotating order; same inputs for every row (same seeds). ms, median (min–max). Ratios are paired round by round (median, min–max): the peer's time divided by ours, so higher is better for us. "ssztree" writes with \`setChunksAtDepth\` (leaves made from the bytes, only where they change); "ssztree nodes" makes one leaf node per write and calls \`setNodesAtDepth\`, like pmt's \`LeafNode.fromRoot\` + \`setNodesAtDepth\`. Timed: new leaves, the write, the root. Not timed: dropping versions before the next run (ours: \`dispose()\` frees the unshared nodes; pmt: the GC).`);
  lines.push('');
  lines.push('| workload | row | ms | pmt batched / this | pmt lazy / this |');
  lines.push('| --- | --- | --- | --- | --- |');
  for (const [key, w] of Object.entries(WORKLOADS) as [Workload, (typeof WORKLOADS)[Workload]][]) {
    if (only !== undefined && !only.includes(key)) continue;
    for (const row of w.rows) {
      const s = summarize(samples.get(`${key}|${row}`)!);
      let vsB = '';
      let vsL = '';
      if (row.startsWith('ssztree')) {
        const r1 = pairedRatio(samples.get(`${key}|pmt batched`)!, samples.get(`${key}|${row}`)!);
        const r2 = pairedRatio(samples.get(`${key}|pmt lazy`)!, samples.get(`${key}|${row}`)!);
        vsB = `${fmt(r1.median, 2)}× (${fmt(r1.min, 2)}–${fmt(r1.max, 2)})`;
        vsL = `${fmt(r2.median, 2)}× (${fmt(r2.min, 2)}–${fmt(r2.max, 2)})`;
      }
      lines.push(`| ${w.title} | ${row} | ${fmt(s.median, 2)} (${fmt(s.min, 2)}–${fmt(s.max, 2)}) | ${vsB} | ${vsL} |`);
    }
  }
  if (only !== undefined) {
    if (only.includes('c')) {
      const r = pairedRatio(samples.get('c|ssztree')!, samples.get('c|merkleize')!);
      lines.push('', `(c) ssztree / merkleize (paired): ${fmt(r.median, 2)} (${fmt(r.min, 2)}–${fmt(r.max, 2)})`);
    }
    process.stdout.write(`\n${lines.join('\n')}\n`);
    return;
  }
  const cRatio = pairedRatio(samples.get('c|ssztree')!, samples.get('c|merkleize')!);
  lines.push('');
  lines.push(`(c) ssztree / \`merkleize\` of the same chunks (paired): ${fmt(cRatio.median, 2)} (${fmt(cRatio.min, 2)}–${fmt(cRatio.max, 2)}).`);
  lines.push('');
  lines.push('(d) memory, each library in a fresh process: heap used + array buffers after gc, divided by the stored nodes.');
  lines.push('');
  lines.push('| library | bytes per node, 2^20-leaf tree | nodes | bytes per unshared node, 100 versions × 1024 random leaves | unshared nodes |');
  lines.push('| --- | --- | --- | --- | --- |');
  lines.push(`| ssztree | ${fmt(memOurs.perNode)} | ${memOurs.nodes} | ${fmt(memOurs.perUnshared)} | ${memOurs.unshared} |`);
  lines.push(`| pmt | ${fmt(memPmt.perNode)} | ${memPmt.nodes} | ${fmt(memPmt.perUnshared)} | ${memPmt.unshared} |`);
  // The store's targets, checked against this run's medians.
  const ratio = (key: string, peer: string): number => pairedRatio(samples.get(`${key}|${peer}`)!, samples.get(`${key}|ssztree`)!).median;
  const verdict = (ok: boolean): string => (ok ? 'met' : 'not met');
  const aB = ratio('a', 'pmt batched');
  const aL = ratio('a', 'pmt lazy');
  const bB = ratio('b', 'pmt batched');
  const bL = ratio('b', 'pmt lazy');
  lines.push('');
  lines.push('Targets, from this run:');
  lines.push('');
  lines.push(`- (a) ≥ 4× faster than the peer: ${fmt(aB, 2)}× against pmt batched (${verdict(aB >= 4)}), ${fmt(aL, 2)}× against pmt lazy (${verdict(aL >= 4)}).`);
  lines.push(`- (b) ≥ 2×: ${fmt(bB, 2)}× against pmt batched (${verdict(bB >= 2)}), ${fmt(bL, 2)}× against pmt lazy (${verdict(bL >= 2)}).`);
  lines.push(`- (c) ≤ 1.2× \`merkleize\`: ${fmt(cRatio.median, 2)}× (${verdict(cRatio.median <= 1.2)}).`);
  lines.push(`- (d) ≤ 48 bytes per node: ${fmt(memOurs.perNode)} (${verdict(memOurs.perNode <= 48)}); 100 versions: ${fmt(memOurs.perUnshared)} bytes per unshared node, where those nodes occupy 40 (leaf) or 48 (branch) bytes and new pages come whole (1.25–1.5 MiB per pool).`);
  const report = lines.join('\n');
  process.stdout.write(`\n${report}\n`);
  if (write) writeSection('Core', report);
}

await main();
