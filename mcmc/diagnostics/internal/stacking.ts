/**
 * Stacking weights of predictive distributions (Yao, Vehtari, Simpson and Gelman 2018): the
 * point w of the simplex maximising Σᵢ log Σₖ wₖ exp(elpdᵢₖ), where elpdᵢₖ is model k's
 * leave-one-out log predictive density of observation i.
 *
 * The objective is concave, so the optimum is found to rounding: a few hundred EM
 * (multiplicative) updates wₖ ← wₖ·gₖ/n, which stay on the simplex and find the support, then
 * Newton steps on the free weights under Σ wₖ = 1 with an active set (a weight that reaches 0
 * leaves the set; one whose gradient exceeds the multiplier comes back), until the step is at
 * rounding level. (ArviZ runs SciPy's SLSQP at its default tolerance, ftol = 1e-6 on the
 * objective, so its weights agree with these to about 1e-5, not to rounding.)
 */
import { detExp, detLog } from '../../../src/math/index.js';

/** Row-major `[n, K]` pointwise elpds → the K stacking weights. */
export function stackingWeights(elpd: Float64Array, n: number, K: number): Float64Array {
  if (K === 1) return Float64Array.of(1);
  // e_ik = exp(elpd_ik − max_k elpd_ik): the objective shifts by a constant, the argmax does not
  const e = new Float64Array(n * K);
  for (let i = 0; i < n; i++) {
    let m = -Infinity;
    for (let k = 0; k < K; k++) m = Math.max(m, elpd[i * K + k]!);
    for (let k = 0; k < K; k++) e[i * K + k] = detExp(elpd[i * K + k]! - m);
  }
  const d = new Float64Array(n);
  const g = new Float64Array(K);
  const mix = (w: Float64Array): number => {
    let f = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += w[k]! * e[i * K + k]!;
      d[i] = s;
      f += detLog(s);
    }
    return f;
  };
  const gradient = (w: Float64Array): void => {
    mix(w);
    g.fill(0);
    for (let i = 0; i < n; i++) for (let k = 0; k < K; k++) g[k] = g[k]! + e[i * K + k]! / d[i]!;
  };

  let w = new Float64Array(K).fill(1 / K);
  for (let it = 0; it < 500; it++) {
    gradient(w);
    let change = 0, sum = 0;
    const next = new Float64Array(K);
    for (let k = 0; k < K; k++) { next[k] = (w[k]! * g[k]!) / n; sum += next[k]!; }
    for (let k = 0; k < K; k++) { next[k] = next[k]! / sum; change = Math.max(change, Math.abs(next[k]! - w[k]!)); }
    w = next;
    if (change < 1e-13) break;
  }

  const free = new Set<number>();
  for (let k = 0; k < K; k++) if (w[k]! > 1e-9) free.add(k); else w[k] = 0;
  normalize(w);
  for (let outer = 0; outer < 4 * K + 10; outer++) {
    let converged = false;
    for (let it = 0; it < 100 && !converged; it++) {
      gradient(w);
      const idx = [...free].sort((a, b) => a - b);
      const dw = newtonStep(e, d, g, n, K, idx);
      // a weight at 0 that the step would push negative leaves the free set
      const blocked = idx.filter((k, j) => w[k] === 0 && dw[j]! < 0);
      if (blocked.length > 0) { for (const k of blocked) free.delete(k); continue; }
      let alpha = 1, hit = -1;
      idx.forEach((k, j) => { if (dw[j]! < 0 && -w[k]! / dw[j]! < alpha) { alpha = -w[k]! / dw[j]!; hit = k; } });
      const f0 = mix(w);
      const trial = new Float64Array(K);
      for (let halvings = 0; ; halvings++) {
        trial.set(w);
        idx.forEach((k, j) => { trial[k] = Math.max(0, w[k]! + alpha * dw[j]!); });
        if (hit >= 0 && alpha === -w[hit]! / dw[idx.indexOf(hit)]!) trial[hit] = 0;
        normalize(trial);
        if (mix(trial) >= f0 - 1e-15 * Math.abs(f0) || halvings > 60) break;
        alpha /= 2;
        hit = -1;
      }
      let step = 0;
      for (let k = 0; k < K; k++) step = Math.max(step, Math.abs(trial[k]! - w[k]!));
      w = trial;
      for (const k of idx) if (w[k] === 0) free.delete(k);
      converged = step <= 4 * Number.EPSILON;
    }
    // KKT: a weight at 0 must not have a gradient above the multiplier (n at the optimum)
    gradient(w);
    let back = -1, worst = n * (1 + 1e-12);
    for (let k = 0; k < K; k++) if (!free.has(k) && g[k]! > worst) { worst = g[k]!; back = k; }
    if (back < 0) break;
    free.add(back);
  }
  return w;
}

function normalize(w: Float64Array): void {
  let s = 0;
  for (let k = 0; k < w.length; k++) s += w[k]!;
  for (let k = 0; k < w.length; k++) w[k] = w[k]! / s;
}

/**
 * The Newton direction on the free weights `idx` under Σ dw = 0: solves
 * [H 1; 1ᵀ 0]·[dw; λ] = [−g; 0] with H = −Σᵢ eᵢeᵢᵀ/dᵢ² (the Hessian of the objective), by
 * Gaussian elimination with partial pivoting (a tiny ridge keeps duplicate models solvable).
 */
function newtonStep(e: Float64Array, d: Float64Array, g: Float64Array, n: number, K: number, idx: readonly number[]): Float64Array {
  const m = idx.length;
  const size = m + 1;
  const a = new Float64Array(size * size);
  const rhs = new Float64Array(size);
  let scale = 0;
  for (let p = 0; p < m; p++) {
    for (let q = p; q < m; q++) {
      let h = 0;
      for (let i = 0; i < n; i++) h -= (e[i * K + idx[p]!]! * e[i * K + idx[q]!]!) / (d[i]! * d[i]!);
      a[p * size + q] = h;
      a[q * size + p] = h;
    }
    scale = Math.max(scale, Math.abs(a[p * size + p]!));
    a[p * size + m] = 1;
    a[m * size + p] = 1;
    rhs[p] = -g[idx[p]!]!;
  }
  for (let p = 0; p < m; p++) a[p * size + p] = a[p * size + p]! - 1e-14 * scale;
  // elimination with partial pivoting
  for (let col = 0; col < size; col++) {
    let piv = col;
    for (let r = col + 1; r < size; r++) if (Math.abs(a[r * size + col]!) > Math.abs(a[piv * size + col]!)) piv = r;
    if (piv !== col) {
      for (let c = 0; c < size; c++) { const t = a[col * size + c]!; a[col * size + c] = a[piv * size + c]!; a[piv * size + c] = t; }
      const t = rhs[col]!; rhs[col] = rhs[piv]!; rhs[piv] = t;
    }
    const p = a[col * size + col]!;
    if (p === 0) continue;
    for (let r = col + 1; r < size; r++) {
      const f = a[r * size + col]! / p;
      if (f === 0) continue;
      for (let c = col; c < size; c++) a[r * size + c] = a[r * size + c]! - f * a[col * size + c]!;
      rhs[r] = rhs[r]! - f * rhs[col]!;
    }
  }
  const x = new Float64Array(size);
  for (let r = size - 1; r >= 0; r--) {
    let s = rhs[r]!;
    for (let c = r + 1; c < size; c++) s -= a[r * size + c]! * x[c]!;
    const p = a[r * size + r]!;
    x[r] = p === 0 ? 0 : s / p;
  }
  return x.subarray(0, m);
}
