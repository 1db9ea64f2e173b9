/**
 * Reader for test/random/fixtures/jax-samplers-c.json: JAX 0.10.2 (CPU) values for the samplers
 * of issue 3 part C in all four modes, written by the script beside the fixture. Each sampler's
 * test runs its cases through `checkJaxCases`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { KeyArray } from '../../src/random/key-array.js';
import * as random from '../../src/random/index.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { withModes } from '../helpers.js';

export interface JaxCase {
  name: string;
  x64: boolean;
  partitionable: boolean;
  seed: number;
  params: unknown[];
  kwargs: { shape: number[]; dtype: string; method?: string; m?: number };
  shape: number[];
  values: (number | string)[];
}

const FIXTURE = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/jax-samplers-c.json', import.meta.url)), 'utf8')) as {
  jax: string; cases: JaxCase[];
};

/** Fixture strings 'inf' / '-inf' / 'nan' back to numbers, recursively. */
export function decode(x: unknown): any {
  if (typeof x === 'string') return x === 'nan' ? NaN : x.startsWith('-') ? -Infinity : Infinity;
  return Array.isArray(x) ? x.map(decode) : x;
}

export function jaxCases(name: string): JaxCase[] {
  return FIXTURE.cases.filter((c) => c.name === name);
}

/**
 * Runs every fixture case of `name` through `run` in the case's mode and compares shapes and
 * values: float64 within 1e-12·max(|want|, 1) (JAX's float64 log1p is itself only good to
 * about 1e-14), float32 within 4 float32 ulps of max(|want|, 1) (results near 0 come out of
 * cancellations in both implementations, so their error is measured on the scale of the terms,
 * not of the result). Returns the number of cases checked.
 */
export function checkJaxCases(name: string, run: (key: KeyArray, c: JaxCase, params: any[]) => Tensor): number {
  const cases = jaxCases(name);
  for (const c of cases) {
    withModes({ x64: c.x64, threefryPartitionable: c.partitionable }, () => {
      const t = run(random.key(c.seed), c, decode(c.params));
      const label = `${name} ${JSON.stringify(c.params)} ${c.kwargs.dtype} x64=${c.x64} partitionable=${c.partitionable}`;
      expect(t.shape, label).toEqual(c.shape);
      const got = Array.from(t.data as ArrayLike<number | bigint>, Number).slice(0, c.values.length);
      const want = decode(c.values) as number[];
      const tol = c.kwargs.dtype === 'float32' ? 4 * 2 ** -23 : 1e-12;
      got.forEach((g, i) => {
        const w = want[i]!;
        if (g === w) return;
        expect(Math.abs(g - w), `${label} [${i}]: got ${g}, want ${w}`).toBeLessThanOrEqual(tol * Math.max(Math.abs(w), 1));
      });
    });
  }
  return cases.length;
}
