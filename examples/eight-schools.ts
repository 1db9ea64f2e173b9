/**
 * Eight schools (Rubin 1981; Gelman et al., Bayesian Data Analysis, §5.5): the effect of SAT
 * coaching in eight schools, y_j ± σ_j, with a hierarchical normal model
 *
 *   μ ~ Normal(0, 5),  τ ~ HalfCauchy(0, 5),  θ_j ~ Normal(μ, τ),  y_j ~ Normal(θ_j, σ_j).
 *
 * Written two ways and sampled with `windowedAdaptiveNuts` at its defaults (4 chains, 1000 warm-up
 * steps, 1000 draws, seed 0):
 * - centered (θ sampled directly): the posterior is a funnel in (τ, θ) and NUTS reports
 *   divergent transitions; τ mixes worst;
 * - non-centered (θ = μ + τ·θ̃ with θ̃ ~ Normal(0, 1)): the same posterior without the funnel,
 *   no divergences, R-hat ≈ 1 and the reference means (posteriordb's eight_schools_noncentered:
 *   μ ≈ 4.4, τ ≈ 3.6).
 *
 * Both are written for one draw (μ and τ are scalars): `windowedAdaptiveNuts` runs each chain on
 * its own through the compiled log density.
 *
 * Run: npx tsx examples/eight-schools.ts   (~3 s)
 *
 * Expected output (fixed seed, so these numbers): the two `summary(...).format()` tables, then
 *   centered:     divergences 87  mu 4.3, tau 3.9, ess_bulk(tau) 122, max R-hat 1.02
 *   non-centered: divergences 0   mu 4.5, tau 3.6, ess_bulk(tau) 2690, max R-hat 1.00
 */
import { fileURLToPath } from 'node:url';
import { HalfCauchy, Independent, JointDistributionNamed, Normal, Sample, deterministic } from '../distributions/index.js';
import { summary, windowedAdaptiveNuts, type Summary } from '../mcmc/index.js';
import { add, mul, tensor, type Tensor } from '../src/index.js';

/** The observed effects and their standard errors (Rubin 1981). */
export const y = tensor([28, 8, -3, 7, -1, 1, 18, 12]);
export const sigma = tensor([15, 10, 16, 11, 9, 11, 10, 18]);

export const centered = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 5 }),
  tau: new HalfCauchy({ loc: 0, scale: 5 }),
  theta: (mu: Tensor, tau: Tensor) => new Sample({ distribution: new Normal({ loc: mu, scale: tau }), sampleShape: 8 }),
  y: (theta: Tensor) => new Independent({ distribution: new Normal({ loc: theta, scale: sigma }), reinterpretedBatchNdims: 1 }),
}, { name: 'EightSchoolsCentered' });

/**
 * The non-centered form. The school effects θ = μ + τ·θ̃ are a derived value (`deterministic`,
 * PyMC's `pm.Deterministic`): recorded with the draws (`windowedAdaptiveNuts(...).deterministics.theta`,
 * the CLI's posterior and report) but not sampled, so the draws and the log density are those of
 * the model with `add(mu, mul(tau, thetaTilde))` written inside `y`.
 */
export const nonCentered = new JointDistributionNamed({
  mu: new Normal({ loc: 0, scale: 5 }),
  tau: new HalfCauchy({ loc: 0, scale: 5 }),
  thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 8 }),
  theta: deterministic((mu: Tensor, tau: Tensor, thetaTilde: Tensor) => add(mu, mul(tau, thetaTilde))),
  y: (theta: Tensor) => new Independent({
    distribution: new Normal({ loc: theta, scale: sigma }),
    reinterpretedBatchNdims: 1,
  }),
}, { name: 'EightSchoolsNonCentered' });

/**
 * The model-module exports for `stochax sample examples/eight-schools.ts` (`npm run demo`): the
 * non-centered form with the observed scores pinned; its draws.json holds the derived θ in the
 * posterior, and the log-likelihood, replicated and observed scores by school.
 */
export const model = nonCentered;
export const pins = { y };
/** ArviZ's dims and coords for draws.json (`stochax sample` reads these exports): the schools of Rubin (1981). */
export const dims = { theta: ['school'], thetaTilde: ['school'], y: ['school'] };
export const coords = { school: ['Choate', 'Deerfield', 'Phillips Andover', 'Phillips Exeter', 'Hotchkiss', 'Lawrenceville', "St. Paul's", 'Mt. Hermon'] };

export interface EightSchoolsFit {
  readonly summary: Summary;
  readonly divergences: number;
  readonly mu: number;
  readonly tau: number;
  readonly maxRHat: number;
  readonly tauEssBulk: number;
}

export interface EightSchoolsResult {
  readonly centered: EightSchoolsFit;
  readonly nonCentered: EightSchoolsFit;
}

function fit(model: JointDistributionNamed): EightSchoolsFit {
  const { draws, trace } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
  const s = summary(draws, { divergences: trace.diverging });
  return {
    summary: s,
    divergences: s.divergences ?? 0,
    mu: s.get('mu')!.mean,
    tau: s.get('tau')!.mean,
    maxRHat: Math.max(...s.rows.map((r) => r.rHat)),
    tauEssBulk: s.get('tau')!.essBulk,
  };
}

export async function main(options: { quiet?: boolean } = {}): Promise<EightSchoolsResult> {
  const print = options.quiet ? () => {} : console.log;
  const result = { centered: fit(centered), nonCentered: fit(nonCentered) };
  for (const [name, f] of [['Centered', result.centered], ['Non-centered', result.nonCentered]] as const) {
    print(`${name} (windowedAdaptiveNuts, 4 chains × 1000 draws, seed 0):`);
    print(f.summary.format());
    print('');
  }
  for (const [name, f] of [['centered:    ', result.centered], ['non-centered:', result.nonCentered]] as const) {
    print(`${name} divergences ${String(f.divergences).padEnd(3)} mu ${f.mu.toFixed(1)}, tau ${f.tau.toFixed(1)}, `
      + `ess_bulk(tau) ${f.tauEssBulk.toFixed(0)}, max R-hat ${f.maxRHat.toFixed(2)}`);
  }
  print('The funnel of the centered form makes NUTS diverge; the non-centered form samples the same posterior cleanly.');
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
