import { fail } from '../src/checks.js';
import type { KeyArray } from '../src/random/key-array.js';
import { uniform as samplersUniform } from '../src/samplers/uniform.js';
import { numbers, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { add, div, log, mul, square, sub } from '../src/tensor/ops/elementwise.js';
import { broadcastTo } from '../src/tensor/ops/shape.js';
import type { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Sigmoid } from './bijectors/sigmoid.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { real, type Constraint } from './internal/constraints.js';
import { fusedMap } from './internal/fused.js';
import { registerKL } from './kl.js';
import { detLog } from '../src/math/index.js';
import { brand } from '../src/brand.js';

export interface UniformOptions extends DistributionOptions {
  /** Lower bound a (default 0; broadcasts with `high`). */
  readonly low?: TensorLike;
  /** Upper bound b > a (default 1). */
  readonly high?: TensorLike;
}

/**
 * The continuous uniform distribution (TFP's `tfd.Uniform`): density 1/(b − a) on [a, b]
 * (−∞ log density outside, 0 and 1 cdfs below and above).
 *
 * Sampling uses the seed as given (no salt): `low + (high − low) · samplers.uniform([n, ...batch])`,
 * so draws lie in [low, high) and are differentiable in both bounds. `mode` is not implemented
 * (TFP has none). Beyond TFP, `logCdf`, `survivalFunction` and `logSurvivalFunction` are
 * written out so they keep their digits near the bounds.
 *
 * @throws TypeError for a non-numeric bound; RangeError when the bounds do not broadcast or,
 *   with `validateArgs`, when `low < high` fails (naming both).
 * @example
 * const u = new Uniform({ low: 0, high: [1, 4] });
 * u.mean();                  // → Tensor float64 [2]: [0.5, 2]
 * u.sample(3, { seed: 0 });  // → Tensor float64 [3, 2]
 */
export class Uniform extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    low: { constraint: real },
    high: { constraint: real },
  };
  readonly low: Tensor;
  readonly high: Tensor;

  constructor(options: UniformOptions = {}) {
    super('Uniform', { low: 0, high: 1, ...options }, true);
    this.low = this.param('low');
    this.high = this.param('high');
    if (this.validateArgs) {
      fusedMap('Uniform', [['low', this.low], ['high', this.high]], (l, h) => {
        if (!(l < h)) fail('range', 'Uniform', 'low', `must be less than \`high\` (${h})`, l);
        return 0;
      });
    }
  }

  /**
   * high − low, of shape `batchShape`.
   * @example
   * new Uniform({ low: [0, 1], high: 4 }).range(); // → Tensor float64 [2]: [4, 3]
   */
  range(): Tensor { return broadcastTo(sub(this.high, this.low), this.batchShape); }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const u = samplersUniform([n, ...this.batchShape], { seed, dtype: this.dtype });
    return add(this.low, mul(sub(this.high, this.low), u));
  }

  protected override get support(): Constraint {
    return {
      what: 'must be in [low, high]',
      check: (fn, arg, t) => {
        const inside = numbers(fusedMap(fn, [['value', t], ['low', this.low], ['high', this.high]], (v, l, h) => (v >= l && v <= h ? 1 : 0)));
        const v = numbers(t);
        for (let i = 0; i < inside.length; i++) if (!inside[i]) fail('range', fn, t.ndim === 0 ? arg : `${arg}[${i}]`, 'must be in [low, high]', v[i % v.length]);
      },
    };
  }

  private args(x: Tensor): [string, Tensor][] { return [['value', x], ['low', this.low], ['high', this.high]]; }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap('Uniform.logProb', this.args(x), uniformLogProb, uniformLogProbPartials);
  }

  protected override cdfImpl(x: Tensor): Tensor {
    return fusedMap('Uniform.cdf', this.args(x),
      (v, l, h) => (v < l ? 0 : v >= h ? 1 : (v - l) / (h - l)),
      (out, v, l, h) => {
        if (!(v >= l && v < h)) return;
        const r = h - l;
        out[0] = 1 / r; out[1] = (v - h) / (r * r); out[2] = -(v - l) / (r * r);
      });
  }

  protected override logCdfImpl(x: Tensor): Tensor {
    return fusedMap('Uniform.logCdf', this.args(x),
      (v, l, h) => (v <= l ? -Infinity : v >= h ? 0 : detLog(v - l) - detLog(h - l)),
      (out, v, l, h) => {
        if (!(v > l && v < h)) return;
        out[0] = 1 / (v - l); out[1] = -1 / (v - l) + 1 / (h - l); out[2] = -1 / (h - l);
      });
  }

  protected override survivalFunctionImpl(x: Tensor): Tensor {
    return fusedMap('Uniform.survivalFunction', this.args(x),
      (v, l, h) => (v < l ? 1 : v >= h ? 0 : (h - v) / (h - l)),
      (out, v, l, h) => {
        if (!(v >= l && v < h)) return;
        const r = h - l;
        out[0] = -1 / r; out[1] = (h - v) / (r * r); out[2] = (v - l) / (r * r);
      });
  }

  protected override logSurvivalFunctionImpl(x: Tensor): Tensor {
    return fusedMap('Uniform.logSurvivalFunction', this.args(x),
      (v, l, h) => (v < l ? 0 : v >= h ? -Infinity : detLog(h - v) - detLog(h - l)),
      (out, v, l, h) => {
        if (!(v >= l && v < h)) return;
        out[0] = -1 / (h - v); out[1] = 1 / (h - l); out[2] = 1 / (h - v) - 1 / (h - l);
      });
  }

  /** TFP's form (1 − p)·low + p·high, exact at both ends. */
  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap('Uniform.quantile', [['p', p], ['low', this.low], ['high', this.high]],
      (q, l, h) => (1 - q) * l + q * h,
      (out, q, l, h) => { out[0] = h - l; out[1] = 1 - q; out[2] = q; });
  }

  protected override meanImpl(): Tensor { return broadcastTo(mul(add(this.low, this.high), 0.5), this.batchShape); }
  protected override varianceImpl(): Tensor { return div(square(this.range()), 12); }
  protected override stddevImpl(): Tensor { return div(this.range(), Math.sqrt(12)); }
  protected override entropyImpl(): Tensor { return log(this.range()); }
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    return new Sigmoid({ low: this.low, high: this.high, validateArgs: this.validateArgs });
  }
}

// The log density's kernels are module functions, not closures made per call, so compiled code can
// inline them (see normal.ts).
function uniformLogProb(v: number, l: number, h: number): number { return Number.isNaN(v) ? Number.NaN : v < l || v > h ? -Infinity : -detLog(h - l); }
function uniformLogProbPartials(out: Float64Array, v: number, l: number, h: number): void { if (v >= l && v <= h) { out[1] = 1 / (h - l); out[2] = -1 / (h - l); } }

/** KL(U(a₁, b₁) ‖ U(a₂, b₂)) = log(b₂ − a₂) − log(b₁ − a₁) when [a₁, b₁] ⊆ [a₂, b₂], else +∞. */
registerKL(Uniform, Uniform, (a, b) => fusedMap('Uniform.klDivergence',
  [['a.low', a.low], ['a.high', a.high], ['b.low', b.low], ['b.high', b.high]],
  (al, ah, bl, bh) => (bl <= al && ah <= bh ? detLog(bh - bl) - detLog(ah - al) : Infinity),
  (out, al, ah, bl, bh) => {
    if (!(bl <= al && ah <= bh)) return;
    out[0] = 1 / (ah - al); out[1] = -1 / (ah - al); out[2] = -1 / (bh - bl); out[3] = 1 / (bh - bl);
  }));
brand(Uniform, 'Uniform');   // recognised across copies of stochax (src/brand.ts)
