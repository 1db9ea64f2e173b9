import { fail } from '../src/checks.js';
import { getModes } from '../src/config.js';
import type { KeyArray } from '../src/random/key-array.js';
import { truncatedNormalData } from '../src/random/truncated-normal.js';
import { broadcastData, broadcastShapes, reduceToShapeInto } from '../src/tensor/broadcast.js';
import { applyLowering, floatStorage, numbers, type TensorLike } from '../src/tensor/core.js';
import type { FloatDType } from '../src/tensor/dtype.js';
import { kernelFactory, type Lowering } from '../src/tensor/lowering.js';
import { log1mexpScalar, logaddexpScalar } from '../src/tensor/ops/elementwise.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { Chain } from './bijectors/chain.js';
import { Exp } from './bijectors/exp.js';
import { Identity } from './bijectors/identity.js';
import { Scale } from './bijectors/scale.js';
import { Shift } from './bijectors/shift.js';
import { Sigmoid } from './bijectors/sigmoid.js';
import { Distribution, type DistributionOptions } from './distribution.js';
import { finite, positive, type Constraint } from './internal/constraints.js';
import { broadcastLoader, fusedMap, type Operand } from './internal/fused.js';
import { logNdtr, logPhi, ndtri, dLogNdtr } from './internal/ndtr.js';
import { detCos, detExp, detExpm1, detLog, detLog1p } from '../src/math/index.js';
import { brand } from '../src/brand.js';
import { sizeOf } from '../src/tensor/shapes.js';

export interface TruncatedNormalOptions extends DistributionOptions {
  /** μ, the mean of the normal before truncation. */
  readonly loc: TensorLike;
  /** σ > 0, its standard deviation. */
  readonly scale: TensorLike;
  /** Lower bound a < b (−∞ allowed without `validateArgs`). */
  readonly low: TensorLike;
  /** Upper bound b (+∞ allowed without `validateArgs`). */
  readonly high: TensorLike;
}

const LOG_SQRT_2PI = 0.5 * detLog(2 * Math.PI);

/** 16-point Gauss–Legendre nodes and weights on [−1, 1] (Newton on P₁₆ at load). */
const GL = (() => {
  const n = 16, x: number[] = [], w: number[] = [];
  for (let i = 1; i <= n; i++) {
    let t = detCos((Math.PI * (i - 0.25)) / (n + 0.5)), dp = 0;
    for (let it = 0; it < 100; it++) {
      let p0 = 1, p1 = t;
      for (let k = 2; k <= n; k++) { const p2 = ((2 * k - 1) * t * p1 - (k - 1) * p0) / k; p0 = p1; p1 = p2; }
      dp = (n * (t * p1 - p0)) / (t * t - 1);
      const step = p1 / dp;
      t -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    x.push(t); w.push(2 / ((1 - t * t) * dp * dp));
  }
  return { x, w };
})();

/** log Φ(u + g) − log Φ(u) = ∫ φ/Φ over [u, u + g] for g < 1, by quadrature (no cancellation). */
function logNdtrGap(u: number, g: number): number {
  const h = 0.5 * g, c = u + h;
  let s = 0;
  for (let i = 0; i < GL.x.length; i++) s += GL.w[i]! * dLogNdtr(c + h * GL.x[i]!);
  return s * h;
}

/**
 * [log M, φ(u)/M, φ(v)/M] for M = Φ(v) − Φ(u), u < v, taken from the tail where both Φ are small
 * (TFP differences log Φ on the lower side only). With (a, b) = (u, v), or (−v, −u) when u > 0,
 * M = Φ(b)(1 − e^(−Δ)) for Δ = log Φ(b) − log Φ(a) ≥ 0, and the ratios are Mills ratios
 * φ/Φ (from erfcx, no exp of a log difference) over −expm1(−Δ) and expm1(Δ). For v − u < 1, Δ
 * comes from quadrature, so narrow intervals keep their digits. `g` = v − u, computed from the
 * unstandardized values when at hand ((x − a)/σ rather than z − α, which would round).
 */
function mass(u: number, v: number, g = v - u): [number, number, number] {
  if (!(g > 0)) return g === 0 ? [-Infinity, Infinity, Infinity] : [Number.NaN, Number.NaN, Number.NaN];
  const up = u > 0, a = up ? -v : u, b = up ? -u : v;
  const lb = logNdtr(b);
  const gap = g < 1 ? logNdtrGap(a, g) : lb - logNdtr(a);
  const rb = dLogNdtr(b) / -detExpm1(-gap);
  const ra = Number.isFinite(a) ? dLogNdtr(a) / detExpm1(gap) : 0;
  const lm = lb + log1mexpScalar(-gap);
  return up ? [lm, rb, ra] : [lm, ra, rb];
}

/** Φ⁻¹(e^lp), finite however small e^lp is (Newton on log Φ below 1e−300). */
function ndtriLog(lp: number): number {
  if (lp > -690) return ndtri(detExp(lp));
  const t = -2 * lp;
  let x = -Math.sqrt(t - detLog(t) - detLog(2 * Math.PI));
  for (let i = 0; i < 8; i++) x -= (logNdtr(x) - lp) / dLogNdtr(x);
  return x;
}

/**
 * Chain rule from standardized points s = (t − μ)/σ to (x, μ, σ, a, b): `g` holds ∂/∂z, ∂/∂α,
 * ∂/∂β; writes ∂/∂x, ∂/∂μ, ∂/∂σ, ∂/∂a, ∂/∂b into `out` (plus `dSigma` added to ∂/∂σ).
 */
function chain(out: Float64Array, s: number, z: number, al: number, be: number, gz: number, ga: number, gb: number, dSigma = 0): void {
  const sz = gz === 0 ? 0 : gz * z, sa = ga === 0 ? 0 : ga * al, sb = gb === 0 ? 0 : gb * be;
  out[0] = gz / s; out[1] = -(gz + ga + gb) / s; out[2] = -(sz + sa + sb) / s + dSigma; out[3] = ga / s; out[4] = gb / s;
}

/**
 * The truncated normal distribution (TFP's `tfd.TruncatedNormal`): density
 * φ((x − μ)/σ) / (σ Z) on [a, b] with Z = Φ((b − μ)/σ) − Φ((a − μ)/σ) (−∞ log density outside).
 *
 * Sampling follows TFP on JAX (`stateless_parameterized_truncated_normal` in its JAX backend):
 * the seed as given (no salt), `random.truncatedNormal(seed, (a − μ)/σ, (b − μ)/σ, [n, ...batch])`
 * · σ + μ (JAX's inverse-cdf draw; see src/random/truncated-normal.ts for its tail fallback).
 * Draws are not differentiated. Z, the cdfs and the quantile are computed in log space from
 * the tail where Φ is small (TFP differences log Φ on the lower side only, which loses the
 * upper tail), narrow intervals by quadrature of φ/Φ, and quantiles as offsets from the nearer
 * bound, so `logCdf`/`logSurvivalFunction` and `quantile` stay accurate far out and near the
 * bounds. Beyond TFP: `quantile`, `survivalFunction`, `logSurvivalFunction`. Moments and
 * entropy use TFP's formulas (which cancel in the far tails) and are not differentiated. TFP
 * registers no KL rule.
 *
 * @throws TypeError for a missing or non-numeric parameter; RangeError when the shapes do not
 *   broadcast or, with `validateArgs`, for non-finite `loc`/`low`/`high`, non-positive `scale`,
 *   or `low ≥ high`.
 * @example
 * const d = new TruncatedNormal({ loc: 0, scale: 1, low: [-1, 0], high: [1, 5] });
 * d.logProb(0.5);            // → Tensor float64 [2]
 * d.sample(3, { seed: 0 });  // → Tensor float64 [3, 2]
 */
export class TruncatedNormal extends Distribution<FloatDType> {
  static override readonly parameterProperties = {
    loc: { constraint: finite },
    scale: { constraint: positive },
    low: { constraint: finite },
    high: { constraint: finite },
  };
  readonly loc: Tensor;
  readonly scale: Tensor;
  readonly low: Tensor;
  readonly high: Tensor;

  constructor(options: TruncatedNormalOptions) {
    super('TruncatedNormal', options, true);
    this.loc = this.param('loc');
    this.scale = this.param('scale');
    this.low = this.param('low');
    this.high = this.param('high');
    if (this.validateArgs) {
      fusedMap('TruncatedNormal', [['low', this.low], ['high', this.high]], (l, h) => {
        if (!(l < h)) fail('range', 'TruncatedNormal', 'low', `must be less than \`high\` (${h})`, l);
        return 0;
      });
    }
  }

  private params4(): [string, Tensor][] { return [['loc', this.loc], ['scale', this.scale], ['low', this.low], ['high', this.high]]; }

  protected sampleN(n: number, seed: KeyArray): Tensor {
    const shape = [n, ...this.batchShape];
    const dtype = this.dtype;
    const round = dtype === 'float32' ? Math.fround : (v: number) => v;
    const [m, s, l, h] = this.params4().map(([name, t]) => broadcastData(this.fn, name, t, shape) as Float64Array) as [Float64Array, Float64Array, Float64Array, Float64Array];
    const lo = new Float64Array(m.length), hi = new Float64Array(m.length);
    for (let i = 0; i < m.length; i++) { lo[i] = round((l[i]! - m[i]!) / s[i]!); hi[i] = round((h[i]! - m[i]!) / s[i]!); }
    const z = truncatedNormalData(seed, lo, hi, dtype, getModes());
    const out = floatStorage(dtype, z.length);
    for (let i = 0; i < out.length; i++) out[i] = lo[i]! < hi[i]! ? z[i]! * s[i]! + m[i]! : Number.NaN;
    return new Tensor(out, shape, dtype);
  }

  protected override get support(): Constraint {
    return {
      what: 'must be in [low, high]',
      check: (fn, arg, t) => {
        const ok = numbers(fusedMap(fn, [['value', t], ['low', this.low], ['high', this.high]], (v, l, h) => (v >= l && v <= h ? 1 : 0)));
        const v = numbers(t);
        for (let i = 0; i < ok.length; i++) if (!ok[i]) fail('range', fn, t.ndim === 0 ? arg : `${arg}[${i}]`, 'must be in [low, high]', v[i % v.length]);
      },
    };
  }

  private map(method: string, x: Tensor, f: (v: Float64Array) => number, partials: (out: Float64Array, v: Float64Array, y: number) => void): Tensor {
    return fusedMap5(`TruncatedNormal.${method}`, [['value', x], ...this.params4()], f, partials);
  }

  protected override logProbImpl(x: Tensor): Tensor {
    return fusedMap5('TruncatedNormal.logProb', [['value', x], ...this.params4()], logProbOf, logProbPartials, logProbLowering);
  }

  protected override logCdfImpl(x: Tensor): Tensor { return this.tail('logCdf', x, true, false); }
  protected override cdfImpl(x: Tensor): Tensor { return this.tail('cdf', x, true, true); }
  protected override logSurvivalFunctionImpl(x: Tensor): Tensor { return this.tail('logSurvivalFunction', x, false, false); }
  protected override survivalFunctionImpl(x: Tensor): Tensor { return this.tail('survivalFunction', x, false, true); }

  /** log(Φ(z) − Φ(α))/Z (lower) or log(Φ(β) − Φ(z))/Z, exponentiated when `linear`. */
  private tail(method: string, x: Tensor, lower: boolean, linear: boolean): Tensor {
    const logValue = (v: number, m: number, s: number, l: number, h: number): number => {
      if (Number.isNaN(v)) return Number.NaN;
      if (v <= l) return lower ? -Infinity : 0;
      if (v >= h) return lower ? 0 : -Infinity;
      const z = (v - m) / s, al = (l - m) / s, be = (h - m) / s, lm = mass(al, be, (h - l) / s)[0];
      // The smaller of the two tails directly; the other as log1p(−that), so values near 1 keep their digits.
      const lc = mass(al, z, (v - l) / s)[0] - lm, ls = mass(z, be, (h - v) / s)[0] - lm;
      if (lower) return lc < -Math.LN2 ? lc : detLog1p(-detExp(ls));
      return ls < -Math.LN2 ? ls : detLog1p(-detExp(lc));
    };
    return this.map(method, x,
      ([v, m, s, l, h]) => { const lv = logValue(v!, m!, s!, l!, h!); return linear ? detExp(lv) : lv; },
      (out, [v, m, s, l, h], y) => {
        if (!(v! > l! && v! < h!)) return;
        const z = (v! - m!) / s!, al = (l! - m!) / s!, be = (h! - m!) / s!, [, ra, rb] = mass(al, be, (h! - l!) / s!);
        // ∂/∂(z, α, β) of log(part) − log Z, part = Φ(z) − Φ(α) or Φ(β) − Φ(z).
        const [, pu, pv] = lower ? mass(al, z, (v! - l!) / s!) : mass(z, be, (h! - v!) / s!);
        const gz = lower ? pv : -pu;
        const ga = (lower ? -pu : 0) + ra;
        const gb = (lower ? 0 : pv) - rb;
        chain(out, s!, z, al, be, gz, ga, gb);
        if (linear) for (let i = 0; i < 5; i++) out[i] = out[i]! * y;
      });
  }

  protected override quantileImpl(p: Tensor): Tensor {
    return fusedMap5('TruncatedNormal.quantile', [['p', p], ...this.params4()],
      ([q, m, s, l, h]) => {
        if (!(q! >= 0 && q! <= 1)) return Number.NaN;
        if (q === 0 || q === 1) return q === 0 ? l! : h!;
        const al = (l! - m!) / s!, be = (h! - m!) / s!;
        // Φ(z) = (1 − p)Φ(α) + pΦ(β), or equally Φ(−z) = (1 − p)Φ(−α) + pΦ(−β): solved from the
        // side where that target is below ½.
        const lower = logaddexpScalar(detLog1p(-q!) + logNdtr(al), detLog(q!) + logNdtr(be));
        const z = Math.min(Math.max(lower < -Math.LN2 ? ndtriLog(lower)
          : -ndtriLog(logaddexpScalar(detLog1p(-q!) + logNdtr(-al), detLog(q!) + logNdtr(-be))), al), be);
        // Then refined as an offset from the nearer bound (x = a + σδ or b − σδ), which keeps the
        // digits of quantiles close to a bound that z − α would lose.
        const fromLow = q! <= 0.5;
        if (!Number.isFinite(fromLow ? l! : h!)) return m! + s! * z;
        const lm = mass(al, be, (h! - l!) / s!)[0], target = lm + (fromLow ? detLog(q!) : detLog1p(-q!));
        let d = fromLow ? z - al : be - z;
        if (!(d > 0)) d = detExp(target - logPhi(fromLow ? al : be));
        for (let i = 0; i < 50; i++) {
          const [lt, ru, rv] = fromLow ? mass(al, al + d, d) : mass(be - d, be, d);
          const step = (lt - target) / (fromLow ? rv : ru);
          if (!Number.isFinite(step)) break;
          d = d - step > 0 ? d - step : d / 16;
          if (Math.abs(step) <= 1e-15 * d) break;
        }
        return fromLow ? l! + s! * d : h! - s! * d;
      },
      (out, [q, m, s, l, h], y) => {
        const z = (y - m!) / s!, al = (l! - m!) / s!, be = (h! - m!) / s!, lz = logPhi(z);
        const dzdp = detExp(mass(al, be, (h! - l!) / s!)[0] - lz);
        const dza = Number.isFinite(al) ? detExp(detLog1p(-q!) + logPhi(al) - lz) : 0;
        const dzb = Number.isFinite(be) ? detExp(detLog(q!) + logPhi(be) - lz) : 0;
        out[0] = s! * dzdp; out[1] = 1 - dza - dzb;
        out[2] = z - (dza === 0 ? 0 : al * dza) - (dzb === 0 ? 0 : be * dzb); out[3] = dza; out[4] = dzb;
      });
  }

  /** A statistic of (μ, σ, α, β, log Z, φ(α)/Z, φ(β)/Z) per batch member (not differentiated). */
  private statistic(name: string, f: (m: number, s: number, al: number, be: number, lm: number, ra: number, rb: number) => number): Tensor {
    return fusedMap(`TruncatedNormal.${name}`, this.params4(), (m, s, l, h) => {
      const al = (l - m) / s, be = (h - m) / s, [lm, ra, rb] = mass(al, be, (h - l) / s);
      return f(m, s, al, be, lm, ra, rb);
    });
  }

  protected override meanImpl(): Tensor { return this.statistic('mean', (m, s, _al, _be, _lm, ra, rb) => m + s * (ra - rb)); }
  protected override varianceImpl(): Tensor {
    return this.statistic('variance', (_m, s, al, be, _lm, ra, rb) =>
      s * s * (1 + (ra === 0 ? 0 : al * ra) - (rb === 0 ? 0 : be * rb) - (ra - rb) ** 2));
  }
  protected override modeImpl(): Tensor {
    return fusedMap('TruncatedNormal.mode', this.params4(), (m, _s, l, h) => Math.min(Math.max(m, l), h));
  }
  protected override entropyImpl(): Tensor {
    return this.statistic('entropy', (_m, s, al, be, lm, ra, rb) =>
      0.5 + LOG_SQRT_2PI + detLog(s) + lm + 0.5 * ((ra === 0 ? 0 : al * ra) - (rb === 0 ? 0 : be * rb)));
  }
  /**
   * Onto (low, high) as Stan's bound transforms: Sigmoid for two finite bounds, low + exp(x) for
   * a lower one only, high − exp(x) for an upper one only, the identity for none. The choice is
   * made from the bounds' values, so every element must have the same finite bounds.
   */
  protected override defaultEventSpaceBijectorImpl(): Bijector {
    const lo = Array.from(numbers(this.low)), hi = Array.from(numbers(this.high));
    const finiteLow = lo.every((v) => Number.isFinite(v)), finiteHigh = hi.every((v) => Number.isFinite(v));
    const mixed = (!finiteLow && lo.some((v) => Number.isFinite(v))) || (!finiteHigh && hi.some((v) => Number.isFinite(v)));
    if (mixed) fail('range', 'TruncatedNormal.defaultEventSpaceBijector', 'low', 'and `high` must each be finite in every element or infinite in every element (write nodes with different kinds of bounds as separate nodes)', { low: lo, high: hi });
    if (finiteLow && finiteHigh) return new Sigmoid({ low: this.low, high: this.high, validateArgs: this.validateArgs });
    if (finiteLow) return new Chain({ bijectors: [new Shift({ shift: this.low }), new Exp()] });
    if (finiteHigh) return new Chain({ bijectors: [new Shift({ shift: this.high }), new Scale({ scale: -1 }), new Exp()] });
    return new Identity();
  }
}

/**
 * `fusedMap` for five arguments (value and four parameters): `f` and `partials` read the
 * broadcast arguments from one reused array; one tape node with lazily computed partials. The
 * arithmetic is the lowering's (`map5Lowering`), which the eager op runs too.
 */
function fusedMap5(
  fn: string, args: readonly (readonly [string, Tensor])[],
  f: (a: Float64Array) => number, partials: (out: Float64Array, a: Float64Array, y: number) => void,
  /** The same lowering from a named factory (portable to a compiled model's workers). */
  portable?: (shape: readonly number[], shapes: readonly (readonly number[])[]) => Lowering & { readonly n: number },
): Tensor {
  const shape = broadcastShapes(fn, args.map(([name, t]) => [name, t.shape] as const));
  const tensors = args.map(([, t]) => t);
  const op = portable?.(shape, tensors.map((t) => t.shape)) ?? map5Lowering(fn, shape, tensors, f, partials);
  return applyLowering(op, tensors, shape, op.n);
}

/** log p(v) of TruncatedNormal(m, s, l, h) from `[v, m, s, l, h]`, and its partials. */
function logProbOf([v, m, s, l, h]: Float64Array): number {
  return Number.isNaN(v!) ? Number.NaN : v! < l! || v! > h! ? -Infinity
    : logPhi((v! - m!) / s!) - detLog(s!) - mass((l! - m!) / s!, (h! - m!) / s!, (h! - l!) / s!)[0];
}
function logProbPartials(out: Float64Array, [v, m, s, l, h]: Float64Array): void {
  if (v! < l! || v! > h!) return;
  const z = (v! - m!) / s!, al = (l! - m!) / s!, be = (h! - m!) / s!, [, ra, rb] = mass(al, be, (h! - l!) / s!);
  chain(out, s!, z, al, be, -z, ra, -rb, -1 / s!);
}
// logProb's lowering by a named factory: models with a TruncatedNormal prior (the ODE examples' parameters) run their chains on workers.
const logProbLowering = kernelFactory('TruncatedNormal.logProb', (shape: readonly number[], shapes: readonly (readonly number[])[]) => {
  const op = map5Lowering('TruncatedNormal.logProb', shape, shapes.map((sh) => ({ shape: sh, size: sizeOf(sh) })), logProbOf, logProbPartials);
  return { ...op, fold: { of: [1, 2, 3, 4], with: (params: readonly ArrayLike<number>[]) => logProbFolded(shape, shapes, params.map((d) => Float64Array.from(d, Number))) } };
});

/**
 * logProb with loc, scale, low and high constants of a compiled program (`Lowering.fold`, applied
 * by src/compile/constant-fold.ts): log σ and the log normalizing mass are computed once per
 * element, here, by the calls logProbOf makes (`detLog`, `mass` on the same arguments), and the
 * value subtracts them in logProbOf's order: the same bits. The gradient is then only ∂/∂x, which
 * `chain` writes as −z/σ (the parameters' parts, the only readers of the Mills ratios, are not asked for).
 */
const logProbFolded = kernelFactory('TruncatedNormal.logProb#folded', (shape: readonly number[], shapes: readonly (readonly number[])[], params: readonly Float64Array[]) => {
  const n = sizeOf(shape), operands = shapes.map((sh) => ({ shape: sh, size: sizeOf(sh) }));
  const { strides, values, load } = broadcastLoader(shape, operands.slice(1), 4);
  load(params);
  const logScale = new Float64Array(n), logMass = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const m = values[0]![k * strides[0]!]!, s = values[1]![k * strides[1]!]!, l = values[2]![k * strides[2]!]!, h = values[3]![k * strides[3]!]!;
    logScale[k] = detLog(s);
    logMass[k] = mass((l - m) / s, (h - m) / s, (h - l) / s)[0];
  }
  const f = ([v, m, s, l, h]: Float64Array, k: number): number => (Number.isNaN(v!) ? Number.NaN : v! < l! || v! > h! ? -Infinity
    : logPhi((v! - m!) / s!) - logScale[k]! - logMass[k]!);
  const partials = (out: Float64Array, [v, m, s, l, h]: Float64Array): void => {
    if (v! < l! || v! > h!) return;
    const z = (v! - m!) / s!;
    out[0] = -z / s!;
  };
  return map5Lowering('TruncatedNormal.logProb', shape, operands, f, partials);
});

/**
 * fusedMap5's kernel with its broadcast fixed: operands of the output's size or of size 1 are
 * read in place (stride 1 or 0), others gathered through an index map into scratch (as
 * `broadcastData` would copy them); each requested part is the full-size g·∂f/∂argᵢ summed
 * back to the operand's shape (`reduceToShapeInto`, `reduceToShape`'s order).
 */
function map5Lowering(
  fn: string, shape: readonly number[], tensors: readonly Operand[],
  f: (a: Float64Array, k: number) => number, partials: (out: Float64Array, a: Float64Array, y: number, k: number) => void,
): Lowering & { readonly n: number } {
  const n = sizeOf(shape), m = tensors.length;
  const { strides, values, load } = broadcastLoader(shape, tensors, m);
  const a = new Float64Array(m), p = new Float64Array(m);
  // Full-size partials of operands smaller than the output (the others are written in place).
  const full = tensors.map((t) => (t.size === n ? null : new Float64Array(n)));
  const at = (k: number) => { for (let i = 0; i < m; i++) a[i] = values[i]![k * strides[i]!]!; };
  return {
    name: fn,
    n,
    forward(ins, out) {
      load(ins);
      for (let k = 0; k < n; k++) { at(k); out[k] = f(a, k); }
    },
    backward(g, ins, out, parts) {
      load(ins);
      const dst = parts.map((part, i) => (part === null ? null : full[i] ?? part));
      for (let k = 0; k < n; k++) {
        if (g[k] === 0) { for (let i = 0; i < m; i++) { const gi = dst[i]; if (gi) gi[k] = 0; } continue; }
        p.fill(0);
        at(k);
        partials(p, a, out[k]!, k);
        for (let i = 0; i < m; i++) { const gi = dst[i]; if (gi) gi[k] = g[k]! * p[i]!; }
      }
      for (let i = 0; i < m; i++) {
        const part = parts[i], gi = full[i];
        if (part && gi) reduceToShapeInto(part, gi, shape, tensors[i]!.shape);
      }
    },
  };
}
brand(TruncatedNormal, 'TruncatedNormal');   // recognised across copies of stochax (src/brand.ts)
