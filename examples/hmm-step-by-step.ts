/**
 * A hidden Markov model written step by step, with its hidden states as explicit discrete nodes:
 *
 *   mu ~ Normal([−2, 0, 2], 1) (one location per state);  z_0 ~ Categorical(π);
 *   z_t | z_{t−1} ~ Categorical(P[z_{t−1}]);  y_t | z_t ~ Normal(mu[z_t], 1),  t < T.
 *
 * Pinning y and sampling mu sums the states out automatically (`distributions/enumerate/`): each
 * z_t is summed out right after z_{t+1} is built (its last child), so the compiled log density
 * is the forward algorithm, linear in T — and equals `HiddenMarkovModel.logProb` of the same
 * model written with the distribution. `inferDiscrete(..., { temperature: 0 })` then gives the
 * Viterbi path, checked against `HiddenMarkovModel.posteriorMode`.
 *
 * Run: npx tsx examples/hmm-step-by-step.ts   (about 3 s: tracing the 200-node model)
 *
 * Expected output:
 *   T = 100: log density (enumerated, compiled) vs HiddenMarkovModel: relative difference 2.5e-13 at 3 points (the two sum in different orders)
 *   Viterbi path via inferDiscrete(temperature 0) equals HiddenMarkovModel.posteriorMode: true
 */
import { fileURLToPath } from 'node:url';
import { Categorical, compileLogDensity, HiddenMarkovModel, Independent, JointDistributionNamed, Normal, type Distribution } from '../distributions/index.js';
import { inferDiscrete } from '../mcmc/index.js';
import { gather, tensor, type Tensor } from '../src/index.js';

export const K = 3;
export const INIT = [0.5, 0.3, 0.2];
export const TRANS = [[0.8, 0.1, 0.1], [0.2, 0.7, 0.1], [0.15, 0.15, 0.7]];
export const PRIOR_LOC = [-2, 0, 2];

/**
 * A node callable taking the named parents (a joint's callables bind their parents by parameter
 * name, so a model built in a loop names them in generated source).
 */
export function node(parents: readonly string[], f: (...values: Tensor[]) => Distribution): (...values: Tensor[]) => Distribution {
  return new Function('f', `return (${parents.join(', ')}) => f(${parents.join(', ')})`)(f) as (...values: Tensor[]) => Distribution;
}

/** The model written step by step over T steps (a Map: nodes in insertion order), with initial probabilities `init` and transition matrix `trans`. */
export function stepByStepHmm(T: number, init: readonly number[] = INIT, trans: readonly (readonly number[])[] = TRANS, priorLoc: readonly number[] = PRIOR_LOC): JointDistributionNamed {
  const model = new Map<string, unknown>();
  model.set('mu', new Independent({ distribution: new Normal({ loc: priorLoc as number[], scale: 1 }), reinterpretedBatchNdims: 1 }));
  const P = tensor(trans as number[][]);
  for (let t = 0; t < T; t++) {
    model.set(`z${t}`, t === 0 ? new Categorical({ probs: init as number[] }) : node([`z${t - 1}`], (prev) => new Categorical({ probs: gather(P, prev) })));
    model.set(`y${t}`, node(['mu', `z${t}`], (mu, z) => new Normal({ loc: gather(mu, z), scale: 1 })));
  }
  return new JointDistributionNamed(model as never, { name: `hmm${T}` });
}

/** The same model with the `HiddenMarkovModel` distribution. */
export function hmmModel(T: number, init: readonly number[] = INIT, trans: readonly (readonly number[])[] = TRANS, priorLoc: readonly number[] = PRIOR_LOC): JointDistributionNamed {
  return new JointDistributionNamed({
    mu: new Independent({ distribution: new Normal({ loc: priorLoc as number[], scale: 1 }), reinterpretedBatchNdims: 1 }),
    y: (mu: Tensor) => new HiddenMarkovModel({
      initialDistribution: new Categorical({ probs: init as number[] }),
      transitionDistribution: new Categorical({ probs: trans as number[][] }),
      observationDistribution: new Normal({ loc: mu, scale: 1 }),
      numSteps: T,
    }),
  });
}

/** Observations: a fixed pattern with a wobble (no randomness needed to show the equality). */
export function observations(T: number): number[] {
  return Array.from({ length: T }, (_, t) => PRIOR_LOC[Math.floor(t / 7) % K]! + Math.sin(1.7 * t));
}

export const pinsOf = (y: readonly number[]): Record<string, number> => Object.fromEntries(y.map((v, t) => [`y${t}`, v]));

export interface HmmStepByStepResult {
  readonly T: number;
  /** Largest relative difference of value and gradient, enumerated (compiled) vs HiddenMarkovModel (compiled), over the points. */
  readonly maxRelDiff: number;
  /** log p(mu, y) both ways at each point. */
  readonly values: [number, number][];
  readonly viterbi: number[];
  readonly posteriorMode: number[];
}

export async function main(options: { quiet?: boolean; T?: number } = {}): Promise<HmmStepByStepResult> {
  const print = options.quiet ? () => {} : console.log;
  const T = options.T ?? 100;
  const y = observations(T);
  const stepwise = compileLogDensity(stepByStepHmm(T), { pins: pinsOf(y) });
  const reference = compileLogDensity(hmmModel(T), { pins: { y } });
  const points = [[-2, 0, 2], [-1.5, 0.3, 2.5], [0.5, -1, 1]];
  let maxRelDiff = 0;
  const values: [number, number][] = [];
  const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300);
  for (const x of points) {
    const ga = new Float64Array(K), gb = new Float64Array(K);
    const a = stepwise.logDensityGradient(x, ga), b = reference.logDensityGradient(x, gb);
    values.push([a, b]);
    maxRelDiff = Math.max(maxRelDiff, rel(a, b), ...Array.from(ga, (g, i) => rel(g, gb[i]!)));
  }
  print(`T = ${T}: log density (enumerated, compiled) vs HiddenMarkovModel: relative difference ${maxRelDiff.toExponential(1)} at ${points.length} points`);

  // The Viterbi path at mu = [−2, 0, 2].
  const mu = tensor([points[0]!]);
  const map = inferDiscrete(stepByStepHmm(T), { mu }, { pins: pinsOf(y), temperature: 0 });
  const viterbi = Array.from({ length: T }, (_, t) => (map[`z${t}`]!.data as Int32Array)[0]!);
  const hmm = new HiddenMarkovModel({
    initialDistribution: new Categorical({ probs: INIT }), transitionDistribution: new Categorical({ probs: TRANS }),
    observationDistribution: new Normal({ loc: points[0]!, scale: 1 }), numSteps: T,
  });
  const posteriorMode = Array.from(hmm.posteriorMode(y).data as Int32Array);
  print(`Viterbi path via inferDiscrete(temperature 0) equals HiddenMarkovModel.posteriorMode: ${viterbi.every((z, t) => z === posteriorMode[t])}`);
  return { T, maxRelDiff, values, viterbi, posteriorMode };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
