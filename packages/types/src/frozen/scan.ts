/**
 * Which candidate base a plain array is diffed against, and the scan that
 * finds where they differ (`!==` per element, reported in `per`-element
 * units: elements for composite lists, 32-byte chunks for packed ones).
 *
 * Telling a parent from a cousin: after an array is diffed, the first few
 * units where it differed from its base are noted ("recent changes"). An
 * array derived from it (an immer result of it) still holds the very same
 * elements at those units; an array from another chain (derived from an
 * older common ancestor) does not. Probing those few units picks the parent
 * among the cache's chain heads without scanning every candidate; when the
 * probe cannot tell, the candidates are scanned in one pass over the value
 * and one that falls clearly behind is dropped.
 *
 * Snapshots: V8 reads a frozen array several times slower than a plain
 * one (`bench/frozen-arrays.ts`), and a scan reads two. So a big frozen
 * base is read through a plain copy of itself (its snapshot), which after
 * the diff is patched in place at the changed units and handed over to the
 * new array, the next diff's base. Steady state along a chain: no copy, no
 * allocation, one frozen array read per scan instead of two.
 *
 * Invariants: the probe only chooses; the units returned are always the
 * exact differences against the candidate returned, so any choice gives a
 * correct diff. A snapshot exists only for a frozen array and equals it
 * element for element (a frozen array never changes). Notes and snapshots
 * are kept in `WeakMap`s and die with their array.
 * @module
 */

/** How many changed units of an array are noted for later probes. */
const NOTED = 64;
/** A candidate that many units worse than the other is dropped from a two-candidate scan. */
const SLACK = 64;

const recent = new WeakMap<object, readonly number[]>();

/** Below this length an array gets no snapshot: not worth its memory. */
export const SNAPSHOT_MIN = 4096;
const snapshots = new WeakMap<object, unknown[]>();

/**
 * What to read in place of the base `a`: its snapshot, made now if a big
 * frozen array has none yet (the first diff of a chain pays one copy). Every
 * big base is read through a plain array, so the scan loops see one kind of
 * array on that side; a loop that sees both frozen and plain ones there is
 * as slow as reading frozen ones.
 */
function source(a: ArrayLike<unknown>): ArrayLike<unknown> {
  let s = snapshots.get(a as object);
  if (s === undefined && a.length >= SNAPSHOT_MIN && Object.isFrozen(a)) {
    s = Array.from(a);
    snapshots.set(a as object, s);
  }
  return s ?? a;
}

/**
 * After `value` was diffed against `base` (the `changed` units, `per`
 * elements each, within their common length): hands the base's snapshot,
 * patched in place, over to a big frozen `value` (the base loses it; the
 * snapshot stays packed: shrunk by length, grown by push).
 */
export function passSnapshot(base: ArrayLike<unknown>, value: ArrayLike<unknown>, changed: readonly number[], per: number): void {
  const n = value.length;
  const s = snapshots.get(base as object);
  if (s === undefined || n < SNAPSHOT_MIN || !Object.isFrozen(value)) return;
  snapshots.delete(base as object);
  if (n < s.length) s.length = n;
  const common = s.length;
  for (let k = 0; k < changed.length; k++) {
    const first = (changed[k] as number) * per;
    for (let i = first; i < first + per && i < common; i++) s[i] = value[i];
  }
  for (let i = common; i < n; i++) s.push(value[i]);
  snapshots.set(value as object, s);
}

/** Notes the first units where the frozen array `value` differs from the base it was diffed against. */
export function noteChanges(value: object, units: readonly number[]): void {
  if (Object.isFrozen(value)) recent.set(value, units.slice(0, NOTED));
}

/**
 * Whether `value` looks derived from `old`: the share of `old`'s noted
 * changed units where `value` holds the identical elements, or -1 when
 * `old` has no noted changes (nothing to tell by).
 */
function derivedShare(value: ArrayLike<unknown>, old: ArrayLike<unknown>, per: number): number {
  const units = recent.get(old as object);
  if (units === undefined || units.length === 0) return -1;
  let same = 0;
  for (let k = 0; k < units.length; k++) {
    const first = (units[k] as number) * per;
    let equal = true;
    for (let i = first; i < first + per && equal; i++) equal = i < value.length === i < old.length && (i >= value.length || value[i] === old[i]);
    if (equal) same++;
  }
  return same / units.length;
}

/** Appends the `per`-element unit of index `i` to ascending `out` unless it is already last. */
function pushUnit(out: number[], i: number, per: number): void {
  const c = Math.floor(i / per);
  if (out.length === 0 || out[out.length - 1] !== c) out.push(c);
}

/** Appends the units where `value` and `old` differ at indices `from` <= i < `to`. */
function scanRange(value: ArrayLike<unknown>, old: ArrayLike<unknown>, from: number, to: number, per: number, out: number[]): void {
  for (let i = from; i < to; i++) if (value[i] !== old[i]) pushUnit(out, i, per);
}

/*
 * The two hot loops, one per element kind, each used by one caller only: a
 * loop shared by object elements and number elements gets mixed type
 * feedback and its `!==` compiles to the generic comparison
 * (bench/immer-profile.ts, three interleaved runs each: cached root median
 * of medians 12.2 ms with one shared loop, 11.7 ms with these two).
 */

/** `scanRange` from 0 for composite elements (objects, compared by identity), one unit per element. */
function scanObjects(value: ArrayLike<unknown>, old: ArrayLike<unknown>, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (value[i] !== old[i]) out.push(i);
  return out;
}

/** `scanRange` from 0 for basic elements (numbers, bigints, booleans, compared by value). */
function scanValues(value: ArrayLike<unknown>, old: ArrayLike<unknown>, count: number, per: number): number[] {
  const out: number[] = [];
  let last = -1;
  for (let i = 0; i < count; i++) {
    if (value[i] !== old[i]) {
      const c = Math.floor(i / per);
      if (c !== last) out.push((last = c));
    }
  }
  return out;
}

/** The result of a scan: the candidate chosen, the units where `value` differs from it in their common length, and whether `value` looks derived from it. */
export interface Scan {
  readonly which: number;
  readonly units: number[];
  readonly derived: boolean;
}

function single(value: ArrayLike<unknown>, old: ArrayLike<unknown>, which: number, share: number, per: number, objects: boolean): Scan {
  const count = Math.min(value.length, old.length);
  const from = source(old);
  const units = objects ? scanObjects(value, from, count) : scanValues(value, from, count, per);
  return { which, units, derived: share !== -1 ? share >= 0.5 : true };
}

/**
 * Chooses among `olds` (indexed like the caller's bases; null entries
 * skipped; the first two others considered, as the cache keeps two chain
 * heads) and scans `value` against the choice; `objects` for composite
 * elements (then `per` is 1).
 */
export function scanCandidates(value: ArrayLike<unknown>, olds: readonly (ArrayLike<unknown> | null)[], per: number, objects: boolean): Scan | null {
  const n = value.length;
  let ja = -1;
  let jb = -1;
  for (let j = 0; j < olds.length && jb < 0; j++) {
    const o = olds[j];
    if (o === null || o === undefined) continue;
    if (ja < 0) ja = j;
    else if (o !== olds[ja]) jb = j;
  }
  if (ja < 0) return null;
  const a = olds[ja] as ArrayLike<unknown>;
  const sa = derivedShare(value, a, per);
  if (jb < 0) return single(value, a, ja, sa, per, objects);
  const b = olds[jb] as ArrayLike<unknown>;
  const sb = derivedShare(value, b, per);
  const readA = source(a);
  const readB = source(b);
  if (sa >= 0.5 && sb < 0.5) return single(value, a, ja, sa, per, objects);
  if (sb >= 0.5 && sa < 0.5) return single(value, b, jb, sb, per, objects);
  // The probe cannot tell: one pass over `value` against both.
  const ua: number[] = [];
  const ub: number[] = [];
  const both = Math.min(n, a.length, b.length);
  for (let i = 0; i < both; i++) {
    const v = value[i];
    if (v !== readA[i]) {
      pushUnit(ua, i, per);
      if (ua.length > ub.length + SLACK) {
        scanRange(value, readB, i, Math.min(n, b.length), per, ub); // from i: b[i] is not compared yet
        return { which: jb, units: ub, derived: sb !== -1 ? sb >= 0.5 : true };
      }
    }
    if (v !== readB[i]) {
      pushUnit(ub, i, per);
      if (ub.length > ua.length + SLACK) {
        scanRange(value, readA, i + 1, Math.min(n, a.length), per, ua);
        return { which: ja, units: ua, derived: sa !== -1 ? sa >= 0.5 : true };
      }
    }
  }
  scanRange(value, readA, both, Math.min(n, a.length), per, ua);
  scanRange(value, readB, both, Math.min(n, b.length), per, ub);
  const costA = ua.length + Math.ceil(Math.abs(n - a.length) / per);
  const costB = ub.length + Math.ceil(Math.abs(n - b.length) / per);
  return costB < costA ? { which: jb, units: ub, derived: sb !== -1 ? sb >= 0.5 : true } : { which: ja, units: ua, derived: sa !== -1 ? sa >= 0.5 : true };
}
