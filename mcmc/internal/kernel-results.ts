/**
 * Reading and replacing fields of nested kernel results (TFP's `unnest.get_innermost` /
 * `unnest.replace_innermost`). Wrapper kernels nest their inner kernel's results under
 * `innerResults` (adapters, `TransformedTransitionKernel`) or `acceptedResults`
 * (`MetropolisHastings`); a field is looked up in the innermost results that hold it. Step-size
 * and mass-matrix adapters use `getStepSize`/`setStepSize` and
 * `getInverseMassDiag`/`setInverseMassDiag` to change what a gradient-based kernel (HMC, NUTS,
 * MALA) uses at its next step, and `getLogAcceptRatio` to read the acceptance statistic.
 */
import { fail } from '../../src/checks.js';
import { Tensor } from '../../src/tensor/tensor.js';

/**
 * A step size: a number or a Tensor (broadcasting against each state part, numpy-style from the
 * right; shape `[C, 1]` for a state part `[C, D]` gives one step size per chain), or one such
 * value per state part.
 */
export type StepSize = number | Tensor | readonly (number | Tensor)[];

/**
 * A diagonal inverse mass matrix: one entry per state part (a Tensor broadcasting against the
 * part, or `undefined` for the identity), a single Tensor for a one-part state, or `undefined`
 * (identity for every part).
 */
export type InverseMassDiag = Tensor | readonly (Tensor | undefined)[] | undefined;

/** Where wrapper kernels keep their inner kernel's results, in lookup order (TFP's `unnest`). */
const NESTED = ['innerResults', 'acceptedResults'] as const;
/** The same walk with `MetropolisHastings`' proposal first: what the step tried (its divergence). */
export const PROPOSED_FIRST = ['innerResults', 'proposedResults', 'acceptedResults'] as const;

type Rec = Readonly<Record<string, unknown>>;

function isRecord(x: unknown): x is Rec {
  return x !== null && typeof x === 'object' && !Array.isArray(x) && !(x instanceof Tensor);
}

/**
 * The levels of nested kernel results, outermost first: each level leads to the next through the
 * first of `keys` it holds (TFP's `unnest`). The one walk every reader of nested results uses.
 *
 * @example
 * for (const level of resultLevels(results)) if ('stepSize' in level) …
 */
export function* resultLevels(results: unknown, keys: readonly string[] = NESTED): Generator<Rec> {
  let r = results;
  while (isRecord(r)) {
    yield r;
    const level: Rec = r;
    const k = keys.find((key) => isRecord(level[key]));
    if (k === undefined) return;
    r = level[k];
  }
}

/**
 * The innermost level of `results` that holds `field` (its own property, even when undefined),
 * or undefined.
 *
 * @example
 * innermostWith(windowedResults, 'hasDivergence');   // the NUTS kernel's results
 */
export function innermostWith(results: unknown, field: string, keys: readonly string[] = NESTED): Rec | undefined {
  let found: Rec | undefined;
  for (const level of resultLevels(results, keys)) if (Object.prototype.hasOwnProperty.call(level, field)) found = level;
  return found;
}

/**
 * True if `results` or any results nested in it (under `innerResults` / `acceptedResults`) have
 * `field`, even when its value is undefined.
 *
 * @example
 * hasInnermost(hmcResults, 'inverseMassDiag'); // true: the slot exists (identity when undefined)
 */
export function hasInnermost(results: object, field: string): boolean {
  return innermostWith(results, field) !== undefined;
}

/**
 * The value of `field` in the innermost results that hold it, walking `innerResults` and
 * `acceptedResults` (TFP's `unnest.get_innermost`).
 *
 * @throws TypeError naming `fn` when no level of `results` has `field`.
 * @example
 * getInnermost(mhResults, 'targetLogProb'); // the inner (accepted) kernel's targetLogProb
 */
export function getInnermost(results: object, field: string, fn = 'getInnermost'): unknown {
  const level = innermostWith(results, field);
  if (level === undefined) fail('type', fn, 'results', `must hold a \`${field}\` field (directly or under innerResults/acceptedResults)`, results);
  return level[field];
}

/**
 * A copy of `results` with `field` replaced in the innermost results that hold it (TFP's
 * `unnest.replace_innermost`); every enclosing level is copied by spreading, nothing is mutated.
 *
 * @throws TypeError naming `fn` when no level of `results` has `field`.
 * @example
 * const next = replaceInnermost(results, 'stepSize', 0.05);
 */
export function replaceInnermost<R extends object>(results: R, field: string, value: unknown, fn = 'replaceInnermost'): R {
  const levels = [...resultLevels(results)];
  const at = levels.map((l) => Object.prototype.hasOwnProperty.call(l, field)).lastIndexOf(true);
  if (at < 0) fail('type', fn, 'results', `must hold a \`${field}\` field (directly or under innerResults/acceptedResults)`, results);
  // Rebuild from the innermost holder outwards, each enclosing level copied by spreading.
  let out: Rec = { ...levels[at]!, [field]: value };
  for (let i = at - 1; i >= 0; i--) out = { ...levels[i]!, [NESTED.find((k) => levels[i]![k] === levels[i + 1])!]: out };
  return out as R;
}

/**
 * The step size a gradient-based kernel (HMC, NUTS, MALA) will use at its next step, read from
 * the innermost results that hold `stepSize`.
 *
 * @throws TypeError when the results hold no `stepSize`.
 * @example
 * const kernel = new HamiltonianMonteCarlo({ targetLogProbFn, stepSize: 0.1, numLeapfrogSteps: 5 });
 * getStepSize(kernel.bootstrapResults(zeros([4, 2]))); // 0.1
 */
export function getStepSize(results: object): StepSize {
  return getInnermost(results, 'stepSize', 'getStepSize') as StepSize;
}

/**
 * A copy of `results` whose innermost `stepSize` is `stepSize`: the kernel uses it from its next
 * `oneStep` on and carries it forward.
 *
 * @throws TypeError when the results hold no `stepSize`, or `stepSize` is not a positive number,
 *   a Tensor, or an array of them.
 * @example
 * const smaller = setStepSize(results, 0.5 * (getStepSize(results) as number));
 */
export function setStepSize<R extends object>(results: R, stepSize: StepSize): R {
  const fn = 'setStepSize';
  const ok = (s: unknown): boolean => typeof s === 'number' || s instanceof Tensor;
  if (!(ok(stepSize) || (Array.isArray(stepSize) && stepSize.length > 0 && stepSize.every(ok)))) {
    fail('type', fn, 'stepSize', 'must be a number, a Tensor, or a non-empty array of them (one per state part)', stepSize);
  }
  return replaceInnermost(results, 'stepSize', stepSize, fn);
}

/**
 * The diagonal inverse mass matrix (per state part; `undefined` = identity) a gradient-based
 * kernel will use at its next step.
 *
 * @throws TypeError when the results hold no `inverseMassDiag` slot.
 * @example
 * getInverseMassDiag(nuts.bootstrapResults(x0)); // undefined (identity) unless set
 */
export function getInverseMassDiag(results: object): InverseMassDiag {
  return getInnermost(results, 'inverseMassDiag', 'getInverseMassDiag') as InverseMassDiag;
}

/**
 * A copy of `results` whose innermost `inverseMassDiag` is `inverseMassDiag` (one Tensor or
 * `undefined` per state part, broadcasting against it). Momenta are then drawn as
 * `z / √invMass`, positions move by `ε·invMass·p`, and the kinetic energy is `½ Σ invMass·p²`.
 *
 * @throws TypeError when the results hold no `inverseMassDiag` slot, or the value is not a Tensor,
 *   undefined, or an array of them.
 * @example
 * const adapted = setInverseMassDiag(results, [variances]); // variances: Tensor [D]
 */
export function setInverseMassDiag<R extends object>(results: R, inverseMassDiag: InverseMassDiag): R {
  const fn = 'setInverseMassDiag';
  const ok = (m: unknown): boolean => m === undefined || m instanceof Tensor;
  if (!(ok(inverseMassDiag) || (Array.isArray(inverseMassDiag) && inverseMassDiag.every(ok)))) {
    fail('type', fn, 'inverseMassDiag', 'must be a Tensor, undefined, or an array of them (one per state part)', inverseMassDiag);
  }
  return replaceInnermost(results, 'inverseMassDiag', inverseMassDiag, fn);
}

/**
 * The log acceptance ratio of the last step (per chain), from the innermost results that hold
 * `logAcceptRatio` (MetropolisHastings' own, or NUTS's mean over the trajectory).
 *
 * @throws TypeError when the results hold no `logAcceptRatio`.
 * @example
 * const accept = exp(minimum(getLogAcceptRatio(results), 0)); // per-chain acceptance probability
 */
export function getLogAcceptRatio(results: object): Tensor {
  return getInnermost(results, 'logAcceptRatio', 'getLogAcceptRatio') as Tensor;
}
