/**
 * The tensor ops' registry source for portable programs (see `portable.ts`): every exported op
 * of the element-wise and special-function modules traced once at scalar inputs, so the scalar
 * functions their lowerings carry get names (`exp#f`, `exp#df`, `lgamma#df`, …). Ops that
 * cannot run at those inputs register nothing. Also loads every op module whose kernels are made
 * by named factories, so a thread that imports this can make them.
 */
import * as elementwise from '../tensor/ops/elementwise.js';
import * as special from '../tensor/ops/special.js';
// The modules whose kernels are made by named factories (`kernelFactory`): a factory exists in a thread once its module has run, so every thread that rebuilds programs loads them all.
import '../tensor/ops/cumulative.js';
import '../tensor/ops/linalg.js';
import '../tensor/ops/matmul.js';
import '../tensor/ops/moments.js';
import '../tensor/ops/reduce.js';
import '../tensor/ops/shape.js';
import '../tensor/tensor.js';
import '../ode/index.js';   // odeRk45's and odeRosenbrock23's kernel factory
import './glm.js';
import { Tensor } from '../tensor/tensor.js';
import { addPortableSource, registerTracedLowerings } from './portable.js';

/** A float64 scalar at trace time (a value inside every op's domain that these modules have). */
const scalar = (v: number) => new Tensor(Float64Array.of(v), [], 'float64');

/**
 * Registers the element-wise functions of every op exported by `modules` (in export-name order,
 * so each thread names them alike).
 *
 * @example
 * registerOpModules([await import('../tensor/ops/elementwise.js')]);   // exp#f, exp#df, …
 */
export function registerOpModules(modules: readonly Readonly<Record<string, unknown>>[]): void {
  for (const mod of modules) {
    for (const name of Object.keys(mod).sort()) {
      const op = mod[name];
      if (typeof op !== 'function' || /^[A-Z]/.test(name)) continue;
      const arity = Math.min(Math.max(op.length, 1), 3);
      const inputs = [0.3, 0.7, 0.4].slice(0, arity).map(scalar);
      registerTracedLowerings((...xs) => (op as (...a: Tensor[]) => Tensor)(...xs), inputs);
    }
  }
}

addPortableSource(() => registerOpModules([elementwise, special]));
