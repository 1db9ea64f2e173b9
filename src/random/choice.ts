import { checkAxis, checkBoolean, checkCount, checkInteger, checkOptions, checkShape, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import { allocate, type FloatDType } from '../tensor/dtype.js';
import { Tensor, tensor } from '../tensor/tensor.js';
import { associativeCumsum } from './cumsum.js';
import { checkKey, type KeyArray } from './key-array.js';
import { arangeData, checkArrayArg, defaultIntDtype, indexList, takeAlong } from './permutation.js';
import { randintData } from './randint.js';
import { shuffleData } from './shuffle.js';
import { uniformData, uniformUnit } from './uniform.js';
import { detLog } from '../math/index.js';
import { sizeOf } from '../tensor/shapes.js';

export interface ChoiceOptions {
  /** Sample with replacement (default true). */
  replace?: boolean;
  /** Probabilities of each entry of `a` along `axis` (a number array or float Tensor). */
  p?: readonly number[] | Tensor;
  /** The axis of `a` to choose along (default 0). */
  axis?: number;
}

const TINY: Record<FloatDType, number> = { float32: 2 ** -126, float64: 2 ** -1022 };

/** Checks `p` and returns its values in its dtype: numbers act as Python floats. */
export function choiceProbabilities(fn: string, p: unknown, n: number, modes: Modes): { values: number[]; dtype: FloatDType } {
  let t: Tensor;
  if (p instanceof Tensor) {
    if (p.dtype !== 'float32' && p.dtype !== 'float64') fail('type', fn, 'p', 'must be a float tensor', `a ${p.dtype} tensor`);
    if (p.dtype === 'float64' && !modes.x64) fail('range', fn, 'p', "of dtype 'float64' needs x64 mode", p);
    t = p;
  } else if (Array.isArray(p)) {
    t = tensor(p, modes.x64 ? 'float64' : 'float32');
  } else {
    fail('type', fn, 'p', 'must be an array of numbers or a float Tensor', p);
  }
  if (t.ndim !== 1 || t.size !== n) fail('range', fn, 'p', `must have shape [${n}], one probability per entry of \`a\``, `shape [${t.shape.join(', ')}]`);
  const values = Array.from(t.data as Float64Array);
  for (const v of values) if (!(v >= 0 && v <= 1)) fail('range', fn, 'p', 'must hold probabilities in [0, 1]', v);
  if (!values.some((v) => v > 0)) fail('range', fn, 'p', 'must have a positive entry', p);
  return { values, dtype: t.dtype as FloatDType };
}

/** Indices of the k largest values, largest first; ties go to the lower index (XLA's TopK). */
function topK(values: Float64Array | Float32Array, k: number): number[] {
  const order = Array.from(values.keys());
  order.sort((a, b) => (values[b]! - values[a]!) || a - b);
  return order.slice(0, k);
}

/** First index i with `c[i] >= r` (`jnp.searchsorted(c, r, side='left')`). */
function searchsortedLeft(c: readonly number[], r: number): number {
  let lo = 0, hi = c.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (c[mid]! < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A random sample from `a` (`jax.random.choice`), bit-exact with JAX 0.10.2 for every mode:
 * - uniform with replacement: `randint(key, shape, 0, n)` in the default int dtype;
 * - uniform without replacement: the first draws of `permutation(key, a)`;
 * - weighted with replacement: inverse CDF on JAX's float32/float64 cumulative sum;
 * - weighted without replacement: Gumbel top-k (its order rests on `log`, which can differ
 *   from XLA's in the last ulp; a swap needs two perturbed weights within an ulp).
 *
 * @param a an integer n (choose from `[0, n)`), or an array/Tensor to choose slices of.
 * @param shape the sample shape (default `[]`); the result has shape
 *   `a.shape[:axis] + shape + a.shape[axis+1:]`.
 * @throws RangeError for `p` outside [0, 1] or of the wrong length, an empty population, or
 *   more draws than entries without replacement.
 * @example
 * random.choice(random.key(0), 5, [3]);                             // → Tensor int64 [3]
 * random.choice(random.key(0), 3, [4], { p: [0.2, 0.3, 0.5] });
 */
export function choice(
  key: KeyArray, a: number | Tensor | readonly unknown[], shape: number | readonly number[] = [], options?: ChoiceOptions,
): Tensor {
  const fn = 'random.choice';
  checkKey(fn, 'key', key);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['replace', 'p', 'axis']);
  const replace = opts.replace === undefined ? true : checkBoolean(fn, 'replace', opts.replace);
  const modes = getModes();
  const arr = typeof a === 'number' ? undefined : checkArrayArg(fn, 'a', a);
  const axis = arr ? checkAxis(fn, 'axis', opts.axis ?? 0, arr.ndim) : (opts.axis === undefined ? 0 : checkAxis(fn, 'axis', opts.axis, 1));
  const nInputs = arr ? arr.shape[axis]! : checkInteger(fn, 'a', a);
  const nDraws = sizeOf(s);
  if (nDraws === 0) return choiceData(key, arr ?? nInputs, s, axis, replace, undefined, modes);
  if (nInputs <= 0) fail('range', fn, 'a', 'must have at least one entry to choose from', a);
  if (!replace && nDraws > nInputs) {
    fail('range', fn, 'shape', `asks for ${nDraws} draws without replacement from ${nInputs} entries`, [...s]);
  }
  // Without replacement all of [0, a) is shuffled, so it must fit one array.
  if (!replace && !arr) checkCount(fn, 'a', nInputs);
  const p = opts.p === undefined ? undefined : choiceProbabilities(fn, opts.p, nInputs, modes);
  return choiceData(key, arr ?? nInputs, s, axis, replace, p, modes);
}

/**
 * The core of `choice` (and of the Generator's), for checked arguments: `a` a count n > 0 or a
 * tensor of rank ≥ 1 with `axis` in range and entries along it; draws of shape `s` (without
 * replacement, at most n of them); `p` from `choiceProbabilities`, or undefined for uniform.
 */
export function choiceData(
  key: KeyArray, a: number | Tensor, s: readonly number[], axis: number, replace: boolean,
  p: { values: number[]; dtype: FloatDType } | undefined, modes: Modes,
): Tensor {
  const intDtype = defaultIntDtype(modes);
  const arr = typeof a === 'number' ? undefined : a;
  const nInputs = arr ? arr.shape[axis]! : (a as number);
  const nDraws = sizeOf(s);
  const resultShape = arr ? [...arr.shape.slice(0, axis), ...s, ...arr.shape.slice(axis + 1)] : [...s];
  if (nDraws === 0) return new Tensor(allocate(arr ? arr.dtype : intDtype, 0), resultShape, arr ? arr.dtype : intDtype);

  let ind: number[];
  if (p === undefined) {
    if (replace) {
      ind = indexList(randintData(key, nDraws, 0n, BigInt(nInputs), intDtype, modes));
    } else {
      const perm = shuffleData(key, arangeData(nInputs, modes), [nInputs], 0, modes);
      ind = indexList(perm).slice(0, nDraws);
    }
  } else {
    const { values, dtype } = p;
    const round = dtype === 'float32' ? Math.fround : (v: number) => v;
    if (replace) {
      const c = associativeCumsum(values, round);
      const total = c[nInputs - 1]!;
      const u = uniformUnit(key, nDraws, dtype, modes);
      ind = Array.from(u, (ui) => searchsortedLeft(c, round(total * round(1 - ui))));
    } else {
      // Gumbel-max: -log(-log(u)) with u uniform in [tiny, 1), plus log p, then top-k.
      const g = uniformData(key, nInputs, dtype, TINY[dtype], 1, modes);
      for (let i = 0; i < nInputs; i++) g[i] = round(round(-detLog(round(-detLog(g[i]!)))) + round(detLog(values[i]!)));
      ind = topK(g, nDraws);
    }
  }
  if (!arr) {
    const out = allocate(intDtype, nDraws);
    ind.forEach((v, i) => { out[i] = (intDtype === 'int64' ? BigInt(v) : v) as never; });
    return new Tensor(out, [...s], intDtype);
  }
  return takeAlong(arr, ind, s, axis);
}
