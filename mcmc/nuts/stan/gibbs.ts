/**
 * The compound kernel of the per-chain engine for models with discrete nodes that cannot be
 * summed out (`distributions/enumerate/gibbs-plan.ts`): each transition is one NUTS transition
 * on the continuous block given the chain's discrete values, then one Metropolis-within-Gibbs
 * sweep over the discrete block given the continuous point (NumPyro's `HMCGibbs` /
 * `DiscreteHMCGibbs`, PyMC's `CompoundStep`; the code is ours).
 *
 * The joint target is π(u, d) = p(f_d(u), d)·|det ∂f_d/∂u|: the flat target of the continuous
 * coordinates u at the discrete values d (a continuous node's bijector may depend on d; for each d
 * the Jacobian makes the u-marginal integrate to p(d | data), so moves on d at fixed u leave π
 * invariant). The target is compiled once with the discrete values as inputs of the generated
 * program (`compileGradient` on the flat target with the sites' values as extra arguments), so
 * changing them between evaluations needs no retrace; its gradient is taken in u only. A model
 * the tracer cannot follow runs on the tape, as the continuous-only path does.
 *
 * The sweep visits every site in model order and every unit (element) in row-major order: a
 * proposal d′ (uniform among the other support values, or d ± 1…K), accepted with
 * probability min(1, π(u, d′)/π(u, d)) (both proposals are symmetric). A proposal whose log density
 * is −∞, NaN, +∞ or throws (other than a programming error) is rejected. −∞ is an ordinary value
 * of the density (a proposal the data rule out); a throw, NaN or +∞ is a failure of the model,
 * counted and reported as NUTS's are (`mcmc/internal/rejections.ts`: the run's `rejections`, with
 * the node and element, and the draw's `trace.rejections`). A random walk's proposal below the
 * least value of a support fixed in advance (a count below 0) is rejected without evaluating the
 * model, so a child's NaN there is not taken for a failure. Each evaluation recomputes
 * the whole log density (no per-term caching), so a sweep over N units costs N evaluations.
 *
 * The random walk's largest step K starts at {@link RW_STEP} and is tuned per chain and site
 * during warm-up, PyMC's `Metropolis` rule: every {@link TUNE_INTERVAL} warm-up transitions a
 * scale is multiplied by 0.5, 0.9, 1, 1.1, 2 or 10 as the acceptance rate of that interval is below
 * 0.05, 0.2, in [0.2, 0.5], above 0.5, 0.75 or 0.95, and K = max(1, round(scale)); it is fixed after
 * warm-up (so the sampling phase is a Markov chain with one symmetric proposal), and depends only
 * on the chain's own moves.
 *
 * Randomness: chain c's discrete moves use the key `g_c = foldIn(key_c, GIBBS_STREAM)`
 * (key_c = `foldIn(seed, c)`, the chain's NUTS key): its stream 0 for the start (a draw of the
 * discrete nodes from the prior, up to {@link INIT_ATTEMPTS} times with uniform continuous
 * starts), stream t + 1 for transition t's sweep. So a chain's draws depend only on the seed and
 * c, as NUTS's do.
 */
import { fail } from '../../../src/checks.js';
import { compileGradient } from '../../../src/compile/index.js';
import { compileChecked, type CompileOutcome, type FlatTarget } from '../../../src/compile/flat-target.js';
import type { Modes } from '../../../src/config.js';
import { KeyArray } from '../../../src/random/key-array.js';
import { valueAndGrad } from '../../../src/tensor/autodiff.js';
import { reshape } from '../../../src/tensor/ops/shape.js';
import { UntraceableError } from '../../../src/tensor/lowering.js';
import { Tensor } from '../../../src/tensor/tensor.js';
import { detLog } from '../../../src/math/index.js';
import { flatTensors } from '../../../distributions/compile-log-density.js';
import type { GibbsPlan } from '../../../distributions/enumerate/gibbs-plan.js';
import type { JointDistributionPinned } from '../../../distributions/joint/joint-distribution-pinned.js';
import type { StructKind } from '../../../distributions/joint/values.js';
import type { Compiled } from '../../../src/compile/codegen.js';
import { RW_STEP } from '../../../distributions/enumerate/gibbs-plan.js';
import type { FlatModel } from '../../../distributions/joint/flat-model.js';
import { isProgrammingError } from '../../internal/rejections.js';
import { ChainRandom } from './nuts-chain.js';

/** The word folded into a chain's key for its discrete moves (ASCII "gibb", below 2^31: far from any transition index). */
export const GIBBS_STREAM = 0x67696262 & 0x7fffffff;

/** Warm-up transitions between two tunings of a random walk's step. */
export const TUNE_INTERVAL = 50;

/** The flat target of the continuous block, with the discrete values it is evaluated at. */
export interface GibbsTarget {
  /** The continuous target at the values in `discrete` (read at every evaluation). */
  readonly target: FlatTarget;
  /** The sites' values, flat in site order: write before evaluating. */
  readonly discrete: Float64Array;
  /** The generated program (continuous coordinates, then the discrete values, as its flat input), when compiled: what workers rebuild. */
  readonly compiled?: Compiled;
}

/** What the sweeps need of a {@link GibbsPlan}: plain data (it travels to worker threads). */
export type GibbsLayout = Pick<GibbsPlan, 'sites' | 'size' | 'placeholder'>;

/**
 * The plain-data part of `plan` (no model, no functions).
 * @example
 * const layout = gibbsLayout(m.gibbs!);   // { sites, size, placeholder }: structured-cloneable
 */
export function gibbsLayout(plan: GibbsLayout): GibbsLayout {
  return { sites: plan.sites, size: plan.size, placeholder: plan.placeholder };
}

/**
 * A {@link GibbsTarget} over a compiled program rebuilt from its portable form (in a worker):
 * `values` and `valueAndGrad` of the program, whose flat input is the `dim` continuous
 * coordinates followed by the `size` discrete values — the same entries, so the same bits, as
 * the target the main thread made (`run(false)` / `run(true)` of the same generated code).
 * @example
 * const t = portableGibbsTarget(importCompiledEntries(task.program), dim, layout.size);
 */
export function portableGibbsTarget(entries: { readonly valueAndGrad: (x: ArrayLike<number>, grad: Float64Array) => number; readonly values: (x: ArrayLike<number>, out: Float64Array) => void }, dim: number, size: number): GibbsTarget {
  const input = new Float64Array(dim + size), fullGrad = new Float64Array(dim + size), out = new Float64Array(1);
  const discrete = input.subarray(dim);
  const target: FlatTarget = {
    dim, paramNames: [],
    logDensity(x) { for (let i = 0; i < dim; i++) input[i] = x[i]!; entries.values(input, out); return out[0]!; },
    logDensityGradient(x, grad) {
      for (let i = 0; i < dim; i++) input[i] = x[i]!;
      const v = entries.valueAndGrad(input, fullGrad);
      for (let i = 0; i < dim; i++) grad[i] = fullGrad[i]!;
      return v;
    },
  };
  return { target, discrete };
}

/**
 * The flat model's continuous target with the Gibbs sites' values as an input: generated code
 * (traced once, checked against the tape at a second point with other discrete values), or the
 * tape (`compileChecked`'s rule).
 * @example
 * const { value } = gibbsFlatTarget(FN, m, true);
 * value.discrete.set([3]);                 // n = 3
 * value.target.logDensity(x);              // log π(x, n = 3)
 */
export function gibbsFlatTarget(fn: string, m: FlatModel, compile: boolean): CompileOutcome<GibbsTarget> {
  const plan = m.gibbs!, sizes = m.sizes, nc = sizes.length;
  const dim = sizes.reduce((a, b) => a + b, 0);
  const paramNames = Object.freeze(m.names.flatMap((n, j) => (sizes[j] === 1 && m.shapes[j]!.length === 0 ? [n] : Array.from({ length: sizes[j]! }, (_, k) => `${n}[${k}]`))));
  const siteSizes = plan.sites.map((s) => s.unit * s.units);
  const asSites = (flat: readonly Tensor[]) => flat.map((t, j) => reshape(t, plan.sites[j]!.shape));
  const f = (...xs: Tensor[]) => m.gibbsTarget!(asSites(xs.slice(nc)), ...xs.slice(0, nc));
  const tape = (discrete: Float64Array): FlatTarget => {
    const vg = valueAndGrad((...xs: Tensor[]) => m.gibbsTarget!(plan.sites.map((_, j) => siteTensor(plan, discrete, j)), ...xs), sizes.map((_, j) => j));
    const lp = (x: ArrayLike<number>) => (m.gibbsTarget!(plan.sites.map((_, j) => siteTensor(plan, discrete, j)), ...flatTensors(sizes, x)).data as ArrayLike<number>)[0]!;
    return {
      dim, paramNames, logDensity: lp,
      logDensityGradient(x, grad) {
        const [v, g] = vg(...flatTensors(sizes, x)) as [Tensor, Tensor[]];
        let i = 0;
        for (const t of g) { const d = t.data as ArrayLike<number>; for (let k = 0; k < d.length; k++) grad[i++] = d[k]!; }
        return (v.data as ArrayLike<number>)[0]!;
      },
    };
  };
  return compileChecked(compile, (): GibbsTarget => {
    const at = (cont: (k: number) => number, disc: Float64Array) => [...flatTensors(sizes, Float64Array.from({ length: dim }, (_, k) => cont(k))), ...flatTensors(siteSizes, disc)];
    const c = compileGradient(fn, f, at(() => 0, plan.placeholder));
    const flatInput = c.flatInput, flatGrad = c.flatGrad, out = c.outputs[0]!, run = c.run;
    if (out.length !== 1) throw new UntraceableError(`${fn}: the log density is not one number per draw`);
    const discrete = flatInput.subarray(dim);
    const target: FlatTarget = {
      dim, paramNames,
      logDensity(x) { for (let i = 0; i < dim; i++) flatInput[i] = x[i]!; run(false); return out[0]!; },
      logDensityGradient(x, grad) {
        for (let i = 0; i < dim; i++) flatInput[i] = x[i]!;
        run(true);
        for (let i = 0; i < dim; i++) grad[i] = flatGrad[i]!;
        return out[0]!;
      },
    };
    // A model that reads a value in JavaScript bakes it in: compare with the tape away from the trace point.
    const x2 = Float64Array.from({ length: dim }, (_, k) => 0.3 - 0.1 * (k % 5)), d2 = otherValues(plan);
    discrete.set(d2);
    const g1 = new Float64Array(dim), g2 = new Float64Array(dim);
    const v1 = target.logDensityGradient(x2, g1), v2 = tape(d2).logDensityGradient(x2, g2);
    const close = (a: number, b: number) => Object.is(a, b) || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b)) || (Number.isNaN(a) && Number.isNaN(b));
    if (!close(v1, v2) || g1.some((g, k) => !close(g, g2[k]!))) {
      throw new UntraceableError(`${fn}: model "${m.pinned.distribution.name}": the compiled log density differs from the tape's at other discrete values, so the model uses a discrete node's value where the compiler takes it as a constant (an index of \`gather\`, or a value read in JavaScript); the run uses the tape (select with \`where\` or one-hot arithmetic to compile it)`);
    }
    discrete.set(plan.placeholder);
    return { target, discrete, compiled: c };
  }, (): GibbsTarget => {
    const discrete = plan.placeholder.slice();
    return { target: tape(discrete), discrete };
  });
}

/** Site j's values in `flat` (all sites' values, in site order) as a tensor of the node's dtype and shape. */
function siteTensor(plan: GibbsPlan, flat: Float64Array, j: number): Tensor {
  return plan.pins(flat)[plan.sites[j]!.name] ?? fail('range', 'gibbs', 'site', 'internal: missing site', j);
}

/**
 * Discrete values other than the placeholder (each finite site's last support value, 1 for a random walk's), for compile checks.
 * @example
 * otherValues(m.gibbs!);   // flat, in site order
 */
export function otherValues(plan: GibbsLayout): Float64Array {
  const out = plan.placeholder.slice();
  let at = 0;
  for (const s of plan.sites) {
    const n = s.unit * s.units;
    if (s.support === undefined) out.fill(1, at, at + n);
    else { const S = s.support.length / s.unit; for (let k = 0; k < n; k++) out[at + k] = s.support[(S - 1) * s.unit + (k % s.unit)]!; }
    at += n;
  }
  return out;
}

/** One chain's discrete block: its values, its random streams, and its acceptance counts after warm-up. */
export interface GibbsChain {
  readonly values: Float64Array;
  /** Per site: proposals made and accepted after warm-up. */
  readonly proposed: Float64Array;
  readonly accepted: Float64Array;
  /** Per site: the random walk's step scale (K = max(1, round(scale))), and the current warm-up interval's proposals and acceptances. */
  readonly scale: Float64Array;
  readonly tuneProposed: Float64Array;
  readonly tuneAccepted: Float64Array;
}

/**
 * Told of a Gibbs proposal at which the model failed (threw, NaN or +∞): the error, the value,
 * the node and the element proposed, and the discrete values then (the proposal in place; read at once).
 */
export type GibbsReject = (threw: boolean, error: unknown, lp: number, node: string, element: number, discrete: Float64Array) => void;

/** Per-site acceptance rates of a run, by chain. */
export interface GibbsInfo {
  /** One entry per discrete node sampled by Gibbs steps, in model order. */
  readonly nodes: readonly {
    readonly name: string;
    /** `'uniform'`: among the other support values; `'random-walk'`: ±1…±2 on the integers. */
    readonly proposal: 'uniform' | 'random-walk';
    /** Why it is not enumerated. */
    readonly reason: string;
    /** Elements updated one at a time (units of the sweep). */
    readonly units: number;
    /** Accepted / proposed after warm-up, per chain run. */
    readonly acceptRate: readonly number[];
    /** A random walk's largest step K after warm-up, per chain run (undefined for uniform proposals). */
    readonly maxStep?: readonly number[];
  }[];
}

/**
 * The compound kernel's discrete half for all chains of a run, over one shared {@link GibbsTarget}
 * (chains take turns: `load(j)` puts chain j's values into the target before its transition).
 * @example
 * const sweeps = new GibbsSweeps(FN, m.gibbs!, gibbsFlatTarget(FN, m, true).value, getModes(), m.gibbs!.given);
 * sweeps.addChain(chainKey);                                  // chain 0
 * sweeps.initDiscrete(0, 0);                                  // its values from the prior
 * const { lp, changed } = sweeps.sweep(0, t, q, lpAtQ, numWarmup);
 */
export class GibbsSweeps {
  readonly chains: GibbsChain[] = [];
  private readonly rngs: ChainRandom[] = [];
  private readonly keys: KeyArray[] = [];
  private readonly offsets: number[];
  private readonly saved: Float64Array;

  /**
   * The sweeps of `plan` over the target `t`. `given` (the model as given, pins included) draws the
   * chains' starts (`initDiscrete`); a worker, which continues chains from their states, has none.
   */
  constructor(readonly fn: string, private readonly plan: GibbsLayout, private readonly t: GibbsTarget, private readonly modes: Modes, private readonly given?: JointDistributionPinned<StructKind>) {
    let at = 0;
    this.offsets = this.plan.sites.map((s) => { const o = at; at += s.unit * s.units; return o; });
    this.saved = new Float64Array(Math.max(1, ...this.plan.sites.map((s) => s.unit)));
  }

  /** Forgets the chains (a new run over the same target starts adding them again). */
  reset(): void {
    this.chains.length = 0; this.rngs.length = 0; this.keys.length = 0;
  }

  /** Adds chain j (run index) with key `chainKey` = foldIn(seed, c); its values start at the placeholder. */
  addChain(chainKey: KeyArray): void {
    const key = new KeyArray(chainKey.impl, chainKey.impl.foldIn(chainKey.data, GIBBS_STREAM, this.modes), []);
    this.keys.push(key);
    this.rngs.push(new ChainRandom(key, this.modes));
    const n = this.plan.sites.length;
    this.chains.push({
      values: this.plan.placeholder.slice(), proposed: new Float64Array(n), accepted: new Float64Array(n),
      scale: new Float64Array(n).fill(RW_STEP), tuneProposed: new Float64Array(n), tuneAccepted: new Float64Array(n),
    });
  }

  /** Chain j's discrete block as plain data (copies), for its `ChainState`. */
  state(j: number): GibbsChain {
    const c = this.chains[j]!;
    return { values: c.values.slice(), proposed: c.proposed.slice(), accepted: c.accepted.slice(), scale: c.scale.slice(), tuneProposed: c.tuneProposed.slice(), tuneAccepted: c.tuneAccepted.slice() };
  }

  /**
   * Continues chain j from `st` (a `ChainState`'s `gibbs`): its values, counts and tuned steps.
   * @throws RangeError naming `arg` when `st` is missing or not this model's (sizes differ).
   */
  restore(j: number, st: GibbsChain | undefined, arg: string): void {
    const n = this.plan.sites.length, c = this.chains[j]!;
    const ok = st !== undefined && st !== null && st.values instanceof Float64Array && st.values.length === this.plan.size
      && ([st.proposed, st.accepted, st.scale, st.tuneProposed, st.tuneAccepted] as unknown[]).every((a) => a instanceof Float64Array && a.length === n);
    if (!ok) fail('range', this.fn, arg, `must hold each chain's discrete block for the Gibbs steps on ${this.plan.sites.map((s) => `\`${s.name}\``).join(', ')} (${this.plan.size} values over ${n} node(s)): give the result of a run of this model`, st);
    c.values.set(st.values); c.proposed.set(st.proposed); c.accepted.set(st.accepted); c.scale.set(st.scale);
    c.tuneProposed.set(st.tuneProposed); c.tuneAccepted.set(st.tuneAccepted);
    this.load(j);
  }

  /** Makes chain j's values the target's. */
  load(j: number): void { this.t.discrete.set(this.chains[j]!.values); }

  /**
   * Chain j's start, attempt a: its discrete values drawn from the prior (the pins given as
   * values) from stream 0 of its key; the placeholder when the model cannot be sampled.
   */
  initDiscrete(j: number, attempt: number): void {
    const key = this.keys[j]!;
    const k0 = key.impl.foldIn(key.data, 0, this.modes), seed = new KeyArray(key.impl, key.impl.foldIn(k0, attempt, this.modes), []);
    const values = this.chains[j]!.values;
    const given = this.given ?? fail('range', this.fn, 'model', 'internal: the discrete starts are drawn where the model is (chains on workers continue from states made in the main thread)', j);
    const jd = given.distribution;
    let draw: unknown;
    try {
      draw = jd.sample([], { seed, value: given.pins });
    } catch (e) {
      if (isProgrammingError(e)) throw e;
      values.set(this.plan.placeholder);
      this.load(j);
      return;
    }
    this.plan.sites.forEach((s, i) => {
      const v = (Array.isArray(draw) ? draw[s.node] : (draw as Record<string, Tensor>)[s.name]) as Tensor;
      const d = v.data as ArrayLike<number>;
      for (let k = 0; k < d.length; k++) values[this.offsets[i]! + k] = Number(d[k]);
    });
    this.load(j);
  }

  /**
   * Chain j's sweep at transition t over the discrete block, the continuous point `q` fixed, from
   * log density `lp` there (with the chain's current values loaded), `numWarmup` transitions being
   * warm-up (random-walk steps are tuned then; acceptance is counted after). Returns the log
   * density after the sweep; `changed` says whether any value moved (the NUTS chain's cached
   * gradient is then stale).
   */
  sweep(j: number, t: number, q: Float64Array, lp: number, numWarmup: number, onReject?: GibbsReject): { lp: number; changed: boolean; failures: number } {
    const count = t >= numWarmup;
    const rng = this.rngs[j]!, chain = this.chains[j]!, d = this.t.discrete, target = this.t.target, saved = this.saved;
    rng.begin(t + 1);
    let changed = false, failures = 0;
    this.plan.sites.forEach((s, i) => {
      const o = this.offsets[i]!, w = s.unit;
      for (let u = 0; u < s.units; u++) {
        const at = o + u * w;
        for (let k = 0; k < w; k++) saved[k] = d[at + k]!;
        if (s.proposal === 'uniform') {
          const support = s.support!, S = support.length / w;
          if (S < 2) continue;
          let cur = 0;
          while (cur < S && !sameRow(support, cur * w, d, at, w)) cur++;
          // Uniform among the S − 1 other values (the current one skipped; an off-support current value: any of S − 1 of them).
          let pick = Math.floor(rng.uniform() * (S - 1));
          if (pick >= cur) pick++;
          for (let k = 0; k < w; k++) d[at + k] = support[pick * w + k]!;
        } else {
          const K = Math.max(1, Math.round(chain.scale[i]!)), r = Math.floor(rng.uniform() * 2 * K);
          d[at] = saved[0]! + (r < K ? r - K : r - K + 1);
        }
        const logU = detLog(rng.uniform());
        let lpNew = -Infinity, threw = false, error: unknown;
        // Off a support fixed in advance: rejected unevaluated (the density is −∞ there).
        if (s.least === undefined || d[at]! >= s.least) {
          try { lpNew = target.logDensity(q); } catch (e) {
            if (isProgrammingError(e)) throw e;
            threw = true; error = e; lpNew = Number.NaN;
          }
        }
        if (threw || !(lpNew < Infinity || lpNew === -Infinity)) {
          failures++;
          onReject?.(threw, error, lpNew, s.name, u, d);
        }
        if (count) chain.proposed[i]!++;
        else chain.tuneProposed[i]!++;
        if (lpNew > -Infinity && lpNew < Infinity && logU < lpNew - lp) {
          lp = lpNew;
          changed = true;
          if (count) chain.accepted[i]!++;
          else chain.tuneAccepted[i]!++;
        } else {
          for (let k = 0; k < w; k++) d[at + k] = saved[k]!;
        }
      }
    });
    chain.values.set(d);
    if (!count && (t + 1) % TUNE_INTERVAL === 0) {
      this.plan.sites.forEach((s, i) => {
        if (s.proposal === 'random-walk' && chain.tuneProposed[i]! > 0) chain.scale[i] = chain.scale[i]! * tuneFactor(chain.tuneAccepted[i]! / chain.tuneProposed[i]!);
        chain.tuneProposed[i] = 0;
        chain.tuneAccepted[i] = 0;
      });
    }
    return { lp, changed, failures };
  }


  /** The sites' total size. */
  get size(): number { return this.plan.size; }

  /** The plan's plain data, for workers. */
  get layout(): GibbsLayout { return gibbsLayout(this.plan); }
}

/**
 * A run's per-site acceptance rates and tuned steps, from its chains' discrete blocks (in run
 * order; the chains' final `ChainState.gibbs`, wherever they ran).
 * @example
 * gibbsInfo(layout, run.states.map((st) => st.gibbs!)).nodes[0]!.acceptRate;   // per chain
 */
export function gibbsInfo(plan: GibbsLayout, chains: readonly GibbsChain[]): GibbsInfo {
  return {
    nodes: plan.sites.map((s, i) => ({
      name: s.name, proposal: s.proposal, reason: s.reason, units: s.units,
      acceptRate: chains.map((c) => (c.proposed[i]! > 0 ? c.accepted[i]! / c.proposed[i]! : Number.NaN)),
      ...(s.proposal === 'random-walk' ? { maxStep: chains.map((c) => Math.max(1, Math.round(c.scale[i]!))) } : {}),
    })),
  };
}

/** PyMC's `tune` factor for a Metropolis scale from an interval's acceptance rate. */
function tuneFactor(rate: number): number {
  return rate < 0.05 ? 0.5 : rate < 0.2 ? 0.9 : rate > 0.95 ? 10 : rate > 0.75 ? 2 : rate > 0.5 ? 1.1 : 1;
}

function sameRow(a: Float64Array, ai: number, b: Float64Array, bi: number, w: number): boolean {
  for (let k = 0; k < w; k++) if (a[ai + k] !== b[bi + k]) return false;
  return true;
}
