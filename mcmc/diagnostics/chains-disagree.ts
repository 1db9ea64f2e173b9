/**
 * Which chains disagree with the others beyond their Monte Carlo error: the test behind the
 * `chains-disagree` warning (a chain stuck in a minor mode, or one that never left its start).
 *
 * Each quantity (the log density, every scalar element of the draws) is rank-normalised over all
 * chains together (ArviZ's `z_scale`, as R-hat does), so heavy tails and far modes cannot swamp
 * the test. For chain c, its mean score `m_c` has the Monte Carlo standard error
 * `√(var_c · τ_c / N)`, with `τ_c = N / ess_c` from the split-chain ESS of that chain alone (so a
 * chain that drifts between its halves gets a larger error, not a false alarm), raised to the
 * chains' mean `τ` when below it (one chain's `τ` is a noisy estimate, and an underestimate
 * would make a false alarm). It is compared with the
 * mean of the other chains' means, whose error is `√(Σ_{j≠c} mcse_j²) / (C − 1)`:
 * `z_c = (m_c − m_others) / √(mcse_c² + mcse_others²)`. The chain with the largest `|z_c|` is
 * flagged when it passes the threshold, and the test repeats without it (see {@link flaggedChains}).
 * The threshold is the Bonferroni one `Φ⁻¹(1 − α / (2T))` for T = chains × quantities tests and
 * α = 10⁻⁴: 4.37 for 4 chains and one parameter plus the log density, 4.73 for 4 chains and 10
 * parameters.
 *
 * Measured on healthy 4 × 1000 NUTS runs of a standard normal (1000 seeds in 1-d, 500 in 10-d;
 * warnings.slow.test.ts repeats a part): the largest |z| of the first round is close to its
 * nominal law in 1-d (4.4% of runs past the 5% Bonferroni threshold, 1.1% past the 1%, 0.2%
 * past the 0.1% one), conservative in 10-d (1.8%, 0.4%, 0%), and never passed 3.93 — no false
 * alarm at α = 10⁻⁴ in 1500 runs; the rate is about 10⁻⁴ per run by design.
 */
import { essMeanOf } from './internal/arviz-stats.js';
import { anyNaN, mean, variance, zScale, type Chains } from './internal/chains.js';
import { normalPpf } from './internal/normal-ppf.js';

/** The nominal false-alarm probability of one run (all chains and quantities together). */
export const CHAINS_DISAGREE_ALPHA = 1e-4;

/** Chains need at least this many draws for their own ESS to mean anything. */
const MIN_DRAWS = 20;

/** One chain's verdict on one quantity. */
export interface ChainDeviation {
  /** The quantity: `'lp'` for the log density, else a parameter label (`mu`, `theta[2]`). */
  readonly quantity: string;
  readonly chain: number;
  /** The z-score of the chain's mean rank score against the other chains'. */
  readonly z: number;
  /** The chain's mean of the raw values, and the mean of the other chains' means. */
  readonly chainMean: number;
  readonly othersMean: number;
}

/** The threshold `|z|` must pass with `tests` tests in the run. */
export function chainsDisagreeThreshold(tests: number): number {
  return normalPpf(1 - CHAINS_DISAGREE_ALPHA / (2 * Math.max(tests, 1)));
}

/**
 * The chains that disagree on one quantity (chain-major draws), with their z-scores, found one
 * at a time: the chain with the largest `|z|` against the mean of the other remaining chains is
 * flagged when it passes `threshold` and left out of the next round, so one stray chain does not
 * drag the others' reference away and get them flagged too (of a last pair that disagrees, both
 * are flagged: two chains cannot say which is wrong). Empty when the test does not apply: fewer
 * than 2 chains or {@link MIN_DRAWS} draws, NaN or infinite values, or constant draws.
 */
export function flaggedChains(a: Chains, threshold: number): { chain: number; z: number }[] {
  const { chains: C, draws: N, data } = a;
  if (C < 2 || N < MIN_DRAWS || anyNaN(data)) return [];
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < data.length; i++) { const v = data[i]!; if (v < lo) lo = v; if (v > hi) hi = v; }
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  const z = zScale(a);
  const means = new Float64Array(C), vars = new Float64Array(C), tau = new Float64Array(C), mcse2 = new Float64Array(C);
  let tauMean = 0;
  for (let c = 0; c < C; c++) {
    const row = z.data.subarray(c * N, (c + 1) * N);
    means[c] = mean(row);
    vars[c] = variance(row, 1);
    // A chain whose scores are all equal has no Monte Carlo error of its own.
    tau[c] = vars[c]! > 0 ? N / essMeanOf({ data: row, chains: 1, draws: N }) : 0;
    tauMean += tau[c]! / C;
  }
  // One chain's autocorrelation time, estimated from its own draws, is noisy; an underestimate
  // would shrink its error and raise a false alarm. So no chain's is taken below the chains' mean.
  for (let c = 0; c < C; c++) mcse2[c] = vars[c]! > 0 ? vars[c]! * Math.max(tau[c]!, tauMean) / N : 0;
  const active = Array.from({ length: C }, (_, c) => c);
  const out: { chain: number; z: number }[] = [];
  while (active.length >= 2) {
    const k = active.length;
    let sumMeans = 0, sumMcse2 = 0;
    for (const c of active) { sumMeans += means[c]!; sumMcse2 += mcse2[c]!; }
    const scores = active.map((c) => {
      const others = (sumMeans - means[c]!) / (k - 1);
      const se = Math.sqrt(mcse2[c]! + (sumMcse2 - mcse2[c]!) / (k - 1) ** 2);
      const d = means[c]! - others;
      return se > 0 ? d / se : d === 0 ? 0 : d * Infinity;
    });
    let worst = 0;
    for (let j = 1; j < k; j++) if (Math.abs(scores[j]!) > Math.abs(scores[worst]!)) worst = j;
    if (!(Math.abs(scores[worst]!) > threshold)) break;
    if (k === 2) { out.push(...active.map((c, j) => ({ chain: c, z: scores[j]! }))); break; }
    out.push({ chain: active[worst]!, z: scores[worst]! });
    active.splice(worst, 1);
  }
  return out;
}

/**
 * The deviations past the threshold over `quantities` (name and chain-major draws), worst
 * first. All quantities count towards the number of tests, whether or not the test applies.
 */
export function disagreeingChains(quantities: readonly (readonly [string, Chains])[]): ChainDeviation[] {
  if (quantities.length === 0) return [];
  const threshold = chainsDisagreeThreshold(quantities[0]![1].chains * quantities.length);
  const out: ChainDeviation[] = [];
  for (const [quantity, a] of quantities) {
    const flagged = flaggedChains(a, threshold);
    if (flagged.length === 0) continue;
    const raw = new Float64Array(a.chains);
    for (let c = 0; c < a.chains; c++) raw[c] = mean(a.data.subarray(c * a.draws, (c + 1) * a.draws));
    // The other chains' mean in the message: of the chains not flagged (of the rest, for a last pair).
    const ok = Array.from({ length: a.chains }, (_, c) => c).filter((c) => !flagged.some((f) => f.chain === c));
    for (const { chain, z } of flagged) {
      const ref = ok.length > 0 ? ok : flagged.map((f) => f.chain).filter((c) => c !== chain);
      out.push({ quantity, chain, z, chainMean: raw[chain]!, othersMean: ref.reduce((s, c) => s + raw[c]!, 0) / ref.length });
    }
  }
  return out.sort((x, y) => Math.abs(y.z) - Math.abs(x.z));
}
