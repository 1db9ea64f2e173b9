/**
 * What `optimize` and `laplace` work on: a model (pinned, flattened, compiled with or without the
 * log-Jacobian) or a user's {@link FlatTarget} as given, with the start (Stan's uniform(−R, R)
 * on the unconstrained space from the seed, or `init`) and the map of flat points to
 * draws-shaped constrained values.
 */
import { fail } from '../src/checks.js';
import { isFlatTarget, type FlatTarget } from '../src/compile/flat-target.js';
import type { KeyArray } from '../src/random/key-array.js';
import { uniform } from '../src/random/uniform.js';
import { foldIn } from '../src/samplers/seeds.js';
import { Tensor } from '../src/tensor/tensor.js';
import { flatConstrain, flatTarget, pinModel } from '../distributions/compile-log-density.js';
import { flatModel, type FlatModel } from '../distributions/joint/flat-model.js';
import type { JointDistribution } from '../distributions/joint/joint-distribution.js';
import type { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import type { PartialValues, Struct, StructKind } from '../distributions/joint/values.js';
import { chainInit, finiteAt, INIT_ATTEMPTS } from '../mcmc/internal/init.js';
import { whyNotFinite } from '../mcmc/internal/locate-failure.js';
import { constrainDraws } from '../mcmc/nuts/windowed-common.js';

/** A model (a joint distribution, pinned or with `pins`) or a flat target used as given. */
export type OptimizeModel<K extends StructKind = StructKind> = JointDistribution<K> | JointDistributionPinned<K> | FlatTarget;

/** Where a run starts: constrained values of the unpinned nodes (a model), unconstrained coordinates (a flat target), or a strategy. */
export type OptimizeInit = PartialValues | ArrayLike<number> | 'uniform' | 'prior' | 'median';

export interface Problem {
  readonly target: FlatTarget;
  readonly dim: number;
  /** The flat model, for a model; undefined for a flat target. */
  readonly model: FlatModel | undefined;
  /** Notes for the result's warnings (running on the tape, and why). */
  readonly notes: readonly string[];
  /** N flat points as draws `[N, 1, ...event]`: constrained node values for a model, coordinates by name for a flat target. */
  draws(n: number, point: (t: number) => ArrayLike<number>): Record<string, Tensor> | Tensor[];
  /** Why the log density is not finite at x, for errors. */
  why(x: Float64Array): string;
}

/** The model (or flat target) as a problem; `jacobian` (default `byDefault`) chooses the density for a model. */
export function problem(fn: string, model: unknown, pins: PartialValues | undefined, jacobian: boolean | undefined, byDefault: boolean): Problem {
  if (isFlatTarget(model)) {
    if (pins !== undefined) fail('range', fn, 'pins', 'must not be given with a flat target (it is already a function of its free coordinates)', pins);
    if (jacobian !== undefined) fail('range', fn, 'jacobian', 'must not be given with a flat target (it is used as given; build it with or without the Jacobian)', jacobian);
    const t = model;
    if (!Number.isInteger(t.dim) || t.dim < 1) fail('range', fn, 'model', 'must be a flat target with a positive integer `dim`', t.dim);
    const names = Array.isArray(t.paramNames) && t.paramNames.length === t.dim ? t.paramNames : Array.from({ length: t.dim }, (_, i) => `x[${i}]`);
    return {
      target: t, dim: t.dim, model: undefined, notes: [],
      draws(n, point) {
        const cols = names.map(() => new Float64Array(n));
        for (let s = 0; s < n; s++) { const p = point(s); cols.forEach((c, i) => { c[s] = p[i]!; }); }
        return Object.fromEntries(names.map((name, i) => [name, new Tensor(cols[i]!, [n, 1], 'float64')]));
      },
      why(x) {
        try { return `the log density is ${t.logDensity(x)} there`; } catch (e) { return `the log density throws: ${e instanceof Error ? e.message : String(e)}`; }
      },
    };
  }
  const pinned = pinModel<StructKind>(fn, model, pins);
  const m = flatModel(fn, pinned as JointDistributionPinned<StructKind>, { jacobian: jacobian ?? byDefault });
  const t = flatTarget(fn, m, true);
  let constrain: ReturnType<typeof flatConstrain> | undefined;
  return {
    target: t.value, dim: t.value.dim, model: m,
    notes: t.compiled ? [] : [`the log density runs on the tape (slower): ${t.reason}`],
    draws(n, point) {
      // One point (optimize) is cheaper on the tape than traced and compiled.
      const c = n === 1 ? flatConstrain(fn, m, false) : (constrain ??= flatConstrain(fn, m, true));
      return constrainDraws<StructKind>(m, c.value, n, 1, (s) => point(s)) as Struct<StructKind, Tensor>;
    },
    why: (x) => whyNotFinite(m, t.value, x),
  };
}

/**
 * The start: Stan's default (uniform(−R, R) in every unconstrained coordinate, drawn with the key
 * `foldIn(foldIn(seed, 'init'), attempt)`, up to 100 attempts until the log density and gradient
 * are finite), `'prior'`/`'median'` as in `windowedAdaptiveNuts`, or the user's values.
 */
export function start(fn: string, p: Problem, init: OptimizeInit | undefined, seed: KeyArray, radius: number): Float64Array {
  const grad = new Float64Array(p.dim);
  if (init === undefined || init === 'uniform') {
    const key = foldIn(seed, 'init');
    let x = new Float64Array(p.dim);
    for (let k = 0; k < INIT_ATTEMPTS; k++) {
      x = Float64Array.from(uniform(foldIn(key, k), [p.dim], { minval: -radius, maxval: radius }).data as Float64Array);
      if (finiteAt(p.target, x, grad)) return x;
    }
    return fail('range', fn, 'model', `has a non-finite log density or gradient at every one of ${INIT_ATTEMPTS} starts tried (uniform(−${radius}, ${radius}) in unconstrained space); at the last, ${p.why(x)}. Check the model and its pins, or give \`init\``, x);
  }
  if (p.model === undefined) {
    if (typeof init === 'string') fail('range', fn, 'init', `'${init}' needs a model (a flat target has no prior); give unconstrained coordinates`, init);
    const a = init as ArrayLike<number>;
    if (typeof a !== 'object' || a === null || typeof a.length !== 'number') fail('type', fn, 'init', 'must be unconstrained coordinates (a Float64Array or an array of numbers) for a flat target', init);
    if (a.length !== p.dim) fail('range', fn, 'init', `must have length dim = ${p.dim} (its length)`, a.length);
    const x = Float64Array.from(a, Number);
    if (!finiteAt(p.target, x, grad)) fail('range', fn, 'init', `is a point where ${p.why(x)}`, init);
    return x;
  }
  return chainInit(fn, p.model, p.target, init as Exclude<OptimizeInit, 'uniform' | ArrayLike<number>>, 1, seed)(0);
}

