/**
 * Hand-written value-and-gradient functions for the models of bench/compiled-models.ts: plain
 * JavaScript over Float64Arrays (Math.exp, Math.log, Math.log1p; no tensors, no `**`), in the
 * same unconstrained coordinates as `compileLogDensity` — the layout given by its `params`
 * (name, offset), the default event-space bijector's log-Jacobian included. They are the floor
 * the compiled densities are measured against; bench/compiled-models.ts checks at start-up that
 * each agrees with the compiled density (value and gradient, 1e-10 relative).
 *
 * Every function has the signature of `CompiledLogDensity.logDensityGradient`: it returns
 * log p and writes ∂ log p / ∂x into `grad`.
 */

/** Offsets of named nodes in the unconstrained vector, from `compileLogDensity(...).params`. */
export type Layout = readonly { readonly name: string; readonly offset: number; readonly size: number }[];

/** A value-and-gradient function over unconstrained coordinates. */
export type ValueAndGrad = (x: Float64Array, grad: Float64Array) => number;

const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

function offsetOf(layout: Layout, name: string, size: number): number {
  const p = layout.find((q) => q.name === name);
  if (p === undefined || p.size !== size) throw new Error(`hand-written: the layout has no node \`${name}\` of size ${size}`);
  return p.offset;
}

/**
 * Eight schools, non-centered, with y pinned; unconstrained x = (θ̃ [J], u, μ) in `layout`'s
 * order, τ = exp(u) (HalfCauchy(0, 5)'s default bijector is Shift(0)∘Exp, log-Jacobian u):
 *
 *   log p = log N(μ | 0, 5) + log HalfCauchy(τ | 0, 5) + u
 *         + Σ_j log N(θ̃_j | 0, 1) + Σ_j log N(y_j | μ + τ θ̃_j, σ_j)
 *
 * with log N(v | m, s) = −½((v − m)/s)² − log s − ½ log 2π and
 * log HalfCauchy(t | 0, s) = log 2 − log π − log s − log(1 + (t/s)²). With r_j = (y_j − μ − τθ̃_j)/σ_j:
 *
 *   ∂/∂μ  = −μ/25 + Σ_j r_j/σ_j
 *   ∂/∂θ̃_j = −θ̃_j + τ r_j/σ_j
 *   ∂/∂u  = τ (−2τ/(25 + τ²) + Σ_j θ̃_j r_j/σ_j) + 1
 */
export function eightSchoolsNonCentered(layout: Layout, y: ArrayLike<number>, sigma: ArrayLike<number>): ValueAndGrad {
  const J = y.length;
  const yv = Float64Array.from(y), sv = Float64Array.from(sigma);
  const iTheta = offsetOf(layout, 'thetaTilde', J), iTau = offsetOf(layout, 'tau', 1), iMu = offsetOf(layout, 'mu', 1);
  let constant = -HALF_LOG_2PI - Math.log(5)                        // μ's normalizer
    + Math.log(2) - Math.log(Math.PI) - Math.log(5)                  // τ's
    - J * HALF_LOG_2PI;                                              // θ̃'s
  for (let j = 0; j < J; j++) constant += -Math.log(sv[j]!) - HALF_LOG_2PI;   // y's
  return (x, grad) => {
    const mu = x[iMu]!, u = x[iTau]!, tau = Math.exp(u);
    let lp = constant - 0.5 * (mu / 5) * (mu / 5) - Math.log(1 + (tau / 5) * (tau / 5)) + u;
    let gMu = -mu / 25, gTau = 0;
    for (let j = 0; j < J; j++) {
      const t = x[iTheta + j]!, s = sv[j]!;
      const r = (yv[j]! - mu - tau * t) / s;
      lp -= 0.5 * (t * t + r * r);
      gMu += r / s;
      gTau += t * r / s;
      grad[iTheta + j] = -t + tau * r / s;
    }
    grad[iMu] = gMu;
    grad[iTau] = tau * (gTau - 2 * tau / (25 + tau * tau)) + 1;
    return lp;
  };
}

/**
 * Logistic regression with y pinned; unconstrained x = (β [D], α) in `layout`'s order (both
 * real, identity bijectors):
 *
 *   η_n = α + Σ_d X_nd β_d
 *   log p = Σ_d log N(β_d | 0, 1) + log N(α | 0, 5) + Σ_n (y_n η_n − softplus(η_n))
 *
 * with softplus(η) = log(1 + e^η) evaluated stably (η + log1p(e^−η) for η > 0). With
 * r_n = y_n − sigmoid(η_n):
 *
 *   ∂/∂β_d = −β_d + Σ_n r_n X_nd
 *   ∂/∂α   = −α/25 + Σ_n r_n
 *
 * `X` is row-major [N, D].
 */
export function logisticRegression(layout: Layout, X: Float64Array, y: ArrayLike<number>, D: number): ValueAndGrad {
  const N = y.length;
  if (X.length !== N * D) throw new Error(`hand-written: X has ${X.length} values, not N·D = ${N * D}`);
  const yv = Float64Array.from(y);
  const iBeta = offsetOf(layout, 'beta', D), iAlpha = offsetOf(layout, 'alpha', 1);
  const constant = -D * HALF_LOG_2PI - HALF_LOG_2PI - Math.log(5);
  return (x, grad) => {
    const alpha = x[iAlpha]!;
    let lp = constant - 0.5 * (alpha / 5) * (alpha / 5);
    for (let d = 0; d < D; d++) { const b = x[iBeta + d]!; lp -= 0.5 * b * b; grad[iBeta + d] = -b; }
    let gAlpha = -alpha / 25;
    for (let n = 0, row = 0; n < N; n++, row += D) {
      let eta = alpha;
      for (let d = 0; d < D; d++) eta += X[row + d]! * x[iBeta + d]!;
      let softplus, sigmoid;
      if (eta > 0) { const e = Math.exp(-eta); softplus = eta + Math.log1p(e); sigmoid = 1 / (1 + e); }
      else { const e = Math.exp(eta); softplus = Math.log1p(e); sigmoid = e / (1 + e); }
      const yn = yv[n]!;
      lp += yn * eta - softplus;
      const r = yn - sigmoid;
      gAlpha += r;
      for (let d = 0; d < D; d++) grad[iBeta + d] += r * X[row + d]!;
    }
    grad[iAlpha] = gAlpha;
    return lp;
  };
}

/**
 * posteriordb's diamonds (bench/models/glm.ts), up to an additive constant (the Student-t
 * normalisers): unconstrained x = (b [D], Intercept, u) in `layout`'s order, σ = exp(u)
 * (HalfStudentT's default bijector Shift(0)∘Exp, log-Jacobian u), ν = 3, s = 10:
 *
 *   log p = Σ_j −½ b_j² − ((ν + 1)/2)·log1p(((I − 8)/s)²/ν) − ((ν + 1)/2)·log1p((σ/s)²/ν) + u
 *         + Σ_i (−½ z_i² − log σ − ½ log 2π),   z_i = (Y_i − I − Xc_i·b)/σ
 *
 *   ∂/∂b_j = −b_j + Σ_i Xc_ij z_i/σ,   ∂/∂I = −(ν + 1)t/(s(ν + t²)) + Σ_i z_i/σ (t = (I − 8)/s),
 *   ∂/∂u = σ·(−(ν + 1)τ/(s(ν + τ²)) + Σ_i (z_i² − 1)/σ) + 1 (τ = σ/s).
 */
export function diamonds(layout: Layout, Xc: Float64Array, Y: ArrayLike<number>, D: number): ValueAndGrad {
  const N = Y.length, nu = 3, s = 10;
  if (Xc.length !== N * D) throw new Error(`hand-written: Xc has ${Xc.length} values, not N·D = ${N * D}`);
  const yv = Float64Array.from(Y);
  const iB = offsetOf(layout, 'b', D), iI = offsetOf(layout, 'Intercept', 1), iU = offsetOf(layout, 'sigma', 1);
  return (x, grad) => {
    const I = x[iI]!, u = x[iU]!, sigma = Math.exp(u), inv = 1 / sigma;
    const t = (I - 8) / s, tau = sigma / s;
    let lp = -((nu + 1) / 2) * Math.log1p(t * t / nu) - ((nu + 1) / 2) * Math.log1p(tau * tau / nu) + u;
    for (let d = 0; d < D; d++) { const b = x[iB + d]!; lp -= 0.5 * b * b; grad[iB + d] = -b; }
    let gI = 0, zz = 0;
    for (let n = 0, row = 0; n < N; n++, row += D) {
      let eta = I;
      for (let d = 0; d < D; d++) eta += Xc[row + d]! * x[iB + d]!;
      const z = (yv[n]! - eta) * inv, r = z * inv;
      zz += z * z;
      gI += r;
      for (let d = 0; d < D; d++) grad[iB + d] += r * Xc[row + d]!;
    }
    lp += -0.5 * zz - N * (Math.log(sigma) + HALF_LOG_2PI);
    grad[iI] = gI - (nu + 1) * t / (s * (nu + t * t));
    grad[iU] = sigma * (-(nu + 1) * tau / (s * (nu + tau * tau)) + (zz - N) * inv) + 1;
    return lp;
  };
}
