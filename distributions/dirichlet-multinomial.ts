import type { KeyArray } from '../src/random/key-array.js';
import { splitSeed } from '../src/samplers/seeds.js';
import { broadcastData, broadcastIndex, reduceToShape, reduceToShapeInto } from '../src/tensor/broadcast.js';
import { floatKind, floatStorage, isTracked, numbers, result, tracing, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import type { Flat, Lowering } from '../src/tensor/lowering.js';
import { eye } from '../src/tensor/ops/create.js';
import { add, div, mul, sub } from '../src/tensor/ops/elementwise.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { broadcastTo, expandDims } from '../src/tensor/ops/shape.js';
import { digamma, digammaDiff, lgamma } from '../src/tensor/special/gamma.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { nonNegativeInteger, positive, type Constraint } from './internal/constraints.js';
import { countVectorsSumming } from './internal/count-support.js';
import { lgammaRatio } from './internal/lgamma-ratio.js';
import { randomLogGamma } from './internal/tfp-random-gamma.js';
import { iteratedBinomialMultinomial } from './internal/tfp-random-multinomial.js';
import { rowIndex } from './internal/simplex-rows.js';
import { gatherInto } from './categorical.js';
import { detExp } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface DirichletMultinomialOptions extends DistributionOptions {
  /** Number of trials n ≥ 0 (integer-valued; checked under `validateArgs`). */
  readonly totalCount: TensorLike;
  /** Concentrations α > 0, shape `[...batch, K]`. */
  readonly concentration: TensorLike;
}

/**
 * The Dirichlet-multinomial distribution (TFP's `tfd.DirichletMultinomial`): a Multinomial(n, p)
 * with p ~ Dirichlet(α), P(x) = n!/∏ xⱼ! · Γ(α₀)/Γ(α₀ + n) · ∏ Γ(αⱼ + xⱼ)/Γ(αⱼ) (α₀ = Σ αⱼ) on
 * non-negative integer vectors summing to n; other vectors have log mass −∞. Event shape `[K]`.
 *
 * Sampling follows TFP: `[gammaSeed, multinomialSeed] = splitSeed(seed, { salt: 'dirichlet_multinomial' })`,
 * log-gamma draws of shape `[n, ...batch, K]` by TFP's log-space sampler (`randomLogGamma`),
 * softmax over the classes, then TFP's iterated-binomial multinomial sampler with
 * `multinomialSeed` (`internal/tfp-random-multinomial.ts`). `logProb` is one node differentiable in
 * `concentration` and `totalCount` (as a real number). No event-space bijector (discrete).
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError for a scalar
 *   concentration, shapes that do not broadcast or, with `validateArgs`, a negative or
 *   fractional `totalCount` or a non-positive concentration.
 * @example
 * const d = new DirichletMultinomial({ totalCount: 10, concentration: [1, 2, 3] });
 * d.mean();                   // → Tensor float64 [3]: 10/6 · [1, 2, 3]
 * d.sample(4, { seed: 0 });   // → Tensor float64 [4, 3]
 */
export class DirichletMultinomial extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    totalCount: { constraint: nonNegativeInteger },
    concentration: { eventNdims: 1, constraint: positive },
  };
  readonly totalCount: Tensor;
  readonly concentration: Tensor;

  constructor(options: DirichletMultinomialOptions) {
    super('DirichletMultinomial', options, false);
    this.totalCount = this.param('totalCount');
    this.concentration = this.param('concentration');
  }

  /** K, the number of classes. */
  get numCategories(): number { return this.concentration.shape[this.concentration.ndim - 1]!; }
  override get eventShape(): readonly number[] { return [this.numCategories]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const [gammaSeed, multinomialSeed] = splitSeed(seed, { salt: 'dirichlet_multinomial' }) as [KeyArray, KeyArray];
    const k = this.numCategories, dtype = this.dtype, shape = [n, ...this.batchShape], full = [...shape, k];
    const alpha = broadcastData(this.fn, 'concentration', this.concentration, full) as Float64Array;
    const logG = randomLogGamma(full, alpha, null, gammaSeed, dtype);
    const size = logG.length / k, probs = new Float64Array(logG.length);
    for (let r = 0; r < size; r++) {
      let m = -Infinity, s = 0;
      for (let j = 0; j < k; j++) m = Math.max(m, logG[r * k + j]!);
      for (let j = 0; j < k; j++) s += (probs[r * k + j] = detExp(logG[r * k + j]! - m));
      for (let j = 0; j < k; j++) probs[r * k + j]! /= s;
    }
    const trials = broadcastData(this.fn, 'totalCount', this.totalCount, shape) as Float64Array;
    const draws = iteratedBinomialMultinomial(shape, k, probs, trials, multinomialSeed, dtype);
    const out = floatStorage(dtype, draws.length);
    out.set(draws);
    return new Tensor(out, full, dtype);
  }

  protected override get support(): Constraint { return countVectorsSumming(this.totalCount); }

  protected override logProbImpl(x: Tensor): Tensor {
    const fn = 'DirichletMultinomial.logProb', a = this.concentration, tc = this.totalCount, k = this.numCategories;
    const { shape, values, rows } = rowIndex(fn, x, this.batchShape, 1, a.shape.slice(0, -1));
    const av = numbers(a), nv = numbers(new Tensor(broadcastData(fn, 'totalCount', tc, shape) as never, shape, tc.dtype));
    const out = floatStorage(floatKind(a, tc), rows.length);
    const forward = (av: ArrayLike<number>, values: ArrayLike<number>, nv: ArrayLike<number>, out: Flat) => {
      for (let i = 0; i < out.length; i++) out[i] = dirichletMultinomialLogPmf(values, i * k, k, nv[i]!, av, rows[i]! * k);
    };
    // g · ∂/∂α into ga and g · ∂/∂n (per output element) into gn, each when not null.
    const backward = (
      av: ArrayLike<number>, values: ArrayLike<number>, nv: ArrayLike<number>, out: ArrayLike<number>, g: Float64Array, ga: Float64Array | null, gn: Float64Array | null,
    ) => {
      ga?.fill(0); gn?.fill(0);
      for (let i = 0; i < out.length; i++) {
        if (g[i] === 0 || !(out[i]! > -Infinity)) continue;
        const o = rows[i]! * k, n = nv[i]!;
        let a0 = 0;
        for (let j = 0; j < k; j++) a0 += av[o + j]!;
        if (ga) {
          const common = digammaDiff(a0, n);
          for (let j = 0; j < k; j++) ga[o + j]! += g[i]! * (digammaDiff(av[o + j]!, values[i * k + j]!) - common);
        }
        if (gn) gn[i] = g[i]! * (digamma(n + 1) - digamma(a0 + n));
      }
    };
    forward(av, values, nv, out);
    let op: Lowering | string = fn;
    if (tracing()) {
      // The lowering: α (operand 0) read in place, n (operand 1) and the counts (operand 2, no
      // gradient) gathered to the output's shape; ∂/∂n summed back to n's shape.
      const size = out.length, xIdx = broadcastIndex(x.shape, [...shape, ...x.shape.slice(x.ndim - 1)]), nIdx = broadcastIndex(tc.shape, shape);
      const vals = new Float64Array(xIdx.length), counts = new Float64Array(size), gnFull = tc.size === size ? null : new Float64Array(size);
      op = {
        name: fn,
        gradOperands: [true, true, false],
        forward(ins, o) { forward(ins[0]!, gatherInto(vals, ins[2]!, xIdx), gatherInto(counts, ins[1]!, nIdx), o); },
        backward(g, ins, o, parts) {
          const gn = parts[1] ? gnFull ?? parts[1] : null;
          backward(ins[0]!, vals, counts, o, g, parts[0] ?? null, gn);
          if (parts[1] && gnFull) reduceToShapeInto(parts[1], gnFull, shape, tc.shape);
        },
      };
    }
    if (!isTracked(a) && !isTracked(tc)) return result(out, shape, [a, tc, x], null, undefined, op);
    return result(out, shape, [a, tc, x], (g) => {
      const ga = new Float64Array(av.length), gn = new Float64Array(out.length);
      backward(av, values, nv, out, g, ga, gn);
      return [ga, reduceToShape(gn, shape, tc.shape), null];
    }, undefined, op);
  }

  /** n·α/α₀. */
  protected override meanImpl(): Tensor {
    const a = this.concentration;
    return broadcastTo(mul(expandDims(this.totalCount, -1), div(a, sum(a, -1, true))), [...this.batchShape, this.numCategories]);
  }
  /** n·(α/α₀)(1 − α/α₀)·(n + α₀)/(1 + α₀). */
  protected override varianceImpl(): Tensor {
    const { p, scale } = this.moments();
    return broadcastTo(mul(scale, mul(p, sub(1, p))), [...this.batchShape, this.numCategories]);
  }
  /** n·(n + α₀)/(1 + α₀)·(diag(α/α₀) − (α/α₀)(α/α₀)ᵀ). */
  protected override covarianceImpl(): Tensor {
    const { p, scale } = this.moments(), k = this.numCategories;
    const c = sub(mul(expandDims(p, -1), eye(k)), mul(expandDims(p, -1), expandDims(p, -2)));
    return broadcastTo(mul(expandDims(scale, -1), c), [...this.batchShape, k, k]);
  }
  private moments(): { p: Tensor; scale: Tensor } {
    const a = this.concentration, a0 = sum(a, -1, true), n = expandDims(this.totalCount, -1);
    return { p: div(a, a0), scale: div(mul(n, add(n, a0)), add(a0, 1)) };
  }
}

/**
 * log n! − Σ log xⱼ! + log Γ(α₀) − log Γ(α₀ + n) + Σ [log Γ(αⱼ + xⱼ) − log Γ(αⱼ)] for the K
 * counts at `values[at…]` and concentrations at `alpha[aAt…]`; −∞ unless the counts are
 * non-negative integers summing to n. The log-gammas are paired into `lgammaRatio`s around the
 * counts (ln Γ(xⱼ + αⱼ) − ln Γ(xⱼ + 1)) when n ≥ α₀ and around the concentrations otherwise, so
 * the large terms cancel analytically (as in BetaBinomial).
 */
export function dirichletMultinomialLogPmf(values: ArrayLike<number>, at: number, k: number, n: number, alpha: ArrayLike<number>, aAt: number): number {
  let total = 0, a0 = 0;
  for (let j = 0; j < k; j++) {
    const xj = values[at + j]!;
    if (Number.isNaN(xj) || Number.isNaN(alpha[aAt + j]!)) return Number.NaN;
    if (!Number.isInteger(xj) || xj < 0) return -Infinity;
    total += xj;
    a0 += alpha[aAt + j]!;
  }
  if (total !== n) return -Infinity;
  let acc = 0;
  if (n >= a0) {
    for (let j = 0; j < k; j++) {
      const xj = values[at + j]!, aj = alpha[aAt + j]!;
      if (xj > 0) acc += lgammaRatio(xj + 1, aj - 1) - lgamma(aj);
    }
    return acc - lgammaRatio(n + 1, a0 - 1) + lgamma(a0) + 0;
  }
  acc = lgamma(n + 1) - lgammaRatio(a0, n);
  for (let j = 0; j < k; j++) {
    const xj = values[at + j]!;
    if (xj > 0) acc += lgammaRatio(alpha[aAt + j]!, xj) - lgamma(xj + 1);
  }
  return acc;
}
brand(DirichletMultinomial, 'DirichletMultinomial');   // recognised across copies of stochax (src/brand.ts)
