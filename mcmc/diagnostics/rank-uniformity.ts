/**
 * Tests that ranks are uniform on {0, …, maxRank}, for simulation-based calibration (Talts,
 * Betancourt, Simpson, Vehtari and Gelman 2018): Pearson's χ² on binned ranks, and the
 * simultaneous ECDF test of Säilynoja, Bürkner and Vehtari (2022, "Graphical test for discrete
 * uniformity and its applications in goodness-of-fit evaluation and multiple sample comparison",
 * Statistics and Computing 32:32).
 */
import { checkNonNegativeInteger, checkOptions, fail } from '../../src/checks.js';
import { uniform } from '../../src/random/uniform.js';
import { sanitizeSeed, type Seed } from '../../src/samplers/seeds.js';
import { igammacScalar } from '../../src/tensor/special/igamma.js';
import { betaincScalar } from '../../src/tensor/special/betainc.js';

const FN = 'rankUniformity';

export interface RankUniformityOptions {
  /**
   * Number of χ² bins (default: the largest divisor of maxRank + 1 in 5…min(20, S/10) for S
   * ranks, so bins are equal with at least 10 expected ranks each; without one, min(20, S/10)
   * bins). Bins need not divide maxRank + 1: each bin's expected count is its share of the rank
   * values.
   */
  readonly bins?: number;
  /** Monte Carlo replicates for the ECDF test's p-value (default 1000; 0 skips the ECDF test). */
  readonly ecdfReplicates?: number;
  /** Seed of the ECDF test's Monte Carlo replicates (default 0: the p-value is a fixed function of the ranks). */
  readonly seed?: Seed;
}

/** The uniformity tests of one parameter's ranks. */
export interface RankUniformity {
  /** The bins of the χ² test. */
  readonly bins: number;
  /** Counts of ranks per bin. */
  readonly counts: readonly number[];
  /** Pearson's χ² statistic of the binned ranks. */
  readonly chiSquare: number;
  /** Its degrees of freedom (bins − 1). */
  readonly df: number;
  /** P(χ²(df) ≥ chiSquare). */
  readonly pValue: number;
  /**
   * The ECDF test's γ: twice the smallest two-sided binomial tail probability of the ranks'
   * ECDF over the evaluation points j/(maxRank + 1), j = 1…maxRank (Säilynoja et al. 2022).
   */
  readonly gamma: number;
  /** P(γ under uniform ranks ≤ gamma), by Monte Carlo (NaN when `ecdfReplicates` is 0). */
  readonly ecdfPValue: number;
}

/**
 * Tests whether `ranks` (integers in 0…maxRank) are draws from the discrete uniform distribution:
 * Pearson's χ² on binned ranks and the simultaneous ECDF test (γ statistic with a Monte Carlo
 * p-value). This is what `sbc` reports per parameter.
 *
 * @throws {TypeError} for ranks that are not integers, an unknown option.
 * @throws {RangeError} for a rank outside 0…maxRank, fewer than 2 bins or more bins than rank values.
 * @example
 * import { rankUniformity } from 'stochax/mcmc';
 * const t = rankUniformity([0, 3, 1, 2, 3, 0, 2, 1], 3, { bins: 4 });
 * t.chiSquare;   // 0: every bin has its expected 2
 * t.pValue;      // 1
 */
export function rankUniformity(ranks: ArrayLike<number>, maxRank: number, options?: RankUniformityOptions): RankUniformity {
  const o = checkOptions(FN, options, ['bins', 'ecdfReplicates', 'seed']);
  const L = checkNonNegativeInteger(FN, 'maxRank', maxRank);
  if (L < 1) fail('range', FN, 'maxRank', 'must be at least 1', maxRank);
  const S = ranks.length;
  if (S < 1) fail('range', FN, 'ranks', 'must have at least one rank', S);
  for (let i = 0; i < S; i++) {
    const r = ranks[i]!;
    if (!Number.isInteger(r)) fail('type', FN, `ranks[${i}]`, 'must be an integer', r);
    if (r < 0 || r > L) fail('range', FN, `ranks[${i}]`, `must be in 0…${L} (maxRank)`, r);
  }
  const K = L + 1;
  const bins = o.bins === undefined ? defaultBins(K, S) : checkNonNegativeInteger(FN, 'bins', o.bins);
  if (bins < 2 || bins > K) fail('range', FN, 'bins', `must be in 2…${K} (maxRank + 1)`, o.bins);
  const reps = checkNonNegativeInteger(FN, 'ecdfReplicates', o.ecdfReplicates ?? 1000);

  // rank r goes to bin ⌊r·bins/K⌋; a bin's expected count is its number of rank values × S/K
  const counts = new Array<number>(bins).fill(0), width = new Array<number>(bins).fill(0);
  for (let r = 0; r < K; r++) width[Math.floor((r * bins) / K)]!++;
  for (let i = 0; i < S; i++) counts[Math.floor((ranks[i]! * bins) / K)]!++;
  let chiSquare = 0;
  for (let b = 0; b < bins; b++) { const e = (width[b]! * S) / K; chiSquare += (counts[b]! - e) ** 2 / e; }
  const df = bins - 1;
  const pValue = igammacScalar(df / 2, chiSquare / 2);

  const gamma = ecdfGamma(ranks, K);
  let ecdfPValue = Number.NaN;
  if (reps > 0) {
    // γ of `reps` samples of S uniform ranks; the p-value counts those at or below the observed γ
    const u = uniform(sanitizeSeed(o.seed ?? 0, { salt: FN }), [reps, S], { dtype: 'float64' }).data as Float64Array;
    const sim = new Int32Array(S);
    let below = 0;
    for (let m = 0; m < reps; m++) {
      for (let i = 0; i < S; i++) sim[i] = Math.min(K - 1, Math.floor(u[m * S + i]! * K));
      if (ecdfGamma(sim, K) <= gamma) below++;
    }
    ecdfPValue = (below + 1) / (reps + 1);
  }
  return { bins, counts, chiSquare, df, pValue, gamma, ecdfPValue };
}

/**
 * Equal bins when K has a divisor in 5…min(20, S/10) (the largest); otherwise min(20, S/10, K)
 * bins of unequal width (at least 2).
 */
function defaultBins(K: number, S: number): number {
  const cap = Math.min(20, Math.floor(S / 10), K);
  for (let b = cap; b >= 5; b--) if (K % b === 0) return b;
  return Math.max(2, cap);
}

/**
 * γ of Säilynoja et al. (2022): with F the ECDF of the S ranks (values 0…K−1) at the points
 * z_j = j/K (P(rank < j) = z_j), γ = 2·min_j min(P(B ≤ S·F_j), P(B ≥ S·F_j)) for B ~ Binomial(S, z_j).
 */
function ecdfGamma(ranks: ArrayLike<number>, K: number): number {
  const S = ranks.length;
  const hist = new Int32Array(K);
  for (let i = 0; i < S; i++) hist[ranks[i]!]!++;
  let cum = 0, g = 1;
  for (let j = 1; j < K; j++) {
    cum += hist[j - 1]!;
    const z = j / K;
    // P(B ≤ c) = I_{1−z}(S − c, c + 1); P(B ≥ c) = I_z(c, S − c + 1)
    const lower = cum >= S ? 1 : betaincScalar(S - cum, cum + 1, 1 - z), upper = cum === 0 ? 1 : betaincScalar(cum, S - cum + 1, z);
    g = Math.min(g, lower, upper);
  }
  return Math.min(1, 2 * g);
}
