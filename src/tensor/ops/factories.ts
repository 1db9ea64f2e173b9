/**
 * Element-wise op factories with NumPy broadcasting and gradients. Each op is defined by its
 * value and its partial derivatives; the factories handle conversion, broadcasting, dtype and
 * the tape (the gradient of a broadcast is summed back to each input's shape).
 */
import { broadcastShapes, broadcastStrides, forEachBroadcast, reduceToShape } from '../broadcast.js';
import { asTensor, floatKind, floatStorage, numbers, result, type TensorLike } from '../core.js';
import type { Tensor } from '../tensor.js';

/** A unary element-wise op: `f(x)` and its derivative `df(x, y)` given the output y = f(x). */
export function unaryOp(name: string, f: (x: number) => number, df: ((x: number, y: number) => number) | null) {
  return (xLike: TensorLike): Tensor => {
    const x = asTensor(name, 'x', xLike);
    const xs = numbers(x);
    const n = xs.length;
    const out = floatStorage(floatKind(x), n);
    for (let i = 0; i < n; i++) out[i] = f(xs[i]!);
    return result(out, x.shape, [x], df === null ? null : (g) => {
      const gx = new Float64Array(n);
      for (let i = 0; i < n; i++) gx[i] = g[i]! === 0 ? 0 : g[i]! * df(xs[i]!, out[i]!);
      return [gx];
    });
  };
}

type Partial = ((a: number, b: number, y: number) => number) | null;

/**
 * A binary element-wise op with NumPy broadcasting: `f(a, b)` and its partials `da`, `db`
 * (given a, b and the output y). A null partial means that operand gets no gradient.
 */
export function binaryOp(name: string, f: (a: number, b: number) => number, da: Partial, db: Partial) {
  return (aLike: TensorLike, bLike: TensorLike): Tensor => {
    const a = asTensor(name, 'x', aLike), b = asTensor(name, 'y', bLike);
    const av = numbers(a), bv = numbers(b);
    const same = a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);
    const shape = same ? a.shape : broadcastShapes(name, [['x', a.shape], ['y', b.shape]]);
    const n = shape.reduce((p, d) => p * d, 1);
    const out = floatStorage(floatKind(a, b), n);
    // Flat operand index per output element: identity, a scalar, or broadcast strides.
    let ia: Int32Array | null = null, ib: Int32Array | null = null;
    if (same) for (let k = 0; k < n; k++) out[k] = f(av[k]!, bv[k]!);
    else if (b.size === 1 && a.size === n) { const s = bv[0]!; for (let k = 0; k < n; k++) out[k] = f(av[k]!, s); }
    else if (a.size === 1 && b.size === n) { const s = av[0]!; for (let k = 0; k < n; k++) out[k] = f(s, bv[k]!); }
    else {
      ia = new Int32Array(n); ib = new Int32Array(n);
      const ja = ia, jb = ib;
      forEachBroadcast(shape, broadcastStrides(a.shape, shape), broadcastStrides(b.shape, shape), (k, i, j) => {
        ja[k] = i; jb[k] = j; out[k] = f(av[i]!, bv[j]!);
      });
    }
    const at = (v: ArrayLike<number>, idx: Int32Array | null, size: number, k: number) => v[idx ? idx[k]! : size === 1 ? 0 : k]!;
    return result(out, shape, [a, b], da === null && db === null ? null : (g) => {
      const grads: (Float64Array | null)[] = [null, null];
      for (const [which, partial] of [[0, da], [1, db]] as const) {
        if (partial === null) continue;
        const full = new Float64Array(n);
        for (let k = 0; k < n; k++) {
          if (g[k] === 0) continue;
          full[k] = g[k]! * partial(at(av, ia, a.size, k), at(bv, ib, b.size, k), out[k]!);
        }
        grads[which] = reduceToShape(full, shape, which === 0 ? a.shape : b.shape);
      }
      return grads;
    });
  };
}
