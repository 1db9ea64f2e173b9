/**
 * Where chains start (`windowedAdaptiveNuts`' `init`): Stan's default, uniform(−R, R) in every
 * unconstrained coordinate with up to 100 attempts per chain (`runPerChain` draws it from the
 * chain's own stream), or a draw from the prior (`'prior'`, Stan's and PyMC's alternative), the
 * prior median (`'median'`, NumPyro's `init_to_median`), a multi-path Pathfinder draw
 * (`'pathfinder'`, Stan's and nutpie's choice; implemented in `optimize/`), or the user's constrained values. Each
 * start must have a finite log density and gradient; when none does, the error says which node's
 * log density is not finite there and why (`whyNotFinite`, in `locate-failure.ts`).
 */
import { fail } from '../../src/checks.js';
import type { FlatTarget } from '../../src/compile/flat-target.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { foldIn } from '../../src/samplers/seeds.js';
import { asTensor } from '../../src/tensor/core.js';
import { Tensor } from '../../src/tensor/tensor.js';
import type { FlatModel } from '../../distributions/joint/flat-model.js';
import { isPlainObject, type PartialValues } from '../../distributions/joint/values.js';
import { whyNotFinite } from './locate-failure.js';
import { isProgrammingError } from './rejections.js';

/** The `init` option: a strategy, constrained values (shared, or with a leading chains axis), or values per chain. */
export type InitOption = 'uniform' | 'prior' | 'median' | 'pathfinder' | PartialValues | ((chain: number) => PartialValues);

/**
 * One multi-path Pathfinder run on `target`, a pure function of `seed`, run on first use and
 * shared: chain c's start, and the initial diagonal inverse metric (`initInvMetric: 'pathfinder'`).
 */
export interface PathfinderRun {
  start(c: number): Float64Array;
  invMetric(): Float64Array;
}

/** Builds a {@link PathfinderRun} (lazy: Pathfinder runs when a start or the metric is first asked for). */
export type PathfinderStarts = (fn: string, m: FlatModel, target: FlatTarget, nChains: number, seed: KeyArray) => PathfinderRun;

/**
 * `init: 'pathfinder'`'s implementation, registered by `optimize/pathfinder.ts` when it loads:
 * the optimisation layer sits below this one and imports it (the PSIS and start helpers), so
 * this layer cannot import Pathfinder; it takes it as a function instead.
 */
let pathfinderStarts: PathfinderStarts | undefined;

/** Registers `init: 'pathfinder'` (called once by `stochax/optimize`). */
export function providePathfinderStarts(f: PathfinderStarts): void {
  pathfinderStarts = f;
}

/**
 * The sampler's Pathfinder run (starts and metric from the same run), or a RangeError naming
 * `arg` when `stochax/optimize` is not loaded.
 * @example
 * const pf = pathfinderRun('windowedAdaptiveNuts', 'init', 'pathfinder', m, target, 4, seed);
 * pf.start(2);       // chain 2's start (unconstrained); the run happens here, once
 * pf.invMetric();    // the diagonal the chains' metric starts from, with initInvMetric: 'pathfinder'
 */
export function pathfinderRun(fn: string, arg: string, value: unknown, m: FlatModel, target: FlatTarget, nChains: number, seed: KeyArray): PathfinderRun {
  if (pathfinderStarts === undefined) fail('range', fn, arg, "'pathfinder' runs stochax/optimize's pathfinder, which is not loaded: add `import 'stochax/optimize';` (or import `pathfinder` from it) before sampling", value);
  return pathfinderStarts(fn, m, target, nChains, seed);
}

/** Attempts per chain for a random start (Stan's `MAX_INIT_TRIES`). */
export const INIT_ATTEMPTS = 100;

/** Prior draws whose coordinate-wise median is the `'median'` start (NumPyro's `init_to_median` default). */
const MEDIAN_DRAWS = 15;

/** One draw's constrained values (structured like the unpinned nodes) as flat unconstrained coordinates, in the model's order. */
export function unconstrainDraw(m: FlatModel, values: unknown): Float64Array {
  const flat = m.flatten(m.parts(m.bijector.inverse(m.struct(m.parts(values)))), 0);
  const out = new Float64Array(m.sizes.reduce((a, b) => a + b, 0));
  let i = 0;
  for (const p of flat) { const d = p.data as ArrayLike<number>; for (let k = 0; k < d.length; k++) out[i++] = Number(d[k]); }
  return out;
}

/**
 * True when the target's log density and every gradient entry are finite at `x`. A throw is a
 * point that fails, by the rejection rule (`rejections.ts`): a programming error (TypeError,
 * ReferenceError, SyntaxError) propagates.
 */
export function finiteAt(target: FlatTarget, x: Float64Array, grad: Float64Array): boolean {
  try {
    return Number.isFinite(target.logDensityGradient(x, grad)) && grad.every(Number.isFinite);
  } catch (e) {
    if (isProgrammingError(e)) throw e;
    return false;
  }
}

/**
 * Chain c's start for every `init` but `'uniform'` (which the engine draws from the chain's own
 * stream), as flat unconstrained coordinates. `'prior'` draws with the key
 * `foldIn(foldIn(foldIn(seed, c), 'init'), attempt)`, so chain c's start depends on nothing but
 * its own key, retrying up to {@link INIT_ATTEMPTS} times; `'median'` takes the median of
 * {@link MEDIAN_DRAWS} prior draws (draw k from `foldIn(foldIn(foldIn(seed, c), 'init'), k)`), coordinate-wise in constrained space.
 *
 * @throws TypeError/RangeError naming `init` for values that do not fit the model, or naming the
 *   node whose log density is not finite at the start.
 */
export function chainInit(fn: string, m: FlatModel, target: FlatTarget, init: Exclude<InitOption, 'uniform'>, nChains: number, seed: KeyArray, pathfinder?: PathfinderRun): (c: number) => Float64Array {
  const grad = new Float64Array(target.dim);
  const key = (c: number) => foldIn(foldIn(seed, c), 'init') as KeyArray;
  const checked = (c: number, x: Float64Array, what: string): Float64Array => {
    if (!finiteAt(target, x, grad)) fail('range', fn, 'init', `gives chain ${c} a start (${what}) where ${whyNotFinite(m, target, x)}`, init);
    return x;
  };
  if (init === 'prior') {
    return (c) => {
      let x: Float64Array = new Float64Array(0);
      for (let k = 0; k < INIT_ATTEMPTS; k++) {
        x = unconstrainDraw(m, m.pinned.sampleUnpinned([], { seed: foldIn(key(c), k) }));
        if (finiteAt(target, x, grad)) return x;
      }
      return fail('range', fn, 'init', `'prior': none of ${INIT_ATTEMPTS} prior draws for chain ${c} has a finite log density and gradient; at the last, ${whyNotFinite(m, target, x)}`, init);
    };
  }
  if (init === 'pathfinder') {
    const run = pathfinder ?? pathfinderRun(fn, 'init', init, m, target, nChains, seed);
    return (c) => checked(c, run.start(c), 'a Pathfinder draw');
  }
  if (init === 'median') {
    return (c) => {
      // one draw at a time (draw k from foldIn(key, k), as 'prior' draws): a model written for
      // one draw need not broadcast over a batch of draws
      const draws = Array.from({ length: MEDIAN_DRAWS }, (_, k) => m.parts(m.pinned.sampleUnpinned([], { seed: foldIn(key(c), k) })));
      const medians = draws[0]!.map((_, j) => medianOf(draws.map((d) => d[j]!)));
      return checked(c, unconstrainDraw(m, m.struct(medians)), `the median of ${MEDIAN_DRAWS} prior draws`);
    };
  }
  if (typeof init === 'function') {
    return (c) => checked(c, unconstrainDraw(m, nodeValues(fn, m, `init(${c})`, init(c), undefined)), `init(${c})`);
  }
  if (!isPlainObject(init) && !Array.isArray(init)) fail('type', fn, 'init', "must be 'uniform', 'prior', 'median', 'pathfinder', constrained values of the unpinned nodes, or a function of the chain index returning them", init);
  return (c) => checked(c, unconstrainDraw(m, nodeValues(fn, m, 'init', init, { c, nChains })), 'init');
}

/**
 * The unpinned nodes' values from the user's `init` (every node given; a value of one draw's shape
 * is shared by every chain, one with a leading axis of `nChains` gives chain c its row).
 */
function nodeValues(fn: string, m: FlatModel, arg: string, values: unknown, perChain: { c: number; nChains: number } | undefined): unknown {
  if (!isPlainObject(values) && !Array.isArray(values)) fail('type', fn, arg, `must be constrained values of the unpinned nodes (${m.names.join(', ')})`, values);
  const given = values as Record<string, unknown>;
  const shapes = m.pinned.eventShape as unknown;
  const dists = m.pinned.singleSampleDistributions(), nodes = m.pinned.distribution.nodeNames;
  const rows = m.names.map((name, j) => {
    const v = Array.isArray(values) ? (values as unknown[])[j] : given[name];
    if (v === undefined) fail('range', fn, `${arg}.${name}`, `is missing: give every unpinned node (${m.names.join(', ')}), or use init: 'uniform' | 'prior' | 'median'`, v);
    const t = asTensor(fn, `${arg}.${name}`, v as never);
    dists[nodes.indexOf(name)]!.checkDataSupport(fn, `${arg}.${name}`, t);
    const event = (Array.isArray(shapes) ? (shapes as (readonly number[])[])[j] : (shapes as Record<string, readonly number[]>)[name])!;
    if (t.ndim === event.length) return t;
    if (perChain !== undefined && t.ndim === event.length + 1 && t.shape[0] === perChain.nChains) return chainRow(t, perChain.c, perChain.nChains);
    return fail('range', fn, `${arg}.${name}`, `must have the node's shape [${event.join(', ')}]${perChain === undefined ? '' : ` or [${[`nChains = ${perChain.nChains}`, ...event].join(', ')}]`}; its shape is [${t.shape.join(', ')}]`, t.shape);
  });
  return m.struct(rows);
}

/** Chain c's row `[...event]` of a `[nChains, ...event]` tensor, as float64. */
export function chainRow(t: Tensor, c: number, nChains: number): Tensor {
  const per = t.size / nChains;
  return new Tensor(Float64Array.from({ length: per }, (_, k) => Number(t.data[c * per + k])), t.shape.slice(1), 'float64');
}

/** The element-wise median of same-shaped tensors (one per prior draw). */
function medianOf(ts: readonly Tensor[]): Tensor {
  const n = ts.length, per = ts[0]!.size, out = new Float64Array(per), col = new Float64Array(n);
  for (let k = 0; k < per; k++) {
    for (let i = 0; i < n; i++) col[i] = Number(ts[i]!.data[k]);
    col.sort();
    out[k] = n % 2 === 1 ? col[(n - 1) / 2]! : 0.5 * (col[n / 2 - 1]! + col[n / 2]!);
  }
  return new Tensor(out, ts[0]!.shape, 'float64');
}
