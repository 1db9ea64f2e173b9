// advi against rstan's vb in distribution over seeds: shared by advi.test.ts (20 seeds) and
// advi.slow.test.ts (40 seeds, more statistics).
import { readFileSync } from 'node:fs';
import type { Tensor } from '../../src/tensor/tensor.js';
import { advi } from '../../optimize/index.js';
import { scipyLogistic } from './models.js';

interface StanRun { seed: number; eta: number; iterations: number; reason: string; mean: number[]; sd: number[]; paretoK: number; gradientEvaluations: number; seconds: number }
const rstan = JSON.parse(readFileSync(new URL('../fixtures/optimize/rstan-vb.json', import.meta.url), 'utf8')) as Record<'meanfield' | 'fullrank', StanRun[]>;

/** Mean and sample standard deviation. */
function meanSd(a: readonly number[]): [number, number] {
  const m = a.reduce((s, v) => s + v, 0) / a.length;
  return [m, Math.sqrt(a.reduce((s, v) => s + (v - m) ** 2, 0) / (a.length - 1))];
}

/**
 * Against rstan's vb (test/fixtures/optimize/rstan_vb.R: 40 seeds per algorithm at Stan's
 * defaults) on the logistic regression. One ADVI run is one random answer (its mean μ varies by
 * ~0.07 between seeds, far more than its draws' MCSE of sd/√1000 ≈ 0.01, so comparing one run's
 * draws with one rstan run's would fail for a correct implementation). The honest comparison is
 * of the two distributions of the answer: the average of μ over K of our seeds against the
 * average over rstan's 40, within 3 standard errors of the difference, √(s²_ours/K + s²_stan/40)
 * (both sample sds over seeds). Returns z for each parameter's mean and draws' sd, the iterations
 * and Pareto k̂, per algorithm. advi.test.ts uses K = 20 and the means (false-failure rate: Welch t
 * with ~40 df beyond 3, ≈ 0.5% per comparison, ≈ 4% for its 8, for a random choice of seeds; the
 * seeds are fixed, 1–K); advi.slow.test.ts uses K = 40 and all 20.
 */
export function compareWithRstan(K: number) {
  const s = scipyLogistic();
  const out: { algorithm: string; j: number; z: number; what: string }[] = [];
  for (const algorithm of ['meanfield', 'fullrank'] as const) {
    const mus: number[][] = [], sds: number[][] = [], iters: number[] = [], ks: number[] = [];
    for (let seed = 1; seed <= K; seed++) {
      const fit = advi(s.model, { pins: s.pins, seed, algorithm });
      mus.push([(fit.mean.alpha as Tensor).item() as number, ...((fit.mean.beta as Tensor).data as Float64Array)]);
      const a = fit.draws.alpha as Tensor, b = fit.draws.beta as Tensor;
      const col = (j: number) => Array.from({ length: a.shape[0]! }, (_, r) => (j === 0 ? (a.data as Float64Array)[r]! : (b.data as Float64Array)[r * 3 + j - 1]!));
      sds.push([0, 1, 2, 3].map((j) => meanSd(col(j))[1]));
      iters.push(fit.iterations); ks.push(fit.paretoK);
    }
    const ref = rstan[algorithm];
    const z = (ours: number[], theirs: number[]) => {
      const [mo, so] = meanSd(ours), [mt, st] = meanSd(theirs);
      return (mo - mt) / Math.sqrt(so ** 2 / ours.length + st ** 2 / theirs.length);
    };
    for (let j = 0; j < 4; j++) {
      out.push({ algorithm, j, what: 'mean', z: z(mus.map((r) => r[j]!), ref.map((r) => r.mean[j]!)) });
      out.push({ algorithm, j, what: 'sd', z: z(sds.map((r) => r[j]!), ref.map((r) => r.sd[j]!)) });
    }
    out.push({ algorithm, j: -1, what: 'iterations', z: z(iters, ref.map((r) => r.iterations)) });
    out.push({ algorithm, j: -1, what: 'paretoK', z: z(ks, ref.map((r) => r.paretoK)) });
  }
  return out;
}
