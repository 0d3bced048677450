/**
 * Writes `wat/sha256_simd.wat` and `wat/sha256_scalar.wat`: fully unrolled
 * SHA-256 of 64-byte messages. The committed `.wat` files are what the build
 * assembles; this script is how they were written, kept so that a change to
 * the kernel is a reviewable change here rather than 10 000 edited lines.
 *
 *   npx tsx scripts/gen-sha256-wat.ts           # rewrite both .wat files
 *   npx tsx scripts/gen-sha256-wat.ts --check   # exit 1 if they differ from this script's output
 *
 * Invariant of the emitted kernels: a call reads all of its messages (4 in
 * the SIMD kernel, 1 in the scalar one) before it writes any digest, so
 * hashing in place (digest i at out + 32i, message i at in + 64i, out <= in)
 * is safe.
 *
 * The SIMD kernel is bound by the vector ALU ports (about 5 500 ALU
 * instructions per 4 messages; this machine retires 3 per cycle), so every
 * choice below is about instruction count and about how V8 compiles it.
 * Measured alternatives are noted where the choice is made.
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IV, K, PADDING_WK } from '../src/sha256Constants.js';

/** A wat s-expression: an atom, or `[head, ...operands]`. */
type SExpr = string | readonly SExpr[];
/** A 32-bit value: a constant known here (folded), or an expression to evaluate. */
type Val = { readonly c: number } | { readonly x: SExpr };
type Lanes = 'simd' | 'scalar';

const isConst = (v: Val): v is { readonly c: number } => 'c' in v;
const get = (name: string): Val => ({ x: ['local.get', name] });
const i32 = (n: number): SExpr => ['i32.const', String(n | 0)];

/**
 * The SIMD kernel's constants (K[t], PADDING_WK[t], IV, folded values), each
 * stored splatted (16 bytes) in a table at address 0 and read with a plain
 * `v128.load`: one load uop, off the ALU ports. V8 builds a `v128.const`
 * through a general-purpose register (4-5 instructions per use), and
 * `v128.load32_splat` needs an extra address computation per use.
 */
class ConstTable {
  readonly words: number[] = [];
  private readonly index = new Map<number, number>();
  /** Byte address of the splatted constant `c`. */
  addressOf(c: number): number {
    let slot = this.index.get(c >>> 0);
    if (slot === undefined) {
      slot = this.words.length;
      this.words.push(c >>> 0);
      this.index.set(c >>> 0, slot);
    }
    return slot * 16;
  }
  get byteLength(): number {
    return this.words.length * 16;
  }
}

/** The operations of one round, for 4 lanes (i32x4) or one (i32), folding constants. */
class Ops {
  constructor(
    readonly lanes: Lanes,
    readonly table: ConstTable,
  ) {}

  lit(v: Val): SExpr {
    if (!isConst(v)) return v.x;
    if (this.lanes === 'scalar') return i32(v.c);
    return ['v128.load', `offset=${this.table.addressOf(v.c)}`, i32(0)];
  }

  private bin(op: string, a: Val, b: Val, fold: (a: number, b: number) => number): Val {
    if (isConst(a) && isConst(b)) return { c: fold(a.c, b.c) >>> 0 };
    const name = this.lanes === 'simd' ? (op === 'add' ? 'i32x4.add' : `v128.${op}`) : `i32.${op}`;
    return { x: [name, this.lit(a), this.lit(b)] };
  }
  /** Sum of terms, constants combined into one (so h + K[t] + W[t] with a known h is one add). */
  add(...terms: Val[]): Val {
    let k = 0;
    let anyConst = false;
    const rest: Val[] = [];
    for (const v of terms) {
      if (isConst(v)) {
        k = (k + v.c) >>> 0;
        anyConst = true;
      } else rest.push(v);
    }
    if (anyConst && (k !== 0 || rest.length === 0)) rest.push({ c: k });
    return rest.reduce((a, b) => this.bin('add', a, b, (p, q) => p + q));
  }
  xor(a: Val, b: Val): Val {
    return this.bin('xor', a, b, (p, q) => p ^ q);
  }
  and(a: Val, b: Val): Val {
    return this.bin('and', a, b, (p, q) => p & q);
  }
  shr(a: Val, n: number): Val {
    if (isConst(a)) return { c: a.c >>> n };
    return { x: [this.lanes === 'simd' ? 'i32x4.shr_u' : 'i32.shr_u', this.lit(a), i32(n)] };
  }
  shl(a: Val, n: number): Val {
    if (isConst(a)) return { c: (a.c << n) >>> 0 };
    return { x: [this.lanes === 'simd' ? 'i32x4.shl' : 'i32.shl', this.lit(a), i32(n)] };
  }
  rotr(a: Val, n: number): Val {
    if (isConst(a)) return { c: ((a.c >>> n) | (a.c << (32 - n))) >>> 0 };
    return { x: ['i32.rotr', this.lit(a), i32(n)] };
  }

  /**
   * rotr(x, r1) ^ rotr(x, r2) ^ rotr(x, r3) for r1 < r2 < r3, or with `r1` a
   * plain right shift (`shiftR1`, the small sigmas). Scalar: three `i32.rotr`.
   *
   * SIMD has no lane rotate. Instead of three (shr | shl) pairs, factor the
   * shifts into two chains:
   *   right: ((x >>> (r3-r2) ^ x) >>> (r2-r1) ^ x) >>> r1
   *   left:  ((x << (r2-r1) ^ x) << (r3-r2) ^ x) << (32-r3)
   * The same 11 instructions (9 for a small sigma), but each chain needs one
   * temporary where the plain form has six shifted copies live at once. V8
   * schedules a basic block wave by wave, so the plain form made it spill
   * about 1 200 times per 4 messages; this form, about 500: 4.9 -> 6.0 M
   * hashes/s, for two cycles more latency the other lanes of work hide.
   */
  sigma(x: Val, r1: number, r2: number, r3: number, shiftR1 = false): Val {
    if (this.lanes === 'scalar') {
      const last = shiftR1 ? this.shr(x, r1) : this.rotr(x, r1);
      return this.xor(this.xor(this.rotr(x, r2), this.rotr(x, r3)), last);
    }
    const right = this.shr(this.xor(this.shr(this.xor(this.shr(x, r3 - r2), x), r2 - r1), x), r1);
    const left = shiftR1
      ? this.shl(this.xor(this.shl(x, r3 - r2), x), 32 - r3)
      : this.shl(this.xor(this.shl(this.xor(this.shl(x, r2 - r1), x), r3 - r2), x), 32 - r3);
    return this.xor(right, left);
  }

  /** Ch(e, f, g): bits of f where e is set, of g elsewhere. */
  ch(e: Val, f: Val, g: Val): Val {
    if (this.lanes === 'simd' && !(isConst(e) && isConst(f) && isConst(g))) {
      return { x: ['v128.bitselect', this.lit(f), this.lit(g), this.lit(e)] };
    }
    return this.xor(g, this.and(e, this.xor(f, g)));
  }
  /**
   * Maj(a, b, c) given `ab = a ^ b` and `bc = b ^ c`: where a and b agree,
   * that bit; elsewhere c's, which is b ^ (b ^ c). `bc` is the previous
   * round's `ab`, so this is one xor (for `ab`) plus two ops. (`bitselect(c,
   * b, a ^ b)` is 4 instructions in V8, measured 2% slower.)
   */
  maj(b: Val, ab: Val, bc: Val): Val {
    return this.xor(b, this.and(ab, bc));
  }
}

/** The statements of one function body, plus the locals it sets. */
class Body {
  readonly lines: string[] = [];
  readonly locals = new Set<string>();
  comment(text: string): void {
    this.lines.push(`;; ${text}`);
  }
  set(name: string, v: SExpr): void {
    this.locals.add(name);
    this.lines.push(format(['local.set', name, v], 0));
  }
  stmt(e: SExpr): void {
    this.lines.push(format(e, 0));
  }
}

const flat = (e: SExpr): string => (typeof e === 'string' ? e : `(${e.map(flat).join(' ')})`);

/** One line when it fits in 100 columns, otherwise the head then one operand per line. */
function format(e: SExpr, indent: number): string {
  const one = flat(e);
  if (typeof e === 'string' || indent + one.length <= 100) return one;
  const pad = ' '.repeat(indent + 2);
  const [head, ...rest] = e;
  // Immediates (offset=, shuffle lanes) stay on the head line.
  let headLine = `(${flat(head!)}`;
  let i = 0;
  while (i < rest.length && typeof rest[i] === 'string') headLine += ` ${rest[i++] as string}`;
  const tail = rest.slice(i).map((r) => `\n${pad}${format(r, indent + 2)}`);
  return `${headLine}${tail.join('')})`;
}

/** Writes `v` into local `name` unless it is a constant; returns how to read it. */
function materialize(body: Body, ops: Ops, name: string, v: Val): Val {
  if (isConst(v)) return v;
  body.set(name, ops.lit(v));
  return get(name);
}

interface State {
  /** How to read a..h now. */
  vals: Val[];
  /** The local each position writes its next value into. */
  slots: string[];
  /** a ^ b of the previous round (= this round's b ^ c). */
  bc: Val;
  /** Which of the two `ab` locals this round writes. */
  parity: number;
}

/**
 * One round. The new e goes into d's local and the new a into h's: both are
 * dead by then, so the working variables rotate by renaming, not by moves.
 */
function round(body: Body, ops: Ops, st: State, kw: Val[]): State {
  const [a, b, c, d, e, f, g, h] = st.vals as [Val, Val, Val, Val, Val, Val, Val, Val];
  // h + K[t] + W[t] does not depend on e: summed apart, off the critical path.
  const t1 = materialize(body, ops, '$t1', ops.add(ops.add(h, ...kw), ops.add(ops.sigma(e, 6, 11, 25), ops.ch(e, f, g))));
  const ab = materialize(body, ops, `$ab${st.parity}`, ops.xor(a, b));
  const newE = materialize(body, ops, st.slots[3]!, ops.add(d, t1));
  const newA = materialize(body, ops, st.slots[7]!, ops.add(t1, ops.add(ops.sigma(a, 2, 13, 22), ops.maj(b, ab, st.bc))));
  const s = st.slots;
  return {
    vals: [newA, a, b, c, newE, e, f, g],
    slots: [s[7]!, s[0]!, s[1]!, s[2]!, s[3]!, s[4]!, s[5]!, s[6]!],
    bc: ab,
    parity: st.parity ^ 1,
  };
}

/**
 * Both blocks of a 64-byte message. Locals `$w0..$w15` must already hold the
 * big-endian message words; returns the final a..h and the values of H1.
 */
function compress(body: Body, ops: Ops): { final: Val[]; h1: Val[] } {
  const iv = [...IV].map((c) => ({ c }));
  const w = (t: number): Val => get(`$w${t % 16}`);
  // Block 1, the message. The state starts as the IV constants, so much of
  // the first rounds folds away here.
  let st: State = { vals: iv, slots: ['$a', '$b', '$c', '$d', '$e', '$f', '$g', '$h'], bc: ops.xor(iv[1]!, iv[2]!), parity: 0 };
  for (let t = 0; t < 64; t++) {
    if (t >= 16) {
      body.comment(`W[${t}]`);
      const next = ops.add(ops.sigma(w(t - 2), 10, 17, 19, true), w(t - 7), ops.sigma(w(t - 15), 3, 7, 18, true), w(t - 16));
      body.set(`$w${t % 16}`, ops.lit(next));
    }
    body.comment(`block 1, round ${t}`);
    st = round(body, ops, st, [w(t), { c: K[t]! }]);
  }
  body.comment('H1 = IV + block 1 state');
  const h1: Val[] = [];
  for (let i = 0; i < 8; i++) h1.push(materialize(body, ops, `$H${i}`, ops.add(iv[i]!, st.vals[i]!)));
  // Block 2, the padding block: W + K is the constant PADDING_WK[t], so no
  // message schedule at all.
  st = { vals: h1, slots: st.slots, bc: materialize(body, ops, '$ab1', ops.xor(h1[1]!, h1[2]!)), parity: 0 };
  for (let t = 0; t < 64; t++) {
    body.comment(`block 2, round ${t}`);
    st = round(body, ops, st, [{ c: PADDING_WK[t]! }]);
  }
  return { final: st.vals, h1 };
}

const indent = (lines: string[], n: number): string => lines.map((l) => ' '.repeat(n) + l.replaceAll('\n', `\n${' '.repeat(n)}`)).join('\n');
const declareLocals = (body: Body, type: string): string => [...body.locals].map((n) => `(local ${n} ${type})`).join(' ');

/** Byte swap of an i32 (wasm has no bswap): rotate by 8 both ways, keep alternate bytes. */
function bswap32(x: SExpr): SExpr {
  return ['i32.or', ['i32.and', ['i32.rotl', x, i32(8)], i32(0x00ff00ff)], ['i32.and', ['i32.rotr', x, i32(8)], i32(0xff00ff00)]];
}

/** hash1: one message, i32 ops. Both modules have it (the SIMD one for count % 4). */
function scalarFunction(table: ConstTable): string {
  const ops = new Ops('scalar', table);
  const body = new Body();
  body.comment('Load the 16 message words big-endian.');
  for (let t = 0; t < 16; t++) {
    body.set('$x', ['i32.load', `offset=${4 * t}`, ['local.get', '$in']]);
    body.set(`$w${t}`, bswap32(['local.get', '$x']));
  }
  const { final, h1 } = compress(body, ops);
  body.comment('Digest = H1 + block 2 state, stored big-endian. The message was read above.');
  for (let i = 0; i < 8; i++) {
    body.set('$x', ops.lit(ops.add(h1[i]!, final[i]!)));
    body.stmt(['i32.store', `offset=${4 * i}`, ['local.get', '$out'], bswap32(['local.get', '$x'])]);
  }
  return [
    '  ;; One message at $in to one digest at $out.',
    `  (func $hash1 (param $in i32) (param $out i32) ${declareLocals(body, 'i32')}`,
    indent(body.lines, 4) + ')',
  ].join('\n');
}

const lanes = (xs: number[]): string[] => xs.map(String);
/**
 * Shuffles V8 recognises as single instructions: 32-bit interleave
 * (punpckldq/punpckhdq) and 64-bit interleave (punpcklqdq/punpckhqdq).
 * A byte shuffle of two inputs that fuses the byte swap in has no such
 * pattern: V8 emits two pshufb with masks built in registers plus a por,
 * about 11 instructions (measured 4% slower overall).
 */
const ZIP32_LO = lanes([0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23]);
const ZIP32_HI = lanes([8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31]);
const ZIP64_LO = lanes([0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]);
const ZIP64_HI = lanes([8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31]);
/**
 * Byte swap of each 32-bit lane as a swizzle by a constant in-range mask: one
 * pshufb (V8 shares the mask constant across the function).
 */
const bswap32x4 = (x: SExpr): SExpr => ['i8x16.swizzle', x, ['v128.const', 'i8x16', ...lanes([3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12])]];

/**
 * 4x4 transpose of 32-bit words, each word byte-swapped: rows in, columns
 * out. Its own inverse, so it serves both loading messages (row = 16 bytes
 * of one message) and storing digests (row = one state word of 4 messages).
 */
function transpose(body: Body, rows: SExpr[], out: (i: number) => string): void {
  const sh = (mask: string[], a: SExpr, b: SExpr): SExpr => ['i8x16.shuffle', ...mask, a, b];
  const u = (i: number): SExpr => ['local.get', `$u${i}`];
  body.set('$u0', sh(ZIP32_LO, rows[0]!, rows[1]!));
  body.set('$u1', sh(ZIP32_HI, rows[0]!, rows[1]!));
  body.set('$u2', sh(ZIP32_LO, rows[2]!, rows[3]!));
  body.set('$u3', sh(ZIP32_HI, rows[2]!, rows[3]!));
  body.set(out(0), bswap32x4(sh(ZIP64_LO, u(0), u(2))));
  body.set(out(1), bswap32x4(sh(ZIP64_HI, u(0), u(2))));
  body.set(out(2), bswap32x4(sh(ZIP64_LO, u(1), u(3))));
  body.set(out(3), bswap32x4(sh(ZIP64_HI, u(1), u(3))));
}

/** hash4: 4 messages, one per i32x4 lane. */
function simdFunction(table: ConstTable): string {
  const ops = new Ops('simd', table);
  const body = new Body();
  body.comment('Load the 4 messages (all reads happen here, before any store) and transpose:');
  body.comment('lane m of $w[t] = word t of message m, big-endian.');
  for (let q = 0; q < 4; q++) {
    for (let m = 0; m < 4; m++) body.set(`$r${m}`, ['v128.load', `offset=${64 * m + 16 * q}`, ['local.get', '$in']]);
    transpose(
      body,
      [0, 1, 2, 3].map((m): SExpr => ['local.get', `$r${m}`]),
      (i) => `$w${4 * q + i}`,
    );
  }
  const { final, h1 } = compress(body, ops);
  body.comment('Digest = H1 + block 2 state; transpose back to one digest per message, big-endian.');
  for (let i = 0; i < 8; i++) body.set(`$H${i}`, ops.lit(ops.add(h1[i]!, final[i]!)));
  for (let half = 0; half < 2; half++) {
    const rows = [0, 1, 2, 3].map((i): SExpr => ['local.get', `$H${4 * half + i}`]);
    transpose(body, rows, (m) => `$r${m}`);
    for (let m = 0; m < 4; m++) body.stmt(['v128.store', `offset=${32 * m + 16 * half}`, ['local.get', '$out'], ['local.get', `$r${m}`]]);
  }
  return [
    '  ;; Four messages at $in .. $in+256 to four digests at $out .. $out+128.',
    `  (func $hash4 (param $in i32) (param $out i32) ${declareLocals(body, 'v128')}`,
    indent(body.lines, 4) + ')',
  ].join('\n');
}

function driver(lanes: Lanes): string {
  const groups = `    ;; Groups of four through the SIMD kernel.
    (block $groups_done
      (loop $groups
        (br_if $groups_done (i32.lt_u (local.get $count) (i32.const 4)))
        (call $hash4 (local.get $in) (local.get $out))
        (local.set $in (i32.add (local.get $in) (i32.const 256)))
        (local.set $out (i32.add (local.get $out) (i32.const 128)))
        (local.set $count (i32.sub (local.get $count) (i32.const 4)))
        (br $groups)))
    ;; The remaining count % 4 one at a time.
`;
  return `  ;; The kernels are separate functions so V8 tiers each one up on its own: a
  ;; call of hash64 that began in the baseline compiler reaches the optimised
  ;; kernel through the call as soon as it is ready.
  (func (export "hash64") (param $in i32) (param $out i32) (param $count i32)
${lanes === 'simd' ? groups : ''}    (block $done
      (loop $one
        (br_if $done (i32.eqz (local.get $count)))
        (call $hash1 (local.get $in) (local.get $out))
        (local.set $in (i32.add (local.get $in) (i32.const 64)))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (local.set $count (i32.sub (local.get $count) (i32.const 1)))
        (br $one))))`;
}

function dataSegment(table: ConstTable): string {
  const lines = table.words.map((w) => {
    const le = [0, 8, 16, 24].map((s) => `\\${((w >>> s) & 0xff).toString(16).padStart(2, '0')}`).join('');
    return `    "${le.repeat(4)}" ;; 0x${w.toString(16).padStart(8, '0')}`;
  });
  return `  ;; Constant table: each u32 splatted to 16 bytes (little-endian lanes).\n  (data (i32.const 0)\n${lines.join('\n')}\n  )`;
}

function header(lanes: Lanes): string {
  const what =
    lanes === 'simd'
      ? 'WebAssembly SIMD: 4 messages per pass in i32x4 lanes, the remainder one at a time'
      : 'scalar (no SIMD), one message per pass; for engines where SIMD does not validate';
  return [
    `;; SHA-256 of 64-byte messages, ${what}.`,
    ';; GENERATED by packages/hasher/scripts/gen-sha256-wat.ts (npx tsx scripts/gen-sha256-wat.ts):',
    ';; edit that, not this. scripts/build-wasm.mjs assembles this file into',
    ';; src/backends/wasmModules.generated.ts.',
    ';;',
    ';; export hash64(in, out, count): the 32 bytes at out + 32i = SHA-256 of the 64 bytes at',
    ';;   in + 64i, for i < count. Safe in place when out <= in: each pass reads its messages',
    ';;   before writing its digests.',
    ';; export buffer: the first byte callers may use; the constant table lies below it.',
    ';; Block 2 of every message is the same padding block, so its W + K is a constant per round',
    ';; and block 2 does no message-schedule work.',
  ].join('\n');
}

function generate(lanes: Lanes): string {
  const table = new ConstTable();
  const funcs = lanes === 'simd' ? [simdFunction(table), scalarFunction(table)] : [scalarFunction(table)];
  const bufferStart = Math.max(64, Math.ceil(table.byteLength / 64) * 64);
  const parts = [header(lanes), '(module', '  (memory (export "memory") 1)', `  (global (export "buffer") i32 (i32.const ${bufferStart}))`];
  if (table.words.length > 0) parts.push(dataSegment(table));
  parts.push(driver(lanes), ...funcs, ')', '');
  return parts.join('\n');
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const targets: [Lanes, string][] = [
  ['simd', join(root, 'wat/sha256_simd.wat')],
  ['scalar', join(root, 'wat/sha256_scalar.wat')],
];
const check = process.argv.includes('--check');
let stale = false;
for (const [lanes, path] of targets) {
  const text = generate(lanes);
  if (check) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      // A missing file is as stale as an outdated one.
    }
    if (current !== text) {
      console.error(`stale: ${path} (run: npx tsx scripts/gen-sha256-wat.ts)`);
      stale = true;
    }
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${path} (${text.split('\n').length} lines)`);
  }
}
if (stale) process.exit(1);
