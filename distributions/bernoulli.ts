import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import type { TensorLike } from '../src/tensor/core.js';
import { allocate, type FloatDType } from '../src/tensor/dtype.js';
import { mul, sigmoidScalar, softplusScalar } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import { Tensor } from '../src/tensor/tensor.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { elementwise, real, unitInterval } from './internal/constraints.js';
import { checkExactlyOne, logitsOf, oneMinusProbsOf, probsOf } from './internal/either-parameter.js';
import { fusedMap, type FusedForms } from './internal/fused.js';
import { registerKL } from './kl.js';
import { detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';

/** The dtypes a Bernoulli's samples (and mode) may have. */
export type BernoulliDType = 'int32' | 'float32' | 'float64';
const DTYPES: readonly string[] = ['int32', 'float32', 'float64'];

export interface BernoulliOptions extends DistributionOptions {
  /** Log-odds of a 1, log(p / (1 − p)). Exactly one of `logits` and `probs`. */
  readonly logits?: TensorLike;
  /** Probability of a 1, p ∈ [0, 1]. */
  readonly probs?: TensorLike;
  /** The dtype of samples and of `mode()` (default `'int32'`, as TFP). */
  readonly dtype?: BernoulliDType;
}

const support = elementwise('must be 0 or 1', (v) => v === 0 || v === 1);

/**
 * The Bernoulli distribution (TFP's `tfd.Bernoulli`): P(1) = p, P(0) = 1 − p; other values have
 * log mass −∞. With `logits`, log p = −softplus(−logits) and log(1 − p) = −softplus(logits), so
 * both stay exact when p is within 1e−300 of 0 or 1.
 *
 * Sampling uses the seed as given, as TFP: u = `samplers.uniform([n, ...batch])` in the
 * parameter's dtype, draw = u < p. `logProb`, `cdf`, `survivalFunction`, `entropy` and the KL
 * divergence are fused nodes differentiable in `logits` or `probs`. No event-space bijector.
 *
 * @throws TypeError unless exactly one of `logits` and `probs` is given, or for a bad `dtype`;
 *   RangeError with `validateArgs` for NaN logits or probs outside [0, 1].
 * @example
 * const d = new Bernoulli({ probs: [0.1, 0.9] });
 * d.logProb(1);               // → Tensor float64 [2]: log 0.1, log 0.9
 * d.sample(3, { seed: 0 });   // → Tensor int32 [3, 2]
 */
export class Bernoulli extends Distribution<BernoulliDType> {
  static override readonly optionNames = ['dtype'];
  static override readonly parameterProperties = {
    logits: { constraint: real },
    probs: { constraint: unitInterval },
  };
  readonly logits: Tensor | undefined;
  readonly probs: Tensor | undefined;

  constructor(options: BernoulliOptions) {
    super('Bernoulli', options, false, options?.dtype ?? 'int32');
    checkExactlyOne('Bernoulli', options, 'logits', 'probs');
    this.logits = this.params.logits;
    this.probs = this.params.probs;
    if (!DTYPES.includes(this.dtype)) fail('type', 'Bernoulli', 'dtype', `must be one of ${DTYPES.join(', ')}`, this.dtype);
  }

  /** p (sigmoid(logits) when given logits), differentiable. */
  probsParameter(): Tensor { return probsOf(this.logits, this.probs); }
  /** log(p / (1 − p)), differentiable. */
  logitsParameter(): Tensor { return logitsOf(this.logits, this.probs); }
  private get paramEntry(): [string, Tensor] { return this.logits ? ['logits', this.logits] : ['probs', this.probs!]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const p = broadcastTo(this.probsParameter(), this.batchShape);
    const u = samplersUniform([n, ...p.shape], { seed, dtype: p.dtype as FloatDType }).data as Float64Array | Float32Array;
    const pv = p.data as Float64Array | Float32Array, m = pv.length;
    const out = allocate(this.dtype, u.length);
    for (let i = 0; i < u.length; i++) out[i] = u[i]! < pv[i % m]! ? 1 : 0;
    return new Tensor(out, [n, ...this.batchShape], this.dtype);
  }

  protected override get support() { return support; }

  /** 0 and 1 (in this distribution's dtype). */
  protected override enumerateSupportImpl(): Tensor {
    const out = allocate(this.dtype, 2);
    out[1] = 1;
    return new Tensor(out, [2], this.dtype);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    const isLogits = this.logits !== undefined;
    return fusedMap('Bernoulli.logProb', [['value', x], this.paramEntry],
      isLogits ? logProbLogits : logProbProbs, isLogits ? partialsLogits : partialsProbs,
      isLogits ? FORMS_LOGITS : FORMS_PROBS);
  }

  protected override cdfImpl(x: Tensor): Tensor { return this.step('cdf', x, true); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.step('survivalFunction', x, false); }

  /** P[X ≤ x] (lower) or P[X > x]: a step at 0 of height 1 − p and at 1 of height p. */
  private step(method: string, x: Tensor, lower: boolean): Tensor {
    const isLogits = this.logits !== undefined;
    return fusedMap(`Bernoulli.${method}`, [['value', x], this.paramEntry],
      (v, t) => {
        if (Number.isNaN(v)) return Number.NaN;
        if (v < 0) return lower ? 0 : 1;
        if (v >= 1) return lower ? 1 : 0;
        return lower ? (isLogits ? sigmoidScalar(-t) : 1 - t) : (isLogits ? sigmoidScalar(t) : t);
      },
      (out, v, t) => {
        if (!(v >= 0 && v < 1)) return;
        const d = isLogits ? sigmoidScalar(t) * sigmoidScalar(-t) : 1;
        out[1] = lower ? -d : d;
      });
  }

  protected override meanImpl(): Tensor { return broadcastTo(this.probsParameter(), this.batchShape); }
  protected override varianceImpl(): Tensor {
    const q = oneMinusProbsOf(this.logits, this.probs);
    return broadcastTo(mul(this.probsParameter(), q), this.batchShape);
  }
  protected override modeImpl(): Tensor {
    const p = broadcastTo(this.probsParameter(), this.batchShape).data as ArrayLike<number>;
    const out = allocate(this.dtype, p.length);
    for (let i = 0; i < p.length; i++) out[i] = p[i]! > 0.5 ? 1 : 0;
    return new Tensor(out, this.batchShape, this.dtype);
  }

  /** −p log p − (1 − p) log(1 − p) (0 log 0 = 0). */
  protected override entropyImpl(): Tensor {
    const isLogits = this.logits !== undefined;
    const h = fusedMap('Bernoulli.entropy', [this.paramEntry],
      (t) => {
        const [p, q, lp, lq] = parts(t, isLogits);
        return 0 - ((p === 0 ? 0 : p * lp) + (q === 0 ? 0 : q * lq));
      },
      (out, t) => { const [p, q, lp, lq] = parts(t, isLogits); out[0] = isLogits ? -t * p * q : lq - lp; });
    return broadcastTo(h, this.batchShape);
  }
}

/** [p, 1 − p, log p, log(1 − p)] from a logit or a probability. */
function parts(t: number, isLogits: boolean): [number, number, number, number] {
  return isLogits ? [sigmoidScalar(t), sigmoidScalar(-t), -softplusScalar(-t), -softplusScalar(t)] : [t, 1 - t, detLog(t), detLog1p(-t)];
}

/**
 * KL(Ber(pa) ‖ Ber(pb)) = pa(log pa − log pb) + (1 − pa)(log(1 − pa) − log(1 − pb)), each product
 * taken as 0 where its probability is 0 (TFP's form, from the logits).
 */
/** log P(X = k) from the logit or the probability t (NaN for NaN, −∞ off {0, 1}). */
function logProbScalar(k: number, t: number, isLogits: boolean): number {
  if (Number.isNaN(k) || Number.isNaN(t)) return Number.NaN;
  if (k === 1) return isLogits ? -softplusScalar(-t) : detLog(t);
  if (k === 0) return isLogits ? -softplusScalar(t) : detLog1p(-t);
  return -Infinity;
}

/**
 * The log mass as one loop, for logits and for probabilities: module-level functions (not made
 * per call or by a factory), so V8 can inline them and `logProbScalar` into compiled code, and
 * no double is boxed per element.
 */
function logProbLogits(k: number, t: number): number { return logProbScalar(k, t, true); }
/**
 * The log mass of k at probability t (exported for the compiled log-likelihood, which applies it
 * element by element as `logProb` does: mcmc/internal/leaf-kernels.ts). @internal
 * @example
 * logProbProbs(0, 0.25);   // log 0.75
 */
export function logProbProbs(k: number, t: number): number { return logProbScalar(k, t, false); }
/** ∂/∂t (the value gets none): k − σ(t) for logits, ±1/p for probabilities; 0 off the support. */
function dLogits(k: number, t: number): number { return k !== 0 && k !== 1 ? 0 : k - sigmoidScalar(t); }
function dProbs(k: number, t: number): number { return k !== 0 && k !== 1 ? 0 : k === 1 ? 1 / t : -1 / (1 - t); }
function partialsLogits(out: Float64Array, k: number, t: number): void { out[1] = dLogits(k, t); }
function partialsProbs(out: Float64Array, k: number, t: number): void { out[1] = dProbs(k, t); }
const zero = (): number => 0;
const FORMS_LOGITS: FusedForms = { fill: logProbFillLogits, partialOf: [zero, dLogits] };
const FORMS_PROBS: FusedForms = { fill: logProbFillProbs, partialOf: [zero, dProbs] };

function logProbFillLogits(out: Float64Array | Float32Array, n: number, values: readonly ArrayLike<number>[], strides: readonly number[]): void {
  const ks = values[0]!, ts = values[1]!, sk = strides[0]!, st = strides[1]!;
  for (let i = 0; i < n; i++) out[i] = logProbScalar(ks[i * sk]!, ts[i * st]!, true);
}
function logProbFillProbs(out: Float64Array | Float32Array, n: number, values: readonly ArrayLike<number>[], strides: readonly number[]): void {
  const ks = values[0]!, ts = values[1]!, sk = strides[0]!, st = strides[1]!;
  for (let i = 0; i < n; i++) out[i] = logProbScalar(ks[i * sk]!, ts[i * st]!, false);
}

registerKL(Bernoulli, Bernoulli, (a, b) => fusedMap('Bernoulli.klDivergence', [['a.logits', a.logitsParameter()], ['b.logits', b.logitsParameter()]],
  (la, lb) => {
    const [pa, qa, lpa, lqa] = parts(la, true), [, , lpb, lqb] = parts(lb, true);
    return (pa === 0 ? 0 : pa * (lpa - lpb)) + (qa === 0 ? 0 : qa * (lqa - lqb));
  },
  (out, la, lb) => {
    const pa = sigmoidScalar(la), qa = sigmoidScalar(-la), pb = sigmoidScalar(lb);
    out[0] = pa * qa * (la - lb);
    out[1] = pb - pa;
  }));
brand(Bernoulli, 'Bernoulli');   // recognised across copies of stochax (src/brand.ts)
