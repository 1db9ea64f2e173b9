/**
 * Known answers of TFP on JAX for bijectors (test/fixtures/tfp-jax/bijectors-x64.json, written by
 * bijectors.py beside it): loading the cases of one bijector, and comparing a bijector's forward,
 * inverse and log-det-Jacobians with them within stated tolerances.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Bijector } from '../../../distributions/bijectors/bijector.js';
import { reshape } from '../../../src/tensor/ops/shape.js';
import { tensor, type Tensor } from '../../../src/tensor/tensor.js';
import { values } from './helpers.js';

type Nested = number | string | Nested[];

/** A fixture array: its shape and flat values (the strings "Infinity", "-Infinity", "NaN" decoded). */
export interface Known { readonly shape: number[]; readonly values: number[] }

export interface ForwardPoint { readonly x: Tensor; readonly y: Known; readonly fldj: Known }
export interface InversePoint { readonly y: Tensor; readonly x: Known; readonly ildj: Known }
export interface TfpCase { readonly params: Record<string, unknown>; readonly forward: ForwardPoint[]; readonly inverse: InversePoint[] }

const decode = (v: Nested): number[] => (Array.isArray(v) ? v.flatMap(decode) : [typeof v === 'string' ? Number(v) : v]);
const known = (v: Nested, shape: number[]): Known => ({ shape, values: decode(v) });
const asInput = (v: Nested, shape: number[]): Tensor => reshape(tensor(Float64Array.from(decode(v))), shape);

interface RawPoint { [k: string]: Nested | number[] }
interface RawCase { bijector: string; params: Record<string, unknown>; forward: RawPoint[]; inverse: RawPoint[] }

let all: RawCase[] | undefined;

/** The fixture's cases for one bijector, in file order. */
export function tfpCases(bijector: string): TfpCase[] {
  all ??= (JSON.parse(readFileSync(new URL('../../fixtures/tfp-jax/bijectors-x64.json', import.meta.url), 'utf8')) as { cases: RawCase[] }).cases;
  const cases = all.filter((c) => c.bijector === bijector).map((c) => ({
    params: c.params,
    forward: c.forward.map((p) => ({ x: asInput(p.x as Nested, p.xShape as number[]), y: known(p.y as Nested, p.yShape as number[]), fldj: known(p.fldj as Nested, p.fldjShape as number[]) })),
    inverse: c.inverse.map((p) => ({ y: asInput(p.y as Nested, p.yShape as number[]), x: known(p.x as Nested, p.xShape as number[]), ildj: known(p.ildj as Nested, p.ildjShape as number[]) })),
  }));
  expect(cases.length, `fixture cases for ${bijector}`).toBeGreaterThan(0);
  return cases;
}

/** |a − b| ≤ rtol·|b| + atol element-wise, equal shapes (equal infinities and NaN = NaN pass). */
export function expectKnown(actual: Tensor, expected: Known, tol: { rtol: number; atol?: number }, what: string): void {
  expect(actual.shape, `${what} shape`).toEqual(expected.shape);
  const a = values(actual), atol = tol.atol ?? 0;
  a.forEach((v, i) => {
    const b = expected.values[i]!;
    const ok = v === b || (Number.isNaN(v) && Number.isNaN(b)) || Math.abs(v - b) <= tol.rtol * Math.abs(b) + atol;
    expect(ok, `${what}[${i}]: ${v} vs TFP ${b} (diff ${v - b}, rtol ${tol.rtol}, atol ${atol})`).toBe(true);
  });
}

/** Tolerances of the four comparisons (each `{ rtol, atol? }`). */
export interface TfpTolerances {
  readonly forward: { rtol: number; atol?: number };
  readonly fldj: { rtol: number; atol?: number };
  readonly inverse: { rtol: number; atol?: number };
  readonly ildj: { rtol: number; atol?: number };
}

/** Every point of `c` through `b`: forward, fldj, inverse and ildj (minimal event rank) against TFP's. */
export function expectMatchesTfp(b: Bijector, c: TfpCase, tol: TfpTolerances, what = b.name): void {
  c.forward.forEach((p, i) => {
    expectKnown(b.forward(p.x), p.y, tol.forward, `${what} forward, point ${i}`);
    expectKnown(b.forwardLogDetJacobian(p.x), p.fldj, tol.fldj, `${what} fldj, point ${i}`);
  });
  c.inverse.forEach((p, i) => {
    expectKnown(b.inverse(p.y), p.x, tol.inverse, `${what} inverse, point ${i}`);
    expectKnown(b.inverseLogDetJacobian(p.y), p.ildj, tol.ildj, `${what} ildj, point ${i}`);
  });
}
