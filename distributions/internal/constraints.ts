/**
 * Parameter and support constraints: what `validateArgs` checks, and the bijector that maps ℝ
 * onto the constrained set (TFP's `default_constraining_bijector_fn`).
 */
import { fail } from '../../src/checks.js';
import { broadcastData, broadcastShapes } from '../../src/tensor/broadcast.js';
import { numbers } from '../../src/tensor/core.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import type { Bijector } from '../bijectors/bijector.js';
import { Identity } from '../bijectors/identity.js';
import { Sigmoid } from '../bijectors/sigmoid.js';
import { Softplus } from '../bijectors/softplus.js';

export interface Constraint {
  /** What the values must be, for error messages: "must be positive". */
  readonly what: string;
  /** Throws a RangeError naming `fn` and `arg` when `t` breaks the constraint. */
  check(fn: string, arg: string, t: Tensor): void;
  /** A bijector from ℝ (or ℝⁿ) onto the constrained set, if there is a natural one. */
  readonly bijector?: () => Bijector;
  /** True when the constraint depends on no parameter, so data can be checked against it whatever the other nodes' values. */
  readonly fixed?: boolean;
  /** For an elementwise constraint: whether one value meets it (no allocation, no throw). */
  readonly contains?: (v: number) => boolean;
}

/** A constraint on each element separately. */
export function elementwise(what: string, ok: (v: number) => boolean, bijector?: () => Bijector): Constraint {
  return {
    what,
    bijector,
    fixed: true,
    contains: ok,
    check(fn, arg, t) {
      const v = numbers(t);
      for (let i = 0; i < v.length; i++) if (!ok(v[i]!)) fail('range', fn, t.ndim === 0 ? arg : `${arg}[${i}]`, what, v[i]);
    },
  };
}

/** Values at least a parameter (broadcast against it): `atLeast('loc', this.loc)` for a half-line support. */
export function atLeast(name: string, bound: Tensor): Constraint {
  return {
    what: `must be at least \`${name}\``,
    check(fn, arg, t) {
      const shape = broadcastShapes(fn, [[arg, t.shape], [name, bound.shape]]);
      const v = broadcastData(fn, arg, t, shape) as ArrayLike<number>;
      const b = broadcastData(fn, name, bound, shape) as ArrayLike<number>;
      for (let i = 0; i < v.length; i++) if (!(v[i]! >= b[i]!)) fail('range', fn, t.ndim === 0 ? arg : `${arg}[${i}]`, `must be at least \`${name}\` (${b[i]})`, v[i]);
    },
  };
}

/** float32's machine epsilon, TFP's usual `low` for scale parameters (it also keeps float64 away from 0). */
const EPS = 2 ** -23;

export const real = elementwise('must not be NaN', (v) => !Number.isNaN(v), () => new Identity());
export const finite = elementwise('must be finite', Number.isFinite, () => new Identity());
export const positive = elementwise('must be positive', (v) => v > 0, () => new Softplus({ low: EPS }));
export const nonNegative = elementwise('must be non-negative', (v) => v >= 0, () => new Softplus());
export const unitInterval = elementwise('must be in [0, 1]', (v) => v >= 0 && v <= 1, () => new Sigmoid());
export const nonNegativeInteger = elementwise('must be a non-negative integer', (v) => v >= 0 && Number.isInteger(v));
export const integer = elementwise('must be an integer', Number.isInteger);

/** Rows (last axis) that are probability vectors: non-negative, summing to 1 within `tol`. */
export function simplex(tol = 1e-6): Constraint {
  return {
    what: 'must have non-negative entries summing to 1 along the last axis',
    fixed: true,
    check(fn, arg, t) {
      const v = numbers(t), k = t.shape[t.ndim - 1] ?? 1;
      for (let r = 0; r < v.length; r += k) {
        let s = 0;
        for (let j = 0; j < k; j++) {
          const p = v[r + j]!;
          if (!(p >= 0)) fail('range', fn, `${arg}[${r + j}]`, 'must be non-negative (a probability)', p);
          s += p;
        }
        if (Math.abs(s - 1) > tol) fail('range', fn, arg, `rows must sum to 1 (row ${r / k} sums to ${s})`, s);
      }
    },
  };
}
