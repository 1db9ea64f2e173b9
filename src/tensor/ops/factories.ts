/**
 * Element-wise op factories with NumPy broadcasting and gradients. Each op is defined by its
 * value and its partial derivatives; the factories handle conversion, broadcasting, dtype and
 * the tape (the gradient of a broadcast is summed back to each input's shape).
 */
import { broadcastShapes, broadcastStrides, forEachBroadcast } from '../broadcast.js';
import { asTensor, floatKind, floatStorage, numbers, result, tracing, type TensorLike } from '../core.js';
import type { ElementPartial, Lowering } from '../lowering.js';
import { sameShape, sizeOf } from '../shapes.js';
import { Tensor } from '../tensor.js';

/** A unary element-wise op: `f(x)` and its derivative `df(x, y)` given the output y = f(x). */
export function unaryOp(name: string, f: (x: number) => number, df: ((x: number, y: number) => number) | null) {
  const lower: Lowering = {
    name,
    elementwise: { kind: 'unary', f, df },
    forward(ins, out) {
      const xs = ins[0]!;
      for (let i = 0; i < out.length; i++) out[i] = f(xs[i]!);
    },
    ...(df === null ? {} : {
      backward(g: Float64Array, ins: readonly ArrayLike<number>[], out: ArrayLike<number>, parts: readonly (Float64Array | null)[]) {
        const xs = ins[0]!, gx = parts[0];
        if (!gx) return;
        for (let i = 0; i < gx.length; i++) gx[i] = g[i]! === 0 ? 0 : g[i]! * df(xs[i]!, out[i]!);
      },
    }),
  };
  return (xLike: TensorLike): Tensor => {
    const x = xLike instanceof Tensor ? xLike : asTensor(name, 'x', xLike);
    const xs = numbers(x);
    const n = xs.length;
    const out = floatStorage(floatKind(x), n);
    lower.forward([xs], out);
    return result(out, x.shape, [x], df === null ? null : (g) => {
      const gx = new Float64Array(n);
      lower.backward!(g, [xs], out, [gx]);
      return [gx];
    }, undefined, lower);
  };
}

/** The four arithmetic operators: an op given as one of them is that operator (and the compiler writes it as such). */
type Infix = '+' | '-' | '*' | '/';
const ARITHMETIC: Record<Infix, (a: number, b: number) => number> = {
  '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => a / b,
};

/**
 * A binary element-wise op with NumPy broadcasting: `f(a, b)` and its partials `da`, `db`
 * (given a, b and the output y; a constant such as add's 1 or 'other' for mul's other operand
 * takes loops without a call per element). A null partial means that operand gets no gradient. Equal
 * shapes and scalar operands take direct loops; other broadcasts go through index maps.
 * `outDtype` makes a non-float result (the comparisons' bool).
 */
export function binaryOp(name: string, fn: ((a: number, b: number) => number) | Infix, da: ElementPartial, db: ElementPartial, outDtype?: 'bool') {
  const f = typeof fn === 'string' ? ARITHMETIC[fn] : fn;
  const infix = typeof fn === 'string' ? fn : undefined;
  return (aLike: TensorLike, bLike: TensorLike): Tensor => {
    const a = aLike instanceof Tensor ? aLike : asTensor(name, 'x', aLike);
    const b = bLike instanceof Tensor ? bLike : asTensor(name, 'y', bLike);
    const av = numbers(a), bv = numbers(b);
    const na = av.length, nb = bv.length;
    const same = na === nb && sameShape(a.shape, b.shape);
    const shape = same ? a.shape : broadcastShapes(name, [['x', a.shape], ['y', b.shape]]);
    const n = same ? na : sizeOf(shape);
    // Index of each output element in a and b: null when it is k itself (same size) or 0 (scalar).
    let ia: Int32Array | null = null, ib: Int32Array | null = null;
    if (!((na === n && nb === n) || (nb === 1 && na === n) || (na === 1 && nb === n))) {
      const ja = new Int32Array(n), jb = new Int32Array(n);
      forEachBroadcast(shape, broadcastStrides(a.shape, shape), broadcastStrides(b.shape, shape), (k, i, j) => { ja[k] = i; jb[k] = j; });
      ia = ja; ib = jb;
    }
    const out = outDtype === 'bool' ? new Uint8Array(n) : floatStorage(floatKind(a, b), n);
    binaryForward(f, av, bv, out, ia, ib);
    // No named closures per call here: under esbuild's keepNames each one costs a defineProperty.
    const op: Lowering | string = !tracing() ? name : binaryLowering(name, f, infix, da, db, ia, ib, n);
    if (da === null && db === null) return result(out as Float64Array, shape, [a, b], null, outDtype, op);
    return result(out as Float64Array, shape, [a, b], (g) => {
      const parts = [da === null ? null : new Float64Array(na), db === null ? null : new Float64Array(nb)];
      binaryBackward(g, av, bv, out, parts, da, db, ia, ib, n);
      return parts;
    }, undefined, op);
  };
}

/** A binary op's lowering for one broadcast (built only while tracing). */
function binaryLowering(
  name: string, f: (a: number, b: number) => number, infix: Infix | undefined, da: ElementPartial, db: ElementPartial,
  ia: Int32Array | null, ib: Int32Array | null, n: number,
): Lowering {
  return {
    name,
    elementwise: { kind: 'binary', f, da, db, ...(infix === undefined ? {} : { infix }), ...(ia === null ? {} : { maps: [ia, ib] }) },
    forward: (ins, o) => binaryForward(f, ins[0]!, ins[1]!, o, ia, ib),
    ...(da === null && db === null ? {} : {
      backward: (g: Float64Array, ins: readonly ArrayLike<number>[], o: ArrayLike<number>, parts: readonly (Float64Array | null)[]) =>
        binaryBackward(g, ins[0]!, ins[1]!, o, parts, da, db, ia, ib, n),
    }),
  };
}

/** The parts of a binary op's adjoint for each operand with a partial. */
function binaryBackward(
  g: Float64Array, x: ArrayLike<number>, y: ArrayLike<number>, o: ArrayLike<number>, parts: readonly (Float64Array | null)[],
  da: ElementPartial, db: ElementPartial, ia: Int32Array | null, ib: Int32Array | null, n: number,
): void {
  const na = x.length, nb = y.length;
  if (parts[0] && da !== null) partialGrad(parts[0], g, da, x, y, o, ia, ib, n, na, nb, true);
  if (parts[1] && db !== null) partialGrad(parts[1], g, db, x, y, o, ia, ib, n, na, nb, false);
}

/** out[k] = f(a[·], b[·]) over the broadcast (index maps, or same size, or a scalar operand). */
function binaryForward(
  f: (a: number, b: number) => number, av: ArrayLike<number>, bv: ArrayLike<number>, out: { [k: number]: number; length: number },
  ia: Int32Array | null, ib: Int32Array | null,
): void {
  const n = out.length, na = av.length, nb = bv.length;
  if (ia !== null && ib !== null) for (let k = 0; k < n; k++) out[k] = f(av[ia[k]!]!, bv[ib[k]!]!);
  else if (na === n && nb === n) for (let k = 0; k < n; k++) out[k] = f(av[k]!, bv[k]!);
  else if (nb === 1) { const s = bv[0]!; for (let k = 0; k < n; k++) out[k] = f(av[k]!, s); }
  else { const s = av[0]!; for (let k = 0; k < n; k++) out[k] = f(s, bv[k]!); }
}

/**
 * The gradient for one operand of a binary op, written into `gx` (the operand's size): g·∂f/∂operand
 * at each output element, summed into the operand's elements (the reduction of a broadcast).
 */
function partialGrad(
  gx: Float64Array, g: Float64Array, partial: Exclude<ElementPartial, null>, av: ArrayLike<number>, bv: ArrayLike<number>,
  out: ArrayLike<number>, ia: Int32Array | null, ib: Int32Array | null, n: number, na: number, nb: number, forA: boolean,
): void {
  const size = forA ? na : nb;
  const other = forA ? bv : av, otherScalar = (forA ? nb : na) === 1;
  if (ia !== null && ib !== null) {
    gx.fill(0);
    const idx = forA ? ia : ib, jdx = forA ? ib : ia;
    if (typeof partial === 'number') for (let k = 0; k < n; k++) gx[idx[k]!]! += g[k]! * partial;
    else if (partial === 'other') for (let k = 0; k < n; k++) gx[idx[k]!]! += g[k]! * other[jdx[k]!]!;
    else for (let k = 0; k < n; k++) if (g[k] !== 0) gx[idx[k]!]! += g[k]! * partial(av[ia[k]!]!, bv[ib[k]!]!, out[k]!);
    return;
  }
  if (size === 1 && n !== 1) {                       // a broadcast scalar: sum the contributions
    let acc = 0;
    if (typeof partial === 'number') { for (let k = 0; k < n; k++) acc += g[k]!; acc *= partial; }
    else if (partial === 'other') for (let k = 0; k < n; k++) acc += g[k]! * other[k]!;
    else for (let k = 0; k < n; k++) if (g[k] !== 0) acc += g[k]! * partial(forA ? av[0]! : av[k]!, forA ? bv[k]! : bv[0]!, out[k]!);
    gx[0] = acc;
    return;
  }
  if (typeof partial === 'number') for (let k = 0; k < n; k++) gx[k] = g[k]! * partial;
  else if (partial === 'other') {
    if (otherScalar) { const o = other[0]!; for (let k = 0; k < n; k++) gx[k] = g[k]! * o; }
    else for (let k = 0; k < n; k++) gx[k] = g[k]! * other[k]!;
  } else {
    const sa = na === 1, sb = nb === 1;
    for (let k = 0; k < n; k++) gx[k] = g[k] !== 0 ? g[k]! * partial(sa ? av[0]! : av[k]!, sb ? bv[0]! : bv[k]!, out[k]!) : 0;
  }
}
