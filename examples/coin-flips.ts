/**
 * Coin flips: the Beta–Binomial model two ways.
 *
 * 1. Prior predictive. With p ~ Beta(2, 2) and k | p ~ Binomial(20, p), the number of heads k is
 *    BetaBinomial(20, 2, 2). We draw 20,000 values of k from `BetaBinomial` and compare their
 *    frequencies with its exact pmf (and with the pmf computed here from the formula
 *    C(n, k) B(k + α, n − k + β) / B(α, β)).
 * 2. Posterior. After seeing 14 heads in 20 flips, p | data ~ Beta(2 + 14, 2 + 6) = Beta(16, 8).
 *    NUTS (`windowedAdaptiveNuts`, 4 chains × 1000 draws, seed 0) samples the same posterior
 *    from the joint model, and the posterior predictive for 10 more flips is
 *    BetaBinomial(10, 16, 8).
 *
 * Run: npx tsx examples/coin-flips.ts   (about 2 s)
 *
 * Expected output (fixed seeds, so these numbers):
 *   prior predictive, 20,000 draws of BetaBinomial(20, 2, 2): total variation distance to the exact
 *   pmf 0.011; mean 9.99 (exact 10), sd 4.93 (exact 4.90); the pmf equals the formula to 4e-16.
 *   posterior of p after 14 heads in 20 flips: Beta(16, 8) has mean 0.6667, sd 0.0943, 5% 0.5036,
 *   95% 0.8137; NUTS gives mean 0.6664 (MCSE 0.0022), sd 0.0915, 5% 0.5098, 95% 0.8105, R-hat 1.00,
 *   no divergences. P(at least 7 heads in the next 10 flips): 0.560 from BetaBinomial(10, 16, 8),
 *   0.561 by simulation from the 4000 NUTS draws.
 */
import { fileURLToPath } from 'node:url';
import { Beta, BetaBinomial, Binomial, JointDistributionNamed } from '../distributions/index.js';
import { summary, windowedAdaptiveNuts } from '../mcmc/index.js';
import { lbeta, lgamma, tensor, type Tensor } from '../src/index.js';

export interface CoinFlipsResult {
  /** Prior predictive: the exact pmf P(k), k = 0..20, and the empirical frequencies. */
  readonly pmf: number[];
  readonly frequencies: number[];
  /** Largest |pmf − formula| over k. */
  readonly pmfFormulaError: number;
  /** ½ Σ |frequency − pmf|. */
  readonly totalVariation: number;
  readonly priorPredictiveMean: number;
  readonly priorPredictiveSd: number;
  /** The analytic posterior Beta(16, 8) and NUTS's estimate. */
  readonly analytic: { mean: number; sd: number; q5: number; q95: number };
  readonly nuts: { mean: number; sd: number; q5: number; q95: number; mcseMean: number; rHat: number; essBulk: number; divergences: number };
  /** P(≥ 7 heads in 10 more flips): exact (BetaBinomial) and simulated from the NUTS draws. */
  readonly predictiveExact: number;
  readonly predictiveSimulated: number;
}

const N = 20, HEADS = 14, A = 2, B = 2;
const NEXT = 10, AT_LEAST = 7;

/** The Beta quantile by bisection on the regularized incomplete beta (for the printed reference). */
function betaQuantile(a: number, b: number, q: number): number {
  const cdf = (x: number) => new Beta({ concentration1: a, concentration0: b }).cdf(x).toNumber();
  let lo = 0, hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (cdf(mid) < q) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

export async function main(options: { quiet?: boolean } = {}): Promise<CoinFlipsResult> {
  const print = options.quiet ? () => {} : console.log;

  // 1. Prior predictive: BetaBinomial draws against its exact pmf.
  const prior = new BetaBinomial({ totalCount: N, concentration1: A, concentration0: B });
  const ks = Array.from({ length: N + 1 }, (_, k) => k);
  const pmf = Array.from(prior.prob(ks).data as Float64Array);
  const formula = ks.map((k) => Math.exp(
    lgamma(N + 1).toNumber() - lgamma(k + 1).toNumber() - lgamma(N - k + 1).toNumber() + lbeta(k + A, N - k + B).toNumber() - lbeta(A, B).toNumber()));
  const pmfFormulaError = Math.max(...pmf.map((p, k) => Math.abs(p - formula[k]!)));
  const nPrior = 20_000;
  const draws = prior.sample(nPrior, { seed: 1 }).data as Float64Array;
  const counts = new Array<number>(N + 1).fill(0);
  for (const k of draws) counts[k]!++;
  const frequencies = counts.map((c) => c / nPrior);
  const totalVariation = 0.5 * pmf.reduce((s, p, k) => s + Math.abs(p - frequencies[k]!), 0);
  const m = draws.reduce((s, k) => s + k, 0) / nPrior;
  const sd = Math.sqrt(draws.reduce((s, k) => s + (k - m) ** 2, 0) / (nPrior - 1));

  print(`Prior predictive: ${nPrior} draws of BetaBinomial(${N}, ${A}, ${B}) (heads in ${N} flips, p ~ Beta(${A}, ${B}))`);
  print('   k   exact pmf   frequency');
  for (const k of [0, 5, 10, 15, 20]) print(`  ${String(k).padStart(2)}   ${pmf[k]!.toFixed(4)}      ${frequencies[k]!.toFixed(4)}`);
  print(`  total variation distance ${totalVariation.toFixed(3)}; mean ${m.toFixed(2)} (exact ${prior.mean().toNumber()}), `
    + `sd ${sd.toFixed(2)} (exact ${prior.stddev().toNumber().toFixed(2)}); pmf vs formula: max error ${pmfFormulaError.toExponential(1)}`);

  // 2. Posterior of p after HEADS heads in N flips, by NUTS, against the conjugate Beta posterior.
  const model = new JointDistributionNamed({
    p: new Beta({ concentration1: A, concentration0: B }),
    heads: (p: Tensor) => new Binomial({ totalCount: N, probs: p }),
  }, { name: 'CoinFlips' });
  const { draws: post, trace } = windowedAdaptiveNuts(model, { pins: { heads: tensor(HEADS) }, seed: 0 });
  const s = summary(post, { divergences: trace.diverging });
  const row = s.get('p')!;
  const a = A + HEADS, b = B + N - HEADS;
  const analytic = {
    mean: a / (a + b), sd: Math.sqrt((a * b) / ((a + b) ** 2 * (a + b + 1))),
    q5: betaQuantile(a, b, 0.05), q95: betaQuantile(a, b, 0.95),
  };
  const nuts = { mean: row.mean, sd: row.sd, q5: row.q5, q95: row.q95, mcseMean: row.mcseMean, rHat: row.rHat, essBulk: row.essBulk, divergences: s.divergences ?? 0 };

  print(`\nPosterior of p after ${HEADS} heads in ${N} flips (windowedAdaptiveNuts, 4 chains × 1000 draws, seed 0):`);
  print(s.format());
  print(`  analytic Beta(${a}, ${b}): mean ${analytic.mean.toFixed(4)}, sd ${analytic.sd.toFixed(4)}, 5% ${analytic.q5.toFixed(4)}, 95% ${analytic.q95.toFixed(4)}`);
  print(`  NUTS:              mean ${nuts.mean.toFixed(4)}, sd ${nuts.sd.toFixed(4)}, 5% ${nuts.q5.toFixed(4)}, 95% ${nuts.q95.toFixed(4)} (MCSE of the mean ${nuts.mcseMean.toFixed(4)})`);

  // Posterior predictive for NEXT more flips: exact BetaBinomial vs simulation from the NUTS draws.
  const predictive = new BetaBinomial({ totalCount: NEXT, concentration1: a, concentration0: b });
  const predictiveExact = Array.from({ length: NEXT - AT_LEAST + 1 }, (_, i) => predictive.prob(AT_LEAST + i).toNumber()).reduce((x, y) => x + y, 0);
  const future = new Binomial({ totalCount: NEXT, probs: post.p! }).sample([], { seed: 2 }).data as Float64Array;
  const predictiveSimulated = future.reduce((c, k) => c + (k >= AT_LEAST ? 1 : 0), 0) / future.length;
  print(`  P(at least ${AT_LEAST} heads in the next ${NEXT} flips): BetaBinomial(${NEXT}, ${a}, ${b}) ${predictiveExact.toFixed(3)}, `
    + `simulated from the ${future.length} NUTS draws ${predictiveSimulated.toFixed(3)}`);

  return {
    pmf, frequencies, pmfFormulaError, totalVariation, priorPredictiveMean: m, priorPredictiveSd: sd,
    analytic, nuts, predictiveExact, predictiveSimulated,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
