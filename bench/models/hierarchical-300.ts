/**
 * A hierarchical normal model with 300 groups (one observation each): μ ~ Normal(0, 5),
 * τ ~ HalfNormal(2), θ_g ~ Normal(μ, τ), y_g ~ Normal(θ_g, 1). 302 parameters: the shape of a
 * PyMC user's random-effects model, where the report plots the first 40 parameters (ArviZ's
 * plot.max_subplots) and draws.json and draws.csv print 1.2 M posterior values. Simulated
 * data (fixed seed: 1 + 2 z_g + ε_g).
 *
 * Run: stochax sample bench/models/hierarchical-300.ts   (bench/cli-outputs.ts times it)
 */
import { HalfNormal, Independent, JointDistributionNamed, Normal, Sample } from '../../distributions/index.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { lcg, normal } from './logistic-regression.js';

const G = 300;
const u = lcg(300);
const y = Float64Array.from({ length: G }, () => 1 + 2 * normal(u) + normal(u));

export const model = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 5 }),
  tau: new HalfNormal({ scale: 2 }),
  theta: (tau: Tensor, mu: Tensor) => new Sample({ distribution: new Normal({ loc: mu, scale: tau }), sampleShape: G }),
  y: (theta: Tensor) => new Independent({ distribution: new Normal({ loc: theta, scale: 1 }), reinterpretedBatchNdims: 1 }),
}, { name: 'Hierarchical300' });
export const pins = { y: new Tensor(y, [G], 'float64') };
