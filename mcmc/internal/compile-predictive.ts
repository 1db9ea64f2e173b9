/**
 * The fast path of `samplePosteriorPredictive` and `samplePriorPredictive`: the map from one
 * draw's given values (and the nodes drawn before) to the parameters of every replicated node's
 * (leaf) distribution, traced once (`src/compile/`, the
 * machinery `compile-derived.ts` uses) and run per draw as generated code over Float64Arrays;
 * each replicated node is then drawn from its distribution rebuilt around those parameters
 * (`copy`), with the key the model run would give it, or, for a `Normal`, `Bernoulli`, `Poisson`,
 * `Binomial`, `HalfCauchy`, `Cauchy` or `HalfNormal` leaf, straight into the result by that distribution's own arithmetic
 * (leaf-kernels.ts). Why: running the model per draw rebuilds every distribution and tensor (a
 * 600 × 3 matmul, broadcasts, checks) only to draw one node.
 *
 * The draw is the model's own sampling code at bit-identical parameters (the compiler calls the
 * eager kernels), so the bits are the tape path's; the caller checks that at the first and the
 * last draw and runs the model per draw when they differ or when this declines (returns undefined).
 */
import { generate } from '../../src/compile/codegen.js';
import { traceProgram } from '../../src/compile/trace.js';
import { KeyArray } from '../../src/random/key-array.js';
import type { TraceNode } from '../../src/tensor/lowering.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { Distribution } from '../../distributions/distribution.js';
import { getModes } from '../../src/config.js';
import { decline, directDraw, planOf, type DirectArray, type DirectDtype, type NodePlan } from './leaf-kernels.js';
import { nodeSeedWords, type JointDistribution } from '../../distributions/joint/joint-distribution.js';
import { JointDistributionCoroutine } from '../../distributions/joint/joint-distribution-coroutine.js';
import { toValue, type StructKind } from '../../distributions/joint/values.js';

/** A compiled map from one draw of the given nodes to the replicated nodes' distributions (and derived values). */
export interface PredictiveProgram {
  /** One buffer per given node, in the order given to {@link compilePredictive}: write a draw here, then `sample`. */
  readonly inputs: readonly Float64Array[];
  /**
   * The dtype of replicated node j when it is drawn straight into a caller's array of that dtype
   * (a `Normal`, `Bernoulli`, `Poisson`, … leaf: `directDraw` in leaf-kernels.ts), else undefined; its
   * value then has `size[j]` elements in row-major order.
   */
  readonly direct: readonly (DirectDtype | undefined)[];
  readonly size: readonly number[];
  /**
   * The replicated nodes' draws given the values in `inputs`, in model order, with the model key
   * `samplers.foldIn(chainKey, t)` (what `executeSample` is passed as `seed`): node j is written into
   * `into[j]` when it is drawn directly (the result's entry is then undefined), else returned as
   * a tensor. The program runs before a node whose parameters read inputs written since its last
   * run; the derived values are those of the draw.
   */
  sample(chainKey: KeyArray, t: number, into: readonly (DirectArray | undefined)[]): (Tensor | undefined)[];
  /** One buffer per derived value, in the order of `derivedNames` (their values after `sample`), and their shapes. */
  readonly derived: readonly ArrayLike<number>[];
  readonly derivedShapes: readonly (readonly number[])[];
}

/**
 * Traces the model of `jd` with the `given` nodes (model indices; float64 values in `at`) and
 * the `replicated` ones (the others; their values in `at` are a draw of them, the trace point)
 * as inputs, and compiles the parameters of each replicated node's leaf distribution (inside
 * `Independent` and `Sample` wrappers) and the `derivedNames` values.
 *
 * Replicated nodes are drawn in model order, each fed back as an input when a later node's
 * parameters (or a derived value) read it, so a node may be drawn from another replicated one
 * (as every node is in a prior predictive draw).
 *
 * Returns undefined (the caller runs the model per draw) for a coroutine model (its structure may
 * follow the values), a given value or parameter that is not float64, a leaf with a non-tensor
 * object option (a bijector, a distribution), a node with imputed missing values, more than 30
 * nodes, or a model the tracer cannot follow.
 */
export function compilePredictive(jd: JointDistribution<StructKind>, given: readonly number[], replicated: readonly number[],
  derivedNames: readonly string[], at: readonly Tensor[]): PredictiveProgram | undefined {
  if (jd instanceof JointDistributionCoroutine) return undefined;
  if (given.some((i) => at[i]!.dtype !== 'float64')) return undefined;
  const order = [...given, ...replicated];
  const slot = new Map(replicated.map((i, j) => [i, j]));
  const plans: NodePlan[] = [];
  const fn = 'samplePosteriorPredictive';
  let program;
  try {
    program = traceProgram(fn, (...xs) => {
      const values = new Map(order.map((i, q) => [i, xs[q]!]));
      const outputs: Tensor[] = [];
      const derived = new Map<string, Tensor>();
      const found: (NodePlan | undefined)[] = replicated.map(() => undefined);
      jd.executeModel(fn, (i, d) => {
        const j = slot.get(i);
        if (j !== undefined) found[j] = planOf(d, outputs);
        const v = values.get(i) ?? decline('a node is neither given nor replicated');
        return j === undefined ? toValue(fn, `value[${i}]`, d.dtype, v) : v;
      }, (name, value) => { derived.set(name, value); });
      plans.push(...found.map((p) => p ?? decline('a replicated node was not reached')));
      for (const n of derivedNames) {
        const t = derived.get(n);
        if (!(t instanceof Tensor) || t.dtype !== 'float64') decline(`derived value ${n} is not float64`);
        outputs.push(t);
      }
      if (outputs.length === 0) decline('no parameter to compile');
      return outputs;
    }, order.map((i) => (at[i]!.dtype === 'float64' ? at[i]! : at[i]!.astype('float64'))));
  } catch {
    // The model ran on the tape at this draw already (the caller's first draw), so an error here
    // is the tracer's (an UntraceableError, or a shape it cannot follow): run the model per draw.
    return undefined;
  }
  // Which inputs each output depends on (a bit per input): node j's parameters may depend on the
  // given nodes and on replicated nodes before it (drawn first, then fed back), not on later ones.
  const nodes = program.trace.nodes;
  if (order.length > 30) return undefined;
  const deps = new Uint32Array(nodes.length);
  program.inputs.forEach((n, q) => { deps[n.index] = 1 << q; });
  for (const n of nodes) for (const o of n.operands) if (!('constant' in o)) deps[n.index]! |= deps[(o as TraceNode).index]!;
  const depsOf = (k: number) => { const o = program.outputs[k]!; return 'constant' in o ? 0 : deps[o.index]!; };
  const G = given.length;
  const needs = plans.map((p) => p.params.reduce((m, [, k]) => m | depsOf(k), 0));
  // Replicated node j is input G + j: nothing it or a later node is may feed node j.
  if (needs.some((m, j) => (m >>> (G + j)) !== 0)) return undefined;
  const paramCount = program.outputs.length - derivedNames.length;
  const derivedNeeds = derivedNames.reduce((m, _, k) => m | depsOf(paramCount + k), 0);
  // Replicated values that some output reads: written back as inputs after they are drawn.
  const readBack = replicated.map((_, j) => ((needs.reduce((m, x) => m | x, derivedNeeds) >>> (G + j)) & 1) === 1);
  const c = generate(program, false);
  // Constant outputs are not rewritten by `run`, so a copy made once stays right.
  const outputs = c.outputs.map((o) => (o instanceof Float64Array ? o : Float64Array.from(o)));
  const shapes = c.outputShapes;
  // Nodes are keyed in model order: node i takes the (i + 1)-th split of the salted key.
  const last = Math.max(...replicated);
  const size = replicated.map((i) => at[i]!.size);
  const direct = plans.map((p, j) => directDraw(p, shapes, size[j]!));
  const modes = getModes();
  // A node whose parameters read no input is the same distribution in every draw: the traced one, not rebuilt.
  const fixed = plans.map((p, j) => (needs[j] === 0 ? p.wrappers[0] ?? p.leaf : undefined));
  const replicatedInputs = c.inputs.slice(G);
  const seeds: KeyArray[] = [];
  let drawKey = new Uint32Array(0);
  return {
    inputs: c.inputs.slice(0, G),
    direct: direct.map((d) => d?.dtype),
    size,
    sample: (chainKey, t, into) => {
      // The keys executeSample gives the nodes, as raw words (no per-draw key objects or seed
      // checks): the draw's key samplers.foldIn(chainKey, t), then nodeSeeds' schedule.
      const impl = chainKey.impl, w = impl.keyWords;
      if (drawKey.length !== w) drawKey = new Uint32Array(w);
      let r = 0;
      nodeSeedWords(impl, impl.foldIn(chainKey.data, t >>> 0, modes, drawKey), last + 1, modes, (i, words) => {
        if (i === replicated[r]) seeds[r++] = new KeyArray(impl, words.slice(0, w), []);
      });
      // Inputs written since the last run (the given ones, by the caller): a bit per input.
      let dirty = (1 << G) - 1;
      const xs: (Tensor | undefined)[] = [];
      for (let j = 0; j < replicated.length; j++) {
        if ((needs[j]! & dirty) !== 0) { c.run(false); dirty = 0; }
        const dn = direct[j], seed = seeds[j]!;
        let x: Tensor | undefined;
        if (dn === undefined) x = (fixed[j] ?? rebuild(plans[j]!, outputs, shapes)).sample([], { seed });
        else dn.fill(seed, into[j]!, outputs, modes);
        xs.push(x);
        if (readBack[j]) {
          const buf = replicatedInputs[j]!, src = (x?.data ?? into[j]!) as ArrayLike<number>;
          for (let e = 0; e < buf.length; e++) buf[e] = Number(src[e]);
          dirty |= 1 << (G + j);
        }
      }
      if ((derivedNeeds & dirty) !== 0) c.run(false);
      return xs;
    },
    derived: outputs.slice(paramCount),
    derivedShapes: shapes.slice(paramCount),
  };
}

/** The replicated node's distribution at the program's current outputs. */
function rebuild(plan: NodePlan, outputs: readonly Float64Array[], shapes: readonly (readonly number[])[]): Distribution {
  const overrides: Record<string, Tensor> = {};
  for (const [key, k] of plan.params) overrides[key] = new Tensor(outputs[k]!, shapes[k]!, 'float64');
  let d = plan.leaf.copy(overrides);
  for (let w = plan.wrappers.length - 1; w >= 0; w--) d = plan.wrappers[w]!.copy({ distribution: d });
  return d;
}
