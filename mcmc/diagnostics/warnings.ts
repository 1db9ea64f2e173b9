/**
 * `samplingWarnings`: what Stan, PyMC and ArviZ warn about after a run — R-hat, ESS,
 * divergences, tree depth, E-BFMI — and chains that disagree with the others beyond their Monte
 * Carlo error, each as data with a message that says what the number is and what to try.
 */
import { checkNonNegativeInteger, checkOptions, checkPositiveInteger, fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { disagreeingChains, type ChainDeviation } from './chains-disagree.js';
import { componentChains, drawsLayout, float64Values, isPartList, isPartRecord, toTensor, type DrawsLayout, type DrawsStructure } from './draws.js';
import { coordLabel, groupCoordsDims, type Coords, type Dims } from './coords.js';
import { bfmiOf, sharedMultichainStatistics } from './internal/arviz-stats.js';
import type { Chains } from './internal/chains.js';

/** What a {@link SamplingWarning} is about. */
export type SamplingWarningKind =
  | 'rhat' | 'ess-bulk' | 'ess-tail' | 'divergences' | 'tree-depth' | 'e-bfmi' | 'chains-disagree';

/** One warning about a run: its kind, a message saying what the number is and what to try, and whom it concerns. */
export interface SamplingWarning {
  readonly kind: SamplingWarningKind;
  readonly message: string;
  /** Parameter labels (`mu`, `theta[2]`, or `theta[Choate]` with `coords` and `dims`; `lp` for the log density) it concerns, worst first. */
  readonly variables?: readonly string[];
  /** Chains it concerns (0-based), in order. */
  readonly chains?: readonly number[];
}

export interface SamplingWarningsOptions {
  /**
   * The sampler's maximum tree depth (default 10, `windowedAdaptiveNuts`' default): transitions
   * with `treeDepth ≥ maxTreeDepth` hit it.
   */
  readonly maxTreeDepth?: number;
  /**
   * How many leading records of the draws and trace are warm-up (left out of every check).
   * Default: those flagged by `trace.tune`, else 0 (`windowedAdaptiveNuts` drops its warm-up
   * unless `discardTuning: false`).
   */
  readonly warmupDraws?: number;
  /** Names of the parts when `draws` is an array of parts (default `x0`, `x1`, …; `x` for one part), as `summary`'s. */
  readonly names?: readonly string[];
  /**
   * ArviZ's `coords` and `dims`, as `summary` takes them: the parameters are then named by
   * coordinate (`theta[Choate]`) in the messages and `variables`, as in the summary's rows.
   * `dims` of variables not among the draws are left alone. `windowedAdaptiveNuts` passes its own.
   */
  readonly coords?: Coords;
  readonly dims?: Dims;
}

/** R-hat above this warns (Vehtari et al. 2021; Stan, ArviZ). */
export const RHAT_THRESHOLD = 1.01;
/** Bulk or tail ESS below this many per chain warns (ArviZ's `ess < 100 · chains`). */
export const ESS_PER_CHAIN = 100;
/** E-BFMI below this in a chain warns (Betancourt 2016; Stan). */
export const BFMI_THRESHOLD = 0.3;

const FN = 'samplingWarnings';
/** How many names or numbers a message lists before "and k more". */
const LISTED = 5;

/**
 * The warnings of a run, from its draws and trace: an empty array for a healthy run.
 *
 * - `rhat`: rank-normalised split R-hat (as `summary`'s `R_hat` column) above 1.01 for a parameter;
 * - `ess-bulk`, `ess-tail`: bulk or tail ESS below 100 per chain (ArviZ's rule `ess < 100 · chains`);
 * - `divergences`: divergent transitions after warm-up (`trace.diverging`);
 * - `tree-depth`: transitions that hit `maxTreeDepth` (`trace.treeDepth`);
 * - `e-bfmi`: E-BFMI below 0.3 in a chain (`trace.energy`);
 * - `chains-disagree`: a chain whose mean log density (`trace.targetLogProb`) or mean of a
 *   parameter differs from the other chains' beyond their Monte Carlo error — the chain stuck in
 *   a minor mode. Each quantity is rank-normalised over all chains; each chain's mean score is
 *   compared with the mean of the others', with standard errors from each chain's own ESS, and
 *   flagged past the Bonferroni threshold for a false-alarm rate of about 10⁻⁴ per run (see
 *   `chains-disagree.ts`): none in 1500 healthy 4 × 1000 NUTS runs (1000 of a standard normal,
 *   500 of a 10-d one; test/mcmc/diagnostics/warnings.slow.test.ts repeats 400 of them). A
 *   chain whose log density is separated from the others' (95% of its draws below 95% of
 *   theirs; with 3 or more chains) is named too, whatever its own error, and left out of the
 *   others' reference.
 *
 * Checks whose trace field is absent (a custom `traceFn`, `sampleChains`' own traces) are
 * skipped; R-hat and chains-disagree need at least 2 chains.
 *
 * @param draws - draws in TFP layout `[draws, chains, ...event]`: a record of named parts (as
 *   `windowedAdaptiveNuts` returns them), an array of parts or one part.
 * @param trace - the run's trace (`WindowedTrace`: `diverging`, `treeDepth`, `energy`,
 *   `targetLogProb`, `tune`, each `[draws, chains]`), or undefined.
 * @param options - `maxTreeDepth` (default 10), `warmupDraws` (default from `trace.tune`), `names`,
 *   `coords` and `dims` (the parameters' labels, as `summary`'s).
 * @returns The warnings, in the order above.
 * @throws {TypeError} for draws that are not draws, a trace that is not an object, or bad options.
 * @throws {RangeError} when parts or trace fields disagree on draws and chains, `warmupDraws`
 *   leaves no draws, or a `dims` entry does not fit its variable (as in `summary`).
 *
 * @example
 * import { random, tensor } from 'stochax';
 * import { JointDistributionNamed, Normal } from 'stochax/distributions';
 * import { windowedAdaptiveNuts, samplingWarnings } from 'stochax/mcmc';
 * samplingWarnings({ x: random.normal(random.key(0), [1000, 4]) });   // → [] (iid draws)
 * const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }) });
 * const { draws, trace } = windowedAdaptiveNuts(model, { seed: 0, maxTreeDepth: 1 });
 * for (const w of samplingWarnings(draws, trace, { maxTreeDepth: 1 })) console.log(w.kind, w.message);
 * // tree-depth 4000 of 4000 transitions (100.0%) hit the maximum tree depth 1 (chain 0: 1000, …): …
 * const stuck = random.normal(random.key(1), [1000, 4, 2]);   // chain 3 shifted below: chains that disagree, two schools
 * samplingWarnings({ theta: stuck.add(tensor([0, 0, 0, 3]).reshape([1, 4, 1])) }, undefined,
 *   { coords: { school: ['Choate', 'Deerfield'] }, dims: { theta: ['school'] } })[0]!.variables;   // ['theta[Deerfield]', 'theta[Choate]'] (R-hat, worst first)
 */
export function samplingWarnings(draws: DrawsStructure, trace?: unknown, options?: SamplingWarningsOptions): SamplingWarning[] {
  const o = checkOptions(FN, options, ['maxTreeDepth', 'warmupDraws', 'names', 'coords', 'dims']);
  const maxTreeDepth = checkPositiveInteger(FN, 'maxTreeDepth', o.maxTreeDepth ?? 10);
  if (trace !== undefined && (trace === null || typeof trace !== 'object' || trace instanceof Tensor)) {
    fail('type', FN, 'trace', 'must be a record of trace fields ({ diverging, treeDepth, energy, targetLogProb, … }) or undefined', trace);
  }
  const parts = namedParts(draws, o.names);
  if (parts.length === 0) return [];
  const layouts = parts.map(([name, t]) => drawsLayout(FN, `draws.${name}`, t));
  const { draws: N, chains: C } = layouts[0]!;
  layouts.forEach((l, i) => {
    if (l.draws !== N || l.chains !== C) fail('range', FN, `draws.${parts[i]![0]}`, `must have ${N} draws and ${C} chains like draws.${parts[0]![0]}`, [...parts[i]![1].shape]);
  });
  const labels = groupCoordsDims(FN, o.coords, o.dims, new Map(parts.map(([name, t]) => [name, t.shape.slice(2)])));
  const fields = traceFields(trace as Record<string, unknown> | undefined, N, C);
  const W = o.warmupDraws === undefined ? warmupFromTune(fields.get('tune'), N, C) : checkNonNegativeInteger(FN, 'warmupDraws', o.warmupDraws);
  if (W >= N) fail('range', FN, 'warmupDraws', `must leave draws to check (there are ${N})`, W);
  const n = N - W;
  const after = (values: Float64Array, size: number): Float64Array => values.subarray(W * C * size);
  const kept: DrawsLayout = { draws: n, chains: C, eventShape: [], eventSize: 1 };

  const quantities: [string, Chains][] = [];
  const lp = fields.get('targetLogProb');
  if (lp !== undefined) quantities.push(['lp', componentChains(after(lp, 1), kept, 0)]);
  const rhats: [string, number][] = [], bulk: [string, number][] = [], tail: [string, number][] = [];
  parts.forEach(([name, t], i) => {
    const layout = { ...layouts[i]!, draws: n };
    const source = float64Values(t);
    const values = after(source, layout.eventSize);
    for (let e = 0; e < layout.eventSize; e++) {
      const a = componentChains(values, layout, e);
      const id = coordLabel(name, layout.eventShape, e, labels.coords, labels.dims);
      const s = sharedMultichainStatistics(source, `${W}/${n}x${C}x${layout.eventSize}/${e}`, a);
      if (s.rHat > RHAT_THRESHOLD) rhats.push([id, s.rHat]);
      if (s.essBulk < ESS_PER_CHAIN * C) bulk.push([id, s.essBulk]);
      if (s.essTail < ESS_PER_CHAIN * C) tail.push([id, s.essTail]);
      quantities.push([id, a]);
    }
  });

  const out: SamplingWarning[] = [];
  const total = layouts.reduce((s, l) => s + l.eventSize, 0);
  if (rhats.length > 0) {
    rhats.sort((x, y) => y[1] - x[1]);
    out.push({
      kind: 'rhat', variables: rhats.map(([id]) => id),
      message: `R-hat is above ${RHAT_THRESHOLD} for ${count(rhats.length, 'parameter')} of ${total} (${listed(rhats, 3)}): the chains have not mixed, `
        + 'so the draws do not yet represent the posterior. Run more warm-up and draws (numAdaptationSteps, nDraws); if a chain sits in another mode, '
        + 'start the chains elsewhere (init, currentState) or reparameterise.',
    });
  }
  for (const [kind, list, what] of [['ess-bulk', bulk, 'posterior means and medians'], ['ess-tail', tail, 'the 5% and 95% quantiles (intervals)']] as const) {
    if (list.length === 0) continue;
    list.sort((x, y) => x[1] - y[1]);
    out.push({
      kind, variables: list.map(([id]) => id),
      message: `${kind === 'ess-bulk' ? 'Bulk' : 'Tail'} ESS is below ${ESS_PER_CHAIN} per chain (${ESS_PER_CHAIN * C} for ${count(C, 'chain')}) for `
        + `${count(list.length, 'parameter')} (${listed(list, 0)}): ${what} are unreliable. Run more draws (nDraws), or reparameterise to make the draws less autocorrelated.`,
    });
  }

  const diverging = fields.get('diverging') ?? fields.get('hasDivergence');
  if (diverging !== undefined) {
    const per = perChainCount(after(diverging, 1), n, C, (v) => v !== 0 && !Number.isNaN(v));
    const sum = per.reduce((s, v) => s + v, 0);
    if (sum > 0) {
      out.push({
        kind: 'divergences', chains: chainsWith(per),
        message: `${sum} of ${n * C} transitions after warm-up diverged (${perChainText(per)}): the sampler could not follow the posterior's curvature there, `
          + 'so the draws may be biased. Raise targetAcceptProb (e.g. 0.95 or 0.99), or reparameterise (e.g. a non-centred hierarchical model).',
      });
    }
  }
  const depth = fields.get('treeDepth');
  if (depth !== undefined) {
    const per = perChainCount(after(depth, 1), n, C, (v) => v >= maxTreeDepth);
    const sum = per.reduce((s, v) => s + v, 0);
    if (sum > 0) {
      out.push({
        kind: 'tree-depth', chains: chainsWith(per),
        message: `${sum} of ${n * C} transitions (${percent(sum / (n * C))}) hit the maximum tree depth ${maxTreeDepth} (${perChainText(per)}): their trajectories were cut short, `
          + 'which costs efficiency (not validity). Raise maxTreeDepth, or reparameterise (strong correlations or very different scales; metric: \'dense\' helps correlated posteriors).',
      });
    }
  }
  const energy = fields.get('energy');
  if (energy !== undefined && n >= 2) {
    const e = componentChains(after(energy, 1), kept, 0);
    const low: [string, number][] = [];
    const chains: number[] = [];
    for (let c = 0; c < C; c++) {
      const b = bfmiOf(e.data.subarray(c * n, (c + 1) * n));
      if (b < BFMI_THRESHOLD) { low.push([`chain ${c}`, b]); chains.push(c); }
    }
    if (low.length > 0) {
      out.push({
        kind: 'e-bfmi', chains,
        message: `E-BFMI is below ${BFMI_THRESHOLD} in ${count(low.length, 'chain')} (${listed(low, 2)}): the momentum resampling explores the energy distribution poorly `
          + '(often heavy tails or a funnel), so the draws may not reach all of the posterior. Reparameterise, or run more warm-up (numAdaptationSteps).',
      });
    }
  }
  const disagree = disagreeingChains(quantities);
  if (disagree.length > 0) out.push(disagreeWarning(disagree, C));
  return out;
}

/** The chains-disagree warning: the flagged chains, and each one's worst quantity. */
function disagreeWarning(d: readonly ChainDeviation[], C: number): SamplingWarning {
  const chains = [...new Set(d.map((x) => x.chain))].sort((a, b) => a - b);
  const variables = [...new Set(d.map((x) => x.quantity))];
  // Per chain: its log density first (lower means a minor mode), then its worst parameter.
  const worst = chains.map((c) => {
    const mine = d.filter((x) => x.chain === c);
    const lp = mine.find((x) => x.quantity === 'lp');
    const par = mine.find((x) => x.quantity !== 'lp');
    return [lp, par].filter((x) => x !== undefined);
  });
  const says = worst.slice(0, LISTED).map((xs) => `chain ${xs[0]!.chain}'s ` + xs.map((x) => {
    const what = x.quantity === 'lp' ? 'mean log density' : `mean of ${x.quantity}`;
    if (x.separated) return `${what} is ${fmt(x.chainMean)} against ${fmt(x.othersMean)} in the other chains (95% of its log densities lie below 95% of theirs)`;
    return `${what} is ${fmt(x.chainMean)} against ${fmt(x.othersMean)} in the other chains (z = ${x.z.toFixed(1)})`;
  }).join(', and its ')).join('; ');
  const more = worst.length > LISTED ? `; and ${worst.length - LISTED} more chains` : '';
  return {
    kind: 'chains-disagree', chains, variables,
    message: `${count(chains.length, 'chain')} of ${C} disagree${chains.length === 1 ? 's' : ''} with the others beyond Monte Carlo error: ${says}${more}. `
      + `${chains.length === 1 ? 'It' : 'They'} may be stuck in another mode (or the others are), and the pooled draws then weigh the modes wrongly. `
      + 'Start the chains elsewhere (init, currentState), run more warm-up (numAdaptationSteps), or reparameterise (e.g. order or constrain exchangeable components).',
  };
}

/** The draws' parts with their names (as `summary` names them). */
function namedParts(draws: DrawsStructure, names: readonly string[] | undefined): [string, Tensor][] {
  if (isPartRecord(draws)) return Object.entries(draws).map(([k, v]) => [k, toTensor(FN, `draws.${k}`, v)]);
  if (isPartList(draws) || (Array.isArray(draws) && draws.length === 0)) {
    const list = draws as readonly unknown[];
    const labels = names ?? list.map((_, i) => `x${i}`);
    if (labels.length !== list.length) fail('range', FN, 'names', `must give one name per part (${list.length})`, names);
    return list.map((v, i) => [String(labels[i]), toTensor(FN, `draws[${i}]`, v)]);
  }
  const labels = names ?? ['x'];
  if (labels.length !== 1) fail('range', FN, 'names', 'must give one name for a single part', names);
  return [[String(labels[0]), toTensor(FN, 'draws', draws)]];
}

const TRACE_FIELDS = ['tune', 'targetLogProb', 'diverging', 'hasDivergence', 'treeDepth', 'energy'] as const;

/** The trace fields the checks read, as float64 `[draws, chains]` values; fields of another shape or kind (a custom trace's) are left out. */
function traceFields(trace: Record<string, unknown> | undefined, N: number, C: number): Map<string, Float64Array> {
  const out = new Map<string, Float64Array>();
  if (trace === undefined) return out;
  for (const k of TRACE_FIELDS) {
    const v = trace[k];
    if (v === undefined) continue;
    let t: Tensor;
    try {
      t = toTensor(FN, `trace.${k}`, v);
    } catch {
      continue;   // not numbers: a custom trace's own field of that name
    }
    if (t.size !== N * C || t.shape[0] !== N || (t.ndim > 1 && t.shape[1] !== C) || (t.ndim === 1 && C !== 1)) continue;
    out.set(k, float64Values(t));
  }
  return out;
}

/** Leading records flagged as warm-up by `tune` (every chain of a record). */
function warmupFromTune(tune: Float64Array | undefined, N: number, C: number): number {
  if (tune === undefined) return 0;
  let w = 0;
  while (w < N && tune[w * C] !== 0) w++;
  return w;
}

function perChainCount(values: Float64Array, n: number, C: number, hit: (v: number) => boolean): number[] {
  const per = new Array<number>(C).fill(0);
  for (let t = 0; t < n; t++) for (let c = 0; c < C; c++) if (hit(values[t * C + c]!)) per[c]!++;
  return per;
}

function chainsWith(per: readonly number[]): number[] {
  return per.flatMap((v, c) => (v > 0 ? [c] : []));
}

/** `chain 0: 3, chain 2: 11` (the chains with any). */
function perChainText(per: readonly number[]): string {
  const hits = per.flatMap((v, c): [string, number][] => (v > 0 ? [[`chain ${c}`, v]] : []));
  return hits.length === 1 && per.length === 1 ? 'one chain' : listed(hits, 0, ': ');
}

/** `mu 1.53, tau 1.21, … and 3 more`. */
function listed(items: readonly (readonly [string, number])[], digits: number, sep = ' '): string {
  const shown = items.slice(0, LISTED).map(([id, v]) => `${id}${sep}${Number.isFinite(v) ? v.toFixed(digits) : String(v)}`).join(', ');
  return items.length > LISTED ? `${shown}, and ${items.length - LISTED} more` : shown;
}

function count(k: number, noun: string): string {
  return `${k} ${noun}${k === 1 ? '' : 's'}`;
}

function percent(f: number): string {
  return `${(100 * f).toFixed(f < 0.01 ? 2 : 1)}%`;
}

/** A mean for a message: 4 significant digits. */
function fmt(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toPrecision(4))) : String(x);
}
