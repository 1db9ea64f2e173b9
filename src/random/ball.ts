import { checkNonNegativeInteger, checkOptions, checkShape } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { sizeOf } from '../tensor/shapes.js';
import { Tensor } from '../tensor/tensor.js';
import { exponentialData } from './exponential.js';
import {  } from './gamma.js';
import { cpow, rounder, type FloatArray, type Round } from './gamma-steps.js';
import { checkPower, generalizedNormalData } from './generalized-normal.js';
import { checkKey, splitKeys, type KeyArray } from './key-array.js';
import { floatDtype, type ShapeLike } from './params.js';

/**
 * |x|^p as `jnp.abs(g) ** p` computes it: an integer p is a Python int in JAX, which `**` turns
 * into `lax.integer_pow` (binary exponentiation, each product rounded); any other p is
 * `lax.pow` with p in the dtype.
 */
function absPow(x: number, p: number, pd: number, r: Round): number {
  const a = Math.abs(x);
  if (!Number.isInteger(p)) return r(cpow(a, pd));
  let acc = Number.NaN, sq = a, n = p;
  let first = true;
  while (n > 0) {
    if (n & 1) { acc = first ? sq : r(acc * sq); first = false; }
    n = Math.floor(n / 2);
    if (n > 0) sq = r(sq * sq);
  }
  return acc;
}

/**
 * `rows` points of the unit Lp ball in `d` dimensions as JAX draws them (§6.17, Barthe et al.
 * 2005): `k1, k2 = split(key)`, g = generalized_normal(k1, p) of shape [rows, d],
 * e = exponential(k2) of shape [rows], and g / (Σ|g|^p + e)^(1/p) row by row.
 */
export function ballData(key: KeyArray, d: number, p: number, rows: number, dtype: FloatDType, modes: Modes): FloatArray {
  const r = rounder(dtype);
  const [k1, k2] = splitKeys(key, 2, modes) as [KeyArray, KeyArray];
  const g = generalizedNormalData(k1, p, rows * d, dtype, modes);
  const e = exponentialData(k2, rows, dtype, modes);
  const pd = r(p), inv = r(1 / p);
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    for (let j = 0; j < d; j++) sum = r(sum + absPow(g[i * d + j]!, p, pd, r));
    const norm = r(cpow(r(sum + e[i]!), inv));
    for (let j = 0; j < d; j++) g[i * d + j] = r(g[i * d + j]! / norm);
  }
  return g;
}

/**
 * Points drawn uniformly from the unit Lp ball {x ∈ ℝ^d : Σ|x_i|^p ≤ 1} (`jax.random.ball`).
 * The result has shape `[...shape, d]`. Drawn as g/(‖g‖_p^p + e)^(1/p) with g generalized-normal
 * and e exponential (`k1, k2 = split(key)`), as JAX does; agrees with JAX to a few float32 ulp.
 *
 * @param key a single PRNG key.
 * @param d the dimension, a non-negative integer.
 * @param p the norm's power, a positive finite number (default 2). An integer p computes |x|^p
 *   by repeated multiplication, as JAX does for a Python int.
 * @param shape the batch shape (default `[]`).
 * @param options.dtype `'float64'` (default in x64 mode) or `'float32'` (default in x32 mode).
 * @throws TypeError for a non-integer `d`, a non-numeric `p` or a bad key; RangeError for
 *   negative `d`, p ≤ 0 or not finite, a bad shape, or float64 in x32 mode.
 * @example
 * random.ball(random.key(0), 3);                  // → Tensor float64 [3], inside the unit ball
 * random.ball(random.key(0), 2, 1, [5]);          // → Tensor float64 [5, 2], in the L1 ball
 */
export function ball(key: KeyArray, d: number, p = 2, shape: ShapeLike = [], options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.ball';
  checkKey(fn, 'key', key);
  const dd = checkNonNegativeInteger(fn, 'd', d);
  const pp = checkPower(fn, 'p', p);
  const s = checkShape(fn, 'shape', shape as number[]);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = floatDtype(fn, opts.dtype, modes);
  const full = checkShape(fn, 'shape', [...s, dd]); // the result, not just the batch, must fit
  return new Tensor<FloatDType>(ballData(key, dd, pp, sizeOf(s), dtype, modes), full, dtype);
}
