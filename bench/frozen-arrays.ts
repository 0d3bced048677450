/**
 * Why the frozen-value cache's scans cost what they do: the same identity
 * scan (`a[i] !== b[i]` over 2^18 objects) and value scan (2^18 numbers
 * above 2^31, as balances are) over plain arrays and over frozen copies,
 * interleaved in one process, each in a function of its own (one kind of
 * array per loop), and the way out that does not work: copying the frozen
 * array with `slice()` first, then scanning the plain copy. Usage:
 *   node --conditions=source --import tsx bench/frozen-arrays.ts [rounds]
 */
const N = 2 ** 18;
const ROUNDS = Number(process.argv[2] ?? 15);

function scanPlainObjects(a: readonly unknown[], b: readonly unknown[]): number {
  let c = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) c++;
  return c;
}
function scanFrozenObjects(a: readonly unknown[], b: readonly unknown[]): number {
  let c = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) c++;
  return c;
}
function scanPlainNumbers(a: readonly unknown[], b: readonly unknown[]): number {
  let c = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) c++;
  return c;
}
function scanFrozenNumbers(a: readonly unknown[], b: readonly unknown[]): number {
  let c = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) c++;
  return c;
}

function scanSlicedFrozen(a: readonly unknown[], b: readonly unknown[]): number {
  const copy = a.slice();
  let c = 0;
  for (let i = 0; i < copy.length; i++) if (copy[i] !== b[i]) c++;
  return c;
}

const objects = Array.from({ length: N }, (_, i) => ({ i }));
const numbers = Array.from({ length: N }, (_, i) => 32_000_000_000 + (i % 1000));
const cases = [
  { name: 'objects, plain', f: scanPlainObjects, a: objects.slice(), b: objects.slice() },
  { name: 'objects, frozen', f: scanFrozenObjects, a: Object.freeze(objects.slice()), b: Object.freeze(objects.slice()) },
  { name: 'numbers, plain', f: scanPlainNumbers, a: numbers.slice(), b: numbers.slice() },
  { name: 'numbers, frozen', f: scanFrozenNumbers, a: Object.freeze(numbers.slice()), b: Object.freeze(numbers.slice()) },
  { name: 'numbers, frozen, slice() then scan', f: scanSlicedFrozen, a: Object.freeze(numbers.slice()), b: numbers.slice() },
];
const samples = cases.map(() => [] as number[]);
for (let r = 0; r < ROUNDS + 2; r++) {
  for (let k = 0; k < cases.length; k++) {
    const c = cases[(k + r) % cases.length]!;
    const t = performance.now();
    if (c.f(c.a, c.b) !== 0) throw new Error('arrays differ');
    if (r >= 2) samples[(k + r) % cases.length]!.push(performance.now() - t);
  }
}
for (let k = 0; k < cases.length; k++) {
  const s = samples[k]!.sort((x, y) => x - y);
  console.log(`${cases[k]!.name.padEnd(34)} median ${s[s.length >> 1]!.toFixed(2)} ms, min ${s[0]!.toFixed(2)} ms (2^18 elements, ${ROUNDS} rounds)`);
}
