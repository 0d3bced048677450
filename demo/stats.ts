/**
 * Timing samples: percentiles by nearest rank over the samples kept so far.
 * Samples are few (one per block), so sorting a copy per query is fine.
 */
export class Samples {
  readonly values: number[] = [];

  add(ms: number): void {
    this.values.push(ms);
  }

  get count(): number {
    return this.values.length;
  }

  get last(): number {
    return this.values.at(-1) ?? Number.NaN;
  }

  /** The p-th percentile (0 < p ≤ 100), nearest rank; NaN when empty. */
  percentile(p: number): number {
    if (this.values.length === 0) return Number.NaN;
    const sorted = [...this.values].sort((a, b) => a - b);
    const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
    return sorted[rank - 1] as number;
  }
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export const since = (start: number): number => performance.now() - start;

/** A fixed-precision number, or '–' for NaN. */
export function fmt(x: number, digits = 1): string {
  return Number.isFinite(x) ? x.toFixed(digits) : '–';
}

export const MB = 2 ** 20;

/** Heap used plus array buffers (the node store's pages live in array buffers), in MB. */
export function heapMB(): number {
  const m = process.memoryUsage();
  return (m.heapUsed + m.arrayBuffers) / MB;
}
