/**
 * The compiler: trace a tensor function once, generate JavaScript for its value and gradient.
 * `compileGradient` is the engine's entry (the log density compiler and the samplers use it);
 * `jit` wraps it for users as a function of tensors, cached per input shape.
 */
import { checkFunction } from '../checks.js';
import { asTensor, type TensorLike } from '../tensor/core.js';
import { Tensor } from '../tensor/tensor.js';
import { generate, type Compiled } from './codegen.js';
import { foldConstants } from './constant-fold.js';
import { fuseGlms } from './glm-fuse.js';
import { traceProgram, type Program } from './trace.js';

export { formatProgram, type Program } from './trace.js';
export type { Compiled } from './codegen.js';
export { exportCompiled, importCompiled, type ExportResult, type PortableProgram } from './portable.js';

/**
 * `f` traced at `inputs` (the trace point; their shapes are fixed from now on) and compiled:
 * write a point into `inputs`, `run(true)`, then read `outputs[0]` (f's value) and `grads` (the
 * gradient of the sum of f's value per input, the tape's `valueAndGrad` of `sum(f)`).
 * GLM-shaped likelihoods (a sum over rows of Normal/Bernoulli/Poisson with α + X·β, X and y
 * constant) run as one fused kernel (src/compile/glm-fuse.ts); kernel ops with constant
 * parameters compute their parameter-only part once (src/compile/constant-fold.ts).
 *
 * @throws TypeError naming the op when `f` cannot be traced.
 */
export function compileGradient(fn: string, f: (...xs: Tensor[]) => TensorLike | readonly TensorLike[], inputs: readonly Tensor[]): Compiled & { readonly program: Program } {
  const program = fuseGlms(foldConstants(traceProgram(fn, f, inputs.map((x, i) => asTensor(fn, `inputs[${i}]`, x)))));
  return { ...generate(program, true), program };
}

/**
 * A compiled version of a tensor function (`jax.jit`): traced once per input shape (cached),
 * then run as generated JavaScript. Arguments are tensors (or numbers, arrays); the result is a
 * new float64 tensor of f's output shape. Ops whose values depend on data in JavaScript control
 * flow (`item()`, `toArray()`) cannot be traced: select with `where` instead.
 *
 * @throws TypeError naming the op when `f` cannot be traced.
 * @example
 * const f = jit((x) => sum(square(x)));
 * f([1, 2, 3]).item(); // 14
 */
export function jit(f: (...xs: Tensor[]) => TensorLike): (...xs: TensorLike[]) => Tensor {
  checkFunction('jit', 'f', f);
  const cache = new Map<string, Compiled>();
  return (...args) => {
    const xs = args.map((a, i) => asTensor('jit', `args[${i}]`, a));
    const key = xs.map((x) => x.shape.join(',')).join(';');
    let c = cache.get(key);
    if (c === undefined) {
      const program = traceProgram('jit', f, xs.map((x) => x.astype('float64')));
      c = generate(program, false);
      cache.set(key, c);
    }
    xs.forEach((x, i) => { const d = x.data as ArrayLike<number>; const buf = c!.inputs[i]!; for (let k = 0; k < buf.length; k++) buf[k] = Number(d[k]); });
    c.run(false);
    return new Tensor(Float64Array.from(c.outputs[0]!), c.outputShapes[0]!, 'float64');
  };
}
