/**
 * The two data-heavy GLMs of issue 33's benchmarks, as model modules (`model`, `pins`) with their
 * raw data for hand-written and Stan comparisons:
 *
 * - logistic regression, N = 5000 rows, D = 25 covariates simulated from a fixed-seed LCG (as
 *   bench/models/logistic-regression.ts, larger): β ~ Normal(0, 1) [D], α ~ Normal(0, 5),
 *   y ~ Bernoulli(logits = α + X·β);
 * - posteriordb's `diamonds` (brms' normal linear regression, N = 5000, 24 centred predictors):
 *   b ~ Normal(0, 1) [24], Intercept ~ StudentT(3, 8, 10), sigma ~ HalfStudentT(3, 0, 10),
 *   Y ~ Normal(Intercept + Xc·b, sigma) — Stan's `normal_id_glm_lpdf(Y | Xc, Intercept, b, sigma)`.
 *   Its data is read from the posteriordb mirror (`POSTERIORDB`, default
 *   /work/.mirror/stan-dev+posteriordb/repo: a bare git repository; `git show` and `unzip -p`).
 *
 * Both are written the way a user writes them; the compiler finds the GLM shape by itself.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bernoulli, HalfStudentT, Independent, JointDistributionNamed, Normal, Sample, StudentT } from '../../distributions/index.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { lcg, normal } from './logistic-regression.js';

/** Logistic regression data: X ~ N(0, 1) [N, D], true β_d = 0.5·(d mod 3 − 1) + 0.1, α = −0.3. */
export function logisticData(N = 5000, D = 25, seed = 20240607): { X: Float64Array; y: Float64Array; N: number; D: number } {
  const u = lcg(seed);
  const X = Float64Array.from({ length: N * D }, () => normal(u));
  const y = new Float64Array(N);
  for (let n = 0; n < N; n++) {
    let eta = -0.3;
    for (let d = 0; d < D; d++) eta += X[n * D + d]! * (0.5 * ((d % 3) - 1) + 0.1);
    y[n] = u() < 1 / (1 + Math.exp(-eta)) ? 1 : 0;
  }
  return { X, y, N, D };
}

/** The logistic regression model over `data` (y pinned in `pins`). */
export function logisticModel(data: { X: Float64Array; y: Float64Array; N: number; D: number }) {
  const Xt = new Tensor(data.X, [data.N, data.D], 'float64');
  const model = new JointDistributionNamed({
    beta: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: data.D }),
    alpha: new Normal({ loc: 0, scale: 5 }),
    y: (alpha: Tensor, beta: Tensor) => new Independent({
      distribution: new Bernoulli({ logits: add(alpha, matmul(Xt, beta)) }),
      reinterpretedBatchNdims: 1,
    }),
  }, { name: 'LogisticRegression5000' });
  return { model, pins: { y: new Tensor(data.y, [data.N], 'float64') } };
}

/** posteriordb's diamonds data, as Stan's transformed data makes it: Xc = X's columns 2..K centred. */
export function diamondsData(root = process.env.POSTERIORDB ?? '/work/.mirror/stan-dev+posteriordb/repo'): { Xc: Float64Array; Y: Float64Array; N: number; D: number; raw: string } {
  const zip = execFileSync('git', ['--git-dir', root, 'show', 'HEAD:posterior_database/data/data/diamonds.json.zip'], { maxBuffer: 1 << 26 });
  const dir = mkdtempSync(join(tmpdir(), 'stochax-diamonds-'));
  writeFileSync(join(dir, 'diamonds.json.zip'), zip);
  const raw = execFileSync('unzip', ['-p', join(dir, 'diamonds.json.zip')], { maxBuffer: 1 << 26 }).toString('utf8');
  rmSync(dir, { recursive: true });
  const d = JSON.parse(raw) as { N: number; K: number; Y: number[]; X: number[][] };
  const N = d.N, D = d.K - 1;
  const Xc = new Float64Array(N * D);
  for (let j = 1; j < d.K; j++) {
    let m = 0;
    for (let i = 0; i < N; i++) m += d.X[i]![j]!;
    m /= N;
    for (let i = 0; i < N; i++) Xc[i * D + j - 1] = d.X[i]![j]! - m;
  }
  return { Xc, Y: Float64Array.from(d.Y), N, D, raw };
}

/** The diamonds model (brms' priors) over `data` (Y pinned). */
export function diamondsModel(data: { Xc: Float64Array; Y: Float64Array; N: number; D: number }) {
  const Xt = new Tensor(data.Xc, [data.N, data.D], 'float64');
  const model = new JointDistributionNamed({
    b: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: data.D }),
    Intercept: new StudentT({ df: 3, loc: 8, scale: 10 }),
    sigma: new HalfStudentT({ df: 3, loc: 0, scale: 10 }),
    Y: (sigma: Tensor, Intercept: Tensor, b: Tensor) => new Independent({
      distribution: new Normal({ loc: add(Intercept, matmul(Xt, b)), scale: sigma }),
      reinterpretedBatchNdims: 1,
    }),
  }, { name: 'diamonds' });
  return { model, pins: { Y: new Tensor(data.Y, [data.N], 'float64') } };
}
