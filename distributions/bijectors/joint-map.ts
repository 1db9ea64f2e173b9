import { brand } from '../../src/brand.js';
import { checkOptions, fail } from '../../src/checks.js';
import { add } from '../../src/tensor/ops/elementwise.js';
import { zeros } from '../../src/tensor/ops/create.js';
import type { TensorLike } from '../../src/tensor/core.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { Bijector, type BijectorOptions } from './bijector.js';

/** The parts of a JointMap: an array (tuple) or a record of bijectors. */
export type BijectorParts = readonly Bijector[] | { readonly [key: string]: Bijector };

/** A structure shaped like the parts `S` with a `V` in each slot (a tuple stays a tuple): what methods return. */
export type PartsOf<S extends BijectorParts, V> = { -readonly [K in keyof S]: V };

/** The same structure, read-only: what methods accept (mutable structures are fine too). */
export type PartsIn<S extends BijectorParts, V> = { readonly [K in keyof S]: V };

export interface JointMapOptions<S extends BijectorParts> extends BijectorOptions {
  /** One bijector per part of the structured value. */
  readonly bijectors: S;
}

/**
 * Part-wise bijection of a structured value (TFP's `tfb.JointMap`): an array or a record of
 * tensors, one bijector per part. `forward` / `inverse` map each part with its own bijector and
 * return the same structure; the log-det-Jacobians are those of the parts summed (the per-part
 * batch shapes broadcast), since the Jacobian is block diagonal.
 *
 * It is not a `Bijector` (whose methods take and return one tensor) but mirrors its API on
 * structures: `forward(x)`, `inverse(y)`, `forwardLogDetJacobian(x, eventNdims?)`,
 * `inverseLogDetJacobian(y, eventNdims?)` (`eventNdims` a structure of ranks, each at least the
 * part's minimum; default the minima), `forwardMinEventNdims` / `inverseMinEventNdims`
 * (structures), `forwardEventShape` / `inverseEventShape` (structures of shapes),
 * `isConstantJacobian`, `copy` and `toString`. This is what a pinned joint distribution's
 * default event-space bijector and `TransformedTransitionKernel` over a structured state use.
 * `validateArgs` is only recorded: each part checks its inputs under its own `validateArgs`.
 *
 * @throws TypeError when `bijectors` is not an array or record of Bijectors, or a structured
 *   argument is missing a part or has an extra one (named, e.g. "`x.scale`" or "`x[1]`").
 * @example
 * const b = new JointMap({ bijectors: { loc: new Identity(), scale: new Exp() } });
 * const y = b.forward({ loc: 1, scale: 0 });             // → { loc: 1, scale: 1 }
 * b.forwardLogDetJacobian({ loc: [1, 2], scale: [0, 3] }); // → Tensor float64 [2]: [0, 3]
 */
export class JointMap<S extends BijectorParts> {
  readonly name: string;
  readonly validateArgs: boolean;
  readonly parameters: Readonly<Record<string, unknown>>;
  /** The part bijectors, in the given structure. */
  readonly bijectors: S;
  private readonly keys: readonly string[];
  private readonly isArray: boolean;

  constructor(options: JointMapOptions<S>) {
    const opts = checkOptions('JointMap', options, ['bijectors', 'name', 'validateArgs']);
    const bs = opts.bijectors as unknown;
    const isArray = Array.isArray(bs);
    if (bs === null || typeof bs !== 'object' || (!isArray && Object.getPrototypeOf(bs) !== Object.prototype && Object.getPrototypeOf(bs) !== null)) {
      fail('type', 'JointMap', 'bijectors', 'must be an array or a record of Bijectors', bs);
    }
    const keys = isArray ? (bs as unknown[]).map((_, i) => String(i)) : Object.keys(bs);
    for (const k of keys) {
      const b = (bs as Record<string, unknown>)[k];
      if (!(b instanceof Bijector)) fail('type', 'JointMap', isArray ? `bijectors[${k}]` : `bijectors.${k}`, 'must be a Bijector', b);
    }
    this.name = opts.name ?? 'JointMap';
    this.validateArgs = opts.validateArgs ?? false;
    this.parameters = Object.freeze({ ...opts });
    this.isArray = isArray;
    this.keys = Object.freeze(keys);
    this.bijectors = (isArray ? Object.freeze([...(bs as Bijector[])]) : Object.freeze({ ...(bs as Record<string, Bijector>) })) as S;
  }

  /** Each part's `forwardMinEventNdims`. */
  get forwardMinEventNdims(): PartsOf<S, number> { return this.build((b) => b.forwardMinEventNdims); }
  /** Each part's `inverseMinEventNdims`. */
  get inverseMinEventNdims(): PartsOf<S, number> { return this.build((b) => b.inverseMinEventNdims); }
  /** True when every part has a constant Jacobian. */
  get isConstantJacobian(): boolean { return this.keys.every((k) => this.part(k).isConstantJacobian); }

  /**
   * y = f(x) part by part.
   * @example
   * new JointMap({ bijectors: [new Exp(), new Identity()] }).forward([0, 2]); // → [Tensor 1, Tensor 2]
   */
  forward(x: PartsIn<S, TensorLike>): PartsOf<S, Tensor> {
    const v = this.values<TensorLike>(`${this.name}.forward`, 'x', x);
    return this.build((b, k) => b.forward(v(k)));
  }

  /** x = f⁻¹(y) part by part. */
  inverse(y: PartsIn<S, TensorLike>): PartsOf<S, Tensor> {
    const v = this.values<TensorLike>(`${this.name}.inverse`, 'y', y);
    return this.build((b, k) => b.inverse(v(k)));
  }

  /** Σ over parts of log|det J| at x, each part summed over its `eventNdims` rightmost dims. */
  forwardLogDetJacobian(x: PartsIn<S, TensorLike>, eventNdims?: PartsIn<S, number>): Tensor {
    const fn = `${this.name}.forwardLogDetJacobian`;
    const v = this.values<TensorLike>(fn, 'x', x), nd = eventNdims === undefined ? undefined : this.values<number>(fn, 'eventNdims', eventNdims);
    return this.total((b, k) => b.forwardLogDetJacobian(v(k), nd?.(k)));
  }

  /** Σ over parts of log|det J_{f⁻¹}| at y. */
  inverseLogDetJacobian(y: PartsIn<S, TensorLike>, eventNdims?: PartsIn<S, number>): Tensor {
    const fn = `${this.name}.inverseLogDetJacobian`;
    const v = this.values<TensorLike>(fn, 'y', y), nd = eventNdims === undefined ? undefined : this.values<number>(fn, 'eventNdims', eventNdims);
    return this.total((b, k) => b.inverseLogDetJacobian(v(k), nd?.(k)));
  }

  /** The event shapes of `forward(x)` for a structure of input event shapes. */
  forwardEventShape(shapes: PartsIn<S, readonly number[]>): PartsOf<S, number[]> {
    const v = this.values<readonly number[]>(`${this.name}.forwardEventShape`, 'shapes', shapes);
    return this.build((b, k) => b.forwardEventShape(v(k)));
  }

  /** The event shapes of `inverse(y)` for a structure of output event shapes. */
  inverseEventShape(shapes: PartsIn<S, readonly number[]>): PartsOf<S, number[]> {
    const v = this.values<readonly number[]>(`${this.name}.inverseEventShape`, 'shapes', shapes);
    return this.build((b, k) => b.inverseEventShape(v(k)));
  }

  /** The same JointMap with some constructor options replaced. */
  copy(overrides: Partial<JointMapOptions<S>> = {}): JointMap<S> {
    return new JointMap<S>({ ...(this.parameters as unknown as JointMapOptions<S>), ...overrides });
  }

  toString(): string {
    return `JointMap ${this.name} (${this.keys.map((k) => `${k}: ${this.part(k).name}`).join(', ')})`;
  }

  private part(k: string): Bijector { return (this.bijectors as Record<string, Bijector>)[k]!; }

  private build<V>(f: (b: Bijector, k: string) => V): PartsOf<S, V> {
    if (this.isArray) return this.keys.map((k) => f(this.part(k), k)) as unknown as PartsOf<S, V>;
    return Object.fromEntries(this.keys.map((k) => [k, f(this.part(k), k)])) as PartsOf<S, V>;
  }

  private total(f: (b: Bijector, k: string) => Tensor): Tensor {
    let t: Tensor | undefined;
    for (const k of this.keys) { const p = f(this.part(k), k); t = t === undefined ? p : add(t, p); }
    return t ?? zeros([]);
  }

  /** Checks that `s` has exactly this map's parts and returns a getter. */
  private values<V>(fn: string, arg: string, s: unknown): (k: string) => V {
    const name = (k: string) => (this.isArray ? `${arg}[${k}]` : `${arg}.${k}`);
    if (s === null || typeof s !== 'object' || Array.isArray(s) !== this.isArray) {
      fail('type', fn, arg, `must be ${this.isArray ? `an array of ${this.keys.length} parts` : `a record with keys ${this.keys.join(', ')}`}`, s);
    }
    const rec = s as Record<string, unknown>;
    if (this.isArray && (s as unknown[]).length !== this.keys.length) fail('type', fn, arg, `must have ${this.keys.length} parts`, s);
    for (const k of this.keys) if (rec[k] === undefined) fail('type', fn, name(k), 'is missing', undefined);
    if (!this.isArray) for (const k of Object.keys(rec)) if (!this.keys.includes(k)) fail('type', fn, name(k), 'is not a part of this JointMap', rec[k]);
    return (k) => rec[k] as V;
  }
}
brand(JointMap, 'bijectors.JointMap');   // recognised across copies of stochax (src/brand.ts)
