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

// Eight schools (non-centred): Pathfinder's mu bias is not noise and more paths do not remove it
// (issue 31). Seeds 0–7, 4000 draws each; measured mean z of mu (Pathfinder − reference, in
// reference sds) −0.52 ± 0.15 (sd over seeds) with 4 paths, −0.53 ± 0.09 with 8, −0.58 ± 0.05
// with 16. The mean over 8 seeds has an sd of ≤ 0.06, so the band (−0.8, −0.3) is ≥ 3.5 of them
// from every measured value. Deterministic (fixed seeds).
describe('pathfinder: eight schools\' mu bias over seeds and paths', () => {
  it.each([4, 8, 16])('numPaths %i: mean z of mu over seeds 0–7 in (−0.8, −0.3)', (numPaths) => {
    const c = eightSchoolsNoncentered();
    const z: number[] = [];
    for (let seed = 0; seed < 8; seed++) {
      const fit = pathfinder(c.model, { pins: c.pins, seed, draws: 4000, numPaths });
      const mu = fit.draws.mu!.data as Float64Array;
      z.push((mu.reduce((t, v) => t + v, 0) / mu.length - c.reference.mu!.mean) / c.reference.mu!.sd);
    }
    const mean = z.reduce((t, v) => t + v, 0) / z.length;
    console.log(`eight schools, ${numPaths} paths: mu's z by seed ${z.map((v) => v.toFixed(2)).join(' ')}; mean ${mean.toFixed(3)}`);
    expect(mean).toBeGreaterThan(-0.8);
    expect(mean).toBeLessThan(-0.3);
  });
});
