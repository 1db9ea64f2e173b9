// Implicit reparameterization gradients of Gamma and Beta draws (reference/tfp.md §3.2):
// - per draw, ∂x/∂α against central finite differences of the quantile at the draw's fixed
//   u = P(α, βx): x(α) = P⁻¹(α, u)/β (distributions/internal/igammainv.ts), h = 1e−5·α,
//   relative tolerance 1e−6 (the differences agree to ~1e−8); ∂x/∂rate = −x/rate and
//   ∂x/∂logRate = −x exactly; Beta through its two gamma draws, each at its own fixed u;
// - Monte Carlo: the mean of the per-draw gradients of x and log x over N = 20000 draws
//   (fixed seeds) against the analytic derivatives of E[x] and E[log x] (Gamma: α/β and
//   ψ(α) − log β; Beta: α/(α+β) and ψ(α) − ψ(α+β)), within 4 standard errors estimated from
//   the same per-draw gradients (false-failure rate ≈ 6e−5 per comparison under a normal
//   approximation; the seeds are fixed, so the outcome is deterministic);
// - gradients summed over sample dims and un-broadcast to the parameter shapes; draws unchanged
//   by tracking (all four modes); finite gradients where the density underflows.
import { describe, expect, it } from 'vitest';
import { Beta } from '../../distributions/beta.js';
import { Gamma, gammaLogDrawDa } from '../../distributions/gamma.js';
import { igammainv } from '../../distributions/internal/igammainv.js';
import { randomLogGamma } from '../../distributions/internal/tfp-random-gamma.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { sanitizeSeed, splitSeed } from '../../src/samplers/seeds.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { log } from '../../src/tensor/ops/elementwise.js';
import { sum } from '../../src/tensor/ops/reduce.js';
import { digamma, gammaPowerLog, trigamma } from '../../src/tensor/special/gamma.js';
import { igammaScalar } from '../../src/tensor/special/igamma.js';
import { tensor, Tensor } from '../../src/tensor/tensor.js';
import { ALL_MODES, withModes } from '../helpers.js';

type Make = (a: Tensor, b: Tensor) => Gamma | Beta;

/** One draw per batch member (parameters of shape [m]) and the per-draw gradients of Σ f(x) with respect to both parameters. */
function perDraw(make: Make, a: Tensor, b: Tensor, seed: number, f: (x: Tensor) => Tensor = (x) => x): { x: Float64Array; da: Float64Array; db: Float64Array } {
  let draws: Tensor | undefined;
  const [, grads] = valueAndGrad((p: Tensor, q: Tensor) => { draws = make(p, q).sample(1, { seed }); return sum(f(draws)); }, [0, 1])(a, b);
  const [da, db] = (grads as Tensor[]).map((t) => t.data as Float64Array);
  return { x: draws!.data as Float64Array, da: da!, db: db! };
}

const fill = (m: number, v: number) => tensor(new Array<number>(m).fill(v));
const rel = (got: number, want: number) => Math.abs(got - want) / Math.max(Math.abs(want), 1e-300);

/** |mean − truth| < 4 standard errors of the per-draw values. */
function expectMc(label: string, values: Float64Array, truth: number): void {
  const n = values.length;
  let m = 0, v = 0;
  for (const x of values) m += x;
  m /= n;
  for (const x of values) v += (x - m) ** 2;
  const se = Math.sqrt(v / (n - 1) / n);
  expect(Math.abs(m - truth), `${label}: MC ${m} vs ${truth} (SE ${se})`).toBeLessThan(4 * se);
}

describe('Gamma implicit reparameterization gradients', () => {
  it('per draw: ∂x/∂α matches finite differences of the quantile at fixed u; ∂x/∂rate = −x/rate, ∂x/∂logRate = −x', () => {
    const m = 40, beta = 1.7;
    for (const alpha of [0.1, 0.7, 1, 3.5, 50]) {
      const byRate = perDraw((a, b) => new Gamma({ concentration: a, rate: b }), fill(m, alpha), fill(m, beta), 3);
      const byLog = perDraw((a, b) => new Gamma({ concentration: a, logRate: b }), fill(m, alpha), fill(m, Math.log(beta)), 3);
      const h = 1e-5 * alpha;
      for (let k = 0; k < m; k++) {
        const x = byRate.x[k]!;
        expect(x).toBeGreaterThan(0);
        const u = igammaScalar(alpha, beta * x);
        const fd = (igammainv(alpha + h, u) - igammainv(alpha - h, u)) / (2 * h * beta);
        expect(rel(byRate.da[k]!, fd), `α = ${alpha}, x = ${x}: ${byRate.da[k]} vs FD ${fd}`).toBeLessThan(1e-6);
        expect(byRate.db[k]).toBe(-x / beta);
        // The logRate form draws the same values (up to exp/log rounding of the rate).
        expect(rel(byLog.x[k]!, x)).toBeLessThan(1e-14);
        expect(rel(byLog.da[k]!, byRate.da[k]!)).toBeLessThan(1e-12);
        expect(byLog.db[k]).toBe(-byLog.x[k]!);
      }
    }
  });

  it('Monte Carlo: ∂E[x] and ∂E[log x] by rate and logRate (N = 20000, within 4 SE)', () => {
    const n = 20000;
    for (const [alpha, beta] of [[0.3, 2], [2.5, 1.7], [50, 0.5]] as const) {
      const make: Make = (a, b) => new Gamma({ concentration: a, rate: b });
      const lin = perDraw(make, fill(n, alpha), fill(n, beta), 11);
      expectMc(`∂E[x]/∂α (α=${alpha})`, lin.da, 1 / beta);
      expectMc(`∂E[x]/∂β (α=${alpha})`, lin.db, -alpha / beta ** 2);
      const lg = perDraw(make, fill(n, alpha), fill(n, beta), 12, log);
      expectMc(`∂E[log x]/∂α (α=${alpha})`, lg.da, trigamma(alpha));
      for (const d of lg.db) expect(rel(d, -1 / beta)).toBeLessThan(1e-12);   // ∂log x/∂β = −1/β per draw
      const byLog = perDraw((a, b) => new Gamma({ concentration: a, logRate: b }), fill(n, alpha), fill(n, Math.log(beta)), 13);
      expectMc(`∂E[x]/∂logβ (α=${alpha})`, byLog.db, -alpha / beta);
      expectMc(`∂E[x]/∂α, logRate form (α=${alpha})`, byLog.da, 1 / beta);
    }
    // The mean over draws of a scalar-parameter Gamma (the sample dim summed in the node).
    const [, g] = valueAndGrad((a: Tensor, b: Tensor) => sum(log(new Gamma({ concentration: a, rate: b }).sample(n, { seed: 5 }))), [0, 1])(tensor(4), tensor(3));
    const [ga, gb] = (g as Tensor[]).map((t) => (t.item() as number) / n);
    expect(Math.abs(ga! - trigamma(4))).toBeLessThan(0.01);   // sd of ∂log x/∂α at α = 4 is ≈ 0.13, so SE ≈ 1e−3
    expect(rel(gb!, -1 / 3)).toBeLessThan(1e-12);
  });

  it('sums over sample dims and un-broadcasts to the parameter shapes', () => {
    const conc = [0.4, 2, 9], rate = [[0.5], [3]];
    const f = (a: Tensor, b: Tensor) => sum(new Gamma({ concentration: a, rate: b }).sample([4, 5], { seed: 9 }));
    const [, small] = valueAndGrad(f, [0, 1])(tensor(conc), tensor(rate));
    // The same draws with both parameters given at the full batch shape [2, 3].
    const fullA = tensor([conc, conc]), fullB = tensor(rate.map((r) => [r[0]!, r[0]!, r[0]!]));
    const [, full] = valueAndGrad(f, [0, 1])(fullA, fullB);
    const [sa, sb] = small as Tensor[], [fa, fb] = full as Tensor[];
    expect(sa!.shape).toEqual([3]);
    expect(sb!.shape).toEqual([2, 1]);
    const fad = fa!.data as Float64Array, fbd = fb!.data as Float64Array;
    conc.forEach((_, j) => expect(rel(sa!.data[j] as number, fad[j]! + fad[3 + j]!)).toBeLessThan(1e-12));
    rate.forEach((_, i) => expect(rel(sb!.data[i] as number, fbd[3 * i]! + fbd[3 * i + 1]! + fbd[3 * i + 2]!)).toBeLessThan(1e-12));
  });

  it('draws are the same with and without tracked parameters (all four modes)', () => {
    for (const modes of ALL_MODES) {
      withModes(modes, () => {
        const dtype = modes.x64 ? 'float64' : 'float32';
        const a = tensor([0.2, 1.5, 30], dtype), b = tensor([2, 0.7, 1], dtype);
        const plain = new Gamma({ concentration: a, rate: b }).sample(50, { seed: 4 });
        let traced: Tensor | undefined;
        valueAndGrad((p: Tensor, q: Tensor) => { traced = new Gamma({ concentration: p, rate: q }).sample(50, { seed: 4 }); return sum(traced); }, [0, 1])(a, b);
        expect(traced!.dtype).toBe(plain.dtype);
        expect(Array.from(traced!.data as Float64Array)).toEqual(Array.from(plain.data as Float64Array));
        const pb = new Beta({ concentration1: a, concentration0: b }).sample(50, { seed: 4 });
        let tb: Tensor | undefined;
        valueAndGrad((p: Tensor, q: Tensor) => { tb = new Beta({ concentration1: p, concentration0: q }).sample(50, { seed: 4 }); return sum(tb); }, [0, 1])(a, b);
        expect(Array.from(tb!.data as Float64Array)).toEqual(Array.from(pb.data as Float64Array));
      });
    }
  });

  it('underflowing densities: finite gradients, zero for draws that underflow to 0, the tail forms continue the main one', () => {
    // α = 0.002: about e^(−745α) ≈ 22% of draws underflow to exactly 0 (log x < −745); their ∂x/∂α is 0.
    const d = perDraw((a, b) => new Gamma({ concentration: a, rate: b }), fill(2000, 0.002), fill(2000, 1), 21);
    let zeros = 0;
    for (let k = 0; k < d.x.length; k++) {
      expect(Number.isFinite(d.da[k]!)).toBe(true);
      if (d.x[k] === 0) { zeros++; expect(d.da[k]).toBe(0); }
    }
    expect(zeros).toBeGreaterThan(300);
    // Below the smallest density the lower series takes over: for z → 0, (∂z/∂α)/z → −(log z − ψ(α+1))/α.
    for (const a of [0.005, 1, 3]) {
      for (const logZ of [-650, -689, -691, -800, -5000]) {
        expect(rel(gammaLogDrawDa(a, logZ), -(logZ - digamma(a + 1)) / a)).toBeLessThan(1e-12);
      }
    }
    // Across the upper switch (z·p(z) < e^−690) the continued fraction continues the main form:
    // second differences on a grid through the switch stay at the smooth function's size.
    for (const a of [1, 5, 40]) {
      let zSwitch = a + 1;
      while (gammaPowerLog(a, zSwitch) > -690) zSwitch += 0.25;
      const zs = Array.from({ length: 401 }, (_, i) => zSwitch - 100 + 0.5 * i), f = zs.map((z) => gammaLogDrawDa(a, Math.log(z)));
      for (let i = 1; i + 1 < f.length; i++) {
        const second = Math.abs(f[i + 1]! - 2 * f[i]! + f[i - 1]!), scale = Math.abs(f[i]!) * (0.5 / zs[i]!) ** 2;
        expect(second, `α = ${a}, z = ${zs[i]}`).toBeLessThan(10 * scale + 1e-15);
      }
      expect(f.every((v) => v > 0 && Number.isFinite(v))).toBe(true);
    }
  });
});

describe('Beta implicit reparameterization gradients (through its two gamma draws)', () => {
  it('per draw: matches finite differences of both gammas’ quantiles at their fixed u', () => {
    const m = 40;
    for (const [alpha, beta] of [[0.1, 0.5], [2, 3], [50, 0.7]] as const) {
      const d = perDraw((a, b) => new Beta({ concentration1: a, concentration0: b }), fill(m, alpha), fill(m, beta), 8);
      // The gamma draws behind them: Beta's seed structure ([s1, s2] = splitSeed(seed, salt 'beta')).
      const [s1, s2] = splitSeed(sanitizeSeed(8), { salt: 'beta' }) as [KeyArray, KeyArray];
      const g1 = randomLogGamma([1, m], new Float64Array(m).fill(alpha), null, s1, 'float64');
      const g2 = randomLogGamma([1, m], new Float64Array(m).fill(beta), null, s2, 'float64');
      for (let k = 0; k < m; k++) {
        const z1 = Math.exp(g1[k]!), z2 = Math.exp(g2[k]!);
        expect(rel(d.x[k]!, 1 / (1 + Math.exp(g2[k]! - g1[k]!)))).toBeLessThan(1e-14);
        const u1 = igammaScalar(alpha, z1), u2 = igammaScalar(beta, z2);
        const h1 = 1e-5 * alpha, h2 = 1e-5 * beta;
        const xOf = (a: number, b: number) => { const p = igammainv(a, u1), q = igammainv(b, u2); return p / (p + q); };
        const fd1 = (xOf(alpha + h1, beta) - xOf(alpha - h1, beta)) / (2 * h1);
        const fd2 = (xOf(alpha, beta + h2) - xOf(alpha, beta - h2)) / (2 * h2);
        if (z1 > 0 && z2 > 0) {
          expect(rel(d.da[k]!, fd1), `α = ${alpha}, β = ${beta}: ${d.da[k]} vs ${fd1}`).toBeLessThan(1e-5);
          expect(rel(d.db[k]!, fd2), `α = ${alpha}, β = ${beta}: ${d.db[k]} vs ${fd2}`).toBeLessThan(1e-5);
        }
      }
    }
  });

  it('Monte Carlo: ∂E[x] and ∂E[log x] (N = 20000, within 4 SE)', () => {
    const n = 20000, make: Make = (a, b) => new Beta({ concentration1: a, concentration0: b });
    for (const [alpha, beta] of [[0.4, 0.8], [2, 5], [30, 10]] as const) {
      const lin = perDraw(make, fill(n, alpha), fill(n, beta), 31);
      expectMc(`∂E[x]/∂α (${alpha}, ${beta})`, lin.da, beta / (alpha + beta) ** 2);
      expectMc(`∂E[x]/∂β (${alpha}, ${beta})`, lin.db, -alpha / (alpha + beta) ** 2);
      const lg = perDraw(make, fill(n, alpha), fill(n, beta), 32, log);
      expectMc(`∂E[log x]/∂α (${alpha}, ${beta})`, lg.da, trigamma(alpha) - trigamma(alpha + beta));
      expectMc(`∂E[log x]/∂β (${alpha}, ${beta})`, lg.db, -trigamma(alpha + beta));
    }
  });
});
