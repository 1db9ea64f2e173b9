// init: 'pathfinder' without stochax/optimize loaded: mcmc/ cannot import the optimisation layer
// (it sits below), so Pathfinder registers itself when that module loads; without it the error
// says what to import. (This file must not import optimize/: vitest isolates test files.)
import { describe, expect, it } from 'vitest';
import { JointDistributionNamed, Normal } from '../../distributions/index.js';
import { windowedAdaptiveNuts } from '../../mcmc/index.js';
import { tensor, type Tensor } from '../../src/index.js';

describe("init: 'pathfinder' without stochax/optimize", () => {
  it('is a RangeError naming init (or initInvMetric) and what to import', () => {
    const model = new JointDistributionNamed({ mu: new Normal({ loc: 0, scale: 1 }), y: (mu: Tensor) => new Normal({ loc: mu, scale: 1 }) });
    expect(() => windowedAdaptiveNuts(model, { pins: { y: tensor(1) }, nDraws: 5, numAdaptationSteps: 5, init: 'pathfinder' }))
      .toThrow(/windowedAdaptiveNuts: `init` 'pathfinder' runs stochax\/optimize's pathfinder, which is not loaded: add `import 'stochax\/optimize';`/);
    expect(() => windowedAdaptiveNuts(model, { pins: { y: tensor(1) }, nDraws: 5, numAdaptationSteps: 5, initInvMetric: 'pathfinder' }))
      .toThrow(/windowedAdaptiveNuts: `initInvMetric` 'pathfinder' runs stochax\/optimize's pathfinder, which is not loaded/);
  });
});
