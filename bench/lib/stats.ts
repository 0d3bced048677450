/**
 * Summary statistics for benchmark samples: median, min–max, and the paired
 * ratio of two rows (sample r of one against sample r of the other, taken in
 * the same round, then the median of those ratios), which cancels most of the
 * drift a shared, noisy machine adds between rounds.
 */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly n: number;
}

export function summarize(values: readonly number[]): Summary {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

/** Median over rounds of a[r] / b[r], with the min–max of those ratios. */
export function pairedRatio(a: readonly number[], b: readonly number[]): Summary {
  const n = Math.min(a.length, b.length);
  const ratios: number[] = [];
  for (let r = 0; r < n; r++) ratios.push(a[r]! / b[r]!);
  return summarize(ratios);
}

export function fmt(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return '–';
  return value.toFixed(digits);
}
