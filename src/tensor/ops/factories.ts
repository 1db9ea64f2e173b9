/**
 * Element-wise op factories with NumPy broadcasting and gradients. Each op is defined by its
 * value and its partial derivatives; the factories handle conversion, broadcasting, dtype and
 * the tape (the gradient of a broadcast is summed back to each input's shape).
 */
import { broadcastShapes, broadcastStrides, forEachBroadcast } from '../broadcast.js';
import { asTensor, floatKind, floatStorage, numbers, result, type TensorLike } from '../core.js';
import { Tensor } from '../tensor.js';

/** A unary element-wise op: `f(x)` and its derivative `df(x, y)` given the output y = f(x). */
export function unaryOp(name: string, f: (x: number) => number, df: ((x: number, y: number) => number) | null) {
  return (xLike: TensorLike): Tensor => {
    const x = xLike instanceof Tensor ? xLike : asTensor(name, 'x', xLike);
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

/**
 * A partial derivative: a function of (a, b, y), a constant (add's 1, sub's −1), or 'other' for
 * the other operand (mul). The last two take loops without a call per element.
 */
type Partial = ((a: number, b: number, y: number) => number) | number | 'other' | null;

/**
 * A binary element-wise op with NumPy broadcasting: `f(a, b)` and its partials `da`, `db`
 * (given a, b and the output y). A null partial means that operand gets no gradient. Equal
 * shapes and scalar operands take direct loops; other broadcasts go through index maps.
 */
export function binaryOp(name: string, f: (a: number, b: number) => number, da: Partial, db: Partial) {
  return (aLike: TensorLike, bLike: TensorLike): Tensor => {
    const a = aLike instanceof Tensor ? aLike : asTensor(name, 'x', aLike);
    const b = bLike instanceof Tensor ? bLike : asTensor(name, 'y', bLike);
    const av = numbers(a), bv = numbers(b);
    const na = av.length, nb = bv.length;
    const same = na === nb && sameShape(a.shape, b.shape);
    const shape = same ? a.shape : broadcastShapes(name, [['x', a.shape], ['y', b.shape]]);
    const n = same ? na : shape.reduce((p, d) => p * d, 1);
    const out = floatStorage(floatKind(a, b), n);
    // Index of each output element in a and b: null when it is k itself (same size) or 0 (scalar).
    let ia: Int32Array | null = null, ib: Int32Array | null = null;
    if (na === n && nb === n) for (let k = 0; k < n; k++) out[k] = f(av[k]!, bv[k]!);
    else if (nb === 1 && na === n) { const s = bv[0]!; for (let k = 0; k < n; k++) out[k] = f(av[k]!, s); }
    else if (na === 1 && nb === n) { const s = av[0]!; for (let k = 0; k < n; k++) out[k] = f(s, bv[k]!); }
    else {
      const ja = new Int32Array(n), jb = new Int32Array(n);
      forEachBroadcast(shape, broadcastStrides(a.shape, shape), broadcastStrides(b.shape, shape), (k, i, j) => {
        ja[k] = i; jb[k] = j; out[k] = f(av[i]!, bv[j]!);
      });
      ia = ja; ib = jb;
    }
    if (da === null && db === null) return result(out, shape, [a, b], null);
    return result(out, shape, [a, b], (g) => [
      da === null ? null : partialGrad(g, da, av, bv, out, ia, ib, n, na, nb, true),
      db === null ? null : partialGrad(g, db, av, bv, out, ia, ib, n, na, nb, false),
    ]);
  };
}

function sameShape(x: readonly number[], y: readonly number[]): boolean {
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/**
 * The gradient for one operand of a binary op: g·∂f/∂operand at each output element, summed
 * into the operand's elements (the reduction of a broadcast).
 */
function partialGrad(
  g: Float64Array, partial: Exclude<Partial, null>, av: ArrayLike<number>, bv: ArrayLike<number>,
  out: ArrayLike<number>, ia: Int32Array | null, ib: Int32Array | null, n: number, na: number, nb: number, forA: boolean,
): Float64Array {
  const size = forA ? na : nb;
  const gx = new Float64Array(size);
  const other = forA ? bv : av, otherScalar = (forA ? nb : na) === 1;
  if (ia !== null && ib !== null) {
    const idx = forA ? ia : ib, jdx = forA ? ib : ia;
    if (typeof partial === 'number') for (let k = 0; k < n; k++) gx[idx[k]!]! += g[k]! * partial;
    else if (partial === 'other') for (let k = 0; k < n; k++) gx[idx[k]!]! += g[k]! * other[jdx[k]!]!;
    else for (let k = 0; k < n; k++) if (g[k] !== 0) gx[idx[k]!]! += g[k]! * partial(av[ia[k]!]!, bv[ib[k]!]!, out[k]!);
    return gx;
  }
  if (size === 1 && n !== 1) {                       // a broadcast scalar: sum the contributions
    let acc = 0;
    if (typeof partial === 'number') { for (let k = 0; k < n; k++) acc += g[k]!; acc *= partial; }
    else if (partial === 'other') for (let k = 0; k < n; k++) acc += g[k]! * other[k]!;
    else for (let k = 0; k < n; k++) if (g[k] !== 0) acc += g[k]! * partial(forA ? av[0]! : av[k]!, forA ? bv[k]! : bv[0]!, out[k]!);
    gx[0] = acc;
    return gx;
  }
  if (typeof partial === 'number') for (let k = 0; k < n; k++) gx[k] = g[k]! * partial;
  else if (partial === 'other') {
    if (otherScalar) { const o = other[0]!; for (let k = 0; k < n; k++) gx[k] = g[k]! * o; }
    else for (let k = 0; k < n; k++) gx[k] = g[k]! * other[k]!;
  } else {
    const sa = na === 1, sb = nb === 1;
    for (let k = 0; k < n; k++) if (g[k] !== 0) gx[k] = g[k]! * partial(sa ? av[0]! : av[k]!, sb ? bv[0]! : bv[k]!, out[k]!);
  }
  return gx;
}
