// GP regression with amplitude and length-scale hyperpriors, and its posterior means by quadrature
// on a grid: shared by gaussian-process.test.ts (short NUTS run) and gaussian-process.slow.test.ts.
import { GaussianProcess, HalfNormal, InverseGamma, JointDistributionNamed, psdKernels } from '../../distributions/index.js';
import { add, exp, logsumexp, sub, tensor, type Tensor } from '../../src/index.js';

export type KernelName = 'ExponentiatedQuadratic' | 'MaternFiveHalves';
const K = psdKernels as unknown as Record<KernelName, new (o: Record<string, unknown>) => psdKernels.PositiveSemidefiniteKernel>;

export const XS = [[-1.5], [-1.0], [-0.4], [0.1], [0.5], [0.9], [1.4], [2.0]];
export const YS = [-0.9, -0.6, 0.1, 0.5, 0.7, 0.6, 0.1, -0.5];
export const NOISE = 0.05;
const amplitudePrior = new HalfNormal({ scale: 1 });
const lengthScalePrior = new InverseGamma({ concentration: 5, scale: 5 });

/** amplitude ~ HalfNormal(1), lengthScale ~ InverseGamma(5, 5), y ~ GP(0, k) at XS with noise variance NOISE. */
export const regression = (kernel: KernelName) => new JointDistributionNamed({
  amplitude: amplitudePrior,
  lengthScale: lengthScalePrior,
  y: ({ amplitude, lengthScale }: { amplitude: Tensor; lengthScale: Tensor }) => new GaussianProcess({
    kernel: new K[kernel]({ amplitude, lengthScale }), indexPoints: XS, observationNoiseVariance: NOISE,
  }),
});

/**
 * Posterior means (and sds) of amplitude and lengthScale by the midpoint rule: the same model's
 * log density on a G×G grid over (0, 4] × (0, 4] (the posterior mass beyond is negligible at this
 * data), as one batched GaussianProcess.
 */
export function gridMeans(kernel: KernelName, g = 120): { amplitude: number; lengthScale: number; sdAmplitude: number; sdLengthScale: number } {
  const h = 4 / g, as = Array.from({ length: g }, (_, i) => (i + 0.5) * h);
  const a = tensor(as).reshape([g, 1]), l = tensor(as).reshape([1, g]);
  const gp = new GaussianProcess({ kernel: new K[kernel]({ amplitude: a, lengthScale: l }), indexPoints: XS, observationNoiseVariance: NOISE });
  const lp = add(add(gp.logProb(YS), amplitudePrior.logProb(a)), lengthScalePrior.logProb(l));
  const w = Array.from(exp(sub(lp, logsumexp(lp))).data as Float64Array);
  let ma = 0, ml = 0, sa = 0, sl = 0;
  for (let i = 0; i < g; i++) {
    for (let j = 0; j < g; j++) {
      const p = w[i * g + j]!;
      ma += p * as[i]!; ml += p * as[j]!; sa += p * as[i]! ** 2; sl += p * as[j]! ** 2;
    }
  }
  return { amplitude: ma, lengthScale: ml, sdAmplitude: Math.sqrt(sa - ma * ma), sdLengthScale: Math.sqrt(sl - ml * ml) };
}
