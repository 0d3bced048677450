/**
 * Spreading a run of records (back to back in one record page) into rows of
 * chunks for hashing (recordHash.ts): the copy plan of a layout — [source
 * byte, destination word] pairs for whole words, [source byte, destination
 * byte] pairs for tail bytes, into the row or into the record's long-field
 * block — applied to every record of the run.
 *
 * Why generated code: a loop over the plan per record reads the plan and
 * bounds-checks it on every word; a function generated once per layout with
 * the plan's numbers as literals is a straight list of loads and stores.
 * Measured on 2^18 Validator records (121 bytes, 42 words and a byte each):
 * plan loop per record ~23 ms, plan loop per field across the run (the
 * fallback below) ~16 ms, generated ~6 ms.
 *
 * Safety: the generated text holds only integers computed here from a
 * checked layout. Where `new Function` is refused (a Content-Security-Policy
 * without 'unsafe-eval') or switched off with `SSZTREE_NO_CODEGEN=1` (the
 * switch `@ssztree/types` honours too), the fallback does the same copies.
 * @module
 */

/** A layout's copy plan (see the module comment); long-field destinations are within the record's 16·nl-word block. */
export interface SpreadPlan {
  readonly size: number;
  /** Words per row (8 · 2^depth). */
  readonly rowWords: number;
  /** Words per record's long-field block (16 · long fields). */
  readonly longBlock: number;
  readonly rowW: Int32Array;
  readonly rowB: Int32Array;
  readonly longW: Int32Array;
  readonly longB: Int32Array;
}

/** Spreads records [0, n) at `view`/`page` from byte `base` (back to back) into rows and long blocks [0, n). */
export type SpreadRun = (view: DataView, page: Uint8Array, base: number, n: number, rows32: Int32Array, rows8: Uint8Array, longs32: Int32Array, longs8: Uint8Array) => void;

/** Spreads the one record at `view`/`page` byte `s` into row and long block `k` (records not back to back: the pending flush). */
export type SpreadOne = (view: DataView, page: Uint8Array, s: number, k: number, rows32: Int32Array, rows8: Uint8Array, longs32: Int32Array, longs8: Uint8Array) => void;

export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

let allowed: boolean | undefined;

/** Whether generated spreaders are used: probed once (see the module comment). */
export function spreadCodegenAvailable(): boolean {
  if (allowed === undefined) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
    if (env?.SSZTREE_NO_CODEGEN === '1') allowed = false;
    else {
      try {
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a constant probe
        allowed = (new Function('return 1') as () => number)() === 1;
      } catch {
        allowed = false;
      }
    }
  }
  return allowed;
}

/** The run spreader of `plan`: generated when `generate`, else the plan loop per field. */
export function makeSpreadRun(plan: SpreadPlan, generate: boolean): SpreadRun {
  return generate ? generatedRun(plan) : (view, page, base, n, rows32, rows8, longs32, longs8) => loopRun(plan, view, page, base, n, rows32, rows8, longs32, longs8);
}

/**
 * The one-record spreader of `plan`: generated when `generate` (the
 * pending flush spreads records scattered over their pool one by one: the
 * plan loop of `spreadWithPlan` read and bounds-checked the plan's ~90
 * entries of a validator pair per record), else that loop.
 */
export function makeSpreadOne(plan: SpreadPlan, generate: boolean): SpreadOne {
  if (!generate) return (view, _page, s, k, rows32, rows8, longs32, longs8) => spreadWithPlan(plan, view, s, k, rows32, rows8, longs32, longs8);
  const body = ['const r = k * ' + String(plan.rowWords) + ';', 'const l = k * ' + String(plan.longBlock) + ';', ...copies(plan)];
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see the module comment: only integers computed here
  return new Function('view', 'page', 's', 'k', 'rows32', 'rows8', 'longs32', 'longs8', body.join('\n')) as SpreadOne;
}

/** The plan loop: the record at `view[s]` into row k. */
function spreadWithPlan(plan: SpreadPlan, view: DataView, s: number, k: number, rows32: Int32Array, rows8: Uint8Array, longs32: Int32Array, longs8: Uint8Array): void {
  const { rowW, rowB, longW, longB, rowWords, longBlock } = plan;
  const r = k * rowWords;
  for (let w = 0; w < rowW.length; w += 2) rows32[r + rowW[w + 1]!] = view.getInt32(s + rowW[w]!, LITTLE_ENDIAN);
  for (let b = 0; b < rowB.length; b += 2) rows8[4 * r + rowB[b + 1]!] = view.getUint8(s + rowB[b]!);
  if (longBlock === 0) return;
  const l = k * longBlock;
  for (let w = 0; w < longW.length; w += 2) longs32[l + longW[w + 1]!] = view.getInt32(s + longW[w]!, LITTLE_ENDIAN);
  for (let b = 0; b < longB.length; b += 2) longs8[4 * l + longB[b + 1]!] = view.getUint8(s + longB[b]!);
}

/** The generated copies of one record from byte `s` into row word `r` and long-block word `l` (integers of the plan only). */
function copies(plan: SpreadPlan): string[] {
  const { rowW, rowB, longW, longB } = plan;
  const le = String(LITTLE_ENDIAN);
  const body: string[] = [];
  for (let w = 0; w < rowW.length; w += 2) body.push(`rows32[r + ${rowW[w + 1]!}] = view.getInt32(s + ${rowW[w]!}, ${le});`);
  for (let b = 0; b < rowB.length; b += 2) body.push(`rows8[4 * r + ${rowB[b + 1]!}] = page[s + ${rowB[b]!}];`);
  for (let w = 0; w < longW.length; w += 2) body.push(`longs32[l + ${longW[w + 1]!}] = view.getInt32(s + ${longW[w]!}, ${le});`);
  for (let b = 0; b < longB.length; b += 2) body.push(`longs8[4 * l + ${longB[b + 1]!}] = page[s + ${longB[b]!}];`);
  return body;
}

function generatedRun(plan: SpreadPlan): SpreadRun {
  const { size, rowWords, longBlock } = plan;
  const body: string[] = ['for (let k = 0; k < n; k++) {', `const s = base + k * ${size};`, `const r = k * ${rowWords};`, `const l = k * ${longBlock};`, ...copies(plan), '}'];
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- see the module comment: only integers computed here
  return new Function('view', 'page', 'base', 'n', 'rows32', 'rows8', 'longs32', 'longs8', body.join('\n')) as SpreadRun;
}

/** The fallback: one pass over the run per plan entry (tight loops with the entry hoisted). */
function loopRun(plan: SpreadPlan, view: DataView, page: Uint8Array, base: number, n: number, rows32: Int32Array, rows8: Uint8Array, longs32: Int32Array, longs8: Uint8Array): void {
  const { size, rowWords, longBlock, rowW, rowB, longW, longB } = plan;
  for (let w = 0; w < rowW.length; w += 2) {
    const so = base + rowW[w]!;
    const dw = rowW[w + 1]!;
    for (let k = 0; k < n; k++) rows32[k * rowWords + dw] = view.getInt32(so + k * size, LITTLE_ENDIAN);
  }
  for (let b = 0; b < rowB.length; b += 2) {
    const so = base + rowB[b]!;
    const db = rowB[b + 1]!;
    for (let k = 0; k < n; k++) rows8[4 * k * rowWords + db] = page[so + k * size]!;
  }
  for (let w = 0; w < longW.length; w += 2) {
    const so = base + longW[w]!;
    const dw = longW[w + 1]!;
    for (let k = 0; k < n; k++) longs32[k * longBlock + dw] = view.getInt32(so + k * size, LITTLE_ENDIAN);
  }
  for (let b = 0; b < longB.length; b += 2) {
    const so = base + longB[b]!;
    const db = longB[b + 1]!;
    for (let k = 0; k < n; k++) longs8[4 * k * longBlock + db] = page[so + k * size]!;
  }
}
