/**
 * Discrete nodes that enumeration cannot sum out (`enumerate.ts`), for Gibbs steps: an unpinned
 * node with no event-space bijector (a discrete distribution) whose support is not finite
 * (Poisson, NegativeBinomial, Geometric, a Binomial whose `totalCount` depends on a parameter),
 * too large (more than {@link MAX_SUPPORT} values), or whose enumeration was turned off
 * (`enumerate: false`). Such a node (a *Gibbs site*) is pinned to a placeholder, so the flat
 * model's continuous block sees it as data; the per-chain NUTS engine (`mcmc/nuts/stan/gibbs.ts`)
 * feeds the compiled density the chain's current values as an input and updates them by
 * Metropolis-within-Gibbs (NumPyro's `HMCGibbs`/`DiscreteHMCGibbs`, PyMC's compound steps).
 *
 * A site is updated one *unit* at a time: one scalar element (an element of a plated
 * `Independent`/`Sample`), or one event of an event-shaped element (a OneHotCategorical row).
 * Updating one unit given everything else is a valid Gibbs-type move whatever the dependence
 * between elements, since the acceptance ratio is computed from the whole joint density.
 * Proposals: for a finite support of at most {@link UNIFORM_MAX} values, uniformly among the other
 * values (NumPyro's `DiscreteHMCGibbs` rule, a symmetric proposal); for an unbounded or larger
 * support, a symmetric random walk on the integers, a step uniform on {±1, …, ±K} (K starts at
 * {@link RW_STEP} and is tuned in warm-up: `mcmc/nuts/stan/gibbs.ts`), a value outside the support
 * having log density −∞ (or NaN) and so being rejected.
 */
import { fail } from '../../src/checks.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { isBranded } from '../../src/brand.js';
import { NotImplementedError, type Distribution } from '../distribution.js';
import type { Independent } from '../independent.js';
import type { Sample } from '../sample.js';
import type { JointDistributionPinned } from '../joint/joint-distribution-pinned.js';
import type { StructKind } from '../joint/values.js';
import { MAX_SUPPORT } from './enumerate.js';

/** Finite supports up to this many values get uniform proposals among the other values; larger ones a random walk. */
export const UNIFORM_MAX = 64;
/** The random walk's largest step before warm-up tunes it: a step is uniform on {−K, …, −1, 1, …, K} (2: a step of 2 still crosses parity-restricted modes). */
export const RW_STEP = 2;

/** One discrete node sampled by Gibbs steps. */
export interface GibbsSite {
  /** Node index in model order, and name. */
  readonly node: number;
  readonly name: string;
  /** The node's value shape (one draw) and dtype. */
  readonly shape: readonly number[];
  readonly dtype: Distribution['dtype'];
  /** Values per update unit (1 for scalar elements; the event size of an event-shaped element) and units per node. */
  readonly unit: number;
  readonly units: number;
  /** `'uniform'`: among the other values of `support` (`[S × unit]`, row-major); `'random-walk'`: on the integers. */
  readonly proposal: 'uniform' | 'random-walk';
  readonly support?: Float64Array;
  /**
   * A random walk's least value when the node's support is the integers from there up and
   * depends on no parameter (0 for Poisson, NegativeBinomial, Geometric): a proposal below it is
   * rejected without evaluating the model (its density is −∞ there, and a child may give NaN,
   * which is then not mistaken for a failure of the model). Plain data, so it travels to workers.
   */
  readonly least?: number;
  /** Why the node is not enumerated (for the result and messages). */
  readonly reason: string;
}

/** The Gibbs sites of a pinned model. */
export interface GibbsPlan {
  /** The model as given. */
  readonly given: JointDistributionPinned<StructKind>;
  /** The model with every site pinned to a placeholder. */
  readonly pinned: JointDistributionPinned<StructKind>;
  readonly sites: readonly GibbsSite[];
  /** All sites' values, concatenated in site order (their total size). */
  readonly size: number;
  /** The placeholder values (flat, in site order): each finite site's first support value, 0 for the others. */
  readonly placeholder: Float64Array;
  /** The sites' values as pins (`values` flat in site order, or tensors, one per site). */
  pins(values: ArrayLike<number> | readonly Tensor[]): Record<string, Tensor>;
}

/**
 * The Gibbs sites of `given`, or undefined when it has none.
 * @example
 * gibbsPlan('windowedAdaptiveNuts', latentCount.experimentalPin({ y: 7 }))?.sites.map((s) => s.name);   // ['n']
 */
export function gibbsPlan(fn: string, given: JointDistributionPinned<StructKind>): GibbsPlan | undefined {
  const jd = given.distribution;
  const dists = given.singleSampleDistributions();
  const sites: GibbsSite[] = [];
  jd.nodeNames.forEach((name, i) => {
    if (given.isPinned(i)) return;
    const s = siteOf(fn, name, dists[i]!);
    if (s !== undefined) sites.push({ node: i, name, ...s });
  });
  if (sites.length === 0) return undefined;
  const size = sites.reduce((a, s) => a + s.unit * s.units, 0);
  const placeholder = new Float64Array(size);
  let at = 0;
  for (const s of sites) {
    const n = s.unit * s.units;
    if (s.support !== undefined) for (let k = 0; k < n; k++) placeholder[at + k] = s.support[k % s.unit]!;
    at += n;
  }
  const pins = (values: ArrayLike<number> | readonly Tensor[]): Record<string, Tensor> => {
    const out: Record<string, Tensor> = {};
    let o = 0;
    sites.forEach((s, j) => {
      const n = s.unit * s.units;
      if (isTensorList(values)) out[s.name] = values[j]!;
      else {
        const d = s.dtype === 'float64' ? new Float64Array(n) : s.dtype === 'float32' ? new Float32Array(n) : new Int32Array(n);
        for (let k = 0; k < n; k++) d[k] = values[o + k]!;
        out[s.name] = new Tensor(d, s.shape, s.dtype);
      }
      o += n;
    });
    return out;
  };
  const pinned = given.experimentalPin(pins(placeholder));
  return { given, pinned, sites, size, placeholder, pins };
}

/**
 * The error for a model with Gibbs sites reached by a caller that cannot sample them (compiled
 * log densities, optimisers, the pooled engine, workers).
 * @example
 * gibbsUnsupported('compileLogDensity', plan, 'sample it with windowedAdaptiveNuts');
 * // RangeError: compileLogDensity: `model` model "M" has discrete node(s) that cannot be summed out: `n` (its support is not finite …); sample it with …
 */
export function gibbsUnsupported(fn: string, plan: GibbsPlan, how: string): never {
  const list = plan.sites.map((s) => `\`${s.name}\` (${s.reason})`).join(', ');
  return fail('range', fn, 'model', `model "${plan.given.distribution.name}" has discrete node(s) that cannot be summed out: ${list}; ${how}`, plan.sites.map((s) => s.name));
}

function isTensorList(v: ArrayLike<number> | readonly Tensor[]): v is readonly Tensor[] {
  return Array.isArray(v) && v.length > 0 && v[0] instanceof Tensor;
}

function notImplemented(e: unknown): boolean {
  return e instanceof NotImplementedError || (e instanceof Error && e.name === 'NotImplementedError');
}

/** A node's site when it is discrete (no event-space bijector) and enumeration will not take it. */
function siteOf(fn: string, name: string, d: Distribution): Omit<GibbsSite, 'node' | 'name'> | undefined {
  if (d.batchShape.length > 0) return undefined;     // flatModel's error names it
  try {
    d.defaultEventSpaceBijector();
    return undefined;                                  // continuous
  } catch (e) {
    if (!notImplemented(e)) throw e;
  }
  let inner = d;
  if (isBranded(d, 'Independent') && (d as Independent).reinterpretedBatchNdims === (d as Independent).distribution.batchShape.length) inner = (d as Independent).distribution;
  else if (isBranded(d, 'Sample') && (d as Sample).distribution.batchShape.length === 0) inner = (d as Sample).distribution;
  const optedOut = d.parameters.enumerate === false || inner.parameters.enumerate === false;
  let support: Tensor | undefined;
  try {
    support = inner.enumerateSupport();
  } catch (e) {
    if (!notImplemented(e)) throw e;
  }
  const S = support?.shape[0] ?? Infinity;
  if (!optedOut && S <= MAX_SUPPORT) return undefined;  // enumeration sums it out
  const shape = [...d.batchShape, ...d.eventShape];
  const ev = inner.eventShape, unit = sizeOf(ev), units = sizeOf(shape) / Math.max(unit, 1);
  const reason = optedOut ? 'enumerate: false' : support === undefined ? 'its support is not finite or not known in advance' : `its support has ${S} values, more than the ${MAX_SUPPORT} enumeration sums over`;
  if (support !== undefined && S <= UNIFORM_MAX) {
    return { shape, dtype: d.dtype, unit, units, proposal: 'uniform', support: Float64Array.from(support.data as ArrayLike<number>, Number), reason };
  }
  if (ev.length > 0) fail('range', fn, 'model', `the discrete node \`${name}\` has events of shape [${ev.join(', ')}] and ${support === undefined ? 'no finite support' : `${S} values per event`}; Gibbs steps on it need a scalar event (a random walk on the integers) or at most ${UNIFORM_MAX} values per event`, name);
  const test = inner.fixedSupportTest();
  const least = test !== undefined && test(0) && !test(-1) && test(1) ? 0 : undefined;
  return { shape, dtype: d.dtype, unit: 1, units, proposal: 'random-walk', reason, ...(least === undefined ? {} : { least }) };
}
