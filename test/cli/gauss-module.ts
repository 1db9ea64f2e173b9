/**
 * The text of a `setup` model module for the CLI tests (written into a temporary folder two
 * levels below the repository, hence the relative imports): HMC on a 2-d Gaussian with mean 1
 * and standard deviation 2, started at a random draw of the setup key.
 */
export const GAUSS_MODULE = `import { HamiltonianMonteCarlo } from '../../../mcmc/kernels/hamiltonian-monte-carlo.js';
import { normal } from '../../../src/random/normal.js';
import { add, mul, square } from '../../../src/tensor/ops/elementwise.js';
import { sum } from '../../../src/tensor/ops/reduce.js';
const target = (x) => sum(mul(-0.125, square(add(x, -1))));
export const names = ['x'];
export function setup({ seed }) {
  const kernel = new HamiltonianMonteCarlo({ targetLogProbFn: target, stepSize: 0.6, numLeapfrogSteps: 4 });
  return { kernel, currentState: normal(seed, [2]), traceFn: (s, r) => ({ isAccepted: r.isAccepted, targetLogProb: target(s) }) };
}
`;
