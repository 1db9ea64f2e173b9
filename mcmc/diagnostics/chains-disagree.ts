/**
 * Which chains disagree with the others beyond their Monte Carlo error: the test behind the
 * `chains-disagree` warning (a chain stuck in a minor mode, or one that never left its start).
 *
 * Each quantity (the log density, every scalar element of the draws) is rank-normalised over all
 * chains together (ArviZ's `z_scale`, as R-hat does), so heavy tails and far modes cannot swamp
 * the test. For chain c, its mean score `m_c` has the Monte Carlo standard error
 * `√(var_c · τ_c / N)`, with `τ_c = N / ess_c` from the split-chain ESS of that chain alone (so a
 * chain that drifts between its halves gets a larger error, not a false alarm), raised to the
 * chains' median `τ` when below it (one chain's `τ` is a noisy estimate, and an underestimate
 * would make a false alarm). It is compared with the mean of the other chains' means, whose
 * error is `√(Σ_{j≠c} mcse_j²) / (C − 1)`: `z_c = (m_c − m_others) / √(mcse_c² + mcse_others²)`.
 * The chain with the largest `|z_c|` on any quantity is flagged when it passes the threshold,
 * and the test repeats without it (see {@link flaggedChains}). The threshold is the Bonferroni one `Φ⁻¹(1 − α / (2T))` for T = chains × quantities tests and
 * α = 10⁻⁴: 4.37 for 4 chains and one parameter plus the log density, 4.73 for 4 chains and 10
 * parameters.
 *
 * Measured on healthy 4 × 1000 NUTS runs (`windowedAdaptiveNuts`' defaults) of a standard
 * normal, seeds 1000–1999 in 1-d and 1000–1499 in 10-d (warnings.slow.test.ts repeats 400 runs on
 * other seeds): the largest |z| of the first round follows its nominal law closely in 1-d (4.5% of
 * runs past the 5% Bonferroni threshold, 1.1% past the 1%, 0.2% past the 0.1% one) and is
 * conservative in 10-d (2.0%, 0.4%, 0%); it never passed 3.98, so no false alarm at α = 10⁻⁴ in
 * 1500 runs: the rate is about 10⁻⁴ per run by design.
 *
 * A second rule catches what the z-test can miss, a stuck chain that also drifts (its own error
 * then swamps z): with 3 or more chains, a chain whose log density is separated from the others'
 * ({@link separatedChains}) is named first and left out of the z-test's chains.
 *
 * Power, measured on x ~ N(5, 5), y ~ N(x², 1) (modes at ±√y, the negative one a minor mode),
 * 4 × 1000 runs with chain 3 started in the minor mode, 100 seeds: with y = 100 (a barrier of
 * ~5000 nats) chain 3 stayed there every time and was named every time; with y = 4 (a barrier
 * of ~8 nats, chains hop between the modes) 68 runs left some chain in the minor mode for all its
 * draws, and 61 named every such chain. In 6 of the other 7 most chains sat in the minor mode
 * and the warning named the minority; in 1 the other chains hopped between the modes (large
 * errors) and only R-hat and ESS warned. Of the 32 runs with no chain stuck for good, 5 named a
 * chain that spent much more of its draws in one mode than the others.
 */
import { essMeanOf } from './internal/arviz-stats.js';
import { anyNaN, mean, variance, zScale, type Chains } from './internal/chains.js';
import { normalPpf } from './internal/normal-ppf.js';
import { median, numpyQuantile, sorted } from './internal/quantile.js';

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
  /**
   * True when the chain was named by the separation rule rather than by `z`: 95% of its log
   * densities lie below 95% of the other chains' (see {@link disagreeingChains}).
   */
  readonly separated?: boolean;
}

/** The threshold `|z|` must pass with `tests` tests in the run. */
export function chainsDisagreeThreshold(tests: number): number {
  return normalPpf(1 - CHAINS_DISAGREE_ALPHA / (2 * Math.max(tests, 1)));
}

/** One quantity's mean rank score per chain and its squared Monte Carlo error. */
interface ChainScores {
  readonly means: Float64Array;
  readonly mcse2: Float64Array;
}

/**
 * The per-chain scores of one quantity (chain-major draws), or undefined when the test does not
 * apply: fewer than 2 chains or {@link MIN_DRAWS} draws, NaN or infinite values, or constant draws.
 */
function chainScores(a: Chains): ChainScores | undefined {
  const { chains: C, draws: N, data } = a;
  if (C < 2 || N < MIN_DRAWS || anyNaN(data)) return undefined;
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < data.length; i++) { const v = data[i]!; if (v < lo) lo = v; if (v > hi) hi = v; }
  if (!(hi > lo) || !Number.isFinite(lo) || !Number.isFinite(hi)) return undefined;
  const z = zScale(a);
  const means = new Float64Array(C), vars = new Float64Array(C), tau = new Float64Array(C), mcse2 = new Float64Array(C);
  for (let c = 0; c < C; c++) {
    const row = z.data.subarray(c * N, (c + 1) * N);
    means[c] = mean(row);
    vars[c] = variance(row, 1);
    // A chain whose scores are all equal has no Monte Carlo error of its own.
    tau[c] = vars[c]! > 0 ? N / essMeanOf({ data: row, chains: 1, draws: N }) : 0;
  }
  // One chain's autocorrelation time, estimated from its own draws, is noisy; an underestimate
  // would shrink its error and raise a false alarm. So no chain's is taken below the chains'
  // median (not the mean: one chain hopping between modes has a huge τ, and would hide the others).
  const tauMedian = median(sorted(tau));
  for (let c = 0; c < C; c++) mcse2[c] = vars[c]! > 0 ? vars[c]! * Math.max(tau[c]!, tauMedian) / N : 0;
  return { means, mcse2 };
}

/** The z-score of each chain of `active` against the mean of the other chains of `active`. */
function zAgainstOthers(s: ChainScores, active: readonly number[]): number[] {
  const k = active.length;
  let sumMeans = 0, sumMcse2 = 0;
  for (const c of active) { sumMeans += s.means[c]!; sumMcse2 += s.mcse2[c]!; }
  return active.map((c) => {
    const others = (sumMeans - s.means[c]!) / (k - 1);
    const se = Math.sqrt(s.mcse2[c]! + (sumMcse2 - s.mcse2[c]!) / (k - 1) ** 2);
    const d = s.means[c]! - others;
    return se > 0 ? d / se : d === 0 ? 0 : d * Infinity;
  });
}

/** A flagged chain: on which quantity (an index), with which z-score. */
export interface FlaggedChain {
  readonly chain: number;
  readonly quantity: number;
  readonly z: number;
}

/**
 * The chains that disagree with the others, found one at a time over all `quantities` together
 * (each chain-major draws of the same chains): the chain with the largest `|z|` on any quantity,
 * against the mean of the other remaining chains, is flagged when it passes `threshold` and left
 * out of the next round, so one stray chain does not drag the others' reference away and get
 * them flagged too. Of a last pair that disagrees, both are flagged: two chains cannot say which
 * is wrong. Each flagged chain is listed once per quantity on which it passed the threshold in
 * its round, worst first; the first entry is the first round's largest `|z|` (with threshold 0,
 * the statistic whose law the false-alarm rate is about).
 */
export function flaggedChains(quantities: readonly Chains[], threshold: number, excluded: readonly number[] = []): FlaggedChain[] {
  const scores = quantities.map(chainScores);
  const C = quantities[0]?.chains ?? 0;
  const active = Array.from({ length: C }, (_, c) => c).filter((c) => !excluded.includes(c));
  const out: FlaggedChain[] = [];
  while (active.length >= 2) {
    const zs = scores.map((s) => (s === undefined ? undefined : zAgainstOthers(s, active)));
    let best = { j: -1, q: -1, z: 0 };
    zs.forEach((z, q) => z?.forEach((v, j) => { if (Math.abs(v) > Math.abs(best.z) || best.j < 0) best = { j, q, z: v }; }));
    if (best.j < 0 || !(Math.abs(best.z) > threshold)) break;
    const flag = (j: number): void => {
      const mine: FlaggedChain[] = [];
      zs.forEach((z, q) => { if (z !== undefined && Math.abs(z[j]!) > threshold) mine.push({ chain: active[j]!, quantity: q, z: z[j]! }); });
      out.push(...mine.sort((x, y) => Math.abs(y.z) - Math.abs(x.z)));
    };
    if (active.length === 2) { flag(best.j); flag(1 - best.j); break; }
    flag(best.j);
    active.splice(best.j, 1);
  }
  return out;
}

/**
 * The chains that disagree with the others over `quantities` (name and chain-major draws; `'lp'`
 * names the log density), with the threshold for all of them (every quantity counts as a test,
 * whether or not it applies): one entry per flagged chain and quantity. When the flagged chains
 * are as many as the others (two against two), neither group is a majority; the group named is
 * then the one with the lower mean log density (a minor mode's, usually), each of its chains
 * compared with the other group.
 */
export function disagreeingChains(quantities: readonly (readonly [string, Chains])[]): ChainDeviation[] {
  if (quantities.length === 0) return [];
  const C = quantities[0]![1].chains;
  const threshold = chainsDisagreeThreshold(C * quantities.length);
  const lp = quantities.findIndex(([name]) => name === 'lp');
  // Chains separated from the rest on the log density are named first and left out of the
  // z-test, whose reference they would drag (and whose error they would swell).
  const all = Array.from({ length: C }, (_, c) => c);
  const separated = lp >= 0 ? separatedChains(quantities[lp]![1], all) : [];
  let flagged = flaggedChains(quantities.map(([, a]) => a), threshold, separated);
  const raw = (q: number, c: number): number => { const a = quantities[q]![1]; return mean(a.data.subarray(c * a.draws, (c + 1) * a.draws)); };
  const groupMean = (q: number, cs: readonly number[]): number => cs.reduce((t, c) => t + raw(q, c), 0) / cs.length;
  let bad = [...new Set(flagged.map((f) => f.chain))];
  let ok = all.filter((c) => !bad.includes(c) && !separated.includes(c));
  if (ok.length > 0 && ok.length === bad.length && lp >= 0 && groupMean(lp, bad) > groupMean(lp, ok)) {
    [bad, ok] = [ok, bad];
    const scores = quantities.map(([, a]) => chainScores(a));
    flagged = bad.flatMap((c) => scores.flatMap((sc, q): FlaggedChain[] => {
      if (sc === undefined) return [];
      const m = ok.reduce((t, j) => t + sc.means[j]!, 0) / ok.length;
      const se = Math.sqrt(sc.mcse2[c]! + ok.reduce((t, j) => t + sc.mcse2[j]!, 0) / ok.length ** 2);
      const z = se > 0 ? (sc.means[c]! - m) / se : 0;
      return Math.abs(z) > threshold ? [{ chain: c, quantity: q, z }] : [];
    }).sort((x, y) => Math.abs(y.z) - Math.abs(x.z)));
  }
  const out: ChainDeviation[] = flagged.map(({ chain, quantity, z }) => {
    // The other chains' mean in the message: of the chains not flagged (of the rest, when all were).
    const ref = ok.length > 0 ? ok : bad.filter((c) => c !== chain);
    return { quantity: quantities[quantity]![0], chain, z, chainMean: raw(quantity, chain), othersMean: groupMean(quantity, ref) };
  });
  // A separated chain against the chains not named: its log density, and every parameter whose
  // z passes the threshold there.
  const rest = ok.length > 0 ? ok : all.filter((c) => !separated.includes(c));
  const scores = separated.length > 0 ? quantities.map(([, a]) => chainScores(a)) : [];
  for (const c of separated) {
    const zOf = (q: number): number => { const sc = scores[q]; return sc === undefined ? 0 : zAgainstOthers(sc, [c, ...rest])[0]!; };
    out.push({ quantity: 'lp', chain: c, z: zOf(lp), chainMean: raw(lp, c), othersMean: groupMean(lp, rest), separated: true });
    const pars = quantities.map((_, q) => ({ q, z: zOf(q) })).filter(({ q, z }) => q !== lp && Math.abs(z) > threshold);
    for (const { q, z } of pars.sort((x, y) => Math.abs(y.z) - Math.abs(x.z))) {
      out.push({ quantity: quantities[q]![0], chain: c, z, chainMean: raw(q, c), othersMean: groupMean(q, rest) });
    }
  }
  return out;
}

/**
 * The separation rule, for what the z-test can miss: a chain stuck in a minor mode that also
 * drifts inside it (rstan's seed 5 on posteriordb's low_dim_gauss_mix: 269 divergences, its own
 * Monte Carlo error so large that |z| = 4.39 stayed under the threshold 4.60, while its mean log
 * density was −2528 against the others' −2107). Among `candidates`, a chain whose 95th percentile of the log density lies below the 5th percentile of the other
 * candidates' pooled log densities is named. Chains sampling the same distribution overlap
 * almost entirely: this needs a shift of ≳ 3.3 sd of the log density between one chain's draws
 * and the others', which draws of one stationary distribution do not show with a chain's ESS
 * in the tens or more (the 400 healthy runs of warnings.slow.test.ts raise no warning). Only
 * lower chains are named: a chain higher than all the others is the others' problem, which the
 * z-test reports with the majority rule. When fewer than two chains would be left, nothing is
 * named by this rule.
 */
function separatedChains(lp: Chains, candidates: readonly number[]): number[] {
  const { draws: N, data } = lp;
  if (candidates.length < 2 || N < MIN_DRAWS || anyNaN(data)) return [];
  const rows = candidates.map((c) => data.subarray(c * N, (c + 1) * N));
  const out: number[] = [];
  if (candidates.length < 3) return out;   // of two chains, the z-test names both
  candidates.forEach((c, i) => {
    const others = new Float64Array(N * (candidates.length - 1));
    let k = 0;
    rows.forEach((r, j) => { if (j !== i) { others.set(r, k); k += N; } });
    if (numpyQuantile(sorted(rows[i]!), 0.95) < numpyQuantile(sorted(others), 0.05)) out.push(c);
  });
  return out;
}
