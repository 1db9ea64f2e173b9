/**
 * What an op tells the compiler (`src/compile/`) about itself: a *lowering*, the op's arithmetic
 * as a re-entrant kernel over flat typed arrays whose shapes were fixed when the op ran. The
 * eager op runs the same kernel, so a compiled program and the tape compute the same bits.
 *
 * While a function is being traced, every op on a traced value records one {@link TraceNode}
 * (its lowering, its operands: traced nodes or constants) instead of a plain tape node. An op
 * without a lowering fails the trace with an error that names it.
 */
import { brand } from '../brand.js';
import { Tape, type TapeNode } from './tape.js';

/** Flat storage an op reads or writes (float64 for adjoints; the op's own class for values). */
export type Flat = Float64Array | Float32Array | Int32Array | Uint8Array | Uint32Array | Int8Array | Int16Array | Uint16Array;

/**
 * An op as a pure, re-entrant kernel with every shape, index map and static attribute already
 * bound. `forward` must write every element of `out`; `backward` every element of each
 * non-null `parts[i]` (the vector–Jacobian product for input i, reduced to input i's size).
 */
export interface Lowering {
  /** The op's public name, for errors and program listings. */
  readonly name: string;
  /** Which operands the backward pass writes a part for (default: all). */
  readonly gradOperands?: readonly boolean[];
  /** out ← op(ins), the same arithmetic as the eager op. */
  forward(ins: readonly ArrayLike<number>[], out: Flat): void;
  /**
   * parts[i] ← contribution of adjoint `g` to input i, for each non-null `parts[i]`; the same
   * arithmetic as the eager op's vector–Jacobian product. Absent for ops with no gradient.
   */
  readonly backward?: (g: Float64Array, ins: readonly ArrayLike<number>[], out: ArrayLike<number>, parts: readonly (Float64Array | null)[]) => void;
  /**
   * The same op described element by element (operands of the output's size, size 1, or read
   * through index maps): the compiler then writes its arithmetic inline (`src/compile/elementwise.ts` turns
   * each kind into code with exactly `forward`'s and `backward`'s operations).
   */
  readonly elementwise?: Elementwise;
  /**
   * Constant folding of a kernel-call op (`src/compile/constant-fold.ts`): when the operands at
   * `of` are constants of the program, `with(values)` (their data, in `of`'s order) is a lowering
   * of the same op over the same operands that computes what depends only on them once, when it
   * is made, with the calls the op makes per call and in its order of operations, so the same
   * bits. Made by a {@link kernelFactory}, so a folded program stays portable.
   */
  readonly fold?: { readonly of: readonly number[]; readonly with: (values: readonly ArrayLike<number>[]) => Lowering };
}

/** A binary op's partial: a function of (a, b, y), a constant, 'other' (the other operand), or none. */
export type ElementPartial = ((a: number, b: number, y: number) => number) | number | 'other' | null;

/**
 * Per operand, its flat index for every output element, for an operand broadcast along some
 * axes (neither the output's size nor size 1); null for the others.
 */
export type OperandMaps = readonly (Int32Array | null)[];

/**
 * A fused function written as `f(a, b, c, d) = core(a, b, c, d, h(x, y))`, where h reads only the
 * operands at `of` (parameters such as a scale: `log σ`): eager code computes h once when those
 * operands are scalars, and generated code once per call, or at compile time when they are
 * constants. The same operations in the same order as f, so the same bits.
 */
export interface Hoisted {
  readonly of: readonly number[];
  readonly h: (x: number, y: number) => number;
  readonly core: (a: number, b: number, c: number, d: number, h: number) => number;
}

/** The element-wise kinds the compiler writes inline (see `Lowering.elementwise`). */
export type Elementwise =
  | { readonly kind: 'unary'; readonly f: (x: number) => number; readonly df: ((x: number, y: number) => number) | null }
  | {
    readonly kind: 'binary'; readonly f: (a: number, b: number) => number; readonly da: ElementPartial; readonly db: ElementPartial;
    /** Set when `f` is exactly this JS operator (written inline instead of a call). */
    readonly infix?: '+' | '-' | '*' | '/';
    readonly maps?: OperandMaps;
  }
  | {
    readonly kind: 'fused';
    readonly f: (a: number, b: number, c: number, d: number) => number;
    /** Writes ∂f/∂argᵢ into out[i] (only operands that get gradients are read back). */
    readonly partials: ((out: Float64Array, a: number, b: number, c: number, d: number, y: number) => void) | null;
    /** The eager value loop when the op has one (`fill(out, n, operands, strides)`; strides 1 or 0 per operand), used instead of `f`. */
    readonly fill: ((out: Float64Array, n: number, values: readonly ArrayLike<number>[], strides: readonly number[]) => void) | null;
    /** `f` split so that its parameter-only part is computed once where it can be (see `Hoisted`). */
    readonly hoisted: Hoisted | null;
    /**
     * ∂f/∂argⱼ of (a, b, c, d, y) per operand, each with the bits `partials` writes to out[j] (0
     * where it writes nothing): generated code calls only those an operand needs, with no scratch
     * (and without y when the function declares fewer than five parameters).
     */
    readonly partialOf: readonly ((a: number, b: number, c: number, d: number, y: number) => number)[] | null;
    readonly maps?: OperandMaps;
  }
  /**
   * out[k] = Σₚ A[k·inner + p]·b[p] from zero, p ascending (a matrix [rows, inner] times a vector,
   * as `gemm` adds it); inline only for a constant A and a traced b.
   */
  | { readonly kind: 'matvec'; readonly inner: number }
  /** scale · Σ x (sum and mean over everything). */
  | { readonly kind: 'total'; readonly scale: number }
  /** out[map[k]] += x[k] from zero (a sum over some axes): the output element of each input element. */
  | { readonly kind: 'segmentSum'; readonly map: Int32Array };

/** A value an op read that is not traced: its data is a constant of the program. */
export interface Constant {
  readonly constant: true;
  readonly data: ArrayLike<number>;
  readonly shape: readonly number[];
}

/** One recorded op of a traced function. */
export interface TraceNode extends TapeNode {
  readonly tape: Trace;
  /** null for an input. */
  readonly op: Lowering | null;
  /** Operands in order: traced nodes or constants. */
  readonly operands: readonly (TraceNode | Constant)[];
  readonly shape: readonly number[];
  /** The value computed at trace time (its typed-array class is the node's storage class). */
  readonly data: Flat;
}

/**
 * A recording of one traced call: a tape whose nodes carry lowerings. Ops record through
 * `record` (from `result` in core.ts); nothing here computes.
 */
export class Trace extends Tape {
  declare readonly nodes: TraceNode[];

  /** A traced input of the given shape whose value at trace time is `data`. */
  input(data: Flat, shape: readonly number[]): TraceNode {
    const node: TraceNode = { tape: this, index: this.nodes.length, size: data.length, inputs: [], vjp: null, op: null, operands: [], shape, data };
    this.nodes.push(node);
    return node;
  }

  record(op: Lowering, operands: readonly { readonly node: TapeNode | undefined; readonly data: unknown; readonly shape: readonly number[] }[], data: Flat, shape: readonly number[]): TraceNode {
    const ops = operands.map((t) => (t.node !== undefined && t.node.tape === this ? t.node as TraceNode
      : { constant: true as const, data: t.data as ArrayLike<number>, shape: t.shape }));
    const node: TraceNode = {
      tape: this, index: this.nodes.length, size: data.length, inputs: ops.map((o) => ('constant' in o ? null : o)), vjp: null,
      op, operands: ops, shape, data,
    };
    this.nodes.push(node);
    return node;
  }
}
brand(Trace, 'Trace');   // recognised across copies of stochax (src/brand.ts)

/** True if `node` belongs to a trace (the value it stands for is traced). */
export function isTraced(node: TapeNode | undefined): node is TraceNode {
  return node !== undefined && node.tape instanceof Trace;
}

/**
 * A function the compiler cannot take: it reads a traced value in JavaScript, uses an op with no
 * lowering, nests `grad`, or its compiled value differs from the tape's. These are the documented
 * untraceable constructs, the only errors on which a caller may fall back to the tape
 * (`compileChecked` in src/compile); every other error is the model's own and propagates.
 */
export class UntraceableError extends TypeError {
  override readonly name = 'UntraceableError';
}
brand(UntraceableError, 'UntraceableError');

/**
 * The error for JS that needs a traced value's number (`item()`, `toArray()`, `get()`, an
 * integer cast): a compiled function runs the same ops for every input, so it cannot branch on one.
 */
export function tracedValueError(what: string): UntraceableError {
  return new UntraceableError(`compile: \`${what}\` reads a traced value, but a compiled function cannot depend on values in JavaScript control flow; compute both branches and select with \`where\`, or keep this function on the tape (\`compile: false\`, the CLI's \`--no-compile\`)`);
}

/** The error for an op that has no lowering rule. */
export function noLoweringError(name: string): UntraceableError {
  return new UntraceableError(`compile: the op \`${name}\` has no lowering rule, so this function cannot be compiled; keep it on the tape (\`compile: false\`, the CLI's \`--no-compile\`)`);
}

/** The error for `grad`/`valueAndGrad` over traced values inside a compiled function. */
export function nestedGradError(): UntraceableError {
  return new UntraceableError('compile: a traced value reached a nested `grad`/`valueAndGrad`; differentiate the whole function with the compiler instead');
}

/** How another thread rebuilds a kernel made per call: its factory's name and the arguments it was made from. */
export interface KernelSource {
  readonly factory: string;
  /** Plain data (numbers, strings, booleans, null/undefined, typed arrays, arrays and records of them) or functions and kernels that are themselves portable. */
  readonly args: readonly unknown[];
}

const factories = new Map<string, (...args: never[]) => unknown>();
const made = new WeakMap<object, KernelSource>();

/**
 * Wraps a per-call kernel factory (a lowering, or a scalar function, made from shapes, index
 * maps and flags) under a stable name, so every kernel it makes can be rebuilt in another
 * thread from the name and the arguments (`src/compile/portable.ts`): the same code over the
 * same data computes the same bits. Call it once at module scope; the factory must be pure in
 * its arguments (capture nothing else that varies) and its arguments must not be mutated after.
 *
 * @throws TypeError when another factory already has the name.
 * @example
 * const scaled = kernelFactory('example.scaled', (k: number) => (x: number) => k * x);
 * const f = scaled(3);
 * kernelSource(f);                                     // { factory: 'example.scaled', args: [3] }
 * (remakeKernel('example.scaled', [3]) as typeof f)(2); // 6, as f(2)
 */
export function kernelFactory<A extends readonly unknown[], R extends object>(name: string, make: (...args: A) => R): (...args: A) => R {
  if (factories.has(name)) throw new TypeError(`kernelFactory: the name "${name}" is already taken`);
  factories.set(name, make as (...args: never[]) => unknown);
  return (...args: A): R => {
    const k = make(...args);
    made.set(k, { factory: name, args });
    return k;
  };
}

/**
 * The factory name and arguments a kernel was made from by a {@link kernelFactory}, or undefined.
 *
 * @example
 * kernelSource(Math.exp);   // undefined: no factory made it (see kernelFactory's example for one that did)
 */
export function kernelSource(k: unknown): KernelSource | undefined {
  return (typeof k === 'object' || typeof k === 'function') && k !== null ? made.get(k) : undefined;
}

/**
 * Makes the kernel a named factory makes from `args` (in this thread; see {@link kernelFactory}).
 *
 * @throws TypeError when no factory has that name here.
 * @example
 * const op = remakeKernel('take', [Int32Array.of(2, 0)]) as Lowering;
 * const out = new Float64Array(2);
 * op.forward([[10, 20, 30]], out);   // out = [30, 10]
 */
export function remakeKernel(name: string, args: readonly unknown[]): unknown {
  const make = factories.get(name);
  if (make === undefined) throw new TypeError(`remakeKernel: no kernel factory is named "${name}" in this thread (is it the same stochax?)`);
  return (make as (...a: readonly unknown[]) => unknown)(...args);
}
