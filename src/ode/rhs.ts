/**
 * The right-hand side f(t, y, θ) of an ODE as flat code: the user's tensor function is traced
 * once into `h(t, y, θ, w) = Σᵢ wᵢ·fᵢ(t, y, θ)` and compiled with its gradient. One call of that
 * gradient gives f itself (∂h/∂w = f, exactly: the reverse pass multiplies f by 1) and, with
 * w = eᵢ, row i of the Jacobians ∂f/∂y, ∂f/∂θ and ∂f/∂t — the tracer's own autodiff on f, so
 * the sensitivities need no derivative from the user. f is also the program's second output, so
 * a call that needs f alone (the forward solve's stages) runs the forward pass only
 * (`Compiled.values`): the same forward code, so the same bits as f from a gradient call. The
 * compiled program is exported as plain data (`exportCompiled`), so a solver kernel built from
 * it can be rebuilt on a worker.
 */
import { fail } from '../checks.js';
import { compileGradient } from '../compile/index.js';
import { exportCompiled, importCompiledEntries, type PortableProgram } from '../compile/portable.js';
import { asTensor, type TensorLike } from '../tensor/core.js';
import { mul } from '../tensor/ops/elementwise.js';
import { sum } from '../tensor/ops/reduce.js';
import { Tensor } from '../tensor/tensor.js';

/** The user's right-hand side: `f(t, y, theta)` over a scalar t, y of shape [N] and θ of shape [P], returning [N]. */
export type OdeRhs = (t: Tensor, y: Tensor, theta: Tensor) => TensorLike;

/** A compiled right-hand side: `(x, grad) => h` over x = [t, y (N), θ (P), w (N)]. */
export type RhsGradient = (x: ArrayLike<number>, grad: Float64Array) => number;

/** The compiled program's forward pass alone: out ← [h, f₁ … f_N] at x (no reverse pass). */
export type RhsValues = (x: ArrayLike<number>, out: Float64Array) => void;

/** The compiled h: as functions in this thread, and as plain data when it has a portable form. */
export interface CompiledRhs {
  readonly valueAndGrad: RhsGradient;
  readonly values: RhsValues;
  readonly portable: PortableProgram | undefined;
}

const cache = new WeakMap<object, Map<string, CompiledRhs>>();

/**
 * `f` compiled for states of size n and parameters of size p (cached per function and sizes),
 * traced at (t, y, θ) = (t0, y0, theta0).
 *
 * @throws TypeError naming `fn` when f cannot be traced or does not return n values.
 */
export function compileRhs(fn: string, f: OdeRhs, t0: number, y0: ArrayLike<number>, theta0: ArrayLike<number>): CompiledRhs {
  const n = y0.length, p = theta0.length;
  const key = `${n},${p}`;
  let byShape = cache.get(f);
  if (byShape === undefined) cache.set(f, byShape = new Map());
  const hit = byShape.get(key);
  if (hit !== undefined) return hit;
  const h = (t: Tensor, y: Tensor, theta: Tensor, w: Tensor): Tensor[] => {
    const out = asTensor(fn, 'f(t, y, theta)', f(t, y, theta));
    if (out.size !== n || out.shape.length > 1) fail('type', fn, 'f', `must return a vector of ${n} values (one per state); it returned shape [${out.shape.join(', ')}]`, out);
    const fv = out.shape.length === 0 ? out.reshape([1]) : out;
    return [sum(mul(w, fv)), fv];     // the gradient is of output 0 only: f as output 1 adds no reverse work
  };
  const c = compileGradient(fn, h as (...xs: Tensor[]) => Tensor[], [
    new Tensor(Float64Array.of(t0), [], 'float64'),
    new Tensor(Float64Array.from(y0), [n], 'float64'),
    new Tensor(Float64Array.from(theta0), [p], 'float64'),
    new Tensor(new Float64Array(n).fill(1), [n], 'float64'),
  ]);
  const exported = exportCompiled(c);
  const compiled: CompiledRhs = exported.ok
    ? { ...importCompiledEntries(exported.program), portable: exported.program }
    : { valueAndGrad: c.valueAndGrad!, values: c.values, portable: undefined };
  byShape.set(key, compiled);
  return compiled;
}

/**
 * Evaluates f and its Jacobians on flat arrays through a compiled h (no allocation per call).
 * `x` holds [t, y, θ, w]; callers set t, y and θ with {@link RhsEval.set}.
 */
export class RhsEval {
  readonly x: Float64Array;
  readonly g: Float64Array;
  /** [h, f] from the forward-only entry. */
  private readonly fv: Float64Array;
  constructor(readonly vg: RhsGradient, readonly n: number, readonly p: number, readonly values: RhsValues | null = null) {
    this.x = new Float64Array(1 + 2 * n + p);
    this.g = new Float64Array(1 + 2 * n + p);
    this.fv = new Float64Array(1 + n);
  }

  /** Writes θ into the point (once per solve). */
  setTheta(theta: ArrayLike<number>): void {
    for (let k = 0; k < this.p; k++) this.x[1 + this.n + k] = theta[k]!;
  }

  /** out ← f(t, y, θ): the forward pass only when the program has that entry (same bits either way). */
  f(t: number, y: ArrayLike<number>, yOff: number, out: Float64Array, outOff: number): void {
    const { n, p, x, g } = this;
    x[0] = t;
    for (let i = 0; i < n; i++) x[1 + i] = y[yOff + i]!;
    const w = 1 + n + p;
    for (let i = 0; i < n; i++) x[w + i] = i === 0 ? 1 : 0;
    if (this.values !== null) {
      const fv = this.fv;
      this.values(x, fv);
      for (let i = 0; i < n; i++) out[outOff + i] = fv[1 + i]!;
      return;
    }
    this.vg(x, g);
    for (let i = 0; i < n; i++) out[outOff + i] = g[w + i]!;
  }

  /**
   * The vector–Jacobian products of f at (t, y) with the weights v: returns this.g, which holds
   * vᵀ∂f/∂y at g[1 …] and vᵀ∂f/∂θ at g[1 + n …] (one reverse pass, whatever n and p).
   */
  vjp(t: number, y: ArrayLike<number>, yOff: number, v: ArrayLike<number>): Float64Array {
    const { n, p, x, g } = this;
    x[0] = t;
    for (let i = 0; i < n; i++) x[1 + i] = y[yOff + i]!;
    const w = 1 + n + p;
    for (let i = 0; i < n; i++) x[w + i] = v[i]!;
    this.vg(x, g);
    return g;
  }

  /**
   * out ← f(t, y, θ); jy ← ∂f/∂y (row-major n×n), jp ← ∂f/∂θ (n×p), ft ← ∂f/∂t (when given).
   * f comes from the first row's call (the same bits as {@link RhsEval.f}).
   */
  jacobian(t: number, y: ArrayLike<number>, yOff: number, out: Float64Array, jy: Float64Array, jp: Float64Array, ft: Float64Array | null): void {
    const { n, p, x, g } = this;
    x[0] = t;
    for (let i = 0; i < n; i++) x[1 + i] = y[yOff + i]!;
    const w = 1 + n + p;
    for (let r = 0; r < n; r++) {
      for (let i = 0; i < n; i++) x[w + i] = i === r ? 1 : 0;
      this.vg(x, g);
      if (r === 0) for (let i = 0; i < n; i++) out[i] = g[w + i]!;
      if (ft !== null) ft[r] = g[0]!;
      for (let j = 0; j < n; j++) jy[r * n + j] = g[1 + j]!;
      for (let k = 0; k < p; k++) jp[r * p + k] = g[1 + n + k]!;
    }
  }
}
