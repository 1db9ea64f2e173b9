/**
 * Running means and variances of warm-up draws, the estimate behind an adapted metric: the one
 * home of the variance estimators both NUTS engines use. References: Welford (1962); Stan's
 * `welford_var_estimator.hpp` and `welford_covar_estimator.hpp` (the Stan engine,
 * `mcmc/nuts/stan/warmup.ts`); Pébay (2008) as TFP's `RunningVariance` in
 * `tfp.experimental.stats` (the TFP engine, `mcmc/nuts/tfp/running-variance.ts` under
 * `DiagonalMassMatrixAdaptation`).
 *
 * Both keep a count n, a mean and M₂, the sum of squared residuals about the mean, and give
 * M₂ / (n − ddof). They add a sample differently:
 *
 * - Stan (one draw at a time): d = x − mean; mean ← mean + d/n; M₂ ← M₂ + (x − mean)·d.
 * - TFP (a chunk of m draws, pooled chains or one draw): the chunk's own mean and M₂ by two
 *   passes, then merged, δ = chunk mean − mean: mean ← mean + m·δ/n, M₂ ← M₂ + M₂,chunk +
 *   (n_old·m/n)·δ².
 *
 * **Both forms are pinned.** For m = 1 the means agree bit for bit but M₂ does not (Stan's
 * (x − mean_new)·d against TFP's (n_old/n)·d·d), and each engine's draws are pinned (the Stan
 * engine's by its tests and the engine comparison, the TFP engine's by the TFP-on-JAX parity
 * fixtures), so the Stan engine keeps {@link Welford} and the TFP engine {@link addChunk}.
 */

/**
 * Welford's running mean and variance of each of `dim` coordinates, one draw at a time (Stan's
 * `welford_var_estimator`).
 * @example
 * const w = new Welford(1);
 * for (const x of [1, 2, 4]) w.add(Float64Array.of(x));
 * const v = new Float64Array(1);
 * w.variance(v);   // v = [7/3]: the sample variance (n − 1 denominator)
 */
export class Welford {
  /** Draws added since the last restart. */
  n = 0;
  private readonly mean: Float64Array;
  private readonly m2: Float64Array;
  constructor(dim: number) { this.mean = new Float64Array(dim); this.m2 = new Float64Array(dim); }
  add(x: Float64Array): void {
    this.n++;
    const mean = this.mean, m2 = this.m2;
    for (let i = 0; i < mean.length; i++) {
      const d = x[i]! - mean[i]!;
      mean[i] = mean[i]! + d / this.n;
      m2[i] = m2[i]! + (x[i]! - mean[i]!) * d;
    }
  }
  /** Writes the sample variances (n − 1 denominator) into `out` (unchanged when n < 2). */
  variance(out: Float64Array): void {
    if (this.n < 2) return;
    for (let i = 0; i < out.length; i++) out[i] = this.m2[i]! / (this.n - 1);
  }
  restart(): void { this.n = 0; this.mean.fill(0); this.m2.fill(0); }
  /** The state as plain data (copies), to resume exactly with `setState`. */
  state(): { n: number; mean: Float64Array; m2: Float64Array } { return { n: this.n, mean: this.mean.slice(), m2: this.m2.slice() }; }
  /** Restores a `state()` (of the same dimension). */
  setState(s: { readonly n: number; readonly mean: ArrayLike<number>; readonly m2: ArrayLike<number> }): void { this.n = s.n; this.mean.set(s.mean); this.m2.set(s.m2); }
}

/**
 * Welford's running mean and covariance of `dim` coordinates (row-major `dim × dim`), one draw
 * at a time (Stan's `welford_covar_estimator`), for a dense metric.
 * @example
 * const w = new WelfordCovariance(2);
 * for (const [a, b] of [[0, 0], [1, 2], [2, 4]]) w.add(Float64Array.of(a, b));
 * const c = new Float64Array(4);
 * w.covariance(c);   // c = [1, 2, 2, 4]
 */
export class WelfordCovariance {
  /** Draws added since the last restart. */
  n = 0;
  private readonly mean: Float64Array;
  private readonly m2: Float64Array;
  private readonly delta: Float64Array;
  constructor(private readonly dim: number) { this.mean = new Float64Array(dim); this.m2 = new Float64Array(dim * dim); this.delta = new Float64Array(dim); }
  add(x: Float64Array): void {
    this.n++;
    const n = this.dim, mean = this.mean, m2 = this.m2, d = this.delta;
    for (let i = 0; i < n; i++) { d[i] = x[i]! - mean[i]!; mean[i] = mean[i]! + d[i]! / this.n; }
    for (let i = 0; i < n; i++) { const a = x[i]! - mean[i]!; for (let j = 0; j < n; j++) m2[i * n + j] = m2[i * n + j]! + a * d[j]!; }
  }
  /** Writes the sample covariance (n − 1 denominator) into `out` (unchanged when n < 2). */
  covariance(out: Float64Array): void {
    if (this.n < 2) return;
    for (let k = 0; k < out.length; k++) out[k] = this.m2[k]! / (this.n - 1);
  }
  restart(): void { this.n = 0; this.mean.fill(0); this.m2.fill(0); }
  /** The state as plain data (copies), to resume exactly with `setState`. */
  state(): { n: number; mean: Float64Array; m2: Float64Array } { return { n: this.n, mean: this.mean.slice(), m2: this.m2.slice() }; }
  /** Restores a `state()` (of the same dimension). */
  setState(s: { readonly n: number; readonly mean: ArrayLike<number>; readonly m2: ArrayLike<number> }): void { this.n = s.n; this.mean.set(s.mean); this.m2.set(s.m2); }
}

/**
 * Adds a chunk of `m` ≥ 1 samples of one coordinate, `x[offset + k·stride]` for k < m, to running
 * moments that have seen `n` samples with mean `mean` and sum of squared residuals `ssr` (TFP's
 * `RunningVariance.update`, Pébay's formula): writes the new mean to `out[0]` and the new sum of
 * squared residuals to `out[1]`.
 * @example
 * const out = new Float64Array(2);
 * addChunk(out, 0, 0, 0, [1, 3], 0, 1, 2);   // out = [2, 2]: mean 2, squared residuals 1 + 1
 * addChunk(out, 2, 2, 2, [5], 0, 1, 1);      // out = [3, 8]: the samples 1, 3, 5
 */
export function addChunk(out: Float64Array, n: number, mean: number, ssr: number, x: ArrayLike<number>, offset: number, stride: number, m: number): void {
  const total = n + m;
  let cm = 0;
  for (let k = 0; k < m; k++) cm += x[offset + k * stride]!;
  cm /= m;
  let cs = 0;
  for (let k = 0; k < m; k++) { const d = x[offset + k * stride]! - cm; cs += d * d; }
  const delta = cm - mean;
  out[0] = mean + m * delta / total;
  out[1] = ssr + cs + n * m / total * delta * delta;
}
