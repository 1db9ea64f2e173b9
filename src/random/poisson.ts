import { checkOptions, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { IntDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { fma32 } from './float.js';
import { checkKey, splitKeys, type KeyArray } from './key-array.js';
import { floatParam, floatToIntData, paramValues, resolveShape, type IntData, type ParamLike, type ShapeLike } from './params.js';
import { checkIntDtype } from './randint.js';
import { uniformUnit } from './uniform.js';
import { lgamma32 } from './xla-math.js';
import { detLog } from '../math/index.js';

const f = Math.fround;

// ---------------------------------------------------------------------------------------------
// Poisson

const C = {
  b0: f(0.931), b1: f(2.53), a0: f(-0.059), a1: f(0.02483), ia0: f(1.1239), ia1: f(1.1328), ia2: f(3.4),
  vr0: f(0.9277), vr1: f(3.6224), k0: f(0.43), us1: f(0.07), us2: f(0.013),
};

/**
 * Knuth's multiplication method in lockstep, for the listed elements (the others have
 * λ replaced by 0 and finish at once): each round `rng, sub = split(rng)`, k += 1 where
 * log p > −λ, then log p += log(u) for a whole-shape float32 uniform from `sub`. Returns k − 1
 * into `out` at the listed positions.
 */
function knuth(key: KeyArray, lam: Float32Array, active: number[], out: Float64Array, modes: Modes): void {
  const n = lam.length;
  const logp = new Float32Array(n);
  const k = new Float64Array(n);
  const idx = Int32Array.from(active);          // the elements still counting, compacted in place
  let live = idx.length;
  let rng = key;
  while (live > 0) {
    const [next, sub] = splitKeys(rng, 2, modes) as [KeyArray, KeyArray];
    rng = next;
    const u = uniformUnit(sub, n, 'float32', modes);
    let w = 0;
    for (let t = 0; t < live; t++) {
      const i = idx[t]!;
      k[i]!++;
      const lp = f(logp[i]! + f(detLog(u[i]!)));
      logp[i] = lp;
      if (lp > -lam[i]!) idx[w++] = i;
    }
    live = w;
  }
  for (const i of active) out[i] = k[i]! - 1;
}

/**
 * Hörmann's transformed rejection (PTRS) in lockstep over the whole array, in float32: each
 * round `key, s0, s1 = split(key, 3)`, u = U(s0) − ½, v = U(s1). As in JAX, the loop runs until
 * every element has accepted once, and *every* accepted proposal overwrites the element's value
 * (`k_out = select(accept, k, k_out)`, with no mask for earlier acceptances): a value is the last
 * proposal it accepted before the slowest element finished. So the elements of the other branch
 * (λ replaced by 1e5) matter too: they decide how many rounds run. `real[i]` marks the elements
 * whose value is kept; the others are only followed until their first acceptance.
 */
function ptrs(key: KeyArray, lam: Float32Array, real: Uint8Array, out: Float64Array, modes: Modes): void {
  const n = lam.length;
  const logLam = new Float32Array(n), b = new Float32Array(n), a2 = new Float32Array(n), a = new Float32Array(n);
  const invAlpha = new Float32Array(n), vr = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const l = lam[i]!;
    logLam[i] = f(detLog(l));
    const bi = fma32(C.b1, f(Math.sqrt(l)), C.b0);
    b[i] = bi;
    a[i] = fma32(C.a1, bi, C.a0);
    a2[i] = f(2 * a[i]!);
    invAlpha[i] = f(C.ia0 + f(C.ia1 / f(bi - C.ia2)));
    vr[i] = f(C.vr0 - f(C.vr1 / f(bi - 2)));
  }
  const accepted = new Uint8Array(n);
  let pending = n;
  let loopKey = key;
  while (pending > 0) {
    const [next, s0, s1] = splitKeys(loopKey, 3, modes) as [KeyArray, KeyArray, KeyArray];
    loopKey = next;
    const us0 = uniformUnit(s0, n, 'float32', modes);
    const vs = uniformUnit(s1, n, 'float32', modes);
    for (let i = 0; i < n; i++) {
      if (accepted[i] && !real[i]) continue;          // its value is discarded and it no longer holds the loop
      const l = lam[i]!, bi = b[i]!, ai = a[i]!;
      const u = us0[i]! - 0.5;                         // exact
      const v = vs[i]!;
      const us = 0.5 - Math.abs(u);                    // exact
      const k = Math.floor(f(fma32(f(f(a2[i]! / us) + bi), u, l) + C.k0));
      let accept = us >= C.us1 && v <= vr[i]!;
      if (!accept && !(k < 0 || (us < C.us2 && v > us))) {
        const s = f(detLog(f(f(v * invAlpha[i]!) / f(f(ai / f(us * us)) + bi))));
        const t = f(fma32(k, logLam[i]!, -l) - lgamma32(f(k + 1)));
        accept = s <= t;
      }
      if (!accept) continue;
      if (real[i]) out[i] = k;
      if (!accepted[i]) { accepted[i] = 1; pending--; }
    }
  }
}

/**
 * Poisson samples exactly as JAX's `_poisson` (§6.14), for float32 rates: Knuth's method where
 * λ < 10 or NaN, transformed rejection elsewhere, both in lockstep from the same key; λ = 0
 * gives 0; negative or NaN λ gives −1 (as JAX). The Knuth loop follows only its own elements
 * (its counts stop changing once done, so the loop length does not matter); the rejection loop
 * runs over the whole array with λ = 1e5 for the Knuth elements, as JAX does, because there the
 * number of rounds changes the values (see `ptrs`). Without rejection elements it is skipped.
 */
export function poissonData(key: KeyArray, lam: Float32Array, dtype: IntDType, modes: Modes): IntData {
  const n = lam.length;
  const k = new Float64Array(n).fill(-1);
  const knuthIdx: number[] = [];
  const real = new Uint8Array(n);
  const lamRejection = new Float32Array(n).fill(1e5);
  let anyRejection = false;
  for (let i = 0; i < n; i++) {
    const l = lam[i]!;
    if (l !== l || l < 10) {
      if (l > 0) knuthIdx.push(i);                     // λ ≤ 0 or NaN: logp = 0 ≯ −λ, so k − 1 = −1
    } else {
      real[i] = 1;
      lamRejection[i] = l;
      anyRejection = true;
    }
  }
  if (knuthIdx.length > 0) knuth(key, lam, knuthIdx, k, modes);
  if (anyRejection) ptrs(key, lamRejection, real, k, modes);
  for (let i = 0; i < n; i++) if (lam[i] === 0) k[i] = 0;
  return floatToIntData(k, dtype);
}

/**
 * Poisson samples (`jax.random.poisson`): P(k) = λᵏ e^(−λ) / k! on k = 0, 1, 2, …
 *
 * Follows JAX exactly: λ is broadcast to `shape` and converted to float32 in every mode;
 * Knuth's multiplication method for λ < 10 and Hörmann's transformed rejection (PTRS) above,
 * each in lockstep over the whole array with the same key, with JAX's float32 arithmetic
 * (including XLA's float32 lgamma). Integer results equal JAX's except where XLA's `log`
 * differs from ours in the last float32 bit and that flips a comparison (rare; for very large
 * λ the float32 rejection test itself is coarse, in JAX too). That float32 arithmetic also
 * bounds where the draws are right in distribution: up to about λ = 2^24 ≈ 1.7e7 (where float32
 * stops holding every integer); above, the spread is off (sd ≈ 1.2·√λ at λ = 1e8, and at
 * λ = 1e15 only 7 distinct values in 4000 draws, sd ≈ 1.5·√λ), in JAX as here. For large rates
 * use the `Poisson` distribution, which draws correctly at any rate. Unlike JAX, any PRNG impl is
 * accepted (JAX allows only threefry2x32).
 *
 * @param lam rate λ ≥ 0: a number, array or Tensor. As in JAX, a negative or NaN λ gives −1
 *   for that element (no error); λ = 0 gives 0.
 * @param shape result shape; defaults to `lam`'s shape, and `lam` must broadcast to it.
 * @param options.dtype integer dtype; default `int64` in x64 mode (bigints), `int32` in x32.
 * @throws RangeError for an infinite λ (JAX would loop without end or return garbage), or a
 *   `lam` that does not broadcast to `shape`; TypeError for a non-numeric `lam`.
 * @example
 * random.poisson(random.key(0), 3.5, [4]);           // → Tensor int64 [4]
 * random.poisson(random.key(0), [0.5, 20, 1e4]);      // → Tensor int64 [3]
 */
export function poisson(key: KeyArray, lam: ParamLike, shape?: ShapeLike, options?: { dtype?: IntDType }): Tensor<IntDType> {
  const fn = 'random.poisson';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const dtype = checkIntDtype(fn, opts.dtype, modes);
  const lamT = floatParam(fn, 'lam', lam, 'float32');
  const s = resolveShape(fn, shape, [['lam', lamT]]);
  const values = paramValues(fn, 'lam', lamT, s) as Float32Array;
  // λ is float32 (as in JAX), so a finite λ above float32's maximum arrives here as Infinity.
  for (const v of values) if (v === Infinity) fail('range', fn, 'lam', 'must be finite and at most 3.4028234663852886e+38 (λ is computed in float32, as in JAX)', lam);
  return new Tensor<IntDType>(poissonData(key, values, dtype, modes), s, dtype);
}

