/**
 * ArviZ's `_ess`: the multi-chain effective sample size of one (chain, draw) matrix, with the
 * autocorrelation of Vehtari et al. (2021, eq. 10), Geyer's initial positive sequence, then
 * Geyer's initial monotone sequence, and ArviZ's floor `τ ≥ 1/log10(S)`.
 */
import { laggedProductSums } from './autocov.js';
import { anyNaN, chainMeans, variance, pyMax, type Chains } from './chains.js';
import { detLog10 } from '../../../src/math/index.js';

/** Values closer than this count as constant (NumPy's `finfo(float).resolution`). */
const RESOLUTION = 1e-15;

/** Lags summed directly (in two rounds) before falling back to the all-lags FFT. */
const EAGER_LAGS = [10, 40] as const;

export function essOf(a: Chains, relative = false): number {
  const x = a.data;
  if (anyNaN(x)) return Number.NaN;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < x.length; i++) { if (x[i]! < lo) lo = x[i]!; if (x[i]! > hi) hi = x[i]!; }
  if (hi - lo < RESOLUTION) return x.length;
  const nChain = a.chains;
  const nDraw = a.draws;
  const means = chainMeans(a);
  const centred = new Float64Array(x.length);
  const offsets: number[] = [];
  for (let c = 0; c < nChain; c++) {
    offsets.push(c * nDraw);
    for (let d = 0; d < nDraw; d++) centred[c * nDraw + d] = x[c * nDraw + d]! - means[c]!;
  }
  // Mean over chains of the biased autocovariance (÷ nDraw). Geyer's sequence usually stops
  // within a few lags, so the first ones are summed directly; all lags only when it runs on.
  const lags = (maxLag: number): Float64Array => {
    const s = laggedProductSums(centred, offsets, nDraw, maxLag);
    for (let k = 0; k <= maxLag; k++) s[k] = s[k]! / nDraw / nChain;
    return s;
  };
  let acov = lags(Math.min(nDraw - 1, EAGER_LAGS[0]));
  const at = (k: number): number => {
    if (k >= acov.length) acov = lags(acov.length - 1 < EAGER_LAGS[1] ? Math.min(nDraw - 1, EAGER_LAGS[1]) : nDraw - 1);
    return acov[k]!;
  };

  const meanVar = (at(0) * nDraw) / (nDraw - 1);
  let varPlus = (meanVar * (nDraw - 1)) / nDraw;
  if (nChain > 1) varPlus += variance(means, 1);

  const rho = new Float64Array(nDraw);
  let rhoEven = 1;
  rho[0] = rhoEven;
  let rhoOdd = 1 - (meanVar - at(1)) / varPlus;
  rho[1] = rhoOdd;
  // Geyer's initial positive sequence.
  let t = 1;
  while (t < nDraw - 3 && rhoEven + rhoOdd > 0) {
    rhoEven = 1 - (meanVar - at(t + 1)) / varPlus;
    rhoOdd = 1 - (meanVar - at(t + 2)) / varPlus;
    if (rhoEven + rhoOdd >= 0) {
      rho[t + 1] = rhoEven;
      rho[t + 2] = rhoOdd;
    }
    t += 2;
  }
  const maxT = t - 2;
  if (rhoEven > 0) rho[maxT + 1] = rhoEven;
  // Geyer's initial monotone sequence.
  t = 1;
  while (t <= maxT - 2) {
    if (rho[t + 1]! + rho[t + 2]! > rho[t - 1]! + rho[t]!) {
      rho[t + 1] = (rho[t - 1]! + rho[t]!) / 2;
      rho[t + 2] = rho[t + 1]!;
    }
    t += 2;
  }
  const total = nChain * nDraw;
  let head = 0;
  for (let k = 0; k <= maxT; k++) head += rho[k]!;
  const tail = maxT + 1 < nDraw ? rho[maxT + 1]! : 0;
  const tau = pyMax(-1 + 2 * head + tail, 1 / detLog10(total));
  return anyNaN(rho) ? Number.NaN : (relative ? 1 : total) / tau;
}
