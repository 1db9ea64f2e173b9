/**
 * The weather hidden Markov model from TFP's `tfd.HiddenMarkovModel` documentation: each day is
 * cold (state 0) or hot (state 1); the first day is cold with probability 0.8; a cold day is
 * followed by a cold day with probability 0.7 and a hot day by a hot day with probability 0.8;
 * temperatures are Normal(0, 5) on cold days and Normal(15, 10) on hot days. Over 7 days:
 * - `mean()`: the expected temperatures, approaching the stationary 0.4·0 + 0.6·15 = 9;
 * - `logProb(x)` for the observed week x = [−2, 0, 2, 4, 6, 8, 10];
 * - `posteriorMode(x)` (Viterbi): [0, 0, 0, 0, 0, 1, 1], as in TFP's documentation;
 * - `posteriorMarginals(x)` (forward–backward): P(hot on day t | x).
 * Each is checked against brute-force enumeration of all 2^7 = 128 hidden paths.
 *
 * Run: npx tsx examples/hmm-weather.ts   (under a second)
 *
 * Expected output:
 *   mean: 3, 6, 7.5, 8.25, 8.625, 8.8125, 8.90625
 *   logProb(x) = −22.3578 (brute force: the same to 4e-15)
 *   posteriorMode(x) = [0, 0, 0, 0, 0, 1, 1] (brute force: the same path)
 *   P(hot | x) by day: 0.011 0.031 0.068 0.171 0.389 0.658 0.811 (brute force: the same to 1e-15)
 */
import { fileURLToPath } from 'node:url';
import { Categorical, HiddenMarkovModel, Normal } from '../distributions/index.js';

export interface HmmWeatherResult {
  readonly mean: number[];
  readonly logProb: number;
  readonly posteriorMode: number[];
  /** P(state k on day t | x), [7][2]. */
  readonly posteriorMarginals: number[][];
  /** Brute force over all 128 paths. */
  readonly bruteForce: { logProb: number; mode: number[]; marginals: number[][] };
}

const INIT = [0.8, 0.2];
const TRANS = [[0.7, 0.3], [0.2, 0.8]];
const LOC = [0, 15], SCALE = [5, 10];
const T = 7;
export const observed = [-2, 0, 2, 4, 6, 8, 10];

export const hmm = new HiddenMarkovModel({
  initialDistribution: new Categorical({ probs: INIT }),
  transitionDistribution: new Categorical({ probs: TRANS }),
  observationDistribution: new Normal({ loc: LOC, scale: SCALE }),
  numSteps: T,
});

/** log p(x, z) for every path z ∈ {0, 1}^7, then the evidence, the best path and the marginals. */
function bruteForce(x: readonly number[]): HmmWeatherResult['bruteForce'] {
  const logNormal = (v: number, k: number) => -0.5 * ((v - LOC[k]!) / SCALE[k]!) ** 2 - Math.log(SCALE[k]!) - 0.5 * Math.log(2 * Math.PI);
  const paths: { z: number[]; lp: number }[] = [];
  for (let code = 0; code < 2 ** T; code++) {
    const z = Array.from({ length: T }, (_, t) => (code >> (T - 1 - t)) & 1);
    let lp = Math.log(INIT[z[0]!]!) + logNormal(x[0]!, z[0]!);
    for (let t = 1; t < T; t++) lp += Math.log(TRANS[z[t - 1]!]![z[t]!]!) + logNormal(x[t]!, z[t]!);
    paths.push({ z, lp });
  }
  const top = Math.max(...paths.map((p) => p.lp));
  const evidence = paths.reduce((s, p) => s + Math.exp(p.lp - top), 0);
  const marginals = Array.from({ length: T }, () => [0, 0]);
  for (const p of paths) p.z.forEach((k, t) => { marginals[t]![k]! += Math.exp(p.lp - top) / evidence; });
  const best = paths.reduce((a, b) => (b.lp > a.lp ? b : a));
  return { logProb: top + Math.log(evidence), mode: best.z, marginals };
}

export async function main(options: { quiet?: boolean } = {}): Promise<HmmWeatherResult> {
  const print = options.quiet ? () => {} : console.log;
  const mean = Array.from(hmm.mean().data as Float64Array);
  const logProb = hmm.logProb(observed).toNumber();
  const posteriorMode = Array.from(hmm.posteriorMode(observed).data as Int32Array);
  const probs = hmm.posteriorMarginals(observed).probsParameter();
  const posteriorMarginals = Array.from({ length: T }, (_, t) => [0, 1].map((k) => (probs.data as Float64Array)[t * 2 + k]!));
  const bf = bruteForce(observed);
  const maxMarginalError = Math.max(...posteriorMarginals.flatMap((row, t) => row.map((p, k) => Math.abs(p - bf.marginals[t]![k]!))));

  print('Weather HMM (TFP docs): cold (0) ~ Normal(0, 5), hot (1) ~ Normal(15, 10); P(cold first) 0.8; stay cold 0.7, stay hot 0.8');
  print(`expected temperature by day:   ${mean.map((v) => String(+v.toFixed(5))).join(', ')}`);
  print(`observed temperatures x:       ${observed.join(', ')}`);
  print(`logProb(x):                    ${logProb.toFixed(4)} (brute force over 128 paths: ${bf.logProb.toFixed(4)}, difference ${Math.abs(logProb - bf.logProb).toExponential(1)})`);
  print(`posteriorMode(x) (Viterbi):    [${posteriorMode.join(', ')}] (brute force: [${bf.mode.join(', ')}])`);
  print('posteriorMarginals(x):');
  print('  day   temp   P(cold)  P(hot)');
  posteriorMarginals.forEach(([c, h], t) => print(`  ${t}    ${String(observed[t]).padStart(4)}    ${c!.toFixed(3)}    ${h!.toFixed(3)}`));
  print(`  (brute force: max difference ${maxMarginalError.toExponential(1)})`);
  return { mean, logProb, posteriorMode, posteriorMarginals, bruteForce: bf };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
