/**
 * `UncalibratedLangevin` (TFP's `tfp.mcmc.UncalibratedLangevin`): one Euler–Maruyama step of the
 * Langevin diffusion as a proposal, with the log acceptance correction `MetropolisHastings` needs.
 * `MetropolisAdjustedLangevinAlgorithm` wraps it.
 */
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { checkFunction, checkOptions, fail } from '../../src/checks.js';
import { getModes, type Modes } from '../../src/config.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed, zerosSeed } from '../../src/samplers/seeds.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { asTensor } from '../../src/tensor/core.js';
import { add, square } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { broadcastTo } from '../../src/tensor/ops/shape.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { State, TargetLogProbAndGradFn, TargetLogProbFn, TransitionKernel } from '../kernel.js';
import type { InverseMassDiag, StepSize } from '../internal/kernel-results.js';
import { FreshArrays, inOneBuffer } from '../internal/leapfrog.js';
import { checkInverseMassOption, diagonalMetric, identityMetric } from '../internal/metric.js';
import {
  bootstrapPoint, chainInt, chainTensor, checkGradientTarget, checkStateShapes, checkStepSizeOption,
  expandStepSize, f64, StepSetup, withTargetOverrides, wrapParts,
} from '../internal/phase-space.js';
import type { Geometry } from '../internal/geometry.js';
import { type KernelTarget, newArray, StepRejections, stateParts } from '../internal/target.js';
import { detLog } from '../../src/math/index.js';
import { sizeOf } from '../../src/tensor/shapes.js';

/** A volatility per state part (or one shared by all parts), each broadcasting against its part. */
export type VolatilityFn = (...parts: Tensor[]) => Tensor | number | readonly (Tensor | number)[];

export interface LangevinOptions {
  /** The target log density (one value per chain); gradients by autodiff. Give this or `targetLogProbAndGradFn`. */
  readonly targetLogProbFn?: TargetLogProbFn | FlatTarget;
  /** A target returning `[logProb, gradients per part]`, for hand-written gradients. */
  readonly targetLogProbAndGradFn?: TargetLogProbAndGradFn;
  /** The Euler–Maruyama time step ε (a positive number or Tensor broadcasting against each part, or one per part). */
  readonly stepSize: StepSize;
  /**
   * The diffusion's volatility σ(x) (default 1). It must act element-wise (σᵢ depending on xᵢ
   * only, the usual diagonal preconditioner): the drift's ∇σ² term is taken as the gradient of
   * Σσ², which is the Jacobian's diagonal only then.
   */
  readonly volatilityFn?: VolatilityFn;
  /** Diagonal inverse mass matrix per state part (default identity): it multiplies σ². */
  readonly inverseMassDiag?: InverseMassDiag;
}

/** Results of {@link UncalibratedLangevin} (TFP's `UncalibratedLangevinKernelResults`, plus `stepSize`, `inverseMassDiag`). */
export interface UncalibratedLangevinResults {
  /** log q(x | x′) − log q(x′ | x) per chain. */
  readonly logAcceptanceCorrection: Tensor;
  readonly targetLogProb: Tensor;
  readonly gradsTargetLogProb: readonly Tensor[];
  /** σ at the state, per part, broadcast to the part's shape. */
  readonly volatility: readonly Tensor[];
  /** ∇ Σ σ² at the state, per part. */
  readonly gradsVolatility: readonly Tensor[];
  /** The drift ½ε(σ²·invMass·∇log p + invMass·∇σ²) at the state, per part. */
  readonly diffusionDrift: readonly Tensor[];
  readonly stepSize: StepSize;
  readonly inverseMassDiag: InverseMassDiag;
  /**
   * Per chain (int32, not in TFP): 1 when the target failed at this proposal — threw (other than
   * a programming error: TypeError, ReferenceError, SyntaxError propagate) or gave a non-finite
   * log density or gradient entry (`mcmc/internal/rejections.ts`). The proposal's log density is
   * then −∞ (rejected under MetropolisHastings); other chains are unaffected (for a tensor target
   * that throws, every chain's proposal fails). Read it from `proposedResults` under
   * MetropolisHastings; 0 after `bootstrapResults`.
   */
  readonly rejections: Tensor;
  readonly seed: KeyArray;
}

const FN = 'UncalibratedLangevin';

/** σ and ∇Σσ² per part as flat arrays (all-ones and zeros without a volatility function). */
function volatilityAt(fn: string, volFn: VolatilityFn | undefined, parts: readonly Tensor[], g: Geometry): { vol: Float64Array[]; grad: Float64Array[] } {
  const sizes = g.partShapes.map((s) => sizeOf(s));
  if (volFn === undefined) return { vol: sizes.map((n) => new Float64Array(n).fill(1)), grad: sizes.map((n) => new Float64Array(n)) };
  let vols: Tensor[] = [];
  const [, grads] = valueAndGrad((...xs: Tensor[]) => {
    const out = volFn(...xs);
    const list = Array.isArray(out) ? out : new Array(xs.length).fill(out);
    if (list.length !== xs.length) fail('range', fn, 'volatilityFn', `must return one volatility or one per state part (${xs.length})`, out);
    vols = list.map((v: unknown, k: number) => broadcastTo(asTensor(fn, 'volatilityFn(...)', v), g.partShapes[k]!));
    return vols.reduce<Tensor>((acc, v) => add(acc, sum(square(v))), asTensor(fn, 'volatilityFn', 0));
  }, parts.map((_, k) => k))(...parts) as [Tensor, Tensor[]];
  return { vol: vols.map((v) => Float64Array.from(v.data as ArrayLike<number>)), grad: grads.map(f64) };
}

/** The drift ½ε(s2·∇log p + m·∇σ²) with s2 = σ²·m, per part. */
function driftOf(
  eps: readonly Float64Array[], vol: readonly Float64Array[], m: readonly (Float64Array | null)[], grad: readonly Float64Array[], gradVol: readonly Float64Array[],
  alloc: (n: number) => Float64Array = newArray,
): Float64Array[] {
  return grad.map((gk, k) => {
    const e = eps[k]!, v = vol[k]!, mk = m[k], gv = gradVol[k]!;
    const out = alloc(gk.length);
    for (let i = 0; i < out.length; i++) { const mi = mk ? mk[i]! : 1; out[i] = 0.5 * e[i]! * (v[i]! * v[i]! * mi * gk[i]! + mi * gv[i]!); }
    return out;
  });
}

/**
 * The Langevin proposal `x′ = x + ½ε(σ²∇log p(x) + ∇σ²) + σ√ε·z`, `z` standard normal (TFP's
 * convention: ε is a time step, so the noise scale is √ε), with `σ²` multiplied by the inverse
 * mass diagonal when one is set. Not calibrated on its own: wrap it in `MetropolisHastings`
 * (as `MetropolisAdjustedLangevinAlgorithm` does).
 *
 * Seeds, as TFP: `sanitizeSeed(seed)`, then `splitSeed(seed, { n: number of parts, salt:
 * 'langevin.one_step' })`, one standard-normal draw of each part's shape and dtype per key.
 *
 * @throws TypeError/RangeError for bad options (naming them); at bootstrap, a RangeError when the
 *   log density is not finite or the chain dims do not match; in `oneStep`, a RangeError naming
 *   the expected shape when the state's shape changed.
 * @example
 * const kernel = new MetropolisHastings({ innerKernel: new UncalibratedLangevin({
 *   targetLogProbFn: (x) => sum(mul(-0.5, square(x)), -1), stepSize: 0.5 }) });
 * sampleChain({ numResults: 100, currentState: zeros([4, 3]), kernel, seed: 0 }).allStates; // Tensor [100, 4, 3]
 */
export class UncalibratedLangevin implements TransitionKernel<UncalibratedLangevinResults> {
  readonly isCalibrated = false;
  readonly parameters: Readonly<LangevinOptions>;
  /** The target, decided once here (a flat target, or the user's tensor functions). */
  private readonly target: KernelTarget;
  /** The global modes when the kernel was built (TFP fixes dtypes at construction). */
  private readonly modes: Modes = getModes();
  private readonly fresh = new FreshArrays();
  /** The geometry, flat target, step sizes and metric, kept while they stay the same. */
  private readonly setup: StepSetup;

  constructor(options: LangevinOptions) {
    const o = checkOptions(FN, options, ['targetLogProbFn', 'targetLogProbAndGradFn', 'stepSize', 'volatilityFn', 'inverseMassDiag']);
    this.target = checkGradientTarget(FN, o);
    this.setup = new StepSetup(this.target, diagonalMetric);
    if (o.volatilityFn !== undefined) checkFunction(FN, 'volatilityFn', o.volatilityFn);
    this.parameters = Object.freeze({
      ...o, stepSize: checkStepSizeOption(FN, o.stepSize), inverseMassDiag: checkInverseMassOption(FN, o.inverseMassDiag),
    });
  }

  bootstrapResults(state: State): UncalibratedLangevinResults {
    const fn = `${FN}.bootstrapResults`;
    const { parts, lp, grads, g } = bootstrapPoint(fn, this.target, state);
    const eps = expandStepSize(fn, this.parameters.stepSize, g);
    const m = diagonalMetric(fn, this.parameters.inverseMassDiag, g).invMass;
    const { vol, grad: gradVol } = volatilityAt(fn, this.parameters.volatilityFn, parts, g);
    const drift = driftOf(eps, vol, m, grads.map(f64), gradVol);
    return {
      logAcceptanceCorrection: chainTensor(new Float64Array(g.numChains), g),
      targetLogProb: chainTensor(Float64Array.from(lp.data as ArrayLike<number>), g),
      gradsTargetLogProb: grads,
      volatility: wrapParts(vol, g),
      gradsVolatility: wrapParts(gradVol, g),
      diffusionDrift: wrapParts(drift, g),
      stepSize: this.parameters.stepSize,
      inverseMassDiag: this.parameters.inverseMassDiag,
      rejections: chainInt(new Int32Array(g.numChains), g),
      seed: zerosSeed(),
    };
  }

  oneStep(state: State, previousResults: UncalibratedLangevinResults, seed: KeyArray): [State, UncalibratedLangevinResults] {
    const fn = `${FN}.oneStep`;
    const [parts, rebuild] = stateParts(fn, state);
    const prev = previousResults;
    checkStateShapes(fn, parts, prev.gradsTargetLogProb);
    const { g, target, eps, metric } = this.setup.at(fn, parts, prev);
    const { modes } = this;
    const key = sanitizeSeed(seed);
    const keys = splitSeed(key, { n: parts.length, salt: 'langevin.one_step' });
    // The metric's inverse mass preconditions the diffusion (it multiplies σ²); the noise is an
    // identity-metric momentum draw (standard normals).
    const m = metric.invMass;
    const z = identityMetric(g).sampleMomentum(keys, modes);
    const x0 = parts.map(f64), vol0 = prev.volatility.map(f64);
    // Working arrays are carved from shared chunks; the results get copies in one buffer.
    const take = this.fresh.take;
    const drift0 = driftOf(eps, vol0, m, prev.gradsTargetLogProb.map(f64), prev.gradsVolatility.map(f64), take);
    const x1 = x0.map((xk, k) => {
      const out = take(xk.length), e = eps[k]!, v = vol0[k]!, mk = m[k], d = drift0[k]!, zk = z[k]!;
      for (let i = 0; i < out.length; i++) out[i] = xk[i]! + d[i]! + v[i]! * Math.sqrt(e[i]! * (mk ? mk[i]! : 1)) * zk[i]!;
      return out;
    });
    // A failing chain reads −∞ with a zero gradient (so its drift and correction stay finite).
    const at1 = target(x1, take);
    const rej = new StepRejections(g.numChains);
    rej.note(at1.failures);
    // Without a volatility function σ = 1 everywhere: the previous results' (immutable) tensors are reused.
    const constant = this.parameters.volatilityFn === undefined;
    const { vol: vol1, grad: gradVol1 } = constant ? { vol: vol0, grad: prev.gradsVolatility.map(f64) } : volatilityAt(fn, this.parameters.volatilityFn, wrapParts(x1, g), g);
    const drift1 = driftOf(eps, vol1, m, at1.grad, gradVol1, take);
    // log q(x | x′) − log q(x′ | x), each a normal density with scale σ√(ε·m), summed per chain.
    const correction = new Float64Array(g.numChains);
    for (let k = 0; k < x0.length; k++) {
      const e = g.eventSizes[k]!, ek = eps[k]!, mk = m[k];
      for (let c = 0, i = 0; c < g.numChains; c++) {
        let s = 0;
        for (const end = i + e; i < end; i++) {
          const diff = x1[k]![i]! - x0[k]![i]!, scale = Math.sqrt(ek[i]! * (mk ? mk[i]! : 1));
          const s0 = vol0[k]![i]! * scale, s1 = vol1[k]![i]! * scale;
          const fwd = (diff - drift0[k]![i]!) / s0, bwd = (diff + drift1[k]![i]!) / s1;
          s += (detLog(s0) + 0.5 * fwd * fwd) - (detLog(s1) + 0.5 * bwd * bwd);
        }
        correction[c] += s;
      }
    }
    const n = x1.length, kept = inOneBuffer([...x1, ...at1.grad, ...drift1, at1.lp]);
    return [rebuild(wrapParts(kept.slice(0, n), g)), {
      ...prev,
      logAcceptanceCorrection: chainTensor(correction, g),
      targetLogProb: chainTensor(kept[3 * n]!, g),
      gradsTargetLogProb: wrapParts(kept.slice(n, 2 * n), g),
      volatility: constant ? prev.volatility : wrapParts(vol1, g),
      gradsVolatility: constant ? prev.gradsVolatility : wrapParts(gradVol1, g),
      diffusionDrift: wrapParts(kept.slice(2 * n, 3 * n), g),
      rejections: chainInt(rej.count, g),
      seed: key,
    }];
  }

  copy(overrides: Partial<LangevinOptions> = {}): UncalibratedLangevin {
    return new UncalibratedLangevin(withTargetOverrides(this.parameters, overrides));
  }
}
