/** Loads test/fixtures/arviz-loo/arviz-loo.json (made by generate.py beside it) and compares numbers. */
import { expect } from 'vitest';
import { expectClose, TOL } from './fixture.js';
import raw from '../../fixtures/arviz-loo/arviz-loo.json' with { type: 'json' };

type Num = number | string;
export interface LooFixture {
  readonly elpd_loo: Num; readonly se: Num; readonly p_loo: Num; readonly n_samples: number; readonly n_data_points: number;
  readonly warning: boolean; readonly good_k: Num; readonly loo_i: Num[]; readonly pareto_k: Num[];
}
export interface WaicFixture {
  readonly elpd_waic: Num; readonly se: Num; readonly p_waic: Num; readonly n_samples: number; readonly n_data_points: number;
  readonly warning: boolean; readonly waic_i: Num[];
}
export interface Case {
  readonly note: string;
  readonly shape: number[];
  readonly log_lik: Num[];
  readonly posterior: Num[];
  readonly posterior_shape: number[];
  readonly reff: Num;
  readonly psislw: { k: Num[]; log_weights?: Num[][] };
  readonly 'loo_reff_0.7': { elpd_loo: Num; se: Num; p_loo: Num; loo_i: Num[]; pareto_k: Num[] };
  readonly [key: `loo_${string}`]: LooFixture | Case['loo_reff_0.7'];
}
export interface CompareRowFixture {
  readonly name: string; readonly rank: number; readonly elpd: Num; readonly p: Num; readonly elpd_diff: Num;
  readonly weight: Num; readonly se: Num; readonly dse: Num; readonly warning: boolean; readonly scale?: string;
}

export const fixture = raw as unknown as {
  versions: Record<string, string>;
  cases: Record<string, Case & Record<string, unknown>>;
  compare: {
    models: Record<string, { shape: number[]; log_lik: Num[]; posterior: Num[] }>;
    results: { ic: 'loo' | 'waic'; method: 'stacking' | 'pseudo-BMA'; scale: 'log' | 'negative_log' | 'deviance'; rows: CompareRowFixture[]; exact_stacking?: Num[] }[];
    corner: { models: string[]; names: string[]; rows: CompareRowFixture[]; exact_stacking: Num[] };
  };
  hdi: { note: string; x: Num[]; shape: number[]; results: { hdi_prob: number; hdi?: Num[]; error?: string }[] }[];
  hdi_vector: { shape: number[]; x: Num[]; hdi_prob: number; hdi: Num[][] };
  summary: {
    mu: { shape: number[]; draws: Num[] };
    theta: { shape: number[]; draws: Num[] };
    columns: string[];
    columns90: string[];
    rows: ({ label: string } & Record<string, Num>)[];
  };
};

export { expectClose, num, tensorOf } from './fixture.js';

/** Every element of `got` against a flat list. */
export function expectAllClose(got: ArrayLike<number>, want: readonly unknown[], label: string, tol = TOL): void {
  expect(got.length, `${label}: length`).toBe(want.length);
  for (let i = 0; i < want.length; i++) expectClose(Number(got[i]), want[i], `${label}[${i}]`, tol);
}
