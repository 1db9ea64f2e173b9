/**
 * Automatic enumeration of discrete latent variables: every unpinned node of a joint distribution
 * whose support is finite (`Distribution.enumerateSupport()`: Bernoulli, Categorical,
 * OneHotCategorical, Binomial with a fixed total count, or those wrapped in `Independent` /
 * `Sample`) is summed out of the log density, log p(rest) = log Σ_z p(z, rest), before the model
 * is flattened for the samplers (`flatModel`, the one place a pinned model becomes a flat target).
 * A node opts out with the distribution option `enumerate: false`. The ideas are those of
 * Obermeyer et al. 2019 (tensor variable elimination) and NumPyro's `enum` handlers; the code is
 * ours.
 *
 * Design.
 * - **Enumeration dims.** The model runs once, with tensors. Each enumerated node (a *site*) gets
 *   a *slot*: one of L leading dims that every enumerated value carries. Its value is its support
 *   laid along its slot, then R dims of 1, then its plate and event — shape
 *   [1, …, S, …, 1, 1 × R, ...plate, ...event] — so the model's one-draw callables broadcast over
 *   it like over any batch dim (`gather(mu, z)`, `gather(P, zPrev)`, `less(t, s)` with `t` of
 *   length 112), and every node's log density comes out as a table over the slots it depends on.
 *   R = 1 + the largest event rank of any node is the room the model's own tensors broadcast and
 *   reduce in without reaching the slots (NumPyro's `max_plate_nesting`). Dependence is read from
 *   the shapes (a node depends on site j when its table has S_j > 1 on j's slot).
 * - **Parallel enumeration (plates).** A site wrapped in `Independent`/`Sample` over a plate of
 *   shape P has one slot for all of its elements: its value is [.., S, .., ...P] with every
 *   element taking support value k along the slot. A node that depends on it must split its log
 *   density over the same elements (an `Independent` whose reinterpreted dims begin with P): the
 *   table [.., S, .., ...P] is then summed as Σ_i log Σ_k — cost N·K, not K^N. This assumes that
 *   element i of such a node depends on element i of the site only (as in a mixture: y_i on z_i);
 *   it is the user's plate declaration, as in NumPyro.
 * - **Sequential elimination (variable elimination).** A site is summed out (logsumexp over its
 *   slot, then over its plate dims) as soon as no later node depends on it — known from the
 *   joint's graph (`resolveGraph`): after the last node that takes it as a parent. Its slot is
 *   then free for a later site, so a Markov chain z_t | z_{t−1} written step by step uses two
 *   slots and costs T·K² (the forward algorithm), not K^T. A site shared by a plate's factors
 *   waits until they are summed. A coroutine model (no graph) or one with `factor` terms keeps
 *   every site to the end.
 * - **Limits.** A RangeError, not a fallback, when a site's support exceeds
 *   {@link MAX_SUPPORT} values or the largest table the elimination needs exceeds
 *   {@link MAX_TABLE} entries (the size is in the message). An unpinned continuous node that
 *   depends on an enumerated one is not supported (its bijector would depend on the sum's index).
 * - **Generated code.** Everything is tensor ops (`logsumexp`, `sum`, `add`, `reshape`) on static
 *   shapes, so the enumerated density traces and compiles like any other, gradients included.
 *
 * The same elimination run with `max` instead of `logsumexp`, and with every summed table kept,
 * gives `inferDiscrete` (mcmc/infer-discrete.ts) its backward pass: sampling (or Viterbi) in the
 * reverse order of elimination.
 */
import { isBranded } from '../../src/brand.js';
import { fail } from '../../src/checks.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { logsumexp, max, sum } from '../../src/tensor/ops/reduce.js';
import { broadcastTo, gather, reshape } from '../../src/tensor/ops/shape.js';
import { sizeOf } from '../../src/tensor/shapes.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { Distribution, NotImplementedError } from '../distribution.js';
import type { Independent } from '../independent.js';
import type { JointDistribution } from '../joint/joint-distribution.js';
import type { JointDistributionPinned } from '../joint/joint-distribution-pinned.js';
import { toValue, type PartialValues, type StructKind } from '../joint/values.js';
import type { Sample } from '../sample.js';

/** The most values one enumerated node may take (a Binomial with `totalCount` 4095 is the largest). */
export const MAX_SUPPORT = 4096;
/** The most entries of one table of the elimination (the live sites' supports multiplied, times the plate). */
export const MAX_TABLE = 1 << 22;

/** One enumerated node. */
export interface EnumSite {
  /** Node index in model order, and name. */
  readonly node: number;
  readonly name: string;
  /** How the element distribution sits in the node: itself, inside `Independent`, inside `Sample`. */
  readonly kind: 'own' | 'independent' | 'sample';
  /** The plate: the node's independent elements ([] for one value). */
  readonly plate: readonly number[];
  /** The support of one element, `[S, ...eventShape]`, and S. */
  readonly support: Tensor;
  readonly size: number;
  /** The leading dim this site's values lie along. */
  readonly slot: number;
  /** The node's value with the support along its slot: `[L dims, ...plate, ...event]`. */
  readonly value: Tensor;
}

/** How a pinned model's discrete nodes are summed out. */
export interface EnumerationPlan {
  /** The model as given. */
  readonly original: JointDistributionPinned<StructKind>;
  /** The model with every site pinned to a placeholder: what the samplers see (its unpinned nodes are the continuous ones). */
  readonly pinned: JointDistributionPinned<StructKind>;
  /** The sites in model order. */
  readonly sites: readonly EnumSite[];
  /** The number of enumeration dims every site's value carries. */
  readonly rank: number;
  /** Room left between them and a site's own dims: 1 + the largest event rank of any node (NumPyro's `max_plate_nesting`, which the model's own tensors broadcast into). */
  readonly own: number;
  /** `after[i]`: the sites (indices into `sites`) summed out once node i is done, in order; `after[n]`: at the end. */
  readonly after: readonly (readonly number[])[];
}

/** What one elimination step leaves: the table before it was reduced, over `[L dims, ...plate]`. */
export interface EliminationStep {
  readonly site: number;
  readonly table: Tensor;
  /** The site in each enumeration slot at that moment (undefined: free), `site` included. */
  readonly occupants: readonly (number | undefined)[];
}

const placeholders = new WeakMap<object, Map<string, Tensor>>();

/**
 * The enumeration plan of a pinned model, or undefined when no unpinned node can be enumerated.
 *
 * @throws RangeError naming the node when a support or a table would be too large, with the size.
 * @example
 * const plan = enumerationPlan('compileLogDensity', mixture.experimentalPin({ y }));
 * plan?.sites.map((s) => s.name);   // ['z']
 */
export function enumerationPlan(fn: string, pinned: JointDistributionPinned<StructKind>): EnumerationPlan | undefined {
  const jd = pinned.distribution;
  const names = jd.nodeNames;
  const dists = pinned.singleSampleDistributions();
  const found: Omit<EnumSite, 'slot' | 'value'>[] = [];
  names.forEach((name, i) => {
    if (pinned.isPinned(i)) return;
    const s = siteOf(fn, name, dists[i]!);
    if (s !== undefined) found.push({ node: i, name, ...s });
  });
  if (found.length === 0) return undefined;

  // Each node's parents by index (a coroutine declares none: every site then lives to the end).
  const n = names.length;
  let parents: number[][] | undefined;
  try {
    parents = jd.resolveGraph().map(([, ps]) => ps.map((p) => names.indexOf(p)));
  } catch (e) {
    if (!notImplemented(e)) throw e;
  }
  if (parents !== undefined && jd.factorNames.length > 0) parents = undefined;
  const siteOfNode = new Map(found.map((s, j) => [s.node, j]));
  const end = found.map((s) => s.node);
  if (parents === undefined) end.fill(n);
  else {
    parents.forEach((ps, i) => ps.forEach((p) => { const j = siteOfNode.get(p); if (j !== undefined) end[j] = Math.max(end[j]!, i); }));
    // A site that shares a table with a later plated site must outlive it (its plate is summed first).
    const tables = parents.map((ps, i) => [...ps, i].map((p) => siteOfNode.get(p)).filter((j): j is number => j !== undefined).sort((a, b) => a - b));
    for (let changed = true; changed;) {
      changed = false;
      for (const t of tables) {
        for (let a = 0; a < t.length; a++) {
          for (let b = a + 1; b < t.length; b++) {
            const ja = t[a]!, jb = t[b]!;
            if (found[jb]!.plate.length > 0 && end[ja]! < end[jb]!) { end[ja] = end[jb]!; changed = true; }
          }
        }
      }
    }
  }

  // Slots: the lowest free one at a site's node; freed after its end. Tables are checked for size.
  const slots: number[] = new Array<number>(found.length).fill(-1);
  const busy: (number | undefined)[] = [];
  const after: number[][] = Array.from({ length: n + 1 }, () => []);
  found.forEach((_, j) => after[end[j]!]!.push(j));
  for (const list of after) list.sort((a, b) => b - a);          // the latest site first
  for (let i = 0; i < n; i++) {
    const j = siteOfNode.get(i);
    if (j !== undefined) {
      let s = busy.findIndex((b) => b === undefined);
      if (s < 0) s = busy.length;
      busy[s] = j;
      slots[j] = s;
      const live = busy.filter((b): b is number => b !== undefined);
      const entries = live.reduce((a, k) => a * found[k]!.size, 1) * Math.max(1, ...live.map((k) => sizeOf(found[k]!.plate)));
      if (entries > MAX_TABLE) {
        const why = parents === undefined ? ` (${jd.constructor.name === 'JointDistributionCoroutine' ? 'a coroutine model declares no parents' : 'the model has factor terms'}, so every enumerated node is kept to the end; write it as JointDistributionNamed or Sequential so each node can be summed out after its last child)` : '';
        fail('range', fn, 'model', `enumerating the discrete nodes ${live.map((k) => `\`${found[k]!.name}\``).join(', ')} of model "${jd.name}" together needs a table of ${entries} entries (their supports multiplied, times the plate), more than ${MAX_TABLE}${why}; pin some of them, or opt out with \`enumerate: false\``, entries);
      }
    }
    for (const k of after[i]!) busy[slots[k]!] = undefined;
  }
  const rank = busy.length;
  const own = 1 + Math.max(0, ...dists.map((d) => d.eventShape.length));
  const sites: EnumSite[] = found.map((s, j) => ({ ...s, slot: slots[j]!, value: spread(s.support, rank, own, slots[j]!, s.plate) }));

  // Continuous nodes downstream of a site are not supported (their bijector would depend on it).
  if (parents !== undefined) {
    const dependsOnSite = new Array<boolean>(n).fill(false);
    parents.forEach((ps, i) => { dependsOnSite[i] = ps.some((p) => siteOfNode.has(p) || dependsOnSite[p] === true && !pinned.isPinned(p)); });
    names.forEach((name, i) => {
      if (!pinned.isPinned(i) && !siteOfNode.has(i) && dependsOnSite[i]) {
        fail('range', fn, 'model', `node \`${name}\` of model "${jd.name}" is sampled by MCMC but depends on the enumerated node(s) ${found.filter((s) => parents![i]!.includes(s.node)).map((s) => `\`${s.name}\``).join(', ') || 'upstream'}; enumeration supports discrete nodes whose descendants are pinned or discrete — pin it, or opt the discrete node out with \`enumerate: false\``, name);
      }
    });
  }

  const cached = placeholders.get(jd) ?? new Map<string, Tensor>();
  placeholders.set(jd, cached);
  const pins: Record<string, Tensor> = {};
  for (const s of sites) {
    const key = `${s.name}:${s.plate.join(',')}:${s.support.shape.join(',')}`;
    let t = cached.get(key);
    if (t === undefined) {
      const first = reshape(sliceFirst(s.support), [...s.plate.map(() => 1), ...s.support.shape.slice(1)]);
      t = broadcastTo(first, [...s.plate, ...s.support.shape.slice(1)]);
      cached.set(key, t);
    }
    pins[s.name] = t;
  }
  return { original: pinned, pinned: pinned.experimentalPin(pins), sites, rank, own, after };
}

/**
 * log Σ over the sites of p(sites, rest) at the continuous values `values` (structured like
 * `plan.pinned`'s unpinned nodes), a tensor `[]`; `reduce: 'max'` gives max over the sites
 * instead. `record` receives each table before it is reduced (for `inferDiscrete`).
 *
 * @throws RangeError naming a node whose log density depends on an enumerated node in a way the
 *   plan cannot sum (jointly on every element of a plated site, or after it was summed out).
 */
export function eliminate(fn: string, plan: EnumerationPlan, values: PartialValues, reduce: 'logsumexp' | 'max' = 'logsumexp', record?: (step: EliminationStep) => void): Tensor {
  const jd: JointDistribution<StructKind> = plan.original.distribution;
  const L = plan.rank, R = plan.own;
  const full = plan.pinned.fullValues(fn, 'values', values);
  const siteAt = new Map(plan.sites.map((s, j) => [s.node, j]));
  const live = new Set<number>();
  const done: Tensor[] = [];
  const pending: { t: Tensor; plate: readonly number[] | undefined }[] = [];

  const slotDeps = (t: Tensor): number[] => {
    const out: number[] = [];
    for (let s = 0; s < L; s++) if (t.shape[s]! > 1) out.push(s);
    return out;
  };
  const siteInSlot = (s: number): number | undefined => [...live].find((j) => plan.sites[j]!.slot === s);
  // A log density [L enumeration dims, the model's own dims (all 1), ...keep] → [L dims, ...keep].
  const shaped = (what: string, t: Tensor, keep: readonly number[]): Tensor => {
    const u = padTo(t, L + keep.length);
    for (let a = L; a < u.ndim - keep.length; a++) {
      if (u.shape[a] !== 1) fail('range', fn, 'model', `${what} of model "${jd.name}" has a log density of shape [${u.shape.join(', ')}] beyond its ${L} enumeration dim(s): a node needs a scalar batch shape (and enumeration leaves ${R} dim(s) of room right of the enumerated values: the model must not reduce more)`, u.shape);
    }
    return u.ndim === L + keep.length ? u : reshape(u, [...u.shape.slice(0, L), ...u.shape.slice(u.ndim - keep.length)]);
  };
  const addTable = (what: string, lp: Tensor, split: (() => Tensor | undefined) | undefined) => {
    const t = shaped(what, lp, []);
    const deps = slotDeps(t);
    if (deps.length === 0) { done.push(reshape(t, [])); return; }
    const sites = deps.map((s) => {
      const j = siteInSlot(s);
      if (j === undefined) fail('range', fn, 'model', `${what} of model "${jd.name}" depends on an enumerated node that was already summed out (its parents in the model's graph are incomplete); opt the discrete node out with \`enumerate: false\``, what);
      return j;
    });
    const plated = sites.filter((j) => plan.sites[j]!.plate.length > 0);
    if (plated.length === 0) { pending.push({ t, plate: undefined }); return; }
    const plate = plan.sites[plated[0]!]!.plate;
    if (plated.some((j) => plan.sites[j]!.plate.join() !== plate.join())) fail('range', fn, 'model', `${what} of model "${jd.name}" depends on enumerated nodes with different plates (${plated.map((j) => `\`${plan.sites[j]!.name}\` [${plan.sites[j]!.plate.join(', ')}]`).join(', ')})`, what);
    const s = split?.();
    if (s === undefined) {
      fail('range', fn, 'model', `${what} of model "${jd.name}" depends on the enumerated node \`${plan.sites[plated[0]!]!.name}\` (${sizeOf(plate)} independent elements) but its log density cannot be split over those elements; write it as an Independent whose reinterpreted dims begin with [${plate.join(', ')}] (element i depending on element i), or opt out with \`enumerate: false\` (summing over all joint values would need ${plan.sites[plated[0]!]!.size}^${sizeOf(plate)} terms)`, what);
    }
    pending.push({ t: shaped(what, s, plate), plate });
  };

  const eliminateSite = (j: number) => {
    const site = plan.sites[j]!;
    const slot = site.slot;
    const mine = pending.filter((f) => f.t.shape[slot]! > 1);
    for (const f of mine) pending.splice(pending.indexOf(f), 1);
    const occupants = Array.from({ length: L }, (_, sl) => siteInSlot(sl));
    live.delete(j);
    if (mine.length === 0) return;
    const plate = site.plate;
    if (plate.length === 0 && mine.some((f) => f.plate !== undefined)) {
      fail('range', fn, 'model', `the enumerated node \`${site.name}\` of model "${jd.name}" shares a log-density term with a plate's elements; this structure is not supported: opt it out with \`enumerate: false\``, site.name);
    }
    const widen = (f: { t: Tensor; plate: readonly number[] | undefined }) => (f.plate === undefined && plate.length > 0 ? reshape(f.t, [...f.t.shape, ...plate.map(() => 1)]) : f.t);
    const table = mine.map(widen).reduce((a, b) => add(a, b));
    record?.({ site: j, table, occupants });
    let r = reduce === 'max' ? max(table, slot, true) : logsumexp(table, slot, true);
    if (plate.length > 0) {
      const stillPlated = slotDeps(r).some((s) => { const k = siteInSlot(s); return k !== undefined && plan.sites[k]!.plate.length > 0; });
      if (!stillPlated) r = sum(r, plate.map((_, a) => L + a));
      else { pending.push({ t: r, plate }); return; }
    }
    if (slotDeps(r).length === 0) done.push(reshape(r, []));
    else pending.push({ t: r, plate: undefined });
  };

  jd.executeModel(fn, (i, d) => {
    const j = siteAt.get(i);
    let x: Tensor;
    if (j !== undefined) {
      const site = plan.sites[j]!;
      x = site.value;
      live.add(j);
      const inner = site.kind === 'own' ? d : (d as Independent | Sample).distribution;
      if (site.kind === 'sample' && inner.batchShape.length > 0) {
        fail('range', fn, 'model', `the enumerated node \`${site.name}\` of model "${jd.name}" is a Sample whose distribution depends on another enumerated node; write it as Independent over parameters broadcast to [${site.plate.join(', ')}]`, site.name);
      }
      const lp = inner.logProb(x);
      const what = `node \`${site.name}\``;
      if (site.plate.length === 0) addTable(what, lp, undefined);
      else pending.push({ t: shaped(what, lp, site.plate), plate: site.plate });
    } else {
      x = toValue(fn, `values.${jd.nodeNames[i]}`, d.dtype, full[i]!);
      addTable(`node \`${jd.nodeNames[i]}\``, d.unnormalizedLogProb(x), () => splitLogProb(d, x, plan));
    }
    for (const k of plan.after[i]!) eliminateSite(k);
    return x;
  }, undefined, (name, value) => addTable(`factor \`${name}\``, value, undefined));
  for (const k of plan.after[plan.after.length - 1]!) eliminateSite(k);
  for (const k of [...live].sort((a, b) => b - a)) eliminateSite(k);
  if (pending.length > 0) fail('range', fn, 'model', `model "${jd.name}": an enumerated table was left unsummed (an internal error of the elimination schedule)`, pending.length);
  return done.reduce((a, b) => add(a, b));
}

/**
 * Node d's log density at x kept per element of a plate: an `Independent` whose reinterpreted
 * dims begin with the plate, its inner log density summed over the rest. Undefined otherwise.
 */
function splitLogProb(d: Distribution, x: Tensor, plan: EnumerationPlan): Tensor | undefined {
  if (!isBranded(d, 'Independent')) return undefined;
  const r = (d as Independent).reinterpretedBatchNdims;
  const plate = plan.sites.find((s) => s.plate.length > 0)!.plate;
  const ev = d.eventShape;
  if (r < plate.length || plate.some((p, a) => ev[a] !== p)) return undefined;
  const lp = (d as Independent).distribution.logProb(x);
  const rest = r - plate.length;
  return rest === 0 ? lp : sum(lp, Array.from({ length: rest }, (_, a) => lp.ndim - rest + a));
}

/** A NotImplementedError, from this copy of stochax or another (recognised by name). */
function notImplemented(e: unknown): boolean {
  return e instanceof NotImplementedError || (e instanceof Error && e.name === 'NotImplementedError');
}

/** `t` with leading 1s up to `rank` dims. */
function padTo(t: Tensor, rank: number): Tensor {
  return t.ndim < rank ? reshape(t, [...new Array<number>(rank - t.ndim).fill(1), ...t.shape]) : t;
}

/** The support laid along `slot` of `rank` leading dims, then `own` 1s, then the node's plate and event, broadcast over the plate. */
function spread(support: Tensor, rank: number, own: number, slot: number, plate: readonly number[]): Tensor {
  const S = support.shape[0]!, ev = support.shape.slice(1);
  const lead = [...Array.from({ length: rank }, (_, s) => (s === slot ? S : 1)), ...new Array<number>(own).fill(1)];
  const t = reshape(support, [...lead, ...plate.map(() => 1), ...ev]);
  return broadcastTo(t, [...lead, ...plate, ...ev]);
}

function sliceFirst(support: Tensor): Tensor {
  return reshape(gather(support, new Tensor(new Int32Array(1), [1], 'int32')), support.shape.slice(1));
}

/**
 * A node's site, when its distribution (or the one an `Independent`/`Sample` wraps) has a finite
 * support and it has not opted out; undefined otherwise.
 * @throws RangeError when the support has more than {@link MAX_SUPPORT} values.
 */
function siteOf(fn: string, name: string, d: Distribution): Omit<EnumSite, 'node' | 'name' | 'slot' | 'value'> | undefined {
  if (d.parameters.enumerate === false || d.batchShape.length > 0) return undefined;
  let kind: EnumSite['kind'] = 'own', inner = d, plate: readonly number[] = [];
  if (isBranded(d, 'Independent') && (d as Independent).reinterpretedBatchNdims === (d as Independent).distribution.batchShape.length) {
    kind = 'independent'; inner = (d as Independent).distribution; plate = inner.batchShape;
  } else if (isBranded(d, 'Sample') && (d as Sample).distribution.batchShape.length === 0) {
    kind = 'sample'; inner = (d as Sample).distribution; plate = (d as Sample).sampleShape;
  }
  if (inner !== d && inner.parameters.enumerate === false) return undefined;
  let support: Tensor;
  try {
    support = inner.enumerateSupport();
  } catch (e) {
    if (notImplemented(e)) return undefined;
    throw e;
  }
  const size = support.shape[0]!;
  if (size > MAX_SUPPORT) {
    fail('range', fn, 'model', `the discrete node \`${name}\` has a support of ${size} values, more than the ${MAX_SUPPORT} enumeration sums over; pin it, or opt out with \`enumerate: false\``, size);
  }
  return { kind, plate: Object.freeze([...plate]), support, size };
}
