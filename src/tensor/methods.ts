/**
 * Methods on `Tensor` that mirror the functions (`x.mul(y).add(z)`, `x.sum(0)`), attached here
 * so the `Tensor` class itself does not depend on the ops. Imported for its effect by the
 * tensor entry point.
 *
 * @example
 * tensor([1, 2, 3]).mul(2).add(1).sum().item(); // 15
 */
import type { TensorLike } from './core.js';
import * as cumulative from './ops/cumulative.js';
import * as E from './ops/elementwise.js';
import * as M from './ops/matmul.js';
import * as moments from './ops/moments.js';
import * as R from './ops/reduce.js';
import * as S from './ops/shape.js';
import * as SP from './ops/special.js';
import { Tensor } from './tensor.js';

type Axes = R.Axes;

declare module './tensor.js' {
  interface Tensor<D> {
    add(y: TensorLike): Tensor; sub(y: TensorLike): Tensor; mul(y: TensorLike): Tensor; div(y: TensorLike): Tensor;
    pow(y: TensorLike): Tensor; maximum(y: TensorLike): Tensor; minimum(y: TensorLike): Tensor;
    xlogy(y: TensorLike): Tensor; xlog1py(y: TensorLike): Tensor; logaddexp(y: TensorLike): Tensor;
    equal(y: TensorLike): Tensor; notEqual(y: TensorLike): Tensor; less(y: TensorLike): Tensor;
    lessEqual(y: TensorLike): Tensor; greater(y: TensorLike): Tensor; greaterEqual(y: TensorLike): Tensor;
    neg(): Tensor; square(): Tensor; sqrt(): Tensor; abs(): Tensor; sign(): Tensor; exp(): Tensor; expm1(): Tensor;
    log(): Tensor; log1p(): Tensor; sigmoid(): Tensor; softplus(): Tensor; logSigmoid(): Tensor; tanh(): Tensor;
    sin(): Tensor; cos(): Tensor; log1mexp(): Tensor; stopGradient(): Tensor;
    clip(lo: TensorLike, hi: TensorLike): Tensor;
    sum(axis?: Axes, keepdims?: boolean): Tensor; mean(axis?: Axes, keepdims?: boolean): Tensor;
    prod(axis?: Axes, keepdims?: boolean): Tensor; max(axis?: Axes, keepdims?: boolean): Tensor;
    min(axis?: Axes, keepdims?: boolean): Tensor; logsumexp(axis?: Axes, keepdims?: boolean): Tensor;
    argmax(axis?: number, keepdims?: boolean): Tensor; argmin(axis?: number, keepdims?: boolean): Tensor;
    cumsum(axis?: number): Tensor; cumlogsumexp(axis?: number): Tensor;
    variance(axis?: Axes, keepdims?: boolean, options?: moments.MomentOptions): Tensor;
    std(axis?: Axes, keepdims?: boolean, options?: moments.MomentOptions): Tensor;
    expandDims(axis: number): Tensor; squeeze(axis?: number | readonly number[]): Tensor;
    transpose(axes?: readonly number[]): Tensor; broadcastTo(shape: readonly number[]): Tensor;
    gather(indices: TensorLike, axis?: number): Tensor;
    matmul(y: TensorLike): Tensor; dot(y: TensorLike): Tensor;
    erf(): Tensor; erfc(): Tensor; erfinv(): Tensor; lgamma(): Tensor; digamma(): Tensor; trigamma(): Tensor;
  }
}

type Method = (this: Tensor, ...args: unknown[]) => Tensor;
const proto = Tensor.prototype as unknown as Record<string, Method>;
const attach = (name: string, f: (x: Tensor, ...args: any[]) => Tensor) => {
  proto[name] = function (this: Tensor, ...args: unknown[]) { return f(this, ...args); };
};

for (const name of ['add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum', 'xlogy', 'xlog1py', 'logaddexp', 'equal',
  'notEqual', 'less', 'lessEqual', 'greater', 'greaterEqual', 'neg', 'square', 'sqrt', 'abs', 'sign', 'exp', 'expm1', 'log',
  'log1p', 'sigmoid', 'softplus', 'logSigmoid', 'tanh', 'sin', 'cos', 'log1mexp', 'stopGradient', 'clip'] as const) {
  attach(name, E[name] as (x: Tensor, ...args: any[]) => Tensor);
}
for (const name of ['sum', 'mean', 'prod', 'max', 'min', 'logsumexp', 'argmax', 'argmin'] as const) attach(name, R[name]);
attach('cumsum', cumulative.cumsum);
attach('cumlogsumexp', cumulative.cumlogsumexp);
attach('variance', moments.variance);
attach('std', moments.std);
for (const name of ['expandDims', 'squeeze', 'transpose', 'broadcastTo', 'gather'] as const) {
  attach(name, S[name] as (x: Tensor, ...args: any[]) => Tensor);
}
attach('matmul', M.matmul as (x: Tensor, ...args: any[]) => Tensor);
attach('dot', M.dot as (x: Tensor, ...args: any[]) => Tensor);
for (const name of ['erf', 'erfc', 'erfinv', 'lgamma', 'digamma', 'trigamma'] as const) attach(name, SP[name] as (x: Tensor, ...args: any[]) => Tensor);
