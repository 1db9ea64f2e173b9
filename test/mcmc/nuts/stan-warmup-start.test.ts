// The Stan engine's warm-up starts dual averaging where Stan's does: Stan's service
// (hmc_nuts_diag_e_adapt.hpp) sets μ = log(10·ε₀) from the step size it was given, before
// run_adaptive_sampler's init_stepsize moves ε₀ by doubling or halving; only the restarts at the
// ends of the metric windows take μ from the heuristic's step size. So for the first 100 warm-up
// steps the exploring step sizes are centred on 10·ε₀ (ε₀ = 1 by default), not on 10 times the
// heuristic's result. Checked through the warm-up state a per-chain run returns (`resume`): with
// fewer than 20 warm-up steps there are no windows, so μ is still the first one at the end.
// Deterministic (fixed seeds).
import { describe, expect, it } from 'vitest';
import { JointDistributionNamed, Normal } from '../../../distributions/index.js';
import { windowedAdaptiveNuts } from '../../../mcmc/index.js';
import { detLog } from '../../../src/math/index.js';

// A narrow posterior (sd 0.01): the heuristic halves ε₀ = 1 several times.
const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 0.01 }) });

describe('Stan engine warm-up start', () => {
  for (const initStepSize of [undefined, 0.25]) {
    it(`μ = log(10·ε₀) with ε₀ the given step size (${initStepSize ?? 'default 1'}), not the heuristic's`, () => {
      const r = windowedAdaptiveNuts(model, { seed: 1, nChains: 2, numAdaptationSteps: 10, nDraws: 1, cores: 1, ...(initStepSize === undefined ? {} : { initStepSize }) });
      for (const chain of r.resume!.chains) {
        expect(chain.warmup.dualAveraging[0]).toBe(detLog(10 * (initStepSize ?? 1)));
        expect(chain.warmup.dualAveraging[1]).toBe(10);   // ten warm-up steps learned, no restart
      }
      // The heuristic did move: the step size kept after warm-up is far below ε₀.
      expect(r.resume!.chains.every((c) => c.stepSize < 0.1)).toBe(true);
    });
  }
});
