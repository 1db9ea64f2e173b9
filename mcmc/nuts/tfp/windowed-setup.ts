/**
 * The initialization of `windowedAdaptiveNuts` (TFP's `retry_init`): uniform(−2, 2) in the
 * unconstrained space of a {@link FlatModel}, with retries until the log density is finite.
 */
import { fail } from '../../../src/checks.js';
import { splitSeed } from '../../../src/samplers/seeds.js';
import type { KeyArray } from '../../../src/random/key-array.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { JointDistributionSequential } from '../../../distributions/joint/joint-distribution-sequential.js';
import type { FlatModel } from '../../../distributions/joint/flat-model.js';
import { flatTarget, nonScalarLogDensity } from '../../../distributions/compile-log-density.js';
import { chainRow, unconstrainDraw } from '../../internal/init.js';
import { whyNotFinite } from '../../internal/locate-failure.js';
import { Sample } from '../../../distributions/sample.js';
import { Uniform } from '../../../distributions/uniform.js';

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
export function initialState(fn: string, m: FlatModel, nChains: number, seed: KeyArray, order: readonly number[] = m.names.map((_, j) => j), radius = 2): Tensor[] {
  const init = new JointDistributionSequential(order.map((j) => new Sample({ distribution: new Uniform({ low: -radius, high: radius }), sampleShape: m.shapes[j]! })));
  // The model is written for one draw: each chain's point is mapped and evaluated on its own.
  const trial = (key: KeyArray): [Tensor[][], Uint8Array] => {
    const u = fromOrder(order, init.sample([nChains], { seed: key }) as Tensor[]);
    const ok = new Uint8Array(nChains);
    const x = Array.from({ length: nChains }, (_, c) => {
      const xc = m.parts(m.bijector.forward(m.struct(u.map((t) => chainRow(t, c, nChains)))));
      const lp = m.pinned.unnormalizedLogProb(m.struct(xc));
      if (lp.size !== 1) nonScalarLogDensity(fn, m, lp.shape);
      ok[c] = Number.isFinite((lp.data as ArrayLike<number>)[0]) ? 1 : 0;
      return xc;
    });
    return [x, ok];
  };
  const [initSeed, first] = splitSeed(seed) as [KeyArray, KeyArray];
  let loopSeed = first;
  const [values, good] = trial(initSeed);
  for (let t = 1; t < MAX_INIT_TRIALS && good.some((g) => g === 0); t++) {
    const [trialSeed, next] = splitSeed(loopSeed) as [KeyArray, KeyArray];
    loopSeed = next;
    const [x, ok] = trial(trialSeed);
    for (let c = 0; c < nChains; c++) if (ok[c]) { values[c] = x[c]!; good[c] = 1; }
  }
  const failed = good.reduce((a, g) => a + (g === 0 ? 1 : 0), 0);
  if (failed > 0) {
    const c = good.indexOf(0), x = values[c]!;
    const why = whyNotFinite(m, flatTarget(fn, m, false).value, unconstrainDraw(m, m.struct(x)));
    fail('range', fn, 'model', `"${m.pinned.distribution.name}" has a non-finite log density at every one of ${MAX_INIT_TRIALS} initial points tried for ${failed} of ${nChains} chains (uniform(−${radius}, ${radius}) in unconstrained space); at chain ${c}'s last, ${why}. Check the model and its pins, try \`init: 'prior'\` or a smaller \`initRadius\`, or give \`init\` values`, m.pinned.distribution.name);
  }
  const flat = values.map((xc) => m.flatten(m.parts(m.bijector.inverse(m.struct(xc))), 0));
  return toOrder(order, m.names.map((_, j) => stackChains(flat.map((f) => f[j]!))));
}

/** One `[n]` float tensor per chain stacked into `[nChains, n]` (the rows' dtype). */
function stackChains(rows: readonly Tensor[]): Tensor {
  const first = rows[0]!, n = first.size;
  const out = first.dtype === 'float32' ? new Float32Array(rows.length * n) : new Float64Array(rows.length * n);
  rows.forEach((r, c) => out.set(r.data as ArrayLike<number>, c * n));
  return new Tensor(out, [rows.length, n], first.dtype === 'float32' ? 'float32' : 'float64');
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
