/**
 * Chi-square goodness of fit for integer-valued samples against a reference pmf (from @stdlib,
 * never from the code under test). Cells are runs of consecutive integers merged until each
 * expects at least `minExpected` draws; the first and last cells take the tails.
 */
import { chiSquarePValue } from '../stats.js';

/**
 * p-value of `values` against `pmf`, whose mass lies (up to a negligible remainder) in the
 * integers [kmin, kmax]. Values outside that range fall in the tail cells.
 */
export function discreteChiSquare(
  values: ArrayLike<number>, pmf: (k: number) => number, kmin: number, kmax: number, minExpected = 20,
): number {
  const n = values.length;
  const mass: number[] = [];
  for (let k = kmin; k <= kmax; k++) mass.push(pmf(k));
  const total = mass.reduce((a, b) => a + b, 0);
  const edges: number[] = [];                 // upper edge (inclusive) of every cell but the last
  const probs: number[] = [];
  let acc = 0, cum = 0;
  for (let j = 0; j < mass.length; j++) {
    acc += mass[j]!;
    cum += mass[j]!;
    if (acc * n >= minExpected * total && (total - cum) * n >= minExpected * total) {
      edges.push(kmin + j);
      probs.push(acc / total);
      acc = 0;
    }
  }
  probs.push((total - cum + acc) / total);
  if (probs.length < 2) return 1;
  const counts = new Array<number>(probs.length).fill(0);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    let lo = 0, hi = edges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (v > edges[mid]!) lo = mid + 1;
      else hi = mid;
    }
    counts[lo]!++;
  }
  return chiSquarePValue(counts, probs);
}

/** Integer tensor data (int32 or int64) as plain numbers. */
export function numbers(data: ArrayLike<number | bigint>): number[] {
  return Array.from(data, Number);
}

/** Sample mean and (unbiased) variance. */
export function moments(x: ArrayLike<number>): { mean: number; variance: number } {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]!;
  const mean = s / x.length;
  let v = 0;
  for (let i = 0; i < x.length; i++) v += (x[i]! - mean) ** 2;
  return { mean, variance: v / (x.length - 1) };
}
