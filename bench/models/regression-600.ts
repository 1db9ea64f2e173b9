/**
 * A normal linear regression with 600 observations and 3 predictors (simulated, fixed seed): the
 * size of model whose CLI outputs (600 replicated and 600 log-likelihood values per draw) the
 * first-hour report found slow. A `stochax sample` module; bench/cli-outputs.ts runs it.
 */
import { HalfNormal, Independent, JointDistributionNamed, Normal, Sample } from '../../distributions/index.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { lcg, normal } from './logistic-regression.js';

const N = 600, D = 3;
const u = lcg(600);
const X = Float64Array.from({ length: N * D }, () => normal(u));
const y = Float64Array.from({ length: N }, (_, n) => 1 + 0.5 * X[n * D]! - 0.3 * X[n * D + 1]! + 0.8 * normal(u));
const x = new Tensor(X, [N, D], 'float64');

export const model = new JointDistributionNamed({
  alpha: new Normal({ loc: 0, scale: 5 }),
  beta: new Sample({ distribution: new Normal({ loc: 0, scale: 2 }), sampleShape: D }),
  sigma: new HalfNormal({ scale: 2 }),
  y: (alpha: Tensor, beta: Tensor, sigma: Tensor) => new Independent({
    distribution: new Normal({ loc: add(alpha, matmul(x, beta)), scale: sigma }),
    reinterpretedBatchNdims: 1,
  }),
}, { name: 'Regression600' });
export const pins = { y: new Tensor(y, [N], 'float64') };
