/**
 * `TransformedTransitionKernel` (TFP's `tfp.mcmc.TransformedTransitionKernel`): runs an inner
 * kernel in an unconstrained space and reports states in the constrained one.
 */
import { checkOptions, fail } from '../../src/checks.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector } from '../../distributions/bijectors/bijector.js';
import { isFlatTarget } from '../../src/compile/flat-target.js';
import { JointMap, type BijectorParts } from '../../distributions/bijectors/joint-map.js';
import { DefaultJointBijector } from '../../distributions/joint/default-joint-bijector.js';
import type { StructKind } from '../../distributions/joint/values.js';
import type { State, TargetLogProbFn, TransitionKernel } from '../kernel.js';
import { stateParts, targetLogProb } from '../internal/target.js';

/**
 * What maps the unconstrained state onto the target's support: one `Bijector` (a one-part
 * state), one per state part, a `JointMap` (its parts in order), or a pinned joint distribution's
 * `defaultEventSpaceBijector()` (state parts = the unpinned nodes in `unpinnedNames` order).
 */
export type TransformedKernelBijector =
  | Bijector | readonly Bijector[] | JointMap<BijectorParts> | DefaultJointBijector<StructKind>;

export interface TransformedTransitionKernelOptions<R extends object = Record<string, unknown>> {
  /**
   * The kernel to run in unconstrained space: one built with a `targetLogProbFn` (HMC, NUTS,
   * RWM, …), or a wrapper (adapter) around one — the innermost `targetLogProbFn` is replaced.
   */
  readonly innerKernel: TransitionKernel<R>;
  /** Maps unconstrained → constrained (its `forward` is applied to the inner kernel's state). */
  readonly bijector: TransformedKernelBijector;
}

/** Results of {@link TransformedTransitionKernel} (TFP's `TransformedTransitionKernelResults`). */
export interface TransformedTransitionKernelResults<R extends object = Record<string, unknown>> {
  /** The inner kernel's (unconstrained) state: the next step starts from it. */
  readonly transformedState: State;
  readonly innerResults: R;
}

/** A bijector over a list of state parts. */
interface PartsMap {
  /** Number of parts it maps (undefined: any). */
  readonly count: number | undefined;
  forward(u: readonly Tensor[]): Tensor[];
  inverse(x: readonly Tensor[]): Tensor[];
  /** `[forward(u), log-det-Jacobian]` when the map knows its event dims (joint bijectors), else `[forward(u), undefined]`. */
  forwardAndLogDet(u: readonly Tensor[]): [Tensor[], Tensor | undefined];
  /** Σ over parts of log|det ∂f/∂u| over each part's dims beyond the `lpRank` chain dims. */
  logDet(u: readonly Tensor[], lpRank: number): Tensor;
}

const FN = 'TransformedTransitionKernel';

/**
 * Runs `innerKernel` on the unconstrained state u, targeting `target(f(u)) + log|det ∂f/∂u|`
 * (each part's log-det-Jacobian summed over its dims beyond the chain dims, i.e.
 * `eventNdims = rank(u) − rank(log p)`), and returns `f(u)`. The unconstrained state lives in
 * `results.transformedState`, and `oneStep` steps from there (the `state` argument is only the
 * user-facing copy). `bootstrapResults(initState)` computes `f⁻¹(initState)`;
 * `bootstrapResults(undefined, { transformedInitState })` starts from a given unconstrained
 * state. The seed is passed to the inner kernel unchanged.
 *
 * @throws TypeError when `innerKernel` is not a kernel or has no `targetLogProbFn` to replace (a
 *   kernel built from `targetLogProbAndGradFn` cannot be transformed), or `bijector` is not a
 *   bijector, a list or JointMap of them, or a joint bijector; RangeError at bootstrap when the
 *   number of bijectors differs from the number of state parts.
 * @example
 * // p ~ Beta(1, 1), k = 7 of n = 10: sample p ∈ (0, 1) with RWM on logit(p)
 * const target = (p: Tensor) => add(new Beta({ concentration1: 1, concentration0: 1 }).logProb(p),
 *   new Binomial({ totalCount: 10, probs: p }).logProb(7));
 * const kernel = new TransformedTransitionKernel({
 *   innerKernel: new RandomWalkMetropolis({ targetLogProbFn: target }),
 *   bijector: new Sigmoid(),
 * });
 * const { allStates } = sampleChain({ numResults: 1000, currentState: full([4], 0.5), kernel, seed: 0 });
 * // allStates: Tensor [1000, 4], every value in (0, 1)
 */
export class TransformedTransitionKernel<R extends object = Record<string, unknown>>
implements TransitionKernel<TransformedTransitionKernelResults<R>> {
  readonly parameters: Readonly<{ innerKernel: TransitionKernel<R>; bijector: TransformedKernelBijector }>;
  /** The inner kernel with its target replaced by the unconstrained one. */
  private readonly transformedKernel: TransitionKernel<R>;
  private readonly map: PartsMap;

  constructor(options: TransformedTransitionKernelOptions<R>) {
    const o = checkOptions(FN, options, ['innerKernel', 'bijector']);
    const k = o.innerKernel as TransitionKernel<R> | undefined;
    if (k === null || typeof k !== 'object' || typeof k.oneStep !== 'function' || typeof k.copy !== 'function') {
      fail('type', FN, 'innerKernel', 'must be a TransitionKernel (with oneStep, bootstrapResults and copy)', k);
    }
    this.parameters = Object.freeze({ innerKernel: k, bijector: o.bijector });
    const map = partsMap(o.bijector);
    this.map = map;
    this.transformedKernel = replaceTarget(k, (target) => (...u: Tensor[]) => {
      const [x, ldj] = map.forwardAndLogDet(u);
      const lp = targetLogProb(FN, target, x);
      return add(lp, ldj ?? map.logDet(u, lp.ndim));
    }) as TransitionKernel<R>;
  }

  get innerKernel(): TransitionKernel<R> { return this.parameters.innerKernel; }
  get bijector(): TransformedKernelBijector { return this.parameters.bijector; }
  get isCalibrated(): boolean { return this.transformedKernel.isCalibrated; }

  /**
   * Results for a constrained `initState` (mapped by the inverse bijector), or, with
   * `initState` undefined, for `options.transformedInitState` (already unconstrained). Give
   * exactly one.
   * @throws TypeError unless exactly one of the two is given; RangeError for a part count mismatch.
   */
  bootstrapResults(initState?: State, options: { transformedInitState?: State } = {}): TransformedTransitionKernelResults<R> {
    const given = checkOptions(FN, options, ['transformedInitState']).transformedInitState;
    if ((initState === undefined) === (given === undefined)) {
      fail('type', FN, 'initState', 'or `transformedInitState` must be given (exactly one of them)', initState);
    }
    let transformedState: State;
    if (given !== undefined) {
      transformedState = given;
      this.checkCount(stateParts(FN, given)[0].length);
    } else {
      const [parts, rebuild] = stateParts(FN, initState!);
      this.checkCount(parts.length);
      transformedState = rebuild(this.map.inverse(parts));
    }
    return { transformedState, innerResults: this.transformedKernel.bootstrapResults(transformedState) };
  }

  oneStep(state: State, previousResults: TransformedTransitionKernelResults<R>, seed: KeyArray): [State, TransformedTransitionKernelResults<R>] {
    void state; // the inner kernel steps from the unconstrained state carried in the results
    const [u, innerResults] = this.transformedKernel.oneStep(previousResults.transformedState, previousResults.innerResults, seed);
    const [parts, rebuild] = stateParts(FN, u);
    return [rebuild(this.map.forward(parts)), { transformedState: u, innerResults }];
  }

  copy(overrides: Partial<TransformedTransitionKernelOptions<R>> = {}): TransformedTransitionKernel<R> {
    return new TransformedTransitionKernel({ ...this.parameters, ...overrides });
  }

  private checkCount(n: number): void {
    const c = this.map.count;
    if (c !== undefined && c !== n) fail('range', FN, 'bijector', `must give one bijector per state part (the state has ${n} part${n === 1 ? '' : 's'})`, c);
  }
}

/** The kernel (or the innermost kernel under `innerKernel` wrappers) with its `targetLogProbFn` wrapped. */
function replaceTarget(kernel: TransitionKernel<object>, wrap: (t: TargetLogProbFn) => TargetLogProbFn): TransitionKernel<object> {
  const p = kernel.parameters as Record<string, unknown>;
  if (isFlatTarget(p.targetLogProbFn)) {
    fail('type', FN, 'innerKernel', 'targets a flat target (a compiled log density), which is already over unconstrained coordinates; use the kernel directly', kernel);
  }
  if (typeof p.targetLogProbAndGradFn === 'function') {
    fail('type', FN, 'innerKernel', 'was built with `targetLogProbAndGradFn`, which cannot be moved to the unconstrained space; build it with `targetLogProbFn`', kernel);
  }
  if (typeof p.targetLogProbFn === 'function') return kernel.copy({ targetLogProbFn: wrap(p.targetLogProbFn as TargetLogProbFn) });
  const inner = p.innerKernel as TransitionKernel<object> | undefined;
  if (inner !== undefined && inner !== null && typeof inner === 'object' && typeof inner.copy === 'function') {
    return kernel.copy({ innerKernel: replaceTarget(inner, wrap) });
  }
  return fail('type', FN, 'innerKernel', 'must have a `targetLogProbFn` parameter (directly or in a wrapped `innerKernel`)', kernel);
}

function partsMap(b: unknown): PartsMap {
  if (b instanceof DefaultJointBijector) return jointPartsMap(b as DefaultJointBijector<StructKind>);
  let list: Bijector[];
  if (b instanceof Bijector) list = [b];
  else if (b instanceof JointMap) list = Object.values((b as JointMap<BijectorParts>).bijectors) as Bijector[];
  else if (Array.isArray(b) && b.length > 0 && b.every((x) => x instanceof Bijector)) list = [...b as Bijector[]];
  else return fail('type', FN, 'bijector', 'must be a Bijector, a non-empty array of Bijectors, a JointMap, or a joint distribution\'s defaultEventSpaceBijector()', b);
  const forward = (u: readonly Tensor[]): Tensor[] => u.map((p, i) => list[i]!.forward(p));
  return {
    count: list.length,
    forward,
    inverse: (x) => x.map((p, i) => list[i]!.inverse(p)),
    forwardAndLogDet: (u) => [forward(u), undefined],
    logDet: (u, lpRank) => {
      let ldj: Tensor | undefined;
      u.forEach((p, i) => {
        const l = list[i]!.forwardLogDetJacobian(p, Math.max(p.ndim - lpRank, list[i]!.forwardMinEventNdims));
        ldj = ldj === undefined ? l : add(ldj, l);
      });
      return ldj!;
    },
  };
}

/**
 * A pinned joint distribution's bijector over state parts: the parts are the unpinned nodes in
 * `unpinnedNames` order (records are built and read by name). Its log-det-Jacobian already
 * sums each node over that node's event dims.
 */
function jointPartsMap(b: DefaultJointBijector<StructKind>): PartsMap {
  const names = b.pinned.unpinnedNames;
  const isRecord = b.pinned.distribution.structKind === 'record';
  const toStruct = (parts: readonly Tensor[]): Record<string, Tensor> | Tensor[] =>
    (isRecord ? Object.fromEntries(names.map((n, i) => [n, parts[i]!])) : [...parts]);
  const toParts = (s: unknown): Tensor[] => (isRecord ? names.map((n) => (s as Record<string, Tensor>)[n]!) : [...(s as Tensor[])]);
  return {
    count: names.length,
    forward: (u) => toParts(b.forward(toStruct(u))),
    inverse: (x) => toParts(b.inverse(toStruct(x))),
    forwardAndLogDet: (u) => {
      const [x, ldj] = b.forwardAndLogDetJacobian(toStruct(u));
      return [toParts(x), ldj];
    },
    logDet: (u) => b.forwardLogDetJacobian(toStruct(u)),
  };
}
