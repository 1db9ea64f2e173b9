// looPit against ArviZ 0.23's az.loo_pit on test/fixtures/arviz-loo-pit/arviz-loo-pit.json (made by
// generate.py beside it; the command is in its docstring): r_eff from the posterior, one chain,
// matrix-shaped observations, int64 counts (ArviZ's spline smoothing) and explicit log weights.
import { describe, expect, it } from 'vitest';
import { looPit } from '../../../mcmc/diagnostics/loo-pit.js';
import { Tensor, tensor } from '../../../src/tensor/tensor.js';
import raw from '../../fixtures/arviz-loo-pit/arviz-loo-pit.json' with { type: 'json' };

type Num = number | string;
interface Case {
  readonly draws_shape: number[]; readonly obs_shape: number[]; readonly y: Num[]; readonly y_hat: Num[];
  readonly log_lik?: Num[]; readonly log_weights?: Num[]; readonly posterior_mu?: Num[]; readonly loo_pit: Num[];
}
const cases = (raw as unknown as { cases: Record<string, Case> }).cases;
const num = (x: Num) => (typeof x === 'number' ? x : Number(x));
const f64 = (xs: Num[], shape: number[]) => new Tensor(Float64Array.from(xs, num), shape, 'float64');
const i64 = (xs: Num[], shape: number[]) => new Tensor(BigInt64Array.from(xs, (x) => BigInt(num(x))), shape, 'int64');

describe('looPit: the same values as az.loo_pit', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(name, () => {
      const full = [...c.draws_shape, ...c.obs_shape];
      const int = name === 'integer';
      const y = int ? i64(c.y, c.obs_shape) : f64(c.y, c.obs_shape);
      const yHat = int ? i64(c.y_hat, full) : f64(c.y_hat, full);
      const got = c.log_weights !== undefined
        ? looPit(y, yHat, { logWeights: f64(c.log_weights, full) })
        : looPit(y, yHat, { logLik: { y: f64(c.log_lik!, full) }, posterior: { mu: f64(c.posterior_mu!, c.draws_shape) } });
      expect(got.shape).toEqual(c.obs_shape);
      got.toNumbers().forEach((v, i) => expect(Math.abs(v - num(c.loo_pit[i]!))).toBeLessThan(1e-12));
    });
  }

  it('the fixture has the edges: PIT 0 and 1 at the outliers, values strictly inside elsewhere', () => {
    const v = cases.normal!.loo_pit.map(num);
    expect(v).toContain(0);
    expect(v).toContain(1);
  });

  it('without posterior or reff, r_eff is 1, which differs from ArviZ\'s r_eff on these autocorrelated draws', () => {
    const c = cases.normal!;
    const full = [...c.draws_shape, ...c.obs_shape];
    const a = looPit(f64(c.y, c.obs_shape), f64(c.y_hat, full), { logLik: f64(c.log_lik!, full) }).toNumbers();
    const b = looPit(f64(c.y, c.obs_shape), f64(c.y_hat, full), { logLik: f64(c.log_lik!, full), reff: 1 }).toNumbers();
    expect(a).toEqual(b);
    expect(Math.max(...a.map((v, i) => Math.abs(v - num(c.loo_pit[i]!))))).toBeGreaterThan(1e-6);
  });

  it('bad input: clear errors naming looPit and the argument', () => {
    const yHat = tensor([[[0, 1]], [[1, 2]], [[2, 3]]]);    // [3 draws, 1 chain, 2 obs]
    expect(() => looPit([1, 2], yHat)).toThrow(/looPit.*exactly one of `logLik` and `logWeights`/);
    expect(() => looPit([1, 2, 3], yHat, { logLik: yHat })).toThrow(RangeError);
    expect(() => looPit([1, 2], yHat, { logLik: yHat, logWeights: yHat })).toThrow(/exactly one/);
    expect(() => looPit([1, 2], yHat, { logLik: yHat, reff: 1, posterior: { a: yHat } })).toThrow(/`reff` or `posterior`/);
    expect(() => looPit([1, 2], yHat, { logLik: yHat, reff: -1 })).toThrow(/reff.*positive/);
    expect(() => looPit([1, 2], yHat, { logLik: tensor([[[0, 1, 2]]]) })).toThrow(/logLik/);
    expect(() => looPit([1, 2], yHat, { logLik: yHat, bogus: 1 } as never)).toThrow(/bogus/);
    expect(() => looPit(tensor([1], 'int32'), tensor([[[1]], [[2]]], 'int32'), { logLik: tensor([[[0]], [[0]]]) })).toThrow(/at least 2 observations/);
  });
});
