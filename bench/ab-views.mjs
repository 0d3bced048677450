// A/B of two checkouts on the views' block and epoch workloads: runs
// bench/profile-views.ts alternately in worktree A and worktree B (the order
// flips every round), then prints per-side medians, minima and first
// quartiles of block commit + root (mean per process) and of epoch commit +
// root (epochs 2 and later of each process; wall and process CPU time).
//
//   node bench/ab-views.mjs <worktree A> <worktree B> [rounds 3] [blocks 200] [epochs 8]
//
// Both worktrees need their dependencies installed. Paired, interleaved
// processes are the only comparison to trust on a shared machine.
import { execFileSync } from 'node:child_process';
const [a, b, rounds = '3', blocks = '200', epochs = '8'] = process.argv.slice(2);
const q = (xs, f) => { const s = [...xs].sort((x, y) => x - y); return s[Math.floor(f * (s.length - 1))]; };
const med = (xs) => { const s = [...xs].sort((x, y) => x - y); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const res = { [a]: { block: [], blockCpu: [], epoch: [], epochCpu: [] }, [b]: { block: [], blockCpu: [], epoch: [], epochCpu: [] } };
for (let r = 0; r < Number(rounds); r++) {
  for (const wt of r % 2 ? [b, a] : [a, b]) {
    const out = execFileSync('node', ['--conditions=source', '--import', 'tsx', 'bench/profile-views.ts', '--blocks', blocks, '--epochs', epochs], { cwd: wt, encoding: 'utf8' });
    const bm = /block: .*commit\+root ([\d.]+) ms \(cpu ([\d.]+)\)/.exec(out);
    if (bm && Number(blocks) > 10) { res[wt].block.push(Number(bm[1])); res[wt].blockCpu.push(Number(bm[2])); }
    for (const m of out.matchAll(/epoch (\d+): .*commit\+root ([\d.]+) ms \(cpu ([\d.]+)\)/g)) if (Number(m[1]) >= 2) { res[wt].epoch.push(Number(m[2])); res[wt].epochCpu.push(Number(m[3])); }
    console.log(wt, 'block', bm?.[1], 'cpu', bm?.[2], 'epochs', [...out.matchAll(/epoch (\d+): .*commit\+root ([\d.]+) ms \(cpu ([\d.]+)\)/g)].map((m) => m[2] + '/' + m[3]).join(' '));
  }
}
for (const wt of [a, b]) console.log(wt, 'block min/p25', q(res[wt].block, 0)?.toFixed(2), q(res[wt].block, 0.25)?.toFixed(2), 'epoch min/p25', q(res[wt].epoch, 0)?.toFixed(1), q(res[wt].epoch, 0.25)?.toFixed(1));
for (const wt of [a, b]) console.log(wt, 'median block commit+root', med(res[wt].block)?.toFixed(2), 'ms, cpu', med(res[wt].blockCpu)?.toFixed(2), '(n', res[wt].block.length + ')', 'median epoch commit+root (epochs>=2)', med(res[wt].epoch)?.toFixed(1), 'ms, cpu', med(res[wt].epochCpu)?.toFixed(1), '(n', res[wt].epoch.length + ')');
