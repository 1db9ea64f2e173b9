// initInvMetric: 'pathfinder' in windowedAdaptiveNuts (issue 31): every chain's warm-up starts
// from the diagonal of the covariance of the multi-path Pathfinder approximation (the equal-weight
// mixture of the paths' best normals) — the same run that gives `init: 'pathfinder'` its starts —
// and Stan's windows adapt it from there; the same bits on worker threads; bad input named.
// Deterministic (fixed seeds, no statistics): the warm-up bound is a measured 100× effect held to 10×.
import { afterEach, describe, expect, it } from 'vitest';
import { Independent, JointDistributionNamed, Normal } from '../../distributions/index.js';
import { flatTarget, pinModel } from '../../distributions/compile-log-density.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { windowedAdaptiveNuts, type WindowedTrace } from '../../mcmc/index.js';
import { coresTuning } from '../../mcmc/nuts/stan/cores.js';
import { pathfinderRun } from '../../mcmc/internal/init.js';
import { pathfinder } from '../../optimize/index.js';
import { random, tensor } from '../../src/index.js';
import { foldIn } from '../../src/samplers/seeds.js';
import { model, pins } from '../mcmc/simple-model.js';


/** The mixture of the paths' best approximations: Σ_p (σ²_p + (μ_p − μ̄)²) / P per coordinate. */
function mixtureVariance(paths: readonly { mean: Float64Array; variance: Float64Array; dropped: string | undefined }[]): Float64Array {
  const kept = paths.filter((p) => p.dropped === undefined), P = kept.length, n = kept[0]!.mean.length;
  return Float64Array.from({ length: n }, (_, i) => {
    const m = kept.reduce((t, p) => t + p.mean[i]!, 0) / P;
    return kept.reduce((t, p) => t + p.variance[i]! + (p.mean[i]! - m) ** 2, 0) / P;
  });
}

describe("initInvMetric: 'pathfinder'", () => {
  afterEach(() => { coresTuning.force = false; });

  it('is the diagonal of the Pathfinder mixture covariance, from pathfinder(target, { seed: foldIn(seed, "pathfinder"), draws: 100 })', () => {
    const m = flatModel('test', pinModel('test', model, pins));
    const target = flatTarget('test', m, true).value;
    const seed = random.key(3);
    const fit = pathfinder(target, { seed: foldIn(seed, 'pathfinder'), draws: 100 });
    const expected = mixtureVariance(fit.paths);
    const got = pathfinderRun('test', 'initInvMetric', 'pathfinder', m, target, 4, seed).invMetric();
    for (let i = 0; i < 2; i++) expect(got[i]! / expected[i]! - 1).toBeCloseTo(0, 12);
    // Fewer than 20 warm-up steps adapt no metric (Stan's rule): the chains keep the one they start from.
    const r = windowedAdaptiveNuts(model, { pins, seed: 3, nDraws: 3, numAdaptationSteps: 5, initInvMetric: 'pathfinder' });
    for (const st of r.resume!.chains) expect(Array.from(st.invMetric)).toEqual(Array.from(got));
    const dense = windowedAdaptiveNuts(model, { pins, seed: 3, nDraws: 3, numAdaptationSteps: 5, initInvMetric: 'pathfinder', metric: 'dense' });
    expect(Array.from(dense.resume!.chains[0]!.invMetric)).toEqual([got[0], 0, 0, got[1]]);
    // The default is the identity, and it is what 'identity' says.
    const id = windowedAdaptiveNuts(model, { pins, seed: 3, nDraws: 3, numAdaptationSteps: 5, initInvMetric: 'identity' });
    expect(Array.from(id.resume!.chains[0]!.invMetric)).toEqual([1, 1]);
  });

  it('with init: \'pathfinder\' both come from one run; the same bits on worker threads', () => {
    const o = { pins, seed: 5, nDraws: 20, numAdaptationSteps: 60, init: 'pathfinder', initInvMetric: 'pathfinder' } as const;
    const one = windowedAdaptiveNuts(model, { ...o, cores: 1 });
    coresTuning.force = true;
    const two = windowedAdaptiveNuts(model, { ...o, cores: 2 });
    expect(two.parallel).toEqual({ cores: 2 });
    expect(Array.from(two.draws.mu!.data as Float64Array)).toEqual(Array.from(one.draws.mu!.data as Float64Array));
    expect(Array.from((two.trace as WindowedTrace).stepSize.data as Float64Array)).toEqual(Array.from((one.trace as WindowedTrace).stepSize.data as Float64Array));
    // Without the metric option the starts are the same, the draws not.
    const startsOnly = windowedAdaptiveNuts(model, { ...o, initInvMetric: undefined, cores: 1 });
    expect(Array.from(startsOnly.draws.mu!.data as Float64Array)).not.toEqual(Array.from(one.draws.mu!.data as Float64Array));
  });

  it('scales 0.01, 1, 30, 100: warm-up takes < 10% of the identity start\'s gradient evaluations (measured ~1%)', () => {
    // From the identity, early warm-up trees run to depth 10 (1023 leapfrogs) until the first
    // metric window ends; from Pathfinder's diagonal (exact here) they are short from the start.
    // 100 warm-up steps, 4 chains, seed 0: ~240 000 against ~2 100 (seeds 0–7: 239 000–252 000 and 2 060–2 270).
    const scaled = new JointDistributionNamed({ x: new Independent({ distribution: new Normal({ loc: tensor([0, 0, 0, 0]), scale: tensor([0.01, 1, 30, 100]) }), reinterpretedBatchNdims: 1 }) });
    const warmupGradients = (extra: object) => {
      const r = windowedAdaptiveNuts(scaled, { seed: 0, numAdaptationSteps: 100, nDraws: 10, discardTuning: false, init: 'pathfinder', ...extra });
      const s = (r.trace as WindowedTrace).nSteps.data as Int32Array;
      let t = 0;
      for (let i = 0; i < 100 * 4; i++) t += s[i]!;
      return t;
    };
    const identity = warmupGradients({}), seeded = warmupGradients({ initInvMetric: 'pathfinder' });
    expect(seeded).toBeLessThan(0.1 * identity);
  });

  it.each([
    [{ initInvMetric: 'pf' }, RangeError, /windowedAdaptiveNuts: `initInvMetric`/],
    [{ initInvMetric: 'pathfinder', adaptation: 'pooled' }, RangeError, /windowedAdaptiveNuts: `initInvMetric` 'pathfinder' needs adaptation: 'per-chain'/],
  ])('bad input %o', (extra, type, message) => {
    const o = { pins, nDraws: 3, numAdaptationSteps: 5, ...extra } as never;
    expect(() => windowedAdaptiveNuts(model, o)).toThrow(type);
    expect(() => windowedAdaptiveNuts(model, o)).toThrow(message);
  });

  it('not with previous (it says how a run starts)', () => {
    const r = windowedAdaptiveNuts(model, { pins, seed: 1, nDraws: 3, numAdaptationSteps: 5 });
    expect(() => windowedAdaptiveNuts(model, { pins, previous: r, initInvMetric: 'pathfinder' })).toThrow(/windowedAdaptiveNuts: `initInvMetric` must not be given with `previous`/);
  });
});
