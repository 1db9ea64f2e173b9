/**
 * The initialization of `windowedAdaptiveNuts` (TFP's `retry_init`): uniform(−2, 2) in the
 * unconstrained space of a {@link FlatModel}, with retries until the log density is finite.
 */
import { fail } from '../../src/checks.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { JointDistributionSequential } from '../../distributions/joint/joint-distribution-sequential.js';
import type { FlatModel } from '../../distributions/joint/flat-model.js';
import { FLAT, type WithFlat } from '../../distributions/compile-log-density.js';
import { Sample } from '../../distributions/sample.js';
import { Uniform } from '../../distributions/uniform.js';

/** Up to this many uniform(−2, 2) draws per chain (TFP's `retry_init` default). */
export const MAX_INIT_TRIALS = 50;

/**
 * Initial unconstrained, flattened states `[C, n_j]` (TFP's `init_near_unconstrained_zero` +
 * `retry_init`): every unconstrained coordinate uniform on (−2, 2) — drawn as a
 * `JointDistributionSequential` of `Sample(Uniform(−2, 2), shape_j)` with `sample([C], seed)` —
 * mapped to the model's support, and kept for the chains whose `unnormalizedLogProb` is finite.
 * Seeds as TFP's batched Las Vegas loop: `[initSeed, loopSeed] = splitSeed(seed)` (unsalted,
 * as in TFP since 0.12), the first trial with `initSeed`, each later one with
 * `[trialSeed, loopSeed] = splitSeed(loopSeed)`; a chain takes a later trial's value whenever
 * that trial is finite for it. The chosen constrained values are mapped back (f⁻¹) and flattened.
 *
 * @throws RangeError naming the model after `MAX_INIT_TRIALS` trials if some chain never had a
 *   finite log density.
 */
export function initialState(fn: string, m: FlatModel, nChains: number, seed: KeyArray, order: readonly number[] = m.names.map((_, j) => j)): Tensor[] {
  const init = new JointDistributionSequential(order.map((j) => new Sample({ distribution: new Uniform({ low: -2, high: 2 }), sampleShape: m.shapes[j]! })));
  const trial = (key: KeyArray): [Tensor[], Uint8Array] => {
    const u = fromOrder(order, init.sample([nChains], { seed: key }) as Tensor[]);
    const x = m.parts(m.bijector.forward(m.struct(u)));
    const lp = m.pinned.unnormalizedLogProb(m.struct(x));
    const v = lp.data as ArrayLike<number>;
    const ok = new Uint8Array(nChains);
    for (let c = 0; c < nChains; c++) ok[c] = v.length === nChains && Number.isFinite(v[c]) ? 1 : 0;
    if (v.length !== nChains) fail('range', fn, 'model', `unnormalizedLogProb returned shape [${lp.shape.join(', ')}] for ${nChains} chains; expected [${nChains}]`, lp.shape);
    return [x, ok];
  };
  const [initSeed, first] = splitSeed(seed) as [KeyArray, KeyArray];
  let loopSeed = first;
  let [values, good] = trial(initSeed);
  for (let t = 1; t < MAX_INIT_TRIALS && good.some((g) => g === 0); t++) {
    const [trialSeed, next] = splitSeed(loopSeed) as [KeyArray, KeyArray];
    loopSeed = next;
    const [x, ok] = trial(trialSeed);
    values = values.map((old, j) => pickChains(ok, x[j]!, old, nChains));
    good = good.map((g, c) => g | ok[c]!);
  }
  const failed = good.reduce((a, g) => a + (g === 0 ? 1 : 0), 0);
  if (failed > 0) {
    fail('range', fn, 'model', `"${m.pinned.distribution.name}" has a non-finite log density at every one of ${MAX_INIT_TRIALS} initial points tried for ${failed} of ${nChains} chains (uniform(−2, 2) in unconstrained space); check the model and its pins, or pass \`currentState\``, m.pinned.distribution.name);
  }
  return toOrder(order, m.flatten(m.parts(m.bijector.inverse(m.struct(values))), 1));
}

/**
 * TFP's order of the flattened state parts, as indices into `m.names`: `tf.nest.flatten` of the
 * pinned model's event structure, so a record model's (`JointDistributionNamed`, also from a
 * `Map`) unpinned nodes sorted by name (code point order), an array model's in list order. It
 * can differ from the model's node (seed) order: eight schools' nodes are drawn thetaTilde, tau,
 * mu, but its state parts are mu, tau, thetaTilde.
 */
export function tfpPartOrder(m: FlatModel): number[] {
  const idx = m.names.map((_, j) => j);
  if (m.pinned.distribution.structKind !== 'record') return idx;
  return idx.sort((a, b) => (m.names[a]! < m.names[b]! ? -1 : m.names[a]! > m.names[b]! ? 1 : 0));
}

/** `xs` (in `m.names` order) in `order`. */
export function toOrder<T>(order: readonly number[], xs: readonly T[]): T[] {
  return order.map((j) => xs[j]!);
}

/** `xs` (in `order`) back in `m.names` order. */
export function fromOrder<T>(order: readonly number[], xs: readonly T[]): T[] {
  const out = new Array<T>(xs.length);
  order.forEach((j, t) => { out[j] = xs[t]!; });
  return out;
}

type TargetAndGrad = WithFlat<(...parts: Tensor[]) => [Tensor, Tensor[]]>;

/**
 * A target over parts in `order` from one over parts in `m.names` order (a compiled target's
 * flat form is kept, permuted). The arithmetic is the target's own.
 */
export function orderedTarget(order: readonly number[], f: TargetAndGrad): TargetAndGrad {
  const g = (...parts: Tensor[]): [Tensor, Tensor[]] => {
    const [lp, grads] = f(...fromOrder(order, parts));
    return [lp, toOrder(order, grads)];
  };
  const flatFor = f[FLAT];
  if (flatFor === undefined) return g;
  return Object.assign(g, {
    [FLAT]: (shapes: readonly (readonly number[])[]) => {
      const flat = flatFor(fromOrder(order, shapes));
      return flat && ((x: readonly Float64Array[], alloc?: (n: number) => Float64Array) => { const r = flat(fromOrder(order, x), alloc); return { lp: r.lp, grad: toOrder(order, r.grad) }; });
    },
  });
}

/** Per chain (leading dim), `a` where `mask` is set, else `b`. */
function pickChains(mask: Uint8Array, a: Tensor, b: Tensor, nChains: number): Tensor {
  const per = a.size / nChains;
  const out = new Float64Array(a.size);
  const ad = a.data as ArrayLike<number>, bd = b.data as ArrayLike<number>;
  for (let c = 0; c < nChains; c++) for (let k = 0; k < per; k++) out[c * per + k] = mask[c] ? ad[c * per + k]! : bd[c * per + k]!;
  return new Tensor(out, a.shape, 'float64');
}
