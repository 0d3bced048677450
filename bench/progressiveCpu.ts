/**
 * Our progressive lists against our binary lists (`List[T, 2^40]`) in one
 * process, timed in process CPU time as well as wall time: on a shared,
 * overloaded machine wall-clock pairs spread by tens of percent, while CPU
 * time leaves out the waits for a core. Rows as bench/progressive.ts's
 * P1–P4 (same schemas and inputs), the two sides alternating, which goes
 * first flipping every round, a forced GC before each run; ratios
 * progressive / binary paired by round.
 *
 *   node --conditions=source --expose-gc --import tsx bench/progressiveCpu.ts [--rounds 10] [--only P1,P2,P3,P4]
 */
import { list, progressiveList, uint64 } from '@ssztree/types';
import { makeBalances, NS, NV } from './progressiveBinary.js';
import { makeValidators, Validator } from './lib/validator.js';

process.env['SSZTREE_HASHER'] ??= 'hashtree';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] as string) : fallback;
}

const PV = progressiveList(Validator);
const BV = list(Validator, 2 ** 40);
const PB = progressiveList(uint64);
const BB = list(uint64, 2 ** 40);
const validators = makeValidators(NV, 0xaa);
const bytes = PV.serialize(validators);
const balances = makeBalances(NS);

const rows: Record<string, readonly [() => void, () => void]> = {
  P1: [() => void PB.hashTreeRoot(balances), () => void BB.hashTreeRoot(balances)],
  P2: [() => void PV.hashTreeRoot(validators), () => void BV.hashTreeRoot(validators)],
  P3: [
    () => {
      const v = PV.toView(validators);
      v.hashTreeRoot();
      v.dispose();
    },
    () => {
      const v = BV.toView(validators);
      v.hashTreeRoot();
      v.dispose();
    },
  ],
  P4: [
    () => {
      const v = PV.deserializeToView(bytes);
      v.hashTreeRoot();
      v.dispose();
    },
    () => {
      const v = BV.deserializeToView(bytes);
      v.hashTreeRoot();
      v.dispose();
    },
  ],
};
const NAMES: Record<string, string> = {
  P1: 'uint64 2^20: value root',
  P2: 'Validator 2^18: value root',
  P3: 'Validator 2^18: values → view + root',
  P4: 'Validator 2^18: bytes → view + root',
};

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const range = (xs: number[], d = 1) => `${median(xs).toFixed(d)} [${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)}]`;

const rounds = Number(arg('rounds', '10'));
const warmup = 2;
const only = arg('only', 'P1,P2,P3,P4').split(',');
console.log('| workload | progressive cpu ms | binary cpu ms | progressive / binary, cpu (paired) | progressive / binary, wall (paired) |');
console.log('| --- | --- | --- | --- | --- |');
for (const w of only) {
  const [prog, bin] = rows[w] as readonly [() => void, () => void];
  const t = { p: [] as number[], b: [] as number[], pw: [] as number[], bw: [] as number[] };
  for (let r = 0; r < warmup + rounds; r++) {
    for (const side of r % 2 === 0 ? (['p', 'b'] as const) : (['b', 'p'] as const)) {
      (globalThis as { gc?: () => void }).gc?.();
      const c0 = cpu();
      const w0 = performance.now();
      (side === 'p' ? prog : bin)();
      const wall = performance.now() - w0;
      const c = cpu() - c0;
      if (r < warmup) continue;
      t[side].push(c);
      t[`${side}w`].push(wall);
    }
  }
  const ratio = (a: number[], b: number[]) => a.map((x, i) => x / (b[i] as number));
  console.log(`| ${NAMES[w]} | ${range(t.p)} | ${range(t.b)} | ${range(ratio(t.p, t.b), 2)}× | ${range(ratio(t.pw, t.bw), 2)}× |`);
}
