/**
 * The simulated logistic regression of the benchmarks (N = 1000 rows, D = 10 covariates from a
 * fixed-seed LCG), as a model module: `model` and `pins` (`stochax sample` and
 * `windowedAdaptiveNutsChains` read it), and the raw data for hand-written comparisons:
 *
 *   β ~ Normal(0, 1) [D], α ~ Normal(0, 5), y ~ Bernoulli(logits = α + X·β).
 */
import { Bernoulli, Independent, JointDistributionNamed, Normal, Sample } from '../../distributions/index.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { Tensor } from '../../src/tensor/tensor.js';

/** A tiny LCG (Numerical Recipes' constants) for reproducible simulated data. */
export function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s + 0.5) / 4294967296; };
}
/** Standard normals by Box–Muller over `u`. */
export const normal = (u: () => number) => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());

// Logistic regression data: X ~ N(0, 1) [N, D], true β_d = 0.5·(d mod 3 − 1) + 0.1, α = −0.3.
export const N = 1000, D = 10;
const u = lcg(20240607);
export const X = Float64Array.from({ length: N * D }, () => normal(u));
export const yReg = new Float64Array(N);
for (let n = 0; n < N; n++) {
  let eta = -0.3;
  for (let d = 0; d < D; d++) eta += X[n * D + d]! * (0.5 * ((d % 3) - 1) + 0.1);
  yReg[n] = u() < 1 / (1 + Math.exp(-eta)) ? 1 : 0;
}
const Xt = new Tensor(X, [N, D], 'float64');
export const model = new JointDistributionNamed({
  beta: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: D }),
  alpha: new Normal({ loc: 0, scale: 5 }),
  y: (alpha: Tensor, beta: Tensor) => new Independent({
    distribution: new Bernoulli({ logits: add(alpha, matmul(Xt, beta)) }),   // [N, D]·[D] → [N]
    reinterpretedBatchNdims: 1,
  }),
}, { name: 'LogisticRegression' });

export const pins = { y: new Tensor(yReg, [N], 'float64') };
