/**
 * `PreconditionedNoUTurnSampler` (TFP's `tfp.experimental.mcmc.PreconditionedNoUTurnSampler`):
 * the NUTS of {@link NoUTurnSampler} with TFP's momentum distribution in place of standard-normal
 * momenta, as `windowed_adaptive_nuts` runs it (`windowedAdaptiveNuts` with `adaptation:
 * 'pooled'`).
 */
import type { Modes } from '../../src/config.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { normalData } from '../../src/random/normal.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import type { InverseMassDiag } from '../internal/kernel-results.js';
import { type BatchMetric, expandInverseMass, PreconditionedBatchMetric } from '../internal/metric.js';
import type { Geometry } from '../internal/geometry.js';
import { withTargetOverrides } from '../internal/phase-space.js';
import { NoUTurnSampler, type NoUTurnSamplerOptions } from './no-u-turn-sampler.js';

/**
 * NUTS with TFP's preconditioning momentum distribution: the same trajectory (tree doubling,
 * multinomial sampling, generalized U-turn criterion, seeds of every doubling and leaf) as
 * {@link NoUTurnSampler}, but the momentum, kinetic energy, velocity and leapfrog are those of
 * TFP's `PreconditionedNoUTurnSampler` with a diagonal `MultivariateNormalPrecisionFactorLinearOperator`
 * momentum of precision m = `inverseMassDiag` (the estimated variances; identity by default):
 *
 * - seeds: `[startSeed, loopSeed] = splitSeed(seed)`, `[momentumSeed, _] = splitSeed(startSeed)`;
 *   the momentum distribution is a `JointDistributionSequential` of one batch-broadcast part per
 *   state part, so part k's standard normals come from the k-th `[partSeed, rest] = splitSeed(rest)`
 *   after `sanitizeSeed(momentumSeed, { salt: 'JointDistribution' })`, drawn event-major
 *   (`[eventSize, chains]`) and transposed; p = z·(1/√m);
 * - kinetic energy the momentum distribution's negative log density (with its normalising
 *   constants), velocity its gradient √m·(√m·p), U-turn inner products summed part by part;
 * - leapfrog as TFP's integrator with a kinetic energy: `p + (½ε)·∇`, then `x + ε·v`, `p + ε·∇`
 *   per step, and `p − (½ε)·∇` at the end.
 *
 * These differ from {@link NoUTurnSampler}'s only in rounding, except the momentum draws (other
 * keys and layout), so a chain follows TFP's preconditioned sampler, not its plain NUTS.
 * `inverseMassDiag` must be positive and finite, as for `NoUTurnSampler`.
 *
 * @example
 * const kernel = new PreconditionedNoUTurnSampler({ targetLogProbFn, stepSize: 0.3, inverseMassDiag: [tensor([4, 0.25])] });
 * const run = sampleChain({ numResults: 100, currentState: [zeros([4, 2])], kernel, seed: 1 });
 */
export class PreconditionedNoUTurnSampler extends NoUTurnSampler {
  constructor(options: NoUTurnSamplerOptions) {
    super(options);
  }

  protected override makeMetric(fn: string, inverseMassDiag: InverseMassDiag, g: Geometry): BatchMetric {
    return new PreconditionedBatchMetric(expandInverseMass(fn, inverseMassDiag, g), g);
  }

  protected override drawMomentum(startSeed: KeyArray, metric: BatchMetric, modes: Modes): Float64Array[] {
    const [momentumSeed] = splitSeed(startSeed, { n: 2 }) as [KeyArray, KeyArray];
    let rest = sanitizeSeed(momentumSeed, { salt: 'JointDistribution' });
    const g = metric.g;
    const z = g.partShapes.map((_, k) => {
      const [partSeed, next] = splitSeed(rest) as [KeyArray, KeyArray];
      rest = next;
      return normalData(partSeed, g.numChains * g.eventSizes[k]!, g.dtypes[k]!, modes);
    });
    return (metric as PreconditionedBatchMetric).sampleMomentumFrom(z);
  }

  override copy(overrides: Partial<NoUTurnSamplerOptions> = {}): PreconditionedNoUTurnSampler {
    return new PreconditionedNoUTurnSampler(withTargetOverrides(this.parameters, overrides));
  }
}
