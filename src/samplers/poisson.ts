import { checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { detLog } from '../math/index.js';
import { splitKeys, type KeyArray } from '../random/key-array.js';
import { foldIn } from '../random/keys.js';
import { poissonPtrs64 } from '../random/poisson-f64.js';
import { uniformUnit } from '../random/uniform.js';
import { floatParam, checkValues, paramValues, rounder, type ParamLike, type ShapeLike } from '../random/params.js';
import { defaultIntDtype } from '../random/permutation.js';
import { checkIntDtype } from '../random/randint.js';
import { allocate, INT_DTYPES, isBigIntDType, type DType, type FloatDType, type IntDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { sanitize, type Seed } from './seeds.js';

export interface SamplersPoissonOptions {
  /** Rate(s) λ ≥ 0, required: a number, array or Tensor. */
  lam: ParamLike;
  /** An integer dtype (default int64 in x64 mode, int32 in x32) or a float dtype. */
  dtype?: DType;
  /** Any seed kind (see `sanitizeSeed`); sanitized with no salt. */
  seed?: Seed;
}

/**
 * The largest rate drawn with TFP's method (Knuth's, one step per unit of λ); larger rates are
 * drawn by float64 transformed rejection (`poissonPtrs64`) instead of running that loop for ever.
 */
export const KNUTH_MAX_RATE = 1e6;

/** The fold-in datum of the key for the rates above KNUTH_MAX_RATE ('pois'). */
const HIGH_RATE_FOLD = 0x706f6973;

/**
 * Poisson samples (TFP's `samplers.poisson`): P(k) = λᵏ e^(−λ) / k! on k = 0, 1, 2, …, with
 * result shape `shape + lam.shape`, and TFP on JAX's draws: its `tf.random.stateless_poisson` is
 * Knuth's method for every λ, one loop over the whole array — each step splits the key
 * (`[key, sub] = split(key)`), counts the elements whose running sum of log-uniforms (of
 * `uniform(sub, shape)`, in the default float dtype) is still above −λ, and adds a step's
 * log-uniforms, until no element is left. λ is used in the default float dtype. Unlike TFP on
 * JAX, λ = 0 gives 0 (TFP gives −1); a negative or NaN λ gives −1 as there. A float `dtype`
 * draws integers in the default integer dtype and converts them. Rates above
 * {@link KNUTH_MAX_RATE} (10⁶), where TFP's loop would take a million steps, are left out of
 * that loop (so the other elements' draws are TFP's) and drawn instead by Hörmann's transformed
 * rejection in float64 from `foldIn(key, 'pois')`, correct at any finite rate.
 *
 * Unlike TFP, whose default dtype is int32, the default follows stochax's x64 mode.
 *
 * @throws TypeError for a missing or non-numeric `lam`, a bad dtype or seed; RangeError for a bad
 *   shape or an infinite λ.
 * @example
 * samplers.poisson([3], { lam: [1, 20], seed: 0 });                   // → Tensor int64 [3, 2]
 * samplers.poisson([5], { lam: 4, dtype: 'float32', seed: 0 });       // → Tensor float32 [5]
 */
export function poisson(shape: ShapeLike, options: SamplersPoissonOptions): Tensor {
  const fn = 'samplers.poisson';
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['lam', 'dtype', 'seed']);
  if (opts.lam === undefined) fail('type', fn, 'lam', 'is required (a number, an array or a Tensor)', opts.lam);
  const modes = getModes();
  const isFloat = opts.dtype === 'float32' || opts.dtype === 'float64';
  if (opts.dtype !== undefined && !isFloat && !(INT_DTYPES as readonly unknown[]).includes(opts.dtype)) {
    fail(typeof opts.dtype === 'string' ? 'range' : 'type', fn, 'dtype', 'must be an integer or float dtype', opts.dtype);
  }
  if (opts.dtype === 'float64' && !modes.x64) fail('range', fn, 'dtype', "'float64' needs x64 mode (configure({ x64: true }))", opts.dtype);
  const intDtype: IntDType = isFloat ? defaultIntDtype(modes) : checkIntDtype(fn, opts.dtype, modes);
  const floatDtype: FloatDType = modes.x64 ? 'float64' : 'float32';
  const lam = floatParam(fn, 'lam', opts.lam, floatDtype);
  checkValues(fn, 'lam', lam.data as ArrayLike<number>, (v) => v !== Infinity, 'must be finite');
  const outShape = [...s, ...lam.shape];
  const size = sizeOf(checkShape(fn, 'shape', outShape));
  const key = sanitize(fn, opts.seed, undefined, modes);
  const lamValues = paramValues(fn, 'lam', lam, outShape);
  const k = knuth(key, lamValues, size, floatDtype, modes);
  const highIdx: number[] = [], highLam: number[] = [];
  for (let i = 0; i < size; i++) if (lamValues[i]! > KNUTH_MAX_RATE) { highIdx.push(i); highLam.push(lamValues[i]!); }
  if (highIdx.length > 0) poissonPtrs64(foldIn(key, HIGH_RATE_FOLD), highLam, highIdx, k, modes);
  const out = isFloat ? (opts.dtype === 'float32' ? new Float32Array(size) : new Float64Array(size)) : allocate(intDtype, size);
  const big = isBigIntDType(intDtype) && !isFloat;
  for (let i = 0; i < size; i++) out[i] = (big ? BigInt(k[i]!) : k[i]!) as never;
  return new Tensor(out, outShape, isFloat ? opts.dtype as FloatDType : intDtype);
}

/**
 * TFP on JAX's Knuth loop (its backend's `_poisson_jax_impl`), with λ = 0 giving 0; rates above
 * KNUTH_MAX_RATE take no part (their slots are filled by the caller).
 */
function knuth(key: KeyArray, lamIn: ArrayLike<number>, size: number, dtype: FloatDType, modes: Modes): Float64Array {
  const r = rounder(dtype);
  const lam = Float64Array.from(lamIn, (v) => (v > KNUTH_MAX_RATE ? 0 : v));
  const k = new Float64Array(size);
  const logProd = new Float64Array(size);
  for (let rng = key; ;) {
    let live = false;
    for (let i = 0; i < size; i++) if (logProd[i]! > -lam[i]!) { live = true; k[i]!++; }
    if (!live) break;
    const [next, sub] = splitKeys(rng, 2, modes) as [KeyArray, KeyArray];
    const u = uniformUnit(sub, size, dtype, modes);
    for (let i = 0; i < size; i++) logProd[i] = r(logProd[i]! + r(detLog(u[i]!)));
    rng = next;
  }
  for (let i = 0; i < size; i++) k[i] = lam[i] === 0 ? 0 : k[i]! - 1;
  return k;
}
