/**
 * `inferDiscrete`: the discrete nodes a model's log density sums out (automatic enumeration,
 * `distributions/enumerate/`) drawn back, draw by draw, from their conditional posterior given
 * each continuous posterior draw (NumPyro's `infer_discrete`).
 *
 * For one draw the model's log density is evaluated by the same variable elimination the
 * samplers' target uses, keeping each table just before its site is summed out. Sampling then
 * runs in the reverse order of elimination: the last site summed out depends on nothing left,
 * and each earlier one on sites already drawn — for independent nodes in a plate, a categorical
 * draw per element from its normalised weights; for a Markov chain, forward filtering backward
 * sampling. With `temperature: 0` the elimination takes the max instead of the sum and the
 * backward pass the argmax: the joint MAP assignment (Viterbi for a chain).
 *
 * Keys: draw (t, c) of a `[draws, chains, ...]` set uses `foldIn(foldIn(S, c), t)` with
 * S = `sanitizeSeed(seed, { salt: 'inferDiscrete' })` (in general the draw's indices folded in
 * from the last lead axis to the first), and site j's uniforms come from `foldIn(key, j)`. So a
 * draw's discrete values depend only on the seed, its indices and its continuous values.
 */
import { isBranded } from '../src/brand.js';
import { checkNonNegativeInteger, checkOptions, fail } from '../src/checks.js';
import { foldIn, sanitizeSeed, type Seed } from '../src/samplers/seeds.js';
import { uniform } from '../src/samplers/uniform.js';
import { allocate } from '../src/tensor/dtype.js';
import { sizeOf } from '../src/tensor/shapes.js';
import { Tensor } from '../src/tensor/tensor.js';
import { detExp, detLog } from '../src/math/index.js';
import { generate } from '../src/compile/codegen.js';
import { compileChecked } from '../src/compile/flat-target.js';
import { traceProgram } from '../src/compile/trace.js';
import { pinModel } from '../distributions/compile-log-density.js';
import { eliminate, type EliminationStep, type EnumerationPlan } from '../distributions/enumerate/enumerate.js';
import { flatModel } from '../distributions/joint/flat-model.js';
import type { JointDistribution } from '../distributions/joint/joint-distribution.js';
import type { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import { isPlainObject, type PartialValues, type StructKind } from '../distributions/joint/values.js';
import type { GibbsPlan } from '../distributions/enumerate/gibbs-plan.js';
import { reshape } from '../src/tensor/ops/shape.js';
import { UntraceableError } from '../src/tensor/lowering.js';
import { otherValues } from './nuts/stan/gibbs.js';
import { logLikelihood, type PosteriorDraws } from './predictive.js';

export interface InferDiscreteOptions {
  /** Values for observed nodes (as given to `windowedAdaptiveNuts`). */
  readonly pins?: PartialValues;
  /** Any seed `samplers.sanitizeSeed` accepts (unused with `temperature: 0`). */
  readonly seed?: Seed;
  /** 1 (default): draws from the conditional posterior; 0: the MAP assignment (Viterbi for a chain). */
  readonly temperature?: 0 | 1;
  /** Compute each draw's elimination tables with generated code (default true; false: on the tape). */
  readonly compile?: boolean;
  /**
   * The chain index of each chain of `[draws, chains, ...]` draws (default 0, 1, …): chain j's
   * keys are those of chain `chains[j]`, so the draws of one chain run alone (`chainIndex`)
   * equal its draws in the all-chains run.
   */
  readonly chains?: readonly number[];
}

/**
 * For each continuous posterior draw, the model's enumerated discrete nodes drawn from their
 * conditional posterior given it (or, with `temperature: 0`, their most probable joint value).
 *
 * @param model the joint distribution sampled (with `pins`), or the pinned one.
 * @param draws the continuous nodes' draws, each `[...lead, ...event]` with the same lead dims
 *   (`windowedAdaptiveNuts`' `draws`: `[draws, chains, ...]`): a record by node name, or an array
 *   of the continuous unpinned nodes in model order. A model with discrete nodes that took Gibbs
 *   steps (no finite support) has their draws here too: the enumerated nodes are drawn given them.
 * @returns a record by node name: the sampled draws as given and each enumerated node's
 *   values, `[...lead, ...its shape]`, in its dtype.
 * @throws TypeError for a missing node or a bad option; RangeError when the model has no
 *   enumerated node, for draws whose shapes do not fit, or a `temperature` other than 0 or 1.
 * @example
 * const fit = windowedAdaptiveNuts(mixture, { pins: { y }, nDraws: 500, seed: 0 });
 * const withZ = inferDiscrete(mixture, fit.draws, { pins: { y }, seed: 1 });
 * withZ.z.shape;   // [500, 4, 100]: each observation's component, per draw and chain
 */
export function inferDiscrete(
  model: JointDistribution<StructKind> | JointDistributionPinned<StructKind>, draws: PosteriorDraws, options: InferDiscreteOptions = {},
): Record<string, Tensor> {
  const fn = 'inferDiscrete';
  const o = checkOptions(fn, options, ['pins', 'seed', 'temperature', 'compile', 'chains']);
  const temperature = o.temperature ?? 1;
  if (temperature !== 0 && temperature !== 1) fail('range', fn, 'temperature', 'must be 1 (draws from the posterior) or 0 (the MAP assignment)', temperature);
  const { plan, names, eventShapes, given, lead, N, gibbs } = continuousDraws(fn, model, draws, o.pins);
  const chains = chainIndices(fn, o.chains, lead);
  const base = sanitizeSeed(o.seed, { salt: 'inferDiscrete' });

  const out = plan.sites.map((s) => allocate(s.support.dtype, N * sizeOf(s.plate) * sizeOf(s.support.shape.slice(1))));
  const tables = eliminationTables(fn, plan, names, eventShapes, temperature === 0 ? 'max' : 'logsumexp', o.compile ?? true, gibbs);
  for (let n = 0; n < N; n++) {
    const steps = tables(fillDraw(given, eventShapes, n));
    let key = base;
    for (let a = lead.length - 1, r = n; a >= 0; a--) {
      const idx = r % lead[a]!;
      r = Math.floor(r / lead[a]!);
      key = foldIn(key, a === 1 && chains !== undefined ? chains[idx]! : idx);
    }
    const chosen = backward(plan, steps, temperature, (j, size) => uniform([size], { seed: foldIn(key, j) }).data as Float64Array);
    plan.sites.forEach((s, j) => {
      const ev = sizeOf(s.support.shape.slice(1)), P = sizeOf(s.plate), sup = s.support.data as ArrayLike<number>, o = out[j]!;
      const pick = chosen[j] ?? new Int32Array(P);
      for (let p = 0; p < P; p++) for (let e = 0; e < ev; e++) o[(n * P + p) * ev + e] = sup[pick[p]! * ev + e]!;
    });
  }

  const result: Record<string, Tensor> = {};
  names.forEach((n, j) => { result[n] = given[j]!; });
  plan.sites.forEach((s, j) => { result[s.name] = new Tensor(out[j]!, [...lead, ...s.plate, ...s.support.shape.slice(1)], s.support.dtype); });
  return result;
}

export interface MarginalLogLikelihoodOptions {
  /** Values for observed nodes (as given to `windowedAdaptiveNuts`). */
  readonly pins?: PartialValues;
  /** Compute each draw's elimination tables with generated code (default true; false: on the tape). */
  readonly compile?: boolean;
}

/**
 * The pointwise log-likelihood of a model whose discrete nodes are summed out (automatic
 * enumeration), for `loo`/`waic`: each observation's discrete parents are summed out too, so
 * it is the likelihood of the model NUTS sampled. For an observed node y whose elements depend
 * on the elements of one enumerated plate node z (a mixture's labels:
 * `z: Sample(Categorical(w), N)`, `y: Independent(Normal(gather(mu, z), 1))`) the value for
 * observation i is log p(y_i | θ) = log Σ_k p(z_i = k | θ) p(y_i | z_i = k, θ) — PyMC's
 * `compute_log_likelihood` on a marginalized model; observed nodes that depend on no
 * enumerated node get their ordinary pointwise log density (`logLikelihood`).
 *
 * Where the observations are not independent given the continuous values — they share one
 * enumerated node (a change-point), a Markov chain links them (an HMM), or z has other children
 * — there is no pointwise log-likelihood, and this is a RangeError saying so.
 *
 * @param model the joint distribution sampled (with `pins`), or the pinned one.
 * @param draws the continuous nodes' draws (`windowedAdaptiveNuts`' `draws`).
 * @returns a record by observed node name, `[...lead, ...observations]` (float64).
 * @throws TypeError for a missing node or a bad option; RangeError when the model has no
 *   enumerated node or its observations are not independent given the continuous values.
 * @example
 * const fit = windowedAdaptiveNuts(mixture, { pins: { y }, seed: 0 });
 * const ll = marginalLogLikelihood(mixture, fit.draws, { pins: { y } });
 * loo(ll).elpdLoo;   // the mixture's expected log predictive density
 */
export function marginalLogLikelihood(
  model: JointDistribution<StructKind> | JointDistributionPinned<StructKind>, draws: PosteriorDraws, options: MarginalLogLikelihoodOptions = {},
): Record<string, Tensor> {
  const fn = 'marginalLogLikelihood';
  const o = checkOptions(fn, options, ['pins', 'compile']);
  const { plan, names, eventShapes, given, lead, N, gibbs } = continuousDraws(fn, model, draws, o.pins);
  const jd = plan.original.distribution as JointDistribution<StructKind>;
  const nodes = jd.nodeNames;
  const observed = nodes.map((_, i) => i).filter((i) => plan.original.isPinned(i));
  const siteOf = new Map(plan.sites.map((s, j) => [s.node, j]));
  let parents: number[][] | undefined;
  try { parents = jd.resolveGraph().map(([, ps]) => ps.map((p) => nodes.indexOf(p))); } catch { parents = undefined; }
  // Which site each dependent observed node's elements are summed over.
  const summed = new Map<number, number>();
  for (const y of observed) {
    if (parents === undefined || jd.factorNames.length > 0) fail('range', fn, 'model', `model "${jd.name}" declares no parents (${parents === undefined ? 'a coroutine model' : 'it has factor terms'}), so which observations an enumerated node touches is unknown; write it as JointDistributionNamed or Sequential`, jd.name);
    const zs = parents[y]!.filter((p) => siteOf.has(p));
    if (zs.length === 0) continue;
    const z = zs[0]!, site = plan.sites[siteOf.get(z)!]!;
    const children = parents.flatMap((ps, i) => (ps.includes(z) ? [i] : []));
    const why = zs.length > 1 ? `depends on several enumerated nodes (${zs.map((p) => `\`${nodes[p]}\``).join(', ')})`
      : site.plate.length === 0 ? `has elements that all depend on the one enumerated node \`${site.name}\``
        : children.length > 1 ? `depends on the enumerated node \`${site.name}\`, which has other children (${children.filter((c) => c !== y).map((c) => `\`${nodes[c]}\``).join(', ')})`
          : parents[z]!.some((p) => siteOf.has(p)) ? `depends on the enumerated node \`${site.name}\`, which depends on another enumerated node`
            : undefined;
    if (why !== undefined) fail('range', fn, 'model', `the observed node \`${nodes[y]}\` of model "${jd.name}" ${why}: its observations are not independent given the continuous values, so there is no pointwise log-likelihood (loo/waic need one per observation)`, nodes[y]);
    summed.set(y, siteOf.get(z)!);
  }
  // The nodes that depend on no enumerated node, as usual (the sites pinned to placeholders do not enter them).
  const result: Record<string, Tensor> = {};
  if (observed.some((y) => !summed.has(y))) {
    // logLikelihood takes [draws, chains] lead dims: any lead is passed as [N, 1].
    const plain = logLikelihood(plan.pinned, Object.fromEntries(names.map((n, j) => [n, given[j]!.reshape([N, 1, ...eventShapes[j]!])])));
    for (const y of observed) if (!summed.has(y)) { const t = plain[nodes[y]!]!; result[nodes[y]!] = t.reshape([...lead, ...t.shape.slice(2)]); }
  }
  if (summed.size > 0) {
    const tables = eliminationTables(fn, plan, names, eventShapes, 'logsumexp', o.compile ?? true, gibbs);
    const outs = [...summed.values()].map((j) => new Float64Array(N * sizeOf(plan.sites[j]!.plate)));
    for (let n = 0; n < N; n++) {
      const steps = tables(fillDraw(given, eventShapes, n));
      [...summed.values()].forEach((j, q) => {
        const step = steps.find((s) => s.site === j)!;
        const site = plan.sites[j]!, P = sizeOf(site.plate), S = site.size;
        // The table is [L dims, ...plate] with only this site's slot above 1 (its prior and its one child's terms).
        if (sizeOf(step.shape) !== S * P) throw new Error(`${fn}: internal error: the table of \`${site.name}\` has shape [${step.shape.join(', ')}], not ${S} × [${site.plate.join(', ')}]`);
        const out = outs[q]!;
        for (let p = 0; p < P; p++) {
          let mx = -Infinity;
          for (let k = 0; k < S; k++) mx = Math.max(mx, step.data[k * P + p]!);
          let total = 0;
          for (let k = 0; k < S; k++) total += detExp(step.data[k * P + p]! - mx);
          out[n * P + p] = mx === -Infinity ? -Infinity : mx + detLog(total);
        }
      });
    }
    [...summed.entries()].forEach(([y, j], q) => { result[nodes[y]!] = new Tensor(outs[q]!, [...lead, ...plan.sites[j]!.plate], 'float64'); });
  }
  return Object.fromEntries(observed.map((y) => [nodes[y]!, result[nodes[y]!]!]));
}

/**
 * The enumeration plan of a (pinned) model and its sampled draws by node, with their common lead
 * dims: the continuous nodes', then (a model with Gibbs steps) the Gibbs nodes' (`gibbs.from`: the
 * first of them), whose values the enumerated nodes are drawn back given.
 */
function continuousDraws(fn: string, model: unknown, draws: PosteriorDraws, pins: PartialValues | undefined) {
  const m = flatModel(fn, pinModel(fn, model, pins) as JointDistributionPinned<StructKind>, { gibbs: true });
  const plan = m.enumeration;
  if (plan === undefined) fail('range', fn, 'model', `model "${m.pinned.distribution.name}" has no unpinned discrete node to enumerate (each needs a finite support and no \`enumerate: false\`)`, model);
  const sites = m.gibbs?.sites ?? [];
  const names = [...m.names, ...sites.map((s) => s.name)];
  const eventShapes = [...m.names.map((n) => (m.pinned.eventShape as Record<string, readonly number[]>)[n] ?? (m.pinned.eventShape as (readonly number[])[])[m.names.indexOf(n)]!), ...sites.map((s) => s.shape)];
  // Array-structured draws hold the sampled nodes in model order (the Gibbs nodes among the continuous ones).
  const order = m.gibbs === undefined ? names : m.gibbs.given.unpinnedNames.filter((n) => names.includes(n));
  const gibbs = m.gibbs === undefined ? undefined : { plan: m.gibbs, from: m.names.length };
  const given = names.map((n): Tensor => {
    const t: unknown = Array.isArray(draws) ? draws[order.indexOf(n)] : isPlainObject(draws) ? (draws as Record<string, unknown>)[n] : undefined;
    if (!isBranded(t, 'Tensor')) fail('type', fn, `draws.${n}`, 'must be a Tensor of draws `[...lead, ...event]` (the continuous nodes sampled)', t);
    return t as Tensor;
  });
  const lead = given[0]!.shape.slice(0, given[0]!.ndim - eventShapes[0]!.length);
  given.forEach((t, j) => {
    const want = [...lead, ...eventShapes[j]!];
    if (t.shape.length !== want.length || t.shape.some((d, a) => d !== want[a])) fail('range', fn, `draws.${names[j]}`, `must have shape [${want.join(', ')}] (lead dims [${lead.join(', ')}], then the node's event shape); got [${t.shape.join(', ')}]`, t.shape);
  });
  return { plan, names, eventShapes, given, lead, N: sizeOf(lead), gibbs };
}

/** Writes draw n of each sampled node (continuous, then Gibbs) into the compiled tables' input buffers. */
function fillDraw(given: readonly Tensor[], eventShapes: readonly (readonly number[])[], n: number): (j: number, buffer: Float64Array) => void {
  return (j, buf) => {
    const d = given[j]!.data as ArrayLike<number>, size = sizeOf(eventShapes[j]!);
    for (let k = 0; k < size; k++) buf[k] = Number(d[n * size + k]);
  };
}

/** `chains`: the chain index of each position on the draws' second lead axis (a `--chain-index` run's draws are chain c's, not chain 0's). */
function chainIndices(fn: string, chains: readonly number[] | undefined, lead: readonly number[]): readonly number[] | undefined {
  if (chains === undefined) return undefined;
  if (!Array.isArray(chains)) fail('type', fn, 'chains', 'must be an array of chain indices', chains);
  if (lead.length !== 2 || chains.length !== lead[1]) fail('range', fn, 'chains', `must give one index per chain of [draws, chains] draws (lead dims [${lead.join(', ')}])`, chains);
  chains.forEach((c, j) => checkNonNegativeInteger(fn, `chains[${j}]`, c));
  return chains;
}

/** One elimination step's table as numbers. */
interface Step {
  readonly site: number;
  readonly occupants: readonly (number | undefined)[];
  readonly shape: readonly number[];
  readonly data: ArrayLike<number>;
}

/**
 * The elimination tables of one draw as a function of its continuous values (`fill(j, buffer)`
 * writes node j's values): the elimination traced once and compiled, or run on the tape
 * ({@link compileChecked}'s rule).
 */
function eliminationTables(
  fn: string, plan: EnumerationPlan, names: readonly string[], eventShapes: readonly (readonly number[])[], reduce: 'max' | 'logsumexp', compile: boolean,
  gibbs?: { readonly plan: GibbsPlan; readonly from: number },
): (fill: (j: number, buffer: Float64Array) => void) => Step[] {
  const nc = gibbs?.from ?? names.length;
  // With Gibbs nodes, their values (inputs nc, nc + 1, …) are pinned in for each draw, as the sampler's target does.
  const pinnedAt = (xs: readonly Tensor[]) => (gibbs === undefined ? plan.pinned
    : plan.pinned.distribution.experimentalPin({ ...plan.pinned.pins, ...gibbs.plan.pins(xs.slice(nc).map((t, k) => reshape(t, gibbs.plan.sites[k]!.shape))) }));
  const run = (xs: readonly Tensor[], record: (s: EliminationStep) => void) => eliminate(fn, { ...plan, pinned: pinnedAt(xs) }, Object.fromEntries(names.slice(0, nc).map((n, j) => [n, xs[j]!])), reduce, record);
  const origin = eventShapes.map((e) => new Tensor(new Float64Array(sizeOf(e)), e, 'float64'));
  const tape = (fill: (j: number, buffer: Float64Array) => void) => {
    const xs = origin.map((t, j) => { const b = new Float64Array(t.size); fill(j, b); return new Tensor(b, t.shape, 'float64'); });
    const steps: Step[] = [];
    run(xs, (s) => steps.push({ site: s.site, occupants: s.occupants, shape: s.table.shape, data: s.table.data as ArrayLike<number> }));
    return steps;
  };
  return compileChecked(compile, () => {
    const meta: Omit<Step, 'data'>[] = [];
    const program = traceProgram(fn, (...xs: Tensor[]) => {
      const tables: Tensor[] = [];
      meta.length = 0;
      run(xs, (s) => { meta.push({ site: s.site, occupants: s.occupants, shape: s.table.shape }); tables.push(s.table); });
      return tables.length === 0 ? [new Tensor(new Float64Array(1), [1], 'float64')] : tables;
    }, origin);
    const c = generate(program, false);
    const compiled = (fill: (j: number, buffer: Float64Array) => void) => {
      c.inputs.forEach((b, j) => fill(j, b));
      c.run(false);
      return meta.map((m, q) => ({ ...m, data: c.outputs[q]! }));
    };
    if (gibbs !== undefined) {
      // A Gibbs value the compiler took as a constant (a gather index) shows away from the trace point: compare with the tape there.
      const other = otherValues(gibbs.plan), offsets: number[] = [];
      gibbs.plan.sites.reduce((o, g) => { offsets.push(o); return o + g.unit * g.units; }, 0);
      const at = (j: number, b: Float64Array) => { if (j < nc) b.fill(0.1); else b.set(other.subarray(offsets[j - nc]!, offsets[j - nc]! + b.length)); };
      const a = compiled(at).map((s) => Float64Array.from(s.data)), b = tape(at);
      const close = (x: number, y: number) => Object.is(x, y) || Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y)) || (x !== x && y !== y);
      if (a.length !== b.length || a.some((d, q) => d.length !== b[q]!.data.length || d.some((v, k) => !close(v, b[q]!.data[k]!)))) {
        throw new UntraceableError(`${fn}: the compiled elimination differs from the tape's at other values of the Gibbs nodes (one is used where the compiler takes a constant, such as a \`gather\` index)`);
      }
    }
    return compiled;
  }, () => tape).value;
}

/**
 * The backward pass over one draw's elimination steps (last first): each site's support index per
 * plate element, sampled from exp(table) (normalised over the site's slot, the later-summed sites
 * fixed at their chosen values) with `uniforms`, or the argmax at temperature 0.
 */
function backward(plan: EnumerationPlan, steps: readonly Step[], temperature: 0 | 1, uniforms: (site: number, size: number) => Float64Array): (Int32Array | undefined)[] {
  const L = plan.rank;
  const chosen: (Int32Array | undefined)[] = plan.sites.map(() => undefined);
  for (let q = steps.length - 1; q >= 0; q--) {
    const { site: j, shape, data, occupants } = steps[q]!;
    const site = plan.sites[j]!, slot = site.slot, S = site.size;
    const strides = new Array<number>(shape.length);
    for (let a = shape.length - 1, st = 1; a >= 0; a--) { strides[a] = st; st *= shape[a]!; }
    const plate = shape.slice(L), P = Math.max(1, sizeOf(site.plate));
    const u = temperature === 1 ? uniforms(j, P) : undefined;
    const pick = new Int32Array(P);
    const w = new Float64Array(S);
    for (let p = 0; p < P; p++) {
      let off = 0;
      for (let s = 0; s < L; s++) {
        if (s === slot || shape[s]! === 1) continue;
        const other = chosen[occupants[s]!];
        if (other === undefined) throw new Error(`inferDiscrete: internal error: site ${plan.sites[occupants[s]!]?.name} not drawn before ${site.name}`);
        off += (other.length === 1 ? other[0]! : other[p]!) * strides[s]!;
      }
      for (let a = plate.length - 1, r = p; a >= 0; a--) {
        const sz = site.plate[a]!, idx = r % sz;
        r = Math.floor(r / sz);
        if (plate[a]! > 1) off += idx * strides[L + a]!;
      }
      let best = 0, mx = -Infinity;
      for (let k = 0; k < S; k++) { w[k] = data[off + k * strides[slot]!]!; if (w[k]! > mx) { mx = w[k]!; best = k; } }
      if (u === undefined) { pick[p] = best; continue; }
      let total = 0;
      for (let k = 0; k < S; k++) { w[k] = detExp(w[k]! - mx); total += w[k]!; }
      let k = 0;
      for (let c = w[0]!, target = u[p]! * total; c <= target && k < S - 1;) c += w[++k]!;
      pick[p] = k;
    }
    chosen[j] = pick;
  }
  return chosen;
}
