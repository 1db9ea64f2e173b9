/**
 * The `Distribution` base class (TFP's `tfd.Distribution` contract in camelCase). It owns the
 * invariants; subclasses fill in small hooks:
 *
 * - parameters are declared once in a static `parameterProperties` table (event rank,
 *   constraint); conversion, `validateArgs` checks, `batchShape`, `copy` and batch slicing
 *   follow from it;
 * - `sample(sampleShape)` calls `sampleN(n, seed)` with n = ∏ sampleShape and reshapes, so
 *   `sample([2, 3])` equals `sample(6)` reshaped for every distribution;
 * - the public methods apply TFP's fallbacks between hooks (`logProb` ↔ `prob`, `cdf` ↔
 *   `logCdf`, survival functions, `variance` ↔ `stddev`) and `allowNanStats`.
 */
import { brand, isBranded } from '../src/brand.js';
import { checkBoolean, checkOptions, checkShape, fail } from '../src/checks.js';
import { getModes } from '../src/config.js';
import type { KeyArray } from '../src/random/key-array.js';
import { sanitizeSeed, type Seed } from '../src/samplers/seeds.js';
import { broadcastShapes } from '../src/tensor/broadcast.js';
import { asTensor, floatKind, numbers, type TensorLike } from '../src/tensor/core.js';
import type { DType, FloatDType } from '../src/tensor/dtype.js';
import { add, exp, expm1, log, log1mexp, log1p, neg, sqrt, square, sub } from '../src/tensor/ops/elementwise.js';
import { reshape } from '../src/tensor/ops/shape.js';
import { sameShape, sizeOf } from '../src/tensor/shapes.js';
import { Tensor, tensor } from '../src/tensor/tensor.js';
import type { Bijector } from './bijectors/bijector.js';
import { expandSpecs, sliceParameter, slicedBatchShape, type BatchSliceSpec } from './internal/batch-slice.js';
import type { Constraint } from './internal/constraints.js';
import { lookupKL } from './kl.js';

/** Options every distribution accepts besides its parameters. */
export interface DistributionOptions {
  /** Check parameters at construction and values in `logProb`/`cdf`/`quantile` (default false). */
  readonly validateArgs?: boolean;
  /** Return NaN for undefined statistics (default true); when false, asking for one throws. */
  readonly allowNanStats?: boolean;
  /** Defaults to the class name. */
  readonly name?: string;
  /**
   * The bijector from unconstrained space onto the support that `defaultEventSpaceBijector()`
   * returns, instead of the distribution's own (PyMC's `transform=`; Stan's choice of
   * constraining transform): what the joint distributions' default joint bijector, and so
   * `compileLogDensity`, `windowedAdaptiveNuts` and the MCMC initialisation, sample in. It must
   * map onto the support (e.g. `Softplus` instead of `Exp` for a positive node, or `Identity` for
   * a real one) and act on events of at most the distribution's event rank. Kept as given by
   * `copy` and `slice`.
   */
  readonly defaultEventSpaceBijector?: Bijector;
  /**
   * `false` keeps a node with finite support from being summed out of a joint distribution's
   * log density when it is left unpinned for MCMC (`distributions/enumerate/`; NumPyro's
   * `infer={'enumerate': None}`). Default: enumerated when `enumerateSupport()` is implemented.
   * Kept as given by `copy` and `slice`.
   */
  readonly enumerate?: boolean;
}

/** What the base class needs to know about one tensor parameter. */
export interface ParameterProperties {
  /** Rank of one event's worth of the parameter (0 for scalars, 1 for a probability vector…). */
  readonly eventNdims?: number;
  /** Checked under `validateArgs`; its bijector constrains the parameter for optimisation. */
  readonly constraint?: Constraint;
}

export type ParameterTable = Readonly<Record<string, ParameterProperties>>;

export interface SampleOptions {
  /** Any seed `samplers.sanitizeSeed` accepts; omitted: a fresh seed from the global seed source. */
  readonly seed?: Seed;
}

export type ReparameterizationType = 'FULLY_REPARAMETERIZED' | 'NOT_REPARAMETERIZED';

/** Raised for a method a distribution does not implement (TFP's `NotImplementedError`). */
export class NotImplementedError extends Error {
  override readonly name = 'NotImplementedError';
}

const COMMON_OPTIONS = ['name', 'validateArgs', 'allowNanStats', 'defaultEventSpaceBijector', 'enumerate'];

/** A misspelt parameter (`scal`) would otherwise be ignored, and a default or a vaguer error take its place. */
function checkParameterNames(className: string, opts: object, cls: typeof Distribution): void {
  const table = cls.parameterProperties, extra = cls.optionNames;
  for (const key of Object.keys(opts)) {
    if (Object.hasOwn(table, key) || COMMON_OPTIONS.includes(key) || extra.includes(key)) continue;
    const known = [...Object.keys(table), ...extra, ...COMMON_OPTIONS].join(', ');
    throw new TypeError(`${className}: unknown parameter \`${key}\` (${className} takes ${known})`);
  }
}

/**
 * `D` is the dtype of samples: `FloatDType` for the continuous (and TFP's float-valued count)
 * distributions, the `dtype` option's union for `Categorical`-like ones, `DType` for wrappers.
 */
export abstract class Distribution<D extends DType = DType> {
  /** The tensor parameters: event rank and constraint (subclasses override). */
  static readonly parameterProperties: ParameterTable = {};
  /** Constructor options that are not tensor parameters (`distribution`, `dtype`, …; subclasses override). */
  static readonly optionNames: readonly string[] = [];

  readonly name: string;
  readonly validateArgs: boolean;
  readonly allowNanStats: boolean;
  /** The constructor options as given, so `copy(overrides)` can rebuild the distribution. */
  readonly parameters: Readonly<Record<string, unknown>>;
  readonly reparameterizationType: ReparameterizationType;
  /**
   * The dtype of samples, fixed at construction: the `dtype` a subclass passes (its `dtype`
   * option, or its inner distribution's), else float64 unless every parameter is float32 (or, for
   * a distribution without parameters, `defaultFloat()` when it was built).
   */
  readonly dtype: D;
  /** The class name, for error messages ("Normal.logProb: ..."). */
  protected readonly fn: string;
  /** Tensor parameters converted from the options, by name. */
  protected readonly params: Readonly<Record<string, Tensor>>;
  private readonly paramBatchShape: readonly number[];
  private cachedBatchShape: readonly number[] | undefined;

  constructor(className: string, options: object, reparameterized: boolean, dtype?: D) {
    const opts = checkOptions(className, options as Record<string, unknown>) as DistributionOptions & Record<string, unknown>;
    checkParameterNames(className, opts, this.constructor as typeof Distribution);
    this.fn = className;
    this.name = opts.name ?? className;
    this.validateArgs = opts.validateArgs ?? false;
    this.allowNanStats = opts.allowNanStats ?? true;
    this.parameters = Object.freeze({ ...opts });
    if (opts.defaultEventSpaceBijector !== undefined && !isBranded(opts.defaultEventSpaceBijector, 'Bijector')) {
      fail('type', className, 'defaultEventSpaceBijector', 'must be a Bijector (e.g. new bijectors.Softplus())', opts.defaultEventSpaceBijector);
    }
    if (opts.enumerate !== undefined) checkBoolean(className, 'enumerate', opts.enumerate);
    this.reparameterizationType = reparameterized ? 'FULLY_REPARAMETERIZED' : 'NOT_REPARAMETERIZED';
    const table = (this.constructor as typeof Distribution).parameterProperties;
    const params: Record<string, Tensor> = {};
    const batchShapes: [string, readonly number[]][] = [];
    for (const [key, props] of Object.entries(table)) {
      if (opts[key] === undefined) continue;
      const t = toParameter(className, key, opts[key]);
      const nd = props.eventNdims ?? 0;
      if (t.ndim < nd) fail('range', className, key, `must have at least ${nd} dimension(s) (its event rank); shape [${t.shape.join(', ')}]`, opts[key]);
      if (this.validateArgs) props.constraint?.check(className, key, t);
      params[key] = t;
      batchShapes.push([key, t.shape.slice(0, t.ndim - nd)]);
    }
    this.params = Object.freeze(params);
    this.paramBatchShape = Object.freeze(broadcastShapes(className, batchShapes));
    // Without a `dtype` the subclass samples floats: D includes FloatDType.
    this.dtype = dtype ?? (paramsFloat(params) as D);
  }

  // ---- shapes and dtype ---------------------------------------------------------------------

  /** The shape of independent, non-identical distributions this object represents. */
  get batchShape(): readonly number[] {
    return (this.cachedBatchShape ??= Object.freeze([...this.batchShapeImpl()]));
  }

  /** The shape of one draw (`[]` for scalar distributions). */
  get eventShape(): readonly number[] { return []; }

  isScalarBatch(): boolean { return this.batchShape.length === 0; }
  isScalarEvent(): boolean { return this.eventShape.length === 0; }

  /** The broadcast of the parameters' batch shapes; wrappers override. */
  protected batchShapeImpl(): readonly number[] { return this.paramBatchShape; }

  /** A converted tensor parameter (for subclass constructors). */
  protected param(name: string): Tensor {
    const t = this.params[name];
    if (t === undefined) fail('type', this.fn, name, 'is required (a number, an array or a Tensor)', undefined);
    return t;
  }

  // ---- sampling -----------------------------------------------------------------------------

  /** `n` draws: a tensor of shape `[n, ...batchShape, ...eventShape]`. */
  protected abstract sampleN(n: number, seed: KeyArray): Tensor;

  /**
   * Draws of shape `sampleShape + batchShape + eventShape`. The seed is sanitized once here and
   * each distribution splits it with TFP's salts; `sample([2, 3], { seed })` equals
   * `sample(6, { seed })` reshaped.
   *
   * @throws TypeError/RangeError for a bad sample shape or seed.
   * @example
   * new Normal({ loc: [0, 10], scale: 1 }).sample([3], { seed: 42 }); // → Tensor float64 [3, 2]
   */
  sample(sampleShape: number | readonly number[] = [], options: SampleOptions = {}): Tensor {
    const fn = `${this.fn}.sample`;
    const shape = checkShape(fn, 'sampleShape', sampleShape);
    const opts = checkOptions(fn, options, ['seed']);
    const n = sizeOf(shape);
    const seed = sanitizeSeed(opts.seed);
    const x = this.sampleN(n, seed);
    const want = [n, ...this.batchShape, ...this.eventShape];
    if (!sameShape(x.shape, want)) throw new Error(`${fn}: internal error: sampleN returned shape [${x.shape.join(', ')}], expected [${want.join(', ')}]`);
    return reshape(x, [...shape, ...this.batchShape, ...this.eventShape]);
  }

  /**
   * Draws and their log densities (TFP's `experimental_sample_and_log_prob`).
   * @example
   * const [x, lp] = new Normal({ loc: 0, scale: 1 }).sampleAndLogProb([5], { seed: 0 });
   */
  sampleAndLogProb(sampleShape: number | readonly number[] = [], options: SampleOptions = {}): [Tensor, Tensor] {
    const x = this.sample(sampleShape, options);
    return [x, this.logProb(x)];
  }

  // ---- densities ----------------------------------------------------------------------------

  protected logProbImpl?(x: Tensor): Tensor;
  protected probImpl?(x: Tensor): Tensor;
  protected cdfImpl?(x: Tensor): Tensor;
  protected logCdfImpl?(x: Tensor): Tensor;
  protected survivalFunctionImpl?(x: Tensor): Tensor;
  protected logSurvivalFunctionImpl?(x: Tensor): Tensor;
  protected quantileImpl?(p: Tensor): Tensor;

  /** The support of one event, checked on values under `validateArgs` (undefined: all of ℝⁿ). */
  protected get support(): Constraint | undefined { return undefined; }

  /**
   * Whether one value is in the support, when the support is elementwise and depends on no
   * parameter (a non-negative integer, positive…); undefined otherwise. Gibbs steps
   * (`mcmc/nuts/stan/gibbs.ts`) reject a random-walk proposal off it without evaluating the model.
   * @internal
   * @example
   * new Poisson({ rate: 3 }).fixedSupportTest()?.(-1);   // false
   */
  fixedSupportTest(): ((v: number) => boolean) | undefined {
    const s = this.support;
    return s?.fixed === true ? s.contains : undefined;
  }

  /**
   * Checks data against the support where the support depends on no parameter (0 or 1, a
   * non-negative integer, positive, a simplex…), whatever `validateArgs` says: the samplers check
   * pinned observations with it before sampling. Wrappers (`Independent`, `Sample`) ask the
   * distribution they wrap.
   * @throws RangeError naming `fn` and `arg[i]` (the first element outside the support).
   * @internal
   */
  checkDataSupport(fn: string, arg: string, value: Tensor): void {
    const s = this.support;
    if (s?.fixed !== true) return;
    try {
      s.check(fn, arg, value);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      const at = e.message.search(/; got /);   // fail()'s layout: "fn: `arg` what; got value"
      throw new RangeError(at < 0 ? e.message : `${e.message.slice(0, at)} (outside ${this.constructor.name}'s support)${e.message.slice(at)}`, { cause: e });
    }
  }

  /**
   * The log density (or log mass) at `value`, of shape `sampleShape(value) + batchShape`;
   * −∞ outside the support. Differentiable in `value` and every parameter.
   *
   * @throws RangeError when `value` does not broadcast against `batchShape + eventShape`
   *   (naming both shapes), or, with `validateArgs`, when it is outside the support.
   * @example
   * new Normal({ loc: 0, scale: 1 }).logProb([0, 1]); // → Tensor float64 [2]
   */
  logProb(value: TensorLike): Tensor {
    const x = this.checkValue('logProb', value);
    if (this.logProbImpl) return this.logProbImpl(x);
    if (this.probImpl) return log(this.probImpl(x));
    return this.notImplemented('logProb');
  }

  /** exp(logProb(value)). */
  prob(value: TensorLike): Tensor {
    const x = this.checkValue('prob', value);
    if (this.probImpl) return this.probImpl(x);
    if (this.logProbImpl) return exp(this.logProbImpl(x));
    return this.notImplemented('prob');
  }

  /** The log density up to a constant (the exact one unless a subclass can skip work). */
  unnormalizedLogProb(value: TensorLike): Tensor { return this.logProb(value); }

  /** P[X ≤ value]. */
  cdf(value: TensorLike): Tensor {
    const x = this.checkValue('cdf', value);
    if (this.cdfImpl) return this.cdfImpl(x);
    if (this.logCdfImpl) return exp(this.logCdfImpl(x));
    return this.notImplemented('cdf');
  }

  /** log P[X ≤ value], accurate far into the lower tail where the distribution allows. */
  logCdf(value: TensorLike): Tensor {
    const x = this.checkValue('logCdf', value);
    if (this.logCdfImpl) return this.logCdfImpl(x);
    if (this.cdfImpl) return log(this.cdfImpl(x));
    return this.notImplemented('logCdf');
  }

  /** P[X > value] = 1 − cdf(value). */
  survivalFunction(value: TensorLike): Tensor {
    const x = this.checkValue('survivalFunction', value);
    if (this.survivalFunctionImpl) return this.survivalFunctionImpl(x);
    if (this.logCdfImpl) return neg(expm1(this.logCdfImpl(x)));
    if (this.cdfImpl) return sub(1, this.cdfImpl(x));
    return this.notImplemented('survivalFunction');
  }

  /** log P[X > value], accurate far into the upper tail where the distribution allows. */
  logSurvivalFunction(value: TensorLike): Tensor {
    const x = this.checkValue('logSurvivalFunction', value);
    if (this.logSurvivalFunctionImpl) return this.logSurvivalFunctionImpl(x);
    if (this.survivalFunctionImpl) return log(this.survivalFunctionImpl(x));
    if (this.logCdfImpl) return log1mexp(this.logCdfImpl(x));
    if (this.cdfImpl) return log1p(neg(this.cdfImpl(x)));
    return this.notImplemented('logSurvivalFunction');
  }

  /**
   * The inverse cdf at probability p.
   * @throws RangeError with `validateArgs` for p outside [0, 1].
   */
  quantile(p: TensorLike): Tensor {
    const fn = `${this.fn}.quantile`;
    const t = asTensor(fn, 'p', p);
    if (this.validateArgs) {
      const v = numbers(t);
      for (let i = 0; i < v.length; i++) if (!(v[i]! >= 0 && v[i]! <= 1)) fail('range', fn, 'p', 'must be in [0, 1]', v[i]);
    }
    if (this.quantileImpl) return this.quantileImpl(t);
    return this.notImplemented('quantile');
  }

  // ---- statistics ---------------------------------------------------------------------------

  protected meanImpl?(): Tensor;
  protected varianceImpl?(): Tensor;
  protected stddevImpl?(): Tensor;
  protected modeImpl?(): Tensor;
  protected entropyImpl?(): Tensor;
  protected covarianceImpl?(): Tensor;

  /** The mean, of shape `batchShape + eventShape` (NaN where undefined, unless `allowNanStats` is false). */
  mean(): Tensor { return this.stat('mean', this.meanImpl?.()); }

  /** The variance, of shape `batchShape + eventShape`. */
  variance(): Tensor {
    if (this.varianceImpl) return this.stat('variance', this.varianceImpl());
    if (this.stddevImpl) return this.stat('variance', square(this.stddevImpl()));
    return this.notImplemented('variance');
  }

  /** The standard deviation, of shape `batchShape + eventShape`. */
  stddev(): Tensor {
    if (this.stddevImpl) return this.stat('stddev', this.stddevImpl());
    if (this.varianceImpl) return this.stat('stddev', sqrt(this.varianceImpl()));
    return this.notImplemented('stddev');
  }

  /** The mode, of shape `batchShape + eventShape`. */
  mode(): Tensor { return this.stat('mode', this.modeImpl?.()); }

  /** The (differential) entropy in nats, of shape `batchShape`. */
  entropy(): Tensor { return this.stat('entropy', this.entropyImpl?.()); }

  /** The covariance matrix of a vector event: `batchShape + [k, k]`. */
  covariance(): Tensor { return this.stat('covariance', this.covarianceImpl?.()); }

  /**
   * KL(this ‖ other) from the registry (`registerKL`), of shape broadcast(batch shapes).
   * @throws NotImplementedError when no rule is registered for the pair of classes.
   * @example
   * new Normal({ loc: 0, scale: 1 }).klDivergence(new Normal({ loc: 1, scale: 2 })); // → Tensor float64 []
   */
  klDivergence(other: Distribution): Tensor {
    if (!(other instanceof Distribution)) fail('type', `${this.fn}.klDivergence`, 'other', 'must be a Distribution', other);
    const f = lookupKL(this, other);
    if (f === undefined) throw new NotImplementedError(`${this.fn}.klDivergence: no KL(${this.constructor.name} || ${other.constructor.name}) is registered`);
    return f(this, other);
  }

  /** H(this, other) = entropy(this) + KL(this ‖ other). */
  crossEntropy(other: Distribution): Tensor { return add(this.entropy(), this.klDivergence(other)); }

  // ---- structure ----------------------------------------------------------------------------

  /**
   * The same distribution with some constructor options replaced (TFP's `copy(**overrides)`).
   * @example
   * new Normal({ loc: 0, scale: 1 }).copy({ scale: 2 }).stddev(); // → Tensor float64 []: 2
   */
  copy(overrides: Record<string, unknown> = {}): this {
    const Ctor = this.constructor as new (options: Record<string, unknown>) => this;
    return new Ctor({ ...this.parameters, ...checkOptions(`${this.fn}.copy`, overrides) });
  }

  /**
   * Batch slicing (TFP's `d[...]`): one spec per batch axis — an index, a `{ start, stop,
   * step }` range, `null` for a new axis, `'...'` for the rest.
   *
   * @throws RangeError for an index out of range or more specs than batch axes.
   * @example
   * const d = new Normal({ loc: [[1, 2, 3], [4, 5, 6]], scale: 1 });
   * d.slice(1).batchShape;                     // [3]
   * d.slice('...', { start: 1 }).batchShape;   // [2, 2]
   */
  slice(...specs: BatchSliceSpec[]): this {
    const fn = `${this.fn}.slice`;
    const full = expandSpecs(fn, specs, this.batchShape.length);
    const want = slicedBatchShape(fn, this.batchShape, full);
    const sliced = this.copy(this.slicedParameters(fn, full));
    if (!sameShape(sliced.batchShape, want)) throw new Error(`${fn}: internal error: batch shape [${sliced.batchShape.join(', ')}], expected [${want.join(', ')}]`);
    return sliced;
  }

  /** The constructor options with each tensor parameter sliced; wrappers slice their inner distributions. */
  protected slicedParameters(fn: string, specs: readonly (number | import('../src/tensor/ops/shape.js').SliceSpec | null)[]): Record<string, unknown> {
    const table = (this.constructor as typeof Distribution).parameterProperties;
    const out: Record<string, unknown> = {};
    for (const [key, t] of Object.entries(this.params)) out[key] = sliceParameter(fn, t, table[key]?.eventNdims ?? 0, this.batchShape, specs);
    return out;
  }

  /**
   * A bijector from unconstrained ℝⁿ onto the support of one event (what MCMC needs to sample
   * in unconstrained space, TFP's `experimental_default_event_space_bijector`): the
   * `defaultEventSpaceBijector` option when one was given, else the distribution's own.
   * @throws NotImplementedError for discrete distributions (without the option); RangeError when
   *   the given bijector needs events of a higher rank than this distribution's.
   * @example
   * new HalfNormal({ scale: 1 }).defaultEventSpaceBijector();                                        // Softplus
   * new HalfNormal({ scale: 1, defaultEventSpaceBijector: new bijectors.Exp() }).defaultEventSpaceBijector(); // Exp
   */
  defaultEventSpaceBijector(): Bijector {
    const given = this.parameters.defaultEventSpaceBijector as Bijector | undefined;
    if (given !== undefined) {
      const nd = this.eventShape.length;
      if (given.inverseMinEventNdims > nd) {
        fail('range', this.fn, 'defaultEventSpaceBijector', `acts on events of rank ${given.inverseMinEventNdims}, but the event shape is [${this.eventShape.join(', ')}]`, given);
      }
      return given;
    }
    const b = this.defaultEventSpaceBijectorImpl?.();
    return b ?? this.notImplemented('defaultEventSpaceBijector');
  }
  protected defaultEventSpaceBijectorImpl?(): Bijector;

  /**
   * Every value one event can take, `[S, ...eventShape]` in increasing order, the same for every
   * batch member (TFP's and Pyro's `enumerate_support`): what lets a joint distribution sum an
   * unpinned node out of its log density (`distributions/enumerate/`).
   * @throws NotImplementedError for a distribution whose support is not finite (or not known
   *   without reading a parameter that depends on the model's parameters).
   * @example
   * new Categorical({ probs: [0.2, 0.3, 0.5] }).enumerateSupport();   // int32 [3]: 0, 1, 2
   * new Bernoulli({ probs: 0.4 }).enumerateSupport();                 // int32 [2]: 0, 1
   */
  enumerateSupport(): Tensor {
    return this.enumerateSupportImpl?.() ?? this.notImplemented('enumerateSupport');
  }
  protected enumerateSupportImpl?(): Tensor;

  toString(): string {
    return `${this.fn}("${this.name}", batchShape=[${this.batchShape.join(', ')}], eventShape=[${this.eventShape.join(', ')}], dtype=${this.dtype})`;
  }

  // ---- helpers for subclasses ---------------------------------------------------------------

  /** `value` as a tensor, checked to broadcast against `batchShape + eventShape` and, under `validateArgs`, to be in the support. */
  protected checkValue(method: string, value: TensorLike): Tensor {
    const fn = `${this.fn}.${method}`;
    const x = asTensor(fn, 'value', value);
    const full = [...this.batchShape, ...this.eventShape];
    broadcastShapes(fn, [['value', x.shape], ['batchShape + eventShape', full]]);
    const e = this.eventShape;
    if (x.ndim < e.length || e.some((d, i) => x.shape[x.ndim - e.length + i] !== d)) {
      fail('range', fn, 'value', `must end in the event shape [${e.join(', ')}]; its shape is [${x.shape.join(', ')}]`, value);
    }
    if (this.validateArgs) this.support?.check(fn, 'value', x);
    return x;
  }

  private stat(name: string, t: Tensor | undefined): Tensor {
    if (t === undefined) return this.notImplemented(name);
    if (!this.allowNanStats) {
      const v = numbers(t);
      for (let i = 0; i < v.length; i++) {
        if (Number.isNaN(v[i]!)) fail('range', `${this.fn}.${name}`, name, 'is undefined for these parameters (allowNanStats is false)', v[i]);
      }
    }
    return t;
  }

  protected notImplemented(method: string): never {
    throw new NotImplementedError(`${this.fn}.${method} is not implemented`);
  }
}
brand(Distribution, 'Distribution');   // recognised across copies of stochax (src/brand.ts)

/** float64, or float32 in x32 mode (what a plain number parameter becomes). */
export function defaultFloat(): FloatDType { return getModes().x64 ? 'float64' : 'float32'; }

/** float64 unless every parameter is float32; `defaultFloat()` (read now) without parameters. */
export function paramsFloat(params: Readonly<Record<string, Tensor>>): FloatDType {
  const ts = Object.values(params);
  return ts.length === 0 ? defaultFloat() : floatKind(...ts);
}

/** A parameter as a float tensor: Tensors keep their dtype (and tape node), numbers and arrays become `defaultFloat()`. */
export function toParameter(fn: string, arg: string, value: unknown): Tensor {
  if (value instanceof Tensor) {
    if (value.dtype === 'float32' || value.dtype === 'float64') return value;
    if (value.dtype === 'bool') fail('type', fn, arg, 'must be numeric, not a bool tensor', value);
    return value.astype('float64');
  }
  if (typeof value !== 'number' && !Array.isArray(value) && !(ArrayBuffer.isView(value) && !(value instanceof DataView))) {
    fail('type', fn, arg, 'must be a number, an array of numbers or a Tensor', value);
  }
  if (Array.isArray(value) && [value].flat(Infinity).some((v) => typeof v !== 'number')) fail('type', fn, arg, 'must hold only numbers', value);
  return tensor(value, defaultFloat());
}
