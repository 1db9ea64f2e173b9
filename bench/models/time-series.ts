/**
 * The two time-series models of issue 33's ESS/s comparison with Stan, posteriordb's `arma11` and
 * `garch11` programs (bench/stan/arma11.stan, bench/stan/garch11.stan: the same programs in rstan
 * 2.21's syntax) over T = 1000 simulated steps, written as a stochax user writes them: the
 * recursion step by step in scalar tensor ops, as the Stan program's loop.
 *
 * - ARMA(1,1): ν_1 = μ + φ·μ, ν_t = μ + φ·y_{t−1} + θ·ε_{t−1}, ε_t = y_t − ν_t, ε ~ Normal(0, σ);
 *   μ ~ Normal(0, 10), φ, θ ~ Normal(0, 2), σ ~ HalfCauchy(0, 2.5).
 *   Stan's `err ~ normal(0, sigma)` is written y ~ Normal(ν, σ): the same density (ε = y − ν).
 * - GARCH(1,1): σ_1 given, σ_t = √(α0 + α1·(y_{t−1} − μ)² + β1·σ_{t−1}²), y ~ Normal(μ, σ);
 *   Stan's implicit flat priors: μ on ℝ, α0 on (0, ∞), (α1, β1) uniform on the triangle
 *   α1 ∈ (0, 1), β1 ∈ (0, 1 − α1) — written α1 ~ Beta(1, 2) (the triangle's marginal) and
 *   β1 | α1 ~ Uniform(0, 1 − α1), the same density up to a constant and the same unconstrained
 *   space (Stan's logit transforms).
 *
 * Data: simulated from the models with a fixed-seed LCG (`armaData`, `garchData`), saved for R by
 * `npx tsx bench/time-series-ess.ts --write-data` (bench/stan/data/).
 */
import { Beta, HalfCauchy, ImproperUniform, Independent, JointDistributionNamed, Normal, Uniform } from '../../distributions/index.js';
import { add, mul, sqrt, square, stack, sub, tensor, type Tensor } from '../../src/index.js';
import { lcg, normal } from './logistic-regression.js';

export const T = 1000;

/** ARMA(1,1) data: μ = 1, φ = 0.6, θ = 0.3, σ = 0.5 (ε_0 = 0, y_0 = μ as the model assumes). */
export function armaData(n = T, seed = 20261202): { T: number; y: number[] } {
  const u = lcg(seed);
  const mu = 1, phi = 0.6, theta = 0.3, sigma = 0.5;
  const y: number[] = [];
  let prevY = mu, prevErr = 0;
  for (let t = 0; t < n; t++) {
    const err = sigma * normal(u);
    const yt = mu + phi * prevY + theta * prevErr + err;
    y.push(yt); prevY = yt; prevErr = err;
  }
  return { T: n, y };
}

/** GARCH(1,1) data: μ = 0.1, α0 = 0.2, α1 = 0.3, β1 = 0.5, σ_1 = 1 (the stationary sd). */
export function garchData(n = T, seed = 20261203): { T: number; y: number[]; sigma1: number } {
  const u = lcg(seed);
  const mu = 0.1, alpha0 = 0.2, alpha1 = 0.3, beta1 = 0.5, sigma1 = 1;
  const y: number[] = [];
  let s = sigma1;
  for (let t = 0; t < n; t++) {
    if (t > 0) s = Math.sqrt(alpha0 + alpha1 * (y[t - 1]! - mu) ** 2 + beta1 * s * s);
    y.push(mu + s * normal(u));
  }
  return { T: n, y, sigma1 };
}

/** posteriordb's arma11, step by step. */
export function armaModel(data: { y: readonly number[] }) {
  const y = data.y;
  const model = new JointDistributionNamed({
    mu: new Normal({ loc: 0, scale: 10 }),
    phi: new Normal({ loc: 0, scale: 2 }),
    theta: new Normal({ loc: 0, scale: 2 }),
    sigma: new HalfCauchy({ loc: 0, scale: 2.5 }),
    y: (mu: Tensor, phi: Tensor, theta: Tensor, sigma: Tensor) => {
      let nu = add(mu, mul(phi, mu));
      let err = sub(y[0]!, nu);
      const nus = [nu];
      for (let t = 1; t < y.length; t++) {
        nu = add(add(mu, mul(phi, y[t - 1]!)), mul(theta, err));
        err = sub(y[t]!, nu);
        nus.push(nu);
      }
      return new Independent({ distribution: new Normal({ loc: stack(nus), scale: sigma }), reinterpretedBatchNdims: 1 });
    },
  }, { name: 'arma11' });
  return { model, pins: { y: Float64Array.from(y) } };
}

/** posteriordb's garch11, step by step. */
export function garchModel(data: { y: readonly number[]; sigma1: number }) {
  const { y, sigma1 } = data;
  const model = new JointDistributionNamed({
    mu: new ImproperUniform(),
    alpha0: new ImproperUniform({ low: 0 }),
    alpha1: new Beta({ concentration1: 1, concentration0: 2 }),
    beta1: (alpha1: Tensor) => new Uniform({ low: 0, high: sub(1, alpha1) }),
    y: (mu: Tensor, alpha0: Tensor, alpha1: Tensor, beta1: Tensor) => {
      let sigma = tensor(sigma1);
      const sigmas = [sigma];
      for (let t = 1; t < y.length; t++) {
        sigma = sqrt(add(add(alpha0, mul(alpha1, square(sub(y[t - 1]!, mu)))), mul(beta1, square(sigma))));
        sigmas.push(sigma);
      }
      return new Independent({ distribution: new Normal({ loc: mu, scale: stack(sigmas) }), reinterpretedBatchNdims: 1 });
    },
  }, { name: 'garch11' });
  return { model, pins: { y: Float64Array.from(y) } };
}
