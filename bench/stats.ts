/** Small statistics for benchmark figures: median and interquartile spread. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + ((sorted[hi] ?? sorted[lo]!) - sorted[lo]!) * (pos - lo);
}

export interface Summary {
  median: number;
  p25: number;
  p75: number;
  n: number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p25: quantile(sorted, 0.25), p75: quantile(sorted, 0.75), n: sorted.length };
}

/** "1.23 (1.20-1.27, n=7)": a median with its interquartile range. */
export function formatSummary(s: Summary, digits = 2): string {
  return `${s.median.toFixed(digits)} (${s.p25.toFixed(digits)}-${s.p75.toFixed(digits)}, n=${s.n})`;
}

export interface Figure {
  name: string;
  ours: string;
  baseline: string;
  /** ours / baseline, as a summary over repetitions (none where only an outcome is compared). */
  ratio?: Summary;
  goal: string;
  met: boolean;
  unit: string;
  notes?: string;
}
