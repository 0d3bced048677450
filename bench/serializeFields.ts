/**
 * Per-field serialize / deserialize CPU times of the demo's electra
 * BeaconState (each field's own type on its own value, a full GC before each
 * sample, medians; fields under 1 ms left out), then the whole state's: which
 * fields cost what, a probe behind bench/serializeState.ts. Each call makes
 * a fresh output (and `deserialize` a private copy of its input), so a field
 * the size of the validators list pays the fresh-memory costs docs/TYPES.md
 * "Where the time goes" describes, and the sum of the fields can differ from
 * the whole state's figure.
 *
 * Usage: node --max-old-space-size=6144 --expose-gc --conditions=source --import tsx \
 *          bench/serializeFields.ts [--validators 1048576] [--rounds 3]
 */
import { mainnet } from '@ssztree/types/consensus';
import { generateState } from '../demo/state.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const n = Number(arg('validators') ?? 2 ** 20);
const rounds = Number(arg('rounds') ?? 3);
const gc = (globalThis as { gc?: () => void }).gc;
const T = mainnet.electra.BeaconState;
const value = generateState(n, 1) as unknown as Record<string, unknown>;
type F = { serialize(v: unknown): Uint8Array; deserialize(b: Uint8Array): unknown };
const fields = Object.entries((T as unknown as { fields: Record<string, F> }).fields).map(([name, type]) => ({ name, type }));
const time = (f: () => unknown): number => {
  gc?.();
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const rows: string[] = [];
let totS = 0, totD = 0;
for (const { name, type } of fields) {
  const v = value[name];
  const bytes = type.serialize(v);
  const s: number[] = [], d: number[] = [];
  for (let r = 0; r < rounds; r++) {
    s.push(time(() => type.serialize(v)));
    d.push(time(() => type.deserialize(bytes)));
  }
  totS += med(s); totD += med(d);
  if (med(s) + med(d) > 1) rows.push(`${name.padEnd(36)} ${String(bytes.length).padStart(10)} B  ser ${med(s).toFixed(1)} ms  de ${med(d).toFixed(1)} ms`);
}
console.log(rows.join('\n'));
console.log(`sum of fields: ser ${totS.toFixed(0)} ms, de ${totD.toFixed(0)} ms`);
const all = T.serialize(value as never);
const s: number[] = [], d: number[] = [];
for (let r = 0; r < rounds; r++) {
  s.push(time(() => T.serialize(value as never)));
  d.push(time(() => T.deserialize(all)));
}
console.log(`whole state: ser ${med(s).toFixed(0)} ms, de ${med(d).toFixed(0)} ms`);
