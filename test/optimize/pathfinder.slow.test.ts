// pathfinder's cost beside NUTS's (issue 31's aim: ≤ 10% of a 1000 + 1000 NUTS run's gradient
// evaluations): on arK, kidiq_momiq, logmesquite and eight schools (posteriordb), Pathfinder at its
// defaults (seed 0) against windowedAdaptiveNuts at its defaults (4 chains × (1000 warm-up + 1000
// draws), seed 0), whose gradient evaluations are the leapfrog steps of every transition, warm-up
// included (the step-size heuristic's few are not counted: the ratio is if anything flattering to
// NUTS). Pathfinder's log density evaluations (ELBO estimates and output draws, no gradient) are
// printed beside. Deterministic (fixed seeds); the bound has a margin of 10× or more.
import { describe, expect, it } from 'vitest';
import { windowedAdaptiveNuts, type WindowedTrace } from '../../mcmc/index.js';
import { pathfinder } from '../../optimize/index.js';
import { arK, eightSchoolsNoncentered, kidiqMomiq, logmesquite } from './posteriordb-models.js';

describe('pathfinder: gradient evaluations beside a 1000 + 1000 NUTS run', () => {
  for (const make of [arK, kidiqMomiq, logmesquite, eightSchoolsNoncentered]) {
    it(make.name, () => {
      const c = make();
      const pf = pathfinder(c.model, { pins: c.pins, seed: 0 });
      const nuts = windowedAdaptiveNuts(c.model, { pins: c.pins, seed: 0, discardTuning: false });
      const steps = (nuts.trace as WindowedTrace).nSteps.data as ArrayLike<number>;
      let nutsGrads = 0;
      for (let i = 0; i < steps.length; i++) nutsGrads += Number(steps[i]);
      const ratio = pf.gradientEvaluations / nutsGrads;
      console.log(`${c.name}: pathfinder ${pf.gradientEvaluations} gradient + ${pf.logDensityEvaluations} log density evaluations; NUTS ${nutsGrads} gradient evaluations; ratio ${(100 * ratio).toFixed(2)}% (with the log density evaluations ${(100 * (pf.gradientEvaluations + pf.logDensityEvaluations) / nutsGrads).toFixed(1)}%)`);
      expect(ratio).toBeLessThan(0.1);
    });
  }
});
