/**
 * Element-wise arithmetic and elementary functions, with NumPy broadcasting and gradients.
 * Every function accepts Tensors, numbers and nested arrays.
 *
 * @example
 * add([1, 2], 3).toArray();          // [4, 5]
 * mul(tensor([[1], [2]]), [3, 4]);   // → Tensor float64 [2, 2]
 */
import { detCos, detExp, detExpm1, detLog, detLog1p, detPow, detSin, detTanh } from '../../math/index.js';
import { broadcastShapes } from '../broadcast.js';
import { asTensor, result, type TensorLike } from '../core.js';
import { kernelFactory, type Lowering } from '../lowering.js';
import { Tensor } from '../tensor.js';
import { binaryOp, unaryOp } from './factories.js';
import { broadcastTo } from './shape.js';

const LN2 = Math.LN2;

// ---- arithmetic --------------------------------------------------------------------------------

/** x + y. */
export const add = binaryOp('add', '+', 1, 1);
/** x − y. */
export const sub = binaryOp('sub', '-', 1, -1);
/** x · y. */
export const mul = binaryOp('mul', '*', 'other', 'other');
/** x / y. */
export const div = binaryOp('div', '/', (_, b) => 1 / b, (a, b) => -a / (b * b));
/** −x. */
export const neg = unaryOp('neg', (x) => -x, () => -1);
/**
 * x^y (the y-gradient is taken as 0 where x = 0). Computed by `detPow` (Math.pow's special cases,
 * within 0.5 + 2^−5 ulp, the same bits on every engine; Math.pow's last bit is not).
 */
export const pow = binaryOp('pow', (a, b) => detPow(a, b),
  (a, b) => (b === 0 ? 0 : b * detPow(a, b - 1)),
  (a, _, y) => (a === 0 ? 0 : y * detLog(a)));
/** x². */
export const square = unaryOp('square', (x) => x * x, (x) => 2 * x);
/** √x. */
export const sqrt = unaryOp('sqrt', Math.sqrt, (_, y) => 0.5 / y);
/** |x| (gradient sign(x), 0 at 0). */
export const abs = unaryOp('abs', Math.abs, (x) => Math.sign(x));
/** sign(x) ∈ {−1, 0, 1} (zero gradient). */
export const sign = unaryOp('sign', Math.sign, () => 0);
/** max(x, y) element-wise (the gradient goes to x on ties). */
export const maximum = binaryOp('maximum', Math.max, (a, b) => (a >= b ? 1 : 0), (a, b) => (a >= b ? 0 : 1));
/** min(x, y) element-wise (the gradient goes to x on ties). */
export const minimum = binaryOp('minimum', Math.min, (a, b) => (a <= b ? 1 : 0), (a, b) => (a <= b ? 0 : 1));

/** x clipped to [lo, hi] (gradient 1 inside, 0 outside). */
export function clip(x: TensorLike, lo: TensorLike, hi: TensorLike): Tensor {
  return minimum(maximum(x, lo), hi);
}

// ---- exponentials and logarithms ---------------------------------------------------------------

/** eˣ. */
export const exp = unaryOp('exp', detExp, (_, y) => y);
/** eˣ − 1, accurate near 0. */
export const expm1 = unaryOp('expm1', detExpm1, (_, y) => y + 1);
/** ln x. */
export const log = unaryOp('log', detLog, (x) => 1 / x);
/** ln(1 + x), accurate near 0. */
export const log1p = unaryOp('log1p', detLog1p, (x) => 1 / (1 + x));

/** 1 / (1 + e^(−x)), without overflow. */
export const sigmoid = unaryOp('sigmoid', sigmoidScalar, (_, y) => y * (1 - y));
/** ln(1 + eˣ), without overflow. */
export const softplus = unaryOp('softplus', softplusScalar, (x) => sigmoidScalar(x));
/** ln σ(x) = −softplus(−x), without underflow. */
export const logSigmoid = unaryOp('logSigmoid', (x) => -softplusScalar(-x), (x) => sigmoidScalar(-x));
/** tanh x (`detTanh`: the same bits on every engine, unlike Math.tanh). */
export const tanh = unaryOp('tanh', detTanh, (_, y) => 1 - y * y);
/** sin x. */
export const sin = unaryOp('sin', detSin, (x) => detCos(x));
/** cos x. */
export const cos = unaryOp('cos', detCos, (x) => -detSin(x));

/** x·ln y, defined as 0 where x = 0 (so 0·ln 0 = 0). */
export const xlogy = binaryOp('xlogy', (a, b) => (a === 0 ? 0 : a * detLog(b)),
  (_, b) => detLog(b), (a, b) => (a === 0 ? 0 : a / b));
/** x·ln(1 + y), defined as 0 where x = 0. */
export const xlog1py = binaryOp('xlog1py', (a, b) => (a === 0 ? 0 : a * detLog1p(b)),
  (_, b) => detLog1p(b), (a, b) => (a === 0 ? 0 : a / (1 + b)));
/** ln(1 − eˣ) for x ≤ 0, accurate at both ends (Mächler's switch at −ln 2). */
export const log1mexp = unaryOp('log1mexp', log1mexpScalar, (x) => -1 / detExpm1(-x));
/** ln(eˣ + eʸ), without overflow. */
export const logaddexp = binaryOp('logaddexp', logaddexpScalar,
  (a, _, y) => (y === -Infinity ? 0.5 : detExp(a - y)), (_, b, y) => (y === -Infinity ? 0.5 : detExp(b - y)));

export function sigmoidScalar(x: number): number {
  if (x >= 0) return 1 / (1 + detExp(-x));
  const e = detExp(x);
  return e / (1 + e);
}

export function softplusScalar(x: number): number {
  return x > 0 ? x + detLog1p(detExp(-x)) : detLog1p(detExp(x));
}

export function log1mexpScalar(x: number): number {
  return x > -LN2 ? detLog(-detExpm1(x)) : detLog1p(-detExp(x));
}

export function logaddexpScalar(a: number, b: number): number {
  if (a === b) return a + Math.LN2; // also ±∞ (−∞ + ln 2 = −∞)
  const m = a > b ? a : b;
  if (m === Infinity) return Infinity;
  return m + detLog1p(detExp(-Math.abs(a - b)));
}

// ---- comparisons and selection (no gradient through the condition) ---------------------------

const compare = (name: string, f: (a: number, b: number) => boolean) =>
  binaryOp(name, (a, b) => (f(a, b) ? 1 : 0), null, null, 'bool');

export const equal = compare('equal', (a, b) => a === b);
export const notEqual = compare('notEqual', (a, b) => a !== b);
export const less = compare('less', (a, b) => a < b);
export const lessEqual = compare('lessEqual', (a, b) => a <= b);
export const greater = compare('greater', (a, b) => a > b);
export const greaterEqual = compare('greaterEqual', (a, b) => a >= b);

const onX = binaryOp('where', (m, v) => (m ? v : 0), null, (m) => (m ? 1 : 0));
const onY = binaryOp('where', (m, v) => (m ? 0 : v), null, (m) => (m ? 0 : 1));

/**
 * Element-wise selection: x where `condition` is true (non-zero), else y; all three broadcast.
 * The gradient flows only into the branch that was selected (so ±∞ in the other branch is fine).
 *
 * @example
 * where([true, false], [1, 2], [10, 20]).toArray(); // [1, 20]
 */
export function where(condition: TensorLike, x: TensorLike, y: TensorLike): Tensor {
  const c = asTensor('where', 'condition', condition);
  const xt = asTensor('where', 'x', x), yt = asTensor('where', 'y', y);
  const shape = broadcastShapes('where', [['condition', c.shape], ['x', xt.shape], ['y', yt.shape]]);
  const mask = broadcastTo(c.astype('float64'), shape);
  return add(onX(mask, xt), onY(mask, yt));
}

/** A copy of x that the tape does not track (gradients stop here). */
export function stopGradient(x: TensorLike): Tensor {
  const t = asTensor('stopGradient', 'x', x);
  return result(t.dtype === 'float32' ? Float32Array.from(t.data as Float32Array) : Float64Array.from(t.data as ArrayLike<number>), t.shape, [t], null,
    undefined, STOP_GRADIENT);
}

// One lowering for every call, made by a named factory so that a compiled model's workers make their own.
const STOP_GRADIENT = kernelFactory('stopGradient', (): Lowering => ({ name: 'stopGradient', forward(ins, out) { for (let i = 0; i < out.length; i++) out[i] = ins[0]![i]!; } }))();
