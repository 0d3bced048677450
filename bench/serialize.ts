/**
 * Serialize benchmark: bytes and values read back from tree-backed views,
 * all rows in one process, interleaved round by round (order rotated).
 *
 *   List[Validator, 2^40] of 2^18 validators (our consensus phase0 schema),
 *   the view built from bytes:
 *     tree      view.serialize()  — straight from the tree (this module)
 *     tree into view.serializeInto(buffer, 0), one buffer reused across samples
 *     old       T.serialize(view.toValue()) — what view.serialize() did before
 *     value     T.serialize(value) — the plain value, for scale
 *     value into    T.serializeInto(value, buffer, 0), one buffer reused
 *               across samples: `value` without a fresh output
 *     peer      @chainsafe/ssz ViewDU serialize() of the same list
 *     peer value    @chainsafe/ssz serialize() of the same list as a value
 *     decode    T.deserialize(bytes) — bytes to a plain value
 *     decode nocopy T.deserialize(bytes, { copy: false }) — without the
 *               private copy of the input
 *     peer decode   @chainsafe/ssz deserialize() of the same bytes
 *     toValue   view.toValue()  (now: bytes out of the tree, then one decode)
 *     fromTree  T.fromTree(tree) — what view.toValue() did before (builds
 *               every object node by node)
 *   List[uint64, 2^40] of 2^20 balances: view.serialize() vs T.serialize(value),
 *   view.toValue() vs T.fromTree(tree).
 *
 * Before timing, every row's bytes are checked equal. Reports medians,
 * min–max, and speed-ups paired round by round.
 *
 * Each sample starts after a full collection (`--expose-gc`), so no row pays
 * for the garbage another row left (the value rows leave millions of objects).
 * Each sample records wall time and the process's CPU time (all threads, so
 * the GC's helpers count): on a shared machine the CPU time swings less, as
 * time spent descheduled is not in it.
 *
 * Usage: npm run bench:serialize -- [--rounds 7] [--warmup 2]
 * The decode rows are bound by young-generation collections (docs/TYPES.md
 * "Where the time goes"); `NODE_OPTIONS=--max-semi-space-size=64` shows them
 * with a larger young generation.
 */
import { setHasher } from '@chainsafe/persistent-merkle-tree';
import { hasher as hashtreeHasher } from '@chainsafe/persistent-merkle-tree/hasher/hashtree';
import * as cs from '@chainsafe/ssz';
import { list, toHex, uint64, type SszType } from '@ssztree/types';
import { mainnet } from '@ssztree/types/consensus';
import { fmt, pairedRatio, summarize } from './lib/stats.js';

setHasher(hashtreeHasher);
const gc = (globalThis as { gc?: () => void }).gc;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const rounds = Number(arg('rounds') ?? 7);
const warmup = Number(arg('warmup') ?? 2);
const NV = 2 ** 18;
const NB = 2 ** 20;
const LIMIT = 2 ** 40;

// Deterministic inputs (xorshift).
let seed = 0x9e3779b9;
function rnd(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return seed >>> 0;
}
function bytes(n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = rnd() & 255;
  return b;
}

type V = Record<string, unknown>;
const Validator = mainnet.phase0.Validator as unknown as SszType<V>;
const Validators = list(Validator, LIMIT) as unknown as SszType<V[]>;
const Balances = list(uint64, LIMIT);
const validators: V[] = [];
for (let i = 0; i < NV; i++) {
  validators.push({
    pubkey: bytes(48),
    withdrawal_credentials: bytes(32),
    effective_balance: BigInt(rnd() % 32) * 1_000_000_000n,
    slashed: (rnd() & 7) === 0,
    activation_eligibility_epoch: BigInt(rnd() % 100000),
    activation_epoch: BigInt(rnd() % 100000),
    exit_epoch: 2n ** 64n - 1n,
    withdrawable_epoch: 2n ** 64n - 1n,
  });
}
const balances = new BigUint64Array(NB);
for (let i = 0; i < NB; i++) balances[i] = BigInt(rnd()) * 1000n;

const vBytes = Validators.serialize(validators);
const bBytes = Balances.serialize(balances);
const view = Validators.deserializeToView(vBytes);
view.hashTreeRoot();
const bView = Balances.deserializeToView(bBytes);
bView.hashTreeRoot();

const csValidator = new cs.ContainerNodeStructType(
  {
    pubkey: new cs.ByteVectorType(48),
    withdrawalCredentials: new cs.ByteVectorType(32),
    effectiveBalance: new cs.UintBigintType(8),
    slashed: new cs.BooleanType(),
    activationEligibilityEpoch: new cs.UintBigintType(8),
    activationEpoch: new cs.UintBigintType(8),
    exitEpoch: new cs.UintBigintType(8),
    withdrawableEpoch: new cs.UintBigintType(8),
  },
  { typeName: 'Validator' },
);
const csValidators = new cs.ListCompositeType(csValidator, LIMIT);
const peerView = csValidators.deserializeToViewDU(vBytes);
peerView.hashTreeRoot();
const peerValues = csValidators.deserialize(vBytes);

const reused = new Uint8Array(vBytes.length);
const rows: Record<string, () => Uint8Array | unknown> = {
  'validators: tree (view.serialize)': () => view.serialize(),
  'validators: tree into (reused buffer)': () => view.serializeInto(reused, 0),
  'validators: old (serialize(fromTree))': () => Validators.serialize(Validators.fromTree(view.commit())),
  'validators: value (T.serialize)': () => Validators.serialize(validators),
  'validators: value into (reused buffer)': () => Validators.serializeInto(validators, reused, 0),
  'validators: peer ViewDU.serialize': () => peerView.serialize(),
  'validators: peer value serialize': () => csValidators.serialize(peerValues),
  'validators: value deserialize': () => Validators.deserialize(vBytes),
  'validators: value deserialize nocopy': () => Validators.deserialize(vBytes, { copy: false }),
  'validators: peer value deserialize': () => csValidators.deserialize(vBytes),
  'validators: toValue (via bytes)': () => view.toValue(),
  'validators: fromTree': () => Validators.fromTree(view.commit()),
  'balances: tree (view.serialize)': () => bView.serialize(),
  'balances: value (T.serialize)': () => Balances.serialize(balances),
  'balances: toValue (via bytes)': () => bView.toValue(),
  'balances: fromTree': () => Balances.fromTree(bView.commit()),
};

// Agreement before timing.
const want = toHex(vBytes);
for (const name of ['validators: tree (view.serialize)', 'validators: old (serialize(fromTree))', 'validators: value (T.serialize)', 'validators: peer ViewDU.serialize', 'validators: peer value serialize']) {
  if (toHex(rows[name]!() as Uint8Array) !== want) throw new Error(`${name} disagrees`);
}
if (!Validators.equals(rows['validators: fromTree']!() as V[], validators)) throw new Error('fromTree disagrees');
if (!Validators.equals(view.toValue(), validators)) throw new Error('toValue disagrees');
if (!Validators.equals(Validators.deserialize(vBytes), validators)) throw new Error('deserialize disagrees');
if (!Validators.equals(Validators.deserialize(vBytes, { copy: false }), validators)) throw new Error('deserialize without copy disagrees');
if (Validators.serializeInto(validators, reused, 0) !== vBytes.length || toHex(reused) !== want) throw new Error('serializeInto disagrees');
if (view.serializeInto(reused, 0) !== vBytes.length || toHex(reused) !== want) throw new Error('view serializeInto disagrees');
if (!Balances.equals(bView.toValue(), balances)) throw new Error('balances toValue disagrees');
if (toHex(bView.serialize()) !== toHex(bBytes)) throw new Error('balances disagree');

const names = Object.keys(rows);
const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const cpu: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < warmup + rounds; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(k + r) % names.length]!;
    gc?.();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    rows[name]!();
    const ms = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (r >= warmup) {
      samples[name]!.push(ms);
      cpu[name]!.push((c.user + c.system) / 1000);
    }
  }
}

console.log(`rounds ${rounds} (warm-up ${warmup}), node ${process.version}, gc between samples: ${gc !== undefined}`);
for (const name of names) {
  const s = summarize(samples[name]!);
  const size = name.startsWith('validators') ? vBytes.length : bBytes.length;
  const sc = summarize(cpu[name]!);
  console.log(
    `${name.padEnd(42)} median ${fmt(s.median)} ms  (${fmt(s.min)}–${fmt(s.max)})  ${fmt(size / s.median / 1e3, 0)} MB/s   cpu ${fmt(sc.median)} ms (${fmt(sc.min)}–${fmt(sc.max)})`,
  );
}
const ratio = (a: string, b: string): string => {
  const p = pairedRatio(samples[a]!, samples[b]!);
  const q = pairedRatio(cpu[a]!, cpu[b]!);
  return `${fmt(p.median, 2)}× (${fmt(p.min, 2)}–${fmt(p.max, 2)}), cpu ${fmt(q.median, 2)}× (${fmt(q.min, 2)}–${fmt(q.max, 2)})`;
};
console.log(`old / tree:               ${ratio('validators: old (serialize(fromTree))', 'validators: tree (view.serialize)')}`);
console.log(`tree / value:             ${ratio('validators: tree (view.serialize)', 'validators: value (T.serialize)')}`);
console.log(`peer / tree:              ${ratio('validators: peer ViewDU.serialize', 'validators: tree (view.serialize)')}`);
console.log(`peer value / value serialize: ${ratio('validators: peer value serialize', 'validators: value (T.serialize)')}`);
console.log(`peer / ours value deserialize: ${ratio('validators: peer value deserialize', 'validators: value deserialize')}`);
console.log(`value / value into:       ${ratio('validators: value (T.serialize)', 'validators: value into (reused buffer)')}`);
console.log(`decode / decode nocopy:   ${ratio('validators: value deserialize', 'validators: value deserialize nocopy')}`);
console.log(`fromTree / toValue:       ${ratio('validators: fromTree', 'validators: toValue (via bytes)')}`);
console.log(`balances fromTree / toValue: ${ratio('balances: fromTree', 'balances: toValue (via bytes)')}`);
console.log(`balances tree / value:    ${ratio('balances: tree (view.serialize)', 'balances: value (T.serialize)')}`);
