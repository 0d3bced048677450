/**
 * Spare slabs of packed views (packed.ts): the working copies of a view's
 * dirty pages and their committed twins, handed from a view that committed
 * to the next one that grows. A state cache makes a new view per block (a
 * clone's fields are new views), and each grew its slab by doubling from a
 * few pages: a block's participation flags dirty all 4096 pages of 2^20
 * (1 MiB), so every block allocated and copied ~2 MiB of slabs and twins
 * in ten steps; an epoch's balances 16 MiB. Bounded: at most SPARE_COUNT
 * pairs and SPARE_BYTES in all are kept per process, the largest first.
 *
 * Invariant: a slab handed out is no longer held by any view (a view gives
 * its slab up only at its commit's end, and takes a fresh small one).
 * @module
 */

/** A slab and its committed twin (`orig`: the same length, as int32 words). */
export interface Slab {
  readonly slab: Uint8Array;
  readonly orig: Int32Array;
}

/** Slabs of this size or more are given up at commit (a smaller one a view keeps; it costs little to grow). */
export const SLAB_DONATE_BYTES = 1 << 14;
/**
 * Pairs kept at most. A progressive list's subtrees are views of their own, so a gloas epoch's loads of
 * every page of the balances and the inactivity scores take ~20 slabs of sizes 4^k pages (a binary list
 * takes one each); with 4 kept, those past the four largest were allocated and faulted in afresh every
 * epoch: the writes 78.6 ms CPU with 1 627 page faults, against 34.8 ms with 5 with 24 kept
 * (bench/realistic-epochs.ts --fork gloas --parts, p50 of 6 epochs, AMD EPYC, load ~1). SPARE_BYTES
 * still bounds what is kept.
 */
const SPARE_COUNT = 24;
/** Retained at most: one epoch's balances and scores of 2^20 validators (8 MiB slab + 8 MiB twin each). */
const SPARE_BYTES = 40 << 20;

const spares: Slab[] = [];

const bytesOf = (s: Slab) => 2 * s.slab.length;

/**
 * A spare slab of at least `size` bytes and at most `most` (the smallest
 * that fits), or null. A view growing by doubling passes a bound: taking an
 * epoch's 8 MiB spare for a 16 KiB growth step left the epoch's two loads of
 * every page (balances, inactivity scores) one spare short, so one of them
 * allocated and faulted in 16 MiB each epoch (1–9 ms, measured).
 */
export function takeSlab(size: number, most = Infinity): Slab | null {
  let best = -1;
  for (let k = 0; k < spares.length; k++) {
    const n = spares[k]!.slab.length;
    if (n >= size && n <= most && (best < 0 || n < spares[best]!.slab.length)) best = k;
  }
  if (best < 0) return null;
  const s = spares[best]!;
  spares[best] = spares[spares.length - 1]!;
  spares.pop();
  return s;
}

/** Keeps `s` for a later view when it fits the bounds (smaller spares make room for it). */
export function giveSlab(s: Slab): void {
  spares.push(s);
  spares.sort((a, b) => b.slab.length - a.slab.length);
  let total = 0;
  let keep = 0;
  for (; keep < spares.length && keep < SPARE_COUNT; keep++) {
    if (total + bytesOf(spares[keep]!) > SPARE_BYTES) break;
    total += bytesOf(spares[keep]!);
  }
  spares.length = keep;
}
