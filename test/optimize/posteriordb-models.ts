// posteriordb posteriors written in stochax for test/optimize (Pathfinder): each Stan program as a
// JointDistributionNamed, with its data and reference (mean, sd, MCSE of the mean per parameter)
// read from test/fixtures/posteriordb/<name>.json, made by extract.mjs beside it:
//   node test/fixtures/posteriordb/extract.mjs /tmp/posteriordb arK-arK > test/fixtures/posteriordb/arK.json
//   (kidiq-kidscore_momiq → kidiq_kidscore_momiq.json, mesquite-logmesquite → mesquite_logmesquite.json,
//    eight_schools-eight_schools_noncentered → eight_schools_noncentered.json)
import { readFileSync } from 'node:fs';
import { HalfCauchy, ImproperUniform, Independent, JointDistributionNamed, Normal, Sample } from '../../distributions/index.js';
import type { PartialValues } from '../../distributions/joint/values.js';
import { add, mul } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { Tensor } from '../../src/tensor/tensor.js';

export interface Reference { readonly mean: number; readonly sd: number; readonly mcseMean: number }
interface Fixture { readonly data: Record<string, unknown>; readonly reference: Record<string, Reference> }

function fixture(name: string): Fixture {
  return JSON.parse(readFileSync(new URL(`../fixtures/posteriordb/${name}.json`, import.meta.url), 'utf8')) as Fixture;
}

/** A [rows, cols] float64 tensor from its rows. */
function matrix(rows: readonly (readonly number[])[]): Tensor {
  return new Tensor(Float64Array.from(rows.flat()), [rows.length, rows[0]!.length], 'float64');
}

/** A test case: the model, its pins, the reference, and which node and element each reference name is. */
export interface PosteriordbCase {
  readonly name: string;
  readonly model: JointDistributionNamed;
  readonly pins: PartialValues;
  readonly reference: Record<string, Reference>;
  /** Reference name → [node, element index in the node's flattened event (0 for a scalar)]. */
  readonly params: Record<string, readonly [string, number]>;
}

/** Stan's `array[K] real beta` names: `beta[1]` … `beta[K]`. */
function vectorParams(node: string, k: number): Record<string, readonly [string, number]> {
  return Object.fromEntries(Array.from({ length: k }, (_, i) => [`${node}[${i + 1}]`, [node, i] as const]));
}

/** arK: an AR(5) model, alpha, beta[k] ~ N(0, 10), sigma ~ half-Cauchy(0, 2.5), y[t] ~ N(alpha + Σ beta[k]·y[t−k], sigma). */
export function arK(): PosteriordbCase {
  const f = fixture('arK');
  const K = f.data.K as number, y = f.data.y as number[], T = y.length;
  const X = matrix(Array.from({ length: T - K }, (_, r) => Array.from({ length: K }, (_, k) => y[r + K - k - 1]!)));
  const model = new JointDistributionNamed({
    alpha: new Normal({ loc: 0, scale: 10 }),
    beta: new Sample({ distribution: new Normal({ loc: 0, scale: 10 }), sampleShape: [K] }),
    sigma: new HalfCauchy({ loc: 0, scale: 2.5 }),
    y: ({ alpha, beta, sigma }: { alpha: Tensor; beta: Tensor; sigma: Tensor }) =>
      new Independent({ distribution: new Normal({ loc: add(matmul(X, beta), alpha), scale: sigma }), reinterpretedBatchNdims: 1 }),
  }, { name: 'arK' });
  return { name: 'arK-arK', model: model as never, pins: { y: y.slice(K) } as PartialValues, reference: f.reference, params: { alpha: ['alpha', 0], ...vectorParams('beta', K), sigma: ['sigma', 0] } };
}

/** kidiq_momiq: flat beta[2], sigma ~ half-Cauchy(0, 2.5), kid_score ~ N(beta[1] + beta[2]·mom_iq, sigma). */
export function kidiqMomiq(): PosteriordbCase {
  const f = fixture('kidiq_kidscore_momiq');
  const iq = f.data.mom_iq as number[], score = f.data.kid_score as number[];
  const X = matrix(iq.map((v) => [1, v]));
  const model = new JointDistributionNamed({
    beta: new ImproperUniform({ eventShape: [2] }),
    sigma: new HalfCauchy({ loc: 0, scale: 2.5 }),
    kidScore: ({ beta, sigma }: { beta: Tensor; sigma: Tensor }) =>
      new Independent({ distribution: new Normal({ loc: matmul(X, beta), scale: sigma }), reinterpretedBatchNdims: 1 }),
  }, { name: 'kidscore_momiq' });
  return { name: 'kidiq-kidscore_momiq', model: model as never, pins: { kidScore: score } as PartialValues, reference: f.reference, params: { ...vectorParams('beta', 2), sigma: ['sigma', 0] } };
}

/** logmesquite: flat beta[7] and sigma > 0, log weight ~ N(X·beta, sigma) on the log predictors and group. */
export function logmesquite(): PosteriordbCase {
  const f = fixture('mesquite_logmesquite');
  const d = f.data as Record<string, number[]>;
  const X = matrix(d.weight!.map((_, i) => [1, Math.log(d.diam1![i]!), Math.log(d.diam2![i]!), Math.log(d.canopy_height![i]!), Math.log(d.total_height![i]!), Math.log(d.density![i]!), d.group![i]!]));
  const model = new JointDistributionNamed({
    beta: new ImproperUniform({ eventShape: [7] }),
    sigma: new ImproperUniform({ low: 0 }),
    logWeight: ({ beta, sigma }: { beta: Tensor; sigma: Tensor }) =>
      new Independent({ distribution: new Normal({ loc: matmul(X, beta), scale: sigma }), reinterpretedBatchNdims: 1 }),
  }, { name: 'logmesquite' });
  return { name: 'mesquite-logmesquite', model: model as never, pins: { logWeight: d.weight!.map(Math.log) } as PartialValues, reference: f.reference, params: { ...vectorParams('beta', 7), sigma: ['sigma', 0] } };
}

/** eight_schools_noncentered: theta_trans ~ N(0, 1) [8], mu ~ N(0, 5), tau ~ half-Cauchy(0, 5), y ~ N(mu + tau·theta_trans, sigma). */
export function eightSchoolsNoncentered(): PosteriordbCase {
  const f = fixture('eight_schools_noncentered');
  const sigma = f.data.sigma as number[];
  const model = new JointDistributionNamed({
    mu: new Normal({ loc: 0, scale: 5 }),
    tau: new HalfCauchy({ loc: 0, scale: 5 }),
    thetaTrans: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: [8] }),
    y: ({ mu, tau, thetaTrans }: { mu: Tensor; tau: Tensor; thetaTrans: Tensor }) =>
      new Independent({ distribution: new Normal({ loc: add(mu, mul(tau, thetaTrans)), scale: new Tensor(Float64Array.from(sigma), [8], 'float64') }), reinterpretedBatchNdims: 1 }),
  }, { name: 'eight_schools_noncentered' });
  // theta = mu + tau·theta_trans is derived: the tests compare mu and tau (the reference has no theta_trans).
  return { name: 'eight_schools-eight_schools_noncentered', model: model as never, pins: { y: f.data.y } as PartialValues, reference: f.reference, params: { mu: ['mu', 0], tau: ['tau', 0] } };
}
