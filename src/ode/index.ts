/**
 * ODE solvers in models: `odeRk45` (Dormand–Prince 5(4), Stan's `ode_rk45_tol`) and
 * `odeRosenbrock23` (a stiff solver: the L-stable Rosenbrock 2(3) pair of MATLAB's ode23s), each
 * one traced op from (y0, θ) to the solution at the output times, whose gradient comes from
 * forward sensitivities (see solvers.ts). The right-hand side is the user's tensor function,
 * traced once and compiled (rhs.ts); the op's kernel is made by a named factory from the
 * compiled right-hand side as plain data, so a compiled model that uses it runs on workers.
 */
import { checkFunction, checkOptions, fail } from '../checks.js';
import { importCompiledEntries, type PortableProgram } from '../compile/portable.js';
import { applyLowering, asTensor, numbers, type TensorLike } from '../tensor/core.js';
import { kernelFactory, type Lowering } from '../tensor/lowering.js';
import type { Tensor } from '../tensor/tensor.js';
import { compileRhs, RhsEval, type OdeRhs, type RhsGradient, type RhsValues } from './rhs.js';
import { adjointDopri5, solveDopri5, solveRosenbrock23, StepLog, type OdeSetup } from './solvers.js';

export { OdeError } from './solvers.js';
export type { OdeRhs } from './rhs.js';

/** Options of {@link odeRk45} and {@link odeRosenbrock23} (Stan's `ode_*_tol` arguments in camelCase). */
export interface OdeOptions {
  /** Relative tolerance of the local error of each state (default 1e-6, Stan's). */
  readonly relativeTolerance?: number;
  /** Absolute tolerance of the local error of each state (default 1e-6, Stan's). */
  readonly absoluteTolerance?: number;
  /** Most steps (accepted and rejected) between two output times (default 1e6, Stan's `ode_rk45`). */
  readonly maxNumSteps?: number;
}

type Method = 'rk45' | 'rosenbrock23';
const SOLVERS = { rk45: solveDopri5, rosenbrock23: solveRosenbrock23 } as const;
const NAMES = { rk45: 'odeRk45', rosenbrock23: 'odeRosenbrock23' } as const;

/** The compiled right-hand sides this thread already has, by their portable form (so remaking a kernel does not compile again). */
const imported = new WeakMap<PortableProgram, { readonly valueAndGrad: RhsGradient; readonly values: RhsValues }>();

/** Whether a and b hold the same bits (−0 ≠ 0, NaN = NaN). */
function sameBits(a: ArrayLike<number>, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < b.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/**
 * The op's kernel: out [T·n] ← the solution; backward: the vector–Jacobian product for y0 and θ.
 * Dormand–Prince's forward pass logs its accepted steps and the backward pass walks them back
 * (the discrete adjoint, one reverse pass of f per stage; at a point other than the logged one it
 * solves again first); Rosenbrock's backward pass solves with forward sensitivities.
 */
function odeLowering(method: Method, vg: RhsGradient, values: RhsValues, setup: OdeSetup): Lowering {
  const solve = SOLVERS[method];
  const rhs = new RhsEval(vg, setup.n, setup.p, values);
  const scratch = new Float64Array(setup.ts.length * setup.n);
  const log = method === 'rk45' ? new StepLog(setup.n) : null;
  const loggedY0 = new Float64Array(setup.n), loggedTheta = new Float64Array(setup.p);
  let logged = false;
  const forward = (ins: readonly ArrayLike<number>[], out: Float64Array): void => {
    if (log === null) { solve(setup, rhs, ins[0]!, ins[1]!, out, null); return; }
    logged = false;
    log.clear();
    solveDopri5(setup, rhs, ins[0]!, ins[1]!, out, null, log);
    loggedY0.set(ins[0]!); loggedTheta.set(ins[1]!);
    logged = true;
  };
  return {
    name: NAMES[method],
    forward(ins, out) { forward(ins, out as Float64Array); },
    backward(g, ins, _out, parts) {
      const gy0 = parts[0] ?? null, gTheta = parts[1] ?? null;
      if (gy0 !== null) gy0.fill(0);
      if (gTheta !== null) gTheta.fill(0);
      if (log === null) { solve(setup, rhs, ins[0]!, ins[1]!, scratch, { g, gy0, gTheta }); return; }
      // Anywhere but the logged point, solve again (with the log) first: the adjoint's bits then do not depend on what ran before.
      if (!(logged && sameBits(ins[0]!, loggedY0) && sameBits(ins[1]!, loggedTheta))) forward(ins, scratch);
      adjointDopri5(setup, rhs, log, ins[1]!, { g, gy0, gTheta });
    },
  };
}

/** odeRk45's and odeRosenbrock23's kernel, made from the compiled right-hand side as plain data (portable to workers). */
const odeKernel = kernelFactory('ode', (method: Method, program: PortableProgram, n: number, p: number, t0: number, ts: Float64Array,
  relativeTolerance: number, absoluteTolerance: number, maxNumSteps: number): Lowering => {
  let c = imported.get(program);
  if (c === undefined) imported.set(program, c = importCompiledEntries(program));
  return odeLowering(method, c.valueAndGrad, c.values, { fn: NAMES[method], n, p, t0, ts, relativeTolerance, absoluteTolerance, maxNumSteps });
});

function solveOde(method: Method, f: OdeRhs, y0Like: TensorLike, t0: number, tsLike: TensorLike, thetaLike: TensorLike, options: OdeOptions | undefined): Tensor {
  const fn = NAMES[method];
  checkFunction(fn, 'f', f);
  const o = checkOptions(fn, options, ['relativeTolerance', 'absoluteTolerance', 'maxNumSteps']);
  const rtol = o.relativeTolerance ?? 1e-6, atol = o.absoluteTolerance ?? 1e-6, maxNumSteps = o.maxNumSteps ?? 1e6;
  if (typeof rtol !== 'number' || !(rtol > 0) || rtol === Infinity) fail('range', fn, 'relativeTolerance', 'must be a positive finite number', rtol);
  if (typeof atol !== 'number' || !(atol > 0) || atol === Infinity) fail('range', fn, 'absoluteTolerance', 'must be a positive finite number', atol);
  if (typeof maxNumSteps !== 'number' || !Number.isInteger(maxNumSteps) || maxNumSteps < 1) fail('range', fn, 'maxNumSteps', 'must be a positive integer', maxNumSteps);
  const y0 = asTensor(fn, 'y0', y0Like), theta = asTensor(fn, 'theta', thetaLike), tsT = asTensor(fn, 'ts', tsLike);
  if (y0.shape.length !== 1 || y0.size === 0) fail('range', fn, 'y0', 'must be a non-empty vector (shape [N])', y0.shape);
  if (theta.shape.length !== 1) fail('range', fn, 'theta', 'must be a vector (shape [P]; [] or [0] for none)', theta.shape);
  if (typeof t0 !== 'number' || !Number.isFinite(t0)) fail('range', fn, 't0', 'must be a finite number', t0);
  if (tsT.shape.length !== 1 || tsT.size === 0) fail('range', fn, 'ts', 'must be a non-empty vector of output times', tsT.shape);
  if (tsT.node !== undefined) fail('type', fn, 'ts', 'must be data (the output times cannot be parameters)', tsT);
  const ts = Float64Array.from(numbers(tsT));
  for (let k = 0; k < ts.length; k++) {
    const prev = k === 0 ? t0 : ts[k - 1]!;
    if (!Number.isFinite(ts[k]!) || !(ts[k]! > prev)) fail('range', fn, 'ts', `must be finite, increasing and after t0 (ts[${k}] = ${ts[k]} is not after ${prev})`, ts);
  }
  const n = y0.size, p = theta.size;
  const rhs = compileRhs(fn, f, t0, numbers(y0), numbers(theta));
  const setup: OdeSetup = { fn, n, p, t0, ts, relativeTolerance: rtol, absoluteTolerance: atol, maxNumSteps };
  // Known before the factory runs, so making the kernel here does not import the program again.
  if (rhs.portable !== undefined) imported.set(rhs.portable, rhs);
  const op = rhs.portable !== undefined
    ? odeKernel(method, rhs.portable, n, p, t0, ts, rtol, atol, maxNumSteps)
    : odeLowering(method, rhs.valueAndGrad, rhs.values, setup);
  return applyLowering(op, [y0.astype('float64'), theta.astype('float64')], [ts.length, n], ts.length * n);
}

/**
 * Solves y′ = f(t, y, θ), y(t0) = y0, at the output times `ts` with the Dormand–Prince 5(4)
 * method (Stan's `ode_rk45_tol`, same argument names and defaults in camelCase), returning the
 * solution as a tensor [ts.length, N]. One op: differentiable in `y0` and `theta` (forward
 * sensitivities, integrated with the states' own steps; error control on the states only), and
 * compiled with the model it is in. `f(t, y, theta)` is written with stochax's tensor ops over a
 * scalar `t`, `y` [N] and `theta` [P], returning N derivatives (build the vector with `stack`);
 * it is traced once per function and sizes, so it must read parameters only through `theta`
 * (data may be closed over). `t0` and `ts` are data. A failed solve (more than `maxNumSteps`
 * steps between output times, a step size that underflows, a non-finite state) throws
 * {@link OdeError}, which a sampler counts as a rejected proposal.
 *
 * @throws RangeError/TypeError naming the argument for bad input; OdeError when the solve fails.
 * @example
 * // Exponential decay y′ = −k·y: y(t) = e^(−k·t).
 * const y = odeRk45((t, y, theta) => mul(neg(theta), y), [1], 0, [1, 2], [0.5]);
 * y.shape;     // [2, 1]
 * y.toArray(); // ≈ [[0.6065], [0.3679]]
 */
export function odeRk45(f: OdeRhs, y0: TensorLike, t0: number, ts: TensorLike, theta: TensorLike, options?: OdeOptions): Tensor {
  return solveOde('rk45', f, y0, t0, ts, theta, options);
}

/**
 * {@link odeRk45} for stiff systems: the L-stable Rosenbrock 2(3) pair of MATLAB's ode23s
 * (Shampine & Reichelt 1997) with a dense Jacobian from the tracer's autodiff on `f`, one LU
 * factorisation per step. Second order: at tight tolerances it takes many steps, so prefer
 * `odeRk45` for non-stiff systems (it is not Stan's variable-order BDF, `ode_bdf`; that is not
 * built). Same arguments, defaults (relative and absolute tolerance 1e-6, maxNumSteps 1e6),
 * sensitivities and failures as `odeRk45`.
 *
 * @throws RangeError/TypeError naming the argument for bad input; OdeError when the solve fails.
 * @example
 * // A stiff linear decay y′ = −1000·(y − cos t).
 * const y = odeRosenbrock23((t, y, theta) => mul(neg(theta), sub(y, cos(t))), [0], 0, [0.1, 1], [1000]);
 * y.toArray(); // ≈ [[0.995], [0.5411]]
 */
export function odeRosenbrock23(f: OdeRhs, y0: TensorLike, t0: number, ts: TensorLike, theta: TensorLike, options?: OdeOptions): Tensor {
  return solveOde('rosenbrock23', f, y0, t0, ts, theta, options);
}
