/**
 * Rejected proposals of both NUTS engines and the TFP kernels: what counts as one, and the run's record of
 * them (Stan's "Informational Message: The current Metropolis proposal is about to be rejected
 * because of the following issue: …").
 *
 * The rule. A log density that throws, or returns a non-finite value (NaN, ±∞) or gradient entry,
 * at a proposal during a transition — warm-up and Stan's step-size heuristic included — rejects
 * that proposal: it is a divergent leaf and the run goes on (Stan's `update_potential_gradient`,
 * which catches every exception during sampling). What a JavaScript model throws for a numerical
 * reason is an `Error` or a `RangeError` (stochax's own checks use RangeError for bad values: a
 * Cholesky factor of a matrix that is not positive definite, a scale that underflowed to 0), the
 * analogue of Stan's `std::domain_error`. A `TypeError`, `ReferenceError` or `SyntaxError` is a
 * programming error (a misspelt name, a call of something that is not a function, a wrong
 * argument type): no value of the parameters can cause it, and retrying elsewhere would only hide
 * it, so it propagates at once — at initialisation and at any later proposal alike (a branch that
 * only some proposals reach is still a bug). Anything else thrown (a string, a custom class) is a
 * rejection.
 */

/**
 * True for the errors that are never rejections: TypeError, ReferenceError, SyntaxError (by class,
 * or by name for errors from another realm, such as a worker's or a vm context's).
 * @example
 * isProgrammingError(new TypeError('x.foo is not a function'));   // true
 * isProgrammingError(new RangeError('cholesky: …'));              // false
 */
export function isProgrammingError(e: unknown): boolean {
  if (e instanceof TypeError || e instanceof ReferenceError || e instanceof SyntaxError) return true;
  const name = e instanceof Error || (typeof e === 'object' && e !== null) ? (e as { name?: unknown }).name : undefined;
  return name === 'TypeError' || name === 'ReferenceError' || name === 'SyntaxError';
}

/** One kind of rejection, over the whole run (`windowedAdaptiveNuts`' `result.rejections`). */
export interface Rejection {
  /**
   * What went wrong, as Stan prints it after "the current Metropolis proposal is about to be
   * rejected because of the following issue:": the first message of this kind, e.g.
   * "RangeError: cholesky: `a` is not positive definite (its leading 6×6 minor is not positive)",
   * or "the log density is NaN", "the gradient has a non-finite entry".
   */
  readonly message: string;
  /**
   * The kind: an exception's class and message with its numbers replaced by `#` (so the same
   * failure at another point, with other numbers, is the same kind), or `NaN`, `+Infinity`,
   * `-Infinity` (the log density's value), or `gradient` (a non-finite gradient entry).
   */
  readonly kind: string;
  /** Proposals rejected for it, over all chains, warm-up included. */
  readonly count: number;
  /** Of those, the ones during warm-up (its transitions and step-size heuristics). */
  readonly warmupCount: number;
  /** The chains (their indices `c`, as in `chainIndex`) in which it happened, in increasing order. */
  readonly chains: readonly number[];
  /**
   * Where in the model it came from: the node whose log density (or whose distribution's
   * construction) throws or is not finite at the first such point, found by evaluating the
   * pinned model term by term on the tape there (`nodeLogProbs`), e.g. "node `f`", "factor `z`",
   * "log-Jacobian of node `sigma`"; undefined when every term is finite there on the tape.
   */
  readonly node?: string;
  /** The first chain and transition (0-based, warm-up included; −1 for the step-size heuristic before the first) at which it happened. */
  readonly first: { readonly chain: number; readonly transition: number };
  /**
   * Present when the rejected proposals were Gibbs steps on a discrete node (`mcmc/nuts/stan/gibbs.ts`),
   * counted apart from NUTS's of the same kind: the node, and the element (row-major index of its
   * update unit) proposed at the first of them.
   */
  readonly gibbs?: GibbsWhere;
}

/** Which discrete node's Gibbs step a rejected proposal was (see {@link Rejection.gibbs}). */
export interface GibbsWhere {
  readonly node: string;
  readonly element: number;
}

/** Where a rejected proposal was, beyond its continuous point: the discrete values the target read (with Gibbs steps), and the Gibbs step it was. */
export interface RejectionContext {
  readonly discrete?: Float64Array;
  readonly gibbs?: GibbsWhere;
}

/** The log's key of a kind: a Gibbs step's rejections are kept apart from NUTS's, by node. */
function entryKey(kind: string, gibbs: GibbsWhere | undefined): string {
  return gibbs === undefined ? kind : `${kind}\u0000gibbs:${gibbs.node}`;
}

/** Masks the numbers in a message (integers, decimals, exponents), so one failure at two points is one kind. */
function maskNumbers(message: string): string {
  return message.replace(/[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi, '#');
}

/**
 * An error's class and message ("RangeError: …"); a non-Error thrown value as a string.
 * @example
 * errorMessage(new RangeError('no luck'));   // 'RangeError: no luck'
 * errorMessage('oops');                      // 'thrown "oops"'
 */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  try { return `thrown ${typeof e === 'string' ? JSON.stringify(e) : String(e)}`; } catch { return 'thrown an unprintable value'; }
}

/**
 * A failed evaluation's kind and message (see {@link Rejection}).
 * @example
 * classifyFailure(false, undefined, NaN);                    // { kind: 'NaN', message: 'the log density is NaN' }
 * classifyFailure(true, new Error('at 1.5 and 2'), NaN).kind;   // 'Error: at # and #'
 */
export function classifyFailure(threw: boolean, error: unknown, lp: number): { kind: string; message: string } {
  if (threw) { const message = errorMessage(error); return { kind: maskNumbers(message), message }; }
  if (lp !== lp) return { kind: 'NaN', message: 'the log density is NaN' };
  if (lp === Infinity) return { kind: '+Infinity', message: 'the log density is +Infinity' };
  if (lp === -Infinity) return { kind: '-Infinity', message: 'the log density is -Infinity' };
  return { kind: 'gradient', message: 'the gradient of the log density has a non-finite entry' };
}

/** One kind's entry of a {@link RejectionLog}, as plain data. */
export interface RejectionEntry {
  readonly kind: string;
  readonly message: string;
  readonly count: number;
  readonly warmupCount: number;
  readonly chains: readonly number[];
  readonly first: { readonly chain: number; readonly transition: number };
  readonly x: Float64Array;
  readonly discrete?: Float64Array;
  readonly gibbs?: GibbsWhere;
}

interface Entry {
  kind: string;
  message: string;
  count: number;
  warmupCount: number;
  chains: Set<number>;
  first: { chain: number; transition: number };
  /** The first failing point (unconstrained), and the discrete values there (with Gibbs steps), for locating the node. */
  x: Float64Array;
  discrete?: Float64Array;
  gibbs?: GibbsWhere;
}

/**
 * The run's rejections by kind, in order of first appearance.
 * @example
 * const log = new RejectionLog();
 * log.record(0, 12, true, true, new RangeError('bad'), NaN, new Float64Array([3, 4]));
 * log.rejections();   // [{ message: 'RangeError: bad', kind: 'RangeError: bad', count: 1, warmupCount: 1, chains: [0], first: { chain: 0, transition: 12 } }]
 */
export class RejectionLog {
  private readonly entries = new Map<string, Entry>();

  /**
   * Records one rejected proposal of chain `chain` at transition `transition` (warm-up when
   * `warmup`), at the unconstrained point `x` and, with Gibbs steps, the discrete values `at.discrete`
   * (both copied the first time); `at.gibbs` when it was a Gibbs step's proposal.
   */
  record(chain: number, transition: number, warmup: boolean, threw: boolean, error: unknown, lp: number, x: Float64Array, at?: RejectionContext): void {
    const { kind, message } = classifyFailure(threw, error, lp);
    const key = entryKey(kind, at?.gibbs);
    let e = this.entries.get(key);
    if (e === undefined) {
      e = {
        kind, message, count: 0, warmupCount: 0, chains: new Set(), first: { chain, transition }, x: Float64Array.from(x),
        ...(at?.discrete === undefined ? {} : { discrete: Float64Array.from(at.discrete) }), ...(at?.gibbs === undefined ? {} : { gibbs: { ...at.gibbs } }),
      };
      this.entries.set(key, e);
    }
    e.count++;
    if (warmup) e.warmupCount++;
    e.chains.add(chain);
  }

  /** The entries as plain data (to send from a worker thread; {@link RejectionLog.merge} takes them back). */
  exportEntries(): RejectionEntry[] {
    return [...this.entries.values()].map((e) => ({ ...e, chains: [...e.chains] }));
  }

  /**
   * One log from the logs of disjoint sets of chains (worker threads' shares), as if the chains had
   * run in one process: per kind the counts add up and the first rejection is the earliest
   * transition's (ties: the chain that comes first in `chainOrder`, as the engine takes its chains
   * in that order each round), and kinds come in the order of their first rejections.
   */
  static merge(parts: readonly (readonly RejectionEntry[])[], chainOrder: readonly number[]): RejectionLog {
    const pos = (c: number) => chainOrder.indexOf(c);
    const byKind = new Map<string, { e: Entry; rank: number }>();
    parts.forEach((entries) => entries.forEach((r, rank) => {
      const key = entryKey(r.kind, r.gibbs);
      const have = byKind.get(key);
      if (have === undefined) { byKind.set(key, { e: { ...r, chains: new Set(r.chains), x: Float64Array.from(r.x), ...(r.discrete === undefined ? {} : { discrete: Float64Array.from(r.discrete) }) }, rank }); return; }
      const e = have.e;
      e.count += r.count; e.warmupCount += r.warmupCount;
      r.chains.forEach((c) => e.chains.add(c));
      const earlier = r.first.transition < e.first.transition || (r.first.transition === e.first.transition && pos(r.first.chain) < pos(e.first.chain));
      if (earlier) {
        e.first = r.first; e.message = r.message; e.x = Float64Array.from(r.x); have.rank = rank;
        if (r.discrete !== undefined) e.discrete = Float64Array.from(r.discrete);
        if (r.gibbs !== undefined) e.gibbs = r.gibbs;
      }
    }));
    const log = new RejectionLog();
    [...byKind.values()]
      .sort((a, b) => a.e.first.transition - b.e.first.transition || pos(a.e.first.chain) - pos(b.e.first.chain) || a.rank - b.rank)
      .forEach(({ e }) => log.entries.set(entryKey(e.kind, e.gibbs), e));
    return log;
  }

  /**
   * The record: one {@link Rejection} per kind (and per Gibbs node), `locate(x, kind, discrete)`
   * naming the node at each kind's first point (its errors are ignored).
   */
  rejections(locate?: (x: Float64Array, kind: string, discrete?: Float64Array) => string | undefined): Rejection[] {
    return [...this.entries.values()].map((e) => {
      let node: string | undefined;
      try { node = locate?.(e.x, e.kind, e.discrete); } catch { node = undefined; }
      return {
        message: e.message, kind: e.kind, count: e.count, warmupCount: e.warmupCount,
        chains: [...e.chains].sort((a, b) => a - b), ...(node === undefined ? {} : { node }), first: e.first,
        ...(e.gibbs === undefined ? {} : { gibbs: e.gibbs }),
      };
    });
  }
}
