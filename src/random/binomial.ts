import { checkOptions, fail } from '../checks.js';
import { getModes, type Modes } from '../config.js';
import type { FloatDType } from '../tensor/dtype.js';
import { Tensor } from '../tensor/tensor.js';
import { checkKey, type KeyArray } from './key-array.js';
import { floatDtype, floatParam, paramValues, resolveShape, rounder, type ParamLike, type ShapeLike } from './params.js';
import { splitKeys } from './key-array.js';
import { fmaFor, log1pXla } from './xla-math.js';
import { uniformUnit } from './uniform.js';
import { detLog } from '../math/index.js';

type FloatArray = Float64Array | Float32Array;

/**
 * The dtype JAX's `promote_dtypes_inexact` gives a parameter: a float Tensor keeps its dtype,
 * anything else (numbers, arrays, integer Tensors) takes the default float dtype.
 */
export function inexactDtype(fn: string, arg: string, value: unknown, modes: Modes): FloatDType {
  if (value instanceof Tensor && (value.dtype === 'float32' || value.dtype === 'float64')) {
    if (value.dtype === 'float64' && !modes.x64) fail('range', fn, arg, "of dtype 'float64' needs x64 mode", value);
    return value.dtype;
  }
  return modes.x64 ? 'float64' : 'float32';
}

const STIRLING_TAIL = [
  0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
  0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287,
];

/**
 * JAX's `_stirling_approx_tail` in `dtype`: the table for k ≤ 9, else the series
 * (1/12 − (1/360 − 1/1260/(k+1)²)/(k+1)²)/(k+1). JAX clamps k to [0, 9] *before* the series,
 * so every k > 9 gets the series at k = 9; that is reproduced here.
 */
function stirlingTail(dtype: FloatDType): (k: number) => number {
  const r = rounder(dtype);
  const table = STIRLING_TAIL.map(r);
  const kp1sq = 100;                                   // (9 + 1)²
  const series = r(r(r(1 / 12) - r(r(r(1 / 360) - r(r(1 / 1260) / kp1sq)) / kp1sq)) / 10);
  return (k) => (k <= 9 ? table[Math.floor(Math.min(Math.max(k, 0), 9))]! : series);
}

/**
 * Binomial inversion (sums of geometric waiting times) in lockstep over the listed elements:
 * each round `sub, key = split(key)` (the subkey is element 0, the carried key element 1),
 * num += 1 where the sum ≤ n, sum += ceil(log u / log1p(−q)) for a whole-shape uniform from
 * `sub`. Returns num − 1 at the listed positions.
 */
function inversion(key: KeyArray, count: FloatArray, q: FloatArray, active: number[], out: Float64Array,
  dtype: FloatDType, modes: Modes): void {
  const n = count.length;
  const r = rounder(dtype);
  const log1mq = new Float64Array(n);
  for (const i of active) log1mq[i] = log1pXla(-q[i]!, r);
  const sum = new Float64Array(n);
  const num = new Float64Array(n);
  const idx = Int32Array.from(active.filter((i) => 0 <= count[i]!));   // still counting, compacted in place
  let live = idx.length;
  let loopKey = key;
  while (live > 0) {
    const [sub, next] = splitKeys(loopKey, 2, modes) as [KeyArray, KeyArray];
    loopKey = next;
    const u = uniformUnit(sub, n, dtype, modes);
    let w = 0;
    for (let t = 0; t < live; t++) {
      const i = idx[t]!;
      num[i]!++;
      const s = r(sum[i]! + Math.ceil(r(r(detLog(u[i]!)) / log1mq[i]!)));
      sum[i] = s;
      if (s <= count[i]!) idx[w++] = i;
    }
    live = w;
  }
  for (const i of active) out[i] = num[i]! - 1;
}

/**
 * Hörmann's BTRS (1993) in lockstep over the whole array: each round
 * `key, s0, s1 = split(key, 3)`, u = U(s0) − ½ and v = U(s1). The arithmetic is JAX's `_btrs`
 * in `dtype`, with XLA:CPU's fused multiply-adds. As in JAX, the loop runs until every element
 * has accepted once and *every* accepted proposal overwrites the element's value (no mask for
 * earlier acceptances), so the other branch's elements (n = 1e4, q = ½) count: they decide how
 * many rounds run. `real[i]` marks the elements whose value is kept; the others are followed
 * only until their first acceptance. An element whose parameters make every test NaN (n = ∞
 * with q = 0) would keep JAX looping for ever; it is treated as done (its result is ∞ anyway).
 */
function btrs(key: KeyArray, count: FloatArray, q: FloatArray, real: Uint8Array, out: Float64Array,
  dtype: FloatDType, modes: Modes): void {
  const n = count.length;
  const r = rounder(dtype);
  const fma = fmaFor(dtype);
  const st = stirlingTail(dtype);
  const K = {
    b0: r(1.15), b1: r(2.53), a0: r(-0.0873), a1: r(0.0248), a2: r(0.01), vr0: r(0.92), vr1: r(4.2),
    al0: r(2.83), al1: r(5.1), us1: r(0.07),
  };
  const b = new Float64Array(n), a2 = new Float64Array(n), a = new Float64Array(n), c = new Float64Array(n);
  const vr = new Float64Array(n), ratio = new Float64Array(n), alpha = new Float64Array(n);
  const m = new Float64Array(n), t1 = new Float64Array(n), stM = new Float64Array(n);
  const accepted = new Uint8Array(n);
  let pending = n;
  for (let i = 0; i < n; i++) {
    const cnt = count[i]!, p = q[i]!;
    const stddev = r(Math.sqrt(r(r(cnt * p) * r(1 - p))));
    const bi = fma(K.b1, stddev, K.b0);
    b[i] = bi;
    a[i] = fma(K.a2, p, fma(K.a1, bi, K.a0));
    a2[i] = r(2 * a[i]!);
    c[i] = fma(cnt, p, 0.5);
    vr[i] = r(K.vr0 - r(K.vr1 / bi));
    const rr = r(p / r(1 - p));
    ratio[i] = rr;
    alpha[i] = r(r(K.al0 + r(K.al1 / bi)) * stddev);
    const mi = Math.floor(r(r(cnt + 1) * p));
    m[i] = mi;
    // Loop-invariant terms (XLA hoists them out of the while body, so they are rounded).
    t1[i] = r(r(mi + 0.5) * r(detLog(r(r(mi + 1) / r(rr * r(r(cnt - mi) + 1))))));
    stM[i] = st(mi);
    if (Number.isNaN(vr[i]!) && Number.isNaN(stddev)) { accepted[i] = 1; pending--; }
  }
  let loopKey = key;
  while (pending > 0) {
    const [next, s0, s1] = splitKeys(loopKey, 3, modes) as [KeyArray, KeyArray, KeyArray];
    loopKey = next;
    const us0 = uniformUnit(s0, n, dtype, modes);
    const vs = uniformUnit(s1, n, dtype, modes);
    for (let i = 0; i < n; i++) {
      if (accepted[i] && !real[i]) continue;          // its value is discarded and it no longer holds the loop
      const cnt = count[i]!, bi = b[i]!, ai = a[i]!;
      const u = us0[i]! - 0.5;                         // exact
      const v = vs[i]!;
      const us = 0.5 - Math.abs(u);                    // exact
      const k = Math.floor(fma(r(r(a2[i]! / us) + bi), u, c[i]!));
      let accept = us >= K.us1 && v <= vr[i]!;
      if (!accept && !(k < 0 || k > cnt)) {
        const lv = r(detLog(r(r(v * alpha[i]!) / r(r(ai / r(us * us)) + bi))));
        const mi = m[i]!, rr = ratio[i]!;
        const nmk1 = r(r(cnt - k) + 1);
        const l2 = r(detLog(r(r(r(cnt - mi) + 1) / nmk1)));
        const l3 = r(detLog(r(r(rr * nmk1) / r(k + 1))));
        const partial = fma(r(k + 0.5), l3, fma(r(cnt + 1), l2, t1[i]!));
        const ub = r(r(r(r(partial + stM[i]!) + st(r(cnt - mi))) - st(k)) - st(r(cnt - k)));
        accept = lv <= ub;
      }
      if (!accept) continue;
      if (real[i]) out[i] = k;
      if (!accepted[i]) { accepted[i] = 1; pending--; }
    }
  }
}

/**
 * Binomial samples exactly as JAX's `_binomial` (§6.15), computed in `dtype` (the dtype of p)
 * and returned in `outDtype`. `count` and `prob` are broadcast values in `dtype`; `count` is
 * floored after the branch choice, as in JAX. q = min(p, 1 − p); inversion where n·q ≤ 10 (or
 * n is NaN or negative), BTRS elsewhere, both from the same key; p ≥ ½ returns n − sample; NaN,
 * negative n, p outside [0, 1] give NaN; n = ∞ gives ∞. The inversion loop follows only its own
 * elements (finished counts stop changing, so its length does not matter); the BTRS loop runs
 * over the whole array with n = 1e4, q = ½ for the inversion elements, as JAX does (see `btrs`),
 * and is skipped when no element needs it.
 */
export function binomialData(key: KeyArray, count: FloatArray, prob: FloatArray, dtype: FloatDType,
  outDtype: FloatDType, modes: Modes): FloatArray {
  const n = count.length;
  const r = rounder(dtype);
  const ro = rounder(outDtype);
  const make = () => (dtype === 'float32' ? new Float32Array(n) : new Float64Array(n));
  const cnt = make(), q = make(), cntBtrs = make(), qBtrs = make();
  const sample = new Float64Array(n);
  const invIdx: number[] = [];
  const real = new Uint8Array(n);
  let anyBtrs = false;
  const out = outDtype === 'float32' ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = prob[i]!, c0 = count[i]!;
    let qi = p < 0.5 ? p : r(1 - p);
    const countNanOrNeg = c0 !== c0 || c0 < 0;
    const countInf = c0 === Infinity || c0 === -Infinity;
    const qInvalid = qi !== qi || qi < 0;
    if (qInvalid) qi = r(0.01);
    const invalid = qInvalid || countNanOrNeg;
    const useInversion = countNanOrNeg || r(c0 * qi) <= 10;
    const c = Math.floor(c0);
    cnt[i] = c;
    q[i] = qi;
    cntBtrs[i] = useInversion ? 1e4 : c;
    qBtrs[i] = useInversion ? 0.5 : qi;
    if (invalid) out[i] = Number.NaN;
    else if (countInf) out[i] = Infinity;
    else if (useInversion) invIdx.push(i);
    else { real[i] = 1; anyBtrs = true; }
  }
  if (invIdx.length > 0) inversion(key, cnt, q, invIdx, sample, dtype, modes);
  if (anyBtrs) btrs(key, cntBtrs, qBtrs, real, sample, dtype, modes);
  for (let i = 0; i < n; i++) {
    const v = out[i]!;
    if (v !== v || v === Infinity) continue;
    const s = ro(sample[i]!);
    out[i] = prob[i]! < 0.5 ? s : ro(ro(cnt[i]!) - s);
  }
  return out;
}

/**
 * Binomial samples (`jax.random.binomial`): P(k) = C(n, k) pᵏ (1 − p)ⁿ⁻ᵏ on k = 0, …, n, as
 * floats (JAX's convention).
 *
 * Follows JAX exactly: p takes JAX's inexact dtype (a plain number acts as a Python float:
 * float64 draws in x64 mode, float32 in x32; a float Tensor keeps its dtype), n is cast to it
 * and floored; inversion for n·min(p, 1−p) ≤ 10 and BTRS above, in lockstep from the same key.
 * As in JAX, invalid parameters give NaN for that element rather than an error: NaN or negative
 * n, NaN p or p outside [0, 1]; n = ∞ gives ∞.
 *
 * @param n number of trials (≥ 0), a number, array or Tensor.
 * @param p success probability in [0, 1], a number, array or Tensor.
 * @param shape result shape; defaults to the broadcast shape of `n` and `p`, which must
 *   broadcast to it.
 * @param options.dtype float dtype of the result; default float64 in x64 mode, float32 in x32.
 * @throws RangeError when `n` or `p` does not broadcast to `shape`; TypeError for
 *   non-numeric parameters.
 * @example
 * random.binomial(random.key(0), 10, 0.3, [4]);            // → Tensor float64 [4]
 * random.binomial(random.key(0), [5, 1e6], [0.5, 0.01]);    // → Tensor float64 [2]
 */
export function binomial(key: KeyArray, n: ParamLike, p: ParamLike, shape?: ShapeLike, options?: { dtype?: FloatDType }): Tensor<FloatDType> {
  const fn = 'random.binomial';
  checkKey(fn, 'key', key);
  const opts = checkOptions(fn, options, ['dtype']);
  const modes = getModes();
  const outDtype = floatDtype(fn, opts.dtype, modes);
  const dtype = inexactDtype(fn, 'p', p, modes);
  const pT = floatParam(fn, 'p', p, dtype);
  const nT = floatParam(fn, 'n', n, dtype);
  const s = resolveShape(fn, shape, [['n', nT], ['p', pT]]);
  const counts = paramValues(fn, 'n', nT, s);
  const probs = paramValues(fn, 'p', pT, s);
  return new Tensor<FloatDType>(binomialData(key, counts, probs, dtype, outDtype, modes), s, outDtype);
}
