// Rejected proposals in the per-chain (Stan) engine: a log density that throws or is not finite at
// a proposal rejects it (a divergent leaf) and the run goes on, counted per draw
// (trace.rejections) and per kind (result.rejections, with the node found on the tape);
// programming errors still throw.
//
// Fault injection: the model's likelihood throws (or is NaN) at ~5% of points, decided by a hash
// of the point's bits, so the failure is a pure function of the point and the sampler must still
// target the model's posterior, N(0, 1/2). Each run keeps 4 chains × 1500 draws; the draws are
// thinned to about one per effective draw (bulk ESS: ≈ 1400 at seed 4, ≈ 290 at seed 3, where
// dual averaging settled on a smaller step size, so longer trees meet more faults) and a KS test
// against N(0, 1/2) rejects at ALPHA = 1e-6 (test/stats.ts), so a correct sampler fails either KS
// check with probability 2e-6; the seeds are fixed, so the outcome is deterministic.
import { describe, expect, it } from 'vitest';
import { JointDistributionNamed } from '../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../distributions/normal.js';
import { HalfNormal } from '../../distributions/half-normal.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { nodeLogProbs, type NodeLogProb } from '../../distributions/joint/node-log-probs.js';
import { windowedAdaptiveNuts } from '../../mcmc/windowed-adaptive-nuts.js';
import { isProgrammingError, RejectionLog } from '../../mcmc/internal/rejections.js';
import { failureLocator } from '../../mcmc/internal/locate-failure.js';
import { runPerChain, type PerChainSettings } from '../../mcmc/nuts/stan/per-chain.js';
import type { FlatTarget } from '../../src/compile/flat-target.js';
import { STAN_DUAL_AVERAGING } from '../../mcmc/nuts/stan/warmup.js';
import { getModes } from '../../src/config.js';
import { key } from '../../src/random/keys.js';
import { customGradient } from '../../src/tensor/autodiff.js';
import { mul } from '../../src/tensor/ops/elementwise.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { ALPHA } from '../stats.js';
import { thinnedNormalKs, total, unitHash } from './fault-injection.js';

const faulty = (x: Tensor) => unitHash((x.data as Float64Array)[0]!) < 0.05;

/** x ~ N(0, 1), y | x ~ N(x, 1), y = 0 observed: x | y ~ N(0, 1/2); `fault` decides what the likelihood does at a faulty x. */
function model(fault: 'throw' | 'nan' | 'type-error') {
  return new JointDistributionNamed({
    x: new Normal({ loc: 0, scale: 1 }),
    y: ({ x }: Record<string, Tensor>) => {
      if (faulty(x)) {
        if (fault === 'throw') throw new Error('injected fault');
        if (fault === 'type-error') (undefined as unknown as () => void)();
        return new Normal({ loc: x, scale: NaN });
      }
      return new Normal({ loc: x, scale: 1 });
    },
  }, { name: 'Faulty' });
}

const runOpts = { pins: { y: 0 }, compile: false, seed: 3, nChains: 4, numAdaptationSteps: 400, nDraws: 1500 } as const;

/** KS p-value of the draws [N, C] against x | y's N(0, 1/2), thinned per chain to about one draw per effective draw. */
const thinnedKs = (draws: Tensor) => thinnedNormalKs(draws, Math.SQRT1_2);

/** A two-dimensional flat target from a value-and-gradient function. */
const flat = (f: (x: Float64Array, g: Float64Array) => number): FlatTarget => ({
  dim: 2, paramNames: ['a', 'b'], logDensity: (x) => f(Float64Array.from(x), new Float64Array(2)), logDensityGradient: (x, g) => f(x as Float64Array, g),
});

describe('per-chain NUTS: failures at a proposal are rejections', () => {
  it('a likelihood that throws at 5% of points: the posterior is right, every rejection is counted and named', () => {
    const r = windowedAdaptiveNuts(model('throw'), { ...runOpts, seed: 4 });
    const ks = thinnedKs(r.draws.x!);
    expect(ks.n).toBeGreaterThan(1000);
    expect(ks.p).toBeGreaterThan(ALPHA);
    expect(r.rejections).toHaveLength(1);
    const [rej] = r.rejections!;
    expect(rej!.message).toBe('Error: injected fault');
    expect(rej!.node).toBe('node `y` (building its distribution)');
    expect(rej!.chains).toEqual([0, 1, 2, 3]);
    // The trace counts the kept draws' rejections; the record counts warm-up too.
    const kept = total(r.trace.rejections!);
    expect(rej!.count - rej!.warmupCount).toBe(kept);
    expect(rej!.warmupCount).toBeGreaterThan(0);
    // About 5% of leapfrog steps land on a faulty point (≈ 20 000 steps: ±0.5% is > 3 sd).
    expect(kept / total(r.trace.nSteps)).toBeGreaterThan(0.04);
    expect(kept / total(r.trace.nSteps)).toBeLessThan(0.06);
    // A rejected proposal is a divergent leaf (after warm-up no step-size heuristic runs).
    const rejs = r.trace.rejections!.data as Int32Array, div = r.trace.diverging.data as Uint8Array;
    rejs.forEach((n, i) => { if (n > 0) expect(div[i]).toBe(1); });
    // The chain never sits on a faulty point.
    (r.draws.x!.data as Float64Array).forEach((v) => expect(unitHash(v) < 0.05).toBe(false));
  });

  it('a likelihood that is NaN at 5% of points: the same, counted as kind NaN', () => {
    const r = windowedAdaptiveNuts(model('nan'), runOpts);
    const ks = thinnedKs(r.draws.x!);
    expect(ks.n).toBeGreaterThan(250);
    expect(ks.p).toBeGreaterThan(ALPHA);
    expect(r.rejections!.map((e) => [e.kind, e.message, e.node])).toEqual([['NaN', 'the log density is NaN', 'node `y`']]);
    expect(r.rejections![0]!.count - r.rejections![0]!.warmupCount).toBe(total(r.trace.rejections!));
  });

  it('a non-finite gradient is named at its node too (the locator differentiates the terms one by one)', () => {
    // loc = x with a gradient that is NaN at faulty points (the value stays finite)
    const shaky = customGradient((x: Tensor) => ({ value: x, grad: (dy: Tensor) => [faulty(x) ? mul(dy, NaN) : dy] }));
    const m = new JointDistributionNamed({
      x: new Normal({ loc: 0, scale: 1 }),
      y: ({ x }: Record<string, Tensor>) => new Normal({ loc: shaky(x), scale: 1 }),
    });
    const r = windowedAdaptiveNuts(m, { ...runOpts, nDraws: 200 });
    expect(r.rejections!.map((e) => [e.kind, e.node])).toEqual([['gradient', 'node `y`']]);
  });

  it('a healthy run has no rejections: an empty record, a zero count per draw', () => {
    const healthy = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }), y: ({ x }: Record<string, Tensor>) => new Normal({ loc: x, scale: 1 }) });
    const r = windowedAdaptiveNuts(healthy, { ...runOpts, nDraws: 100 });
    expect(r.rejections).toEqual([]);
    expect(total(r.trace.rejections!)).toBe(0);
    expect(r.trace.rejections!.shape).toEqual([100, 4]);
    expect(r.trace.rejections!.dtype).toBe('int32');
  });

  it('a TypeError is a programming error: it throws at initialisation and at a later proposal', () => {
    const broken = new JointDistributionNamed({
      x: new Normal({ loc: 0, scale: 1 }),
      y: ({ x }: Record<string, Tensor>) => (x as unknown as { foo(): never }).foo(),
    });
    expect(() => windowedAdaptiveNuts(broken, { pins: { y: 0 }, nDraws: 10, numAdaptationSteps: 10 })).toThrow(TypeError);
    expect(() => windowedAdaptiveNuts(broken, { pins: { y: 0 }, nDraws: 10, numAdaptationSteps: 10, compile: false })).toThrow(TypeError);
    // Fine at the start (x = 0 is not faulty), a TypeError at the first faulty proposal: it propagates.
    expect(unitHash(0) < 0.05).toBe(false);
    expect(() => windowedAdaptiveNuts(model('type-error'), { ...runOpts, currentState: { x: [0, 0, 0, 0] }, nDraws: 200 })).toThrow(TypeError);
  });

  it('at initialisation a numerical throw is a failed attempt; the error says what the last attempt threw', () => {
    // The engine directly: a model that throws everywhere cannot even be set up by windowedAdaptiveNuts.
    const settings: PerChainSettings = {
      fn: 'test', modelName: 'Hopeless', dim: 2, chains: [0], numWarmup: 10, nDraws: 10, thin: 0, discardTuning: true, maxTreeDepth: 5,
      maxEnergyDiff: 1000, metric: 'diagonal', initStepSize: 1, dualAveraging: STAN_DUAL_AVERAGING, modes: getModes(),
      initRadius: 2, whyNotFinite: () => 'the test model fails',
    };
    let calls = 0;
    const hopeless = () => { calls++; throw new RangeError('no luck'); };
    expect(() => runPerChain(flat(hopeless), key(0), settings)).toThrow(/"Hopeless" has a non-finite log density or gradient at every one of 100 starts.*at the last, the test model fails/);
    expect(calls).toBe(100);
    expect(() => runPerChain(flat(hopeless), key(0), { ...settings, init: () => new Float64Array(2) })).toThrow(/`currentState` gives chain 0 a start where the test model fails/);
    const typo = () => { throw new ReferenceError('sigam is not defined'); };
    expect(() => runPerChain(flat(typo), key(0), settings)).toThrow(ReferenceError);
  });

  it('the engine: +Infinity and a non-finite gradient are rejections too; the chain never stands on a failed point; the step-size heuristic counts', () => {
    const settings: PerChainSettings = {
      fn: 'test', modelName: 'Faulty', dim: 2, chains: [0, 1], numWarmup: 200, nDraws: 500, thin: 0, discardTuning: false, maxTreeDepth: 8,
      maxEnergyDiff: 1000, metric: 'diagonal', initStepSize: 1, dualAveraging: STAN_DUAL_AVERAGING, modes: getModes(),
      initRadius: 2, whyNotFinite: () => 'the test model fails',
    };
    const normal = (x: Float64Array, g: Float64Array) => { g[0] = -x[0]!; g[1] = -x[1]!; return -0.5 * (x[0]! * x[0]! + x[1]! * x[1]!); };
    const bad = (x: Float64Array) => unitHash(x[0]!) < 0.05;
    for (const [kind, f] of [
      ['+Infinity', (x: Float64Array, g: Float64Array) => (bad(x) ? (normal(x, g), Infinity) : normal(x, g))],
      ['gradient', (x: Float64Array, g: Float64Array) => { const lp = normal(x, g); if (bad(x)) g[1] = NaN; return lp; }],
    ] as const) {
      const run = runPerChain(flat(f), key(1), settings);
      expect(run.rejections.rejections().map((e) => e.kind)).toEqual([kind]);
      const [rec] = run.rejections.rejections();
      let kept = 0;
      for (const d of run.chains) {
        for (let i = 0; i < 700; i++) expect(bad(d.q.subarray(2 * i))).toBe(false);
        kept += d.rejections.reduce((a, b) => a + b, 0);
      }
      expect(kept).toBe(rec!.count);            // every draw kept (discardTuning: false)
      expect(rec!.count).toBeGreaterThan(100);
    }
    // Stan's heuristic doubles the step size from 1 until one leapfrog step's acceptance falls
    // below 0.8, so from |x| < 2 its trial steps reach far: a wall at |x₀| > 2.5 rejects some of them.
    const wall = (x: Float64Array, g: Float64Array) => { if (Math.abs(x[0]!) > 2.5) throw new RangeError('beyond the wall'); return normal(x, g); };
    const run = runPerChain(flat(wall), key(1), { ...settings, chains: [0, 1, 2, 3], numWarmup: 10, nDraws: 10 });   // chain 2's heuristic meets it
    const [rec] = run.rejections.rejections();
    expect(rec!.first).toEqual({ chain: 2, transition: -1 });
    expect(rec!.message).toBe('RangeError: beyond the wall');
    expect(run.chains.reduce((n, d) => n + d.rejections.reduce((a, b) => a + b, 0), 0)).toBe(rec!.count);
  });

  it('nodeLogProbs: the terms add up to the target, constrained and unconstrained; a throw ends them, naming the node', () => {
    const jd = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 1 }),
      sigma: new HalfNormal({ scale: 1 }),
      z: ({ mu, sigma }: Record<string, Tensor>) => new Normal({ loc: mu, scale: sigma }),
      y: ({ z }: Record<string, Tensor>) => new Normal({ loc: z, scale: 0.5 }),
    });
    const pinned = jd.experimentalPin({ y: 0.3 });
    const add = (ts: NodeLogProb[]) => ts.reduce((a, t) => a + Number(t.logProb!.item()), 0);
    const at = { mu: 0.2, sigma: 1.7, z: -0.4 };
    const terms = nodeLogProbs(pinned, at);
    const order = jd.nodeNames;   // the model's order (topological)
    expect(terms.map((t) => t.term)).toEqual(order.map((n) => `node \`${n}\``));
    expect(add(terms)).toBeCloseTo(Number(pinned.unnormalizedLogProb(at).item()), 12);
    const m = flatModel('test', pinned as never), u = [0.2, -0.3, 1.1];
    const flat = u.map((v) => new Tensor(Float64Array.of(v), [1], 'float64'));
    const unconstrained = nodeLogProbs(pinned, m.struct(m.unflatten(flat)), { unconstrained: true });
    expect(unconstrained.map((t) => t.term)).toEqual(order.flatMap((n) => (n === 'y' ? [] : [`log-Jacobian of node \`${n}\``]).concat(`node \`${n}\``)));
    expect(add(unconstrained)).toBeCloseTo(Number(m.target(...flat).item()), 12);
    const broken = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 1 }),
      y: ({ mu }: Record<string, Tensor>) => { if (Number(mu.item()) > 1) throw new Error('too big'); return new Normal({ loc: mu, scale: 1 }); },
    }).experimentalPin({ y: 0 });
    const cut = nodeLogProbs(broken, { mu: 2 });
    expect(cut.map((t) => [t.term, t.error === undefined ? undefined : String(t.error)])).toEqual([['node `mu`', undefined], ['node `y` (building its distribution)', 'Error: too big']]);
  });

  it('the locator names where an exception was thrown, and otherwise the first term that is not finite', () => {
    const jd = new JointDistributionNamed({
      s: new HalfNormal({ scale: 1 }),
      y: ({ s }: Record<string, Tensor>) => {
        if (Number(s.item()) > 1e100) throw new RangeError('the scale is absurd');
        return new Normal({ loc: 0, scale: s });
      },
    });
    const locate = failureLocator(flatModel('test', jd.experimentalPin({ y: 1 }) as never));
    const far = Float64Array.of(1e200);          // s = softplus(1e200) = 1e200: its own log density, −s²/2, is −∞ already
    expect(locate(far, 'RangeError: the scale is absurd')).toBe('node `y` (building its distribution)');
    expect(locate(far, 'NaN')).toBe('node `s`');
    expect(locate(Float64Array.of(0.5), 'NaN')).toBeUndefined();
  });

  it('the rule and the record: programming errors by class or name; kinds mask numbers and keep the first message', () => {
    expect([new TypeError('a'), new ReferenceError('b'), new SyntaxError('c'), { name: 'TypeError' }].every(isProgrammingError)).toBe(true);
    expect([new Error('a'), new RangeError('b'), 'text', undefined, { name: 'Error' }].some(isProgrammingError)).toBe(false);
    const log = new RejectionLog(), x = new Float64Array([1, 2]);
    log.record(2, 5, true, true, new RangeError('cholesky: `a` is not positive definite (its leading 6×6 minor is not positive)'), NaN, x);
    log.record(0, 9, false, true, new RangeError('cholesky: `a` is not positive definite (its leading 2×2 minor is not positive)'), NaN, x);
    log.record(1, 9, false, false, undefined, Infinity, x);
    log.record(1, 9, false, false, undefined, -1, x);
    log.record(1, 9, false, true, 'bare string', NaN, x);
    const out = log.rejections((at, kind) => (kind === '+Infinity' ? `at ${at[1]}` : undefined));
    expect(out.map((e) => [e.message, e.count, e.warmupCount, e.chains, e.first, e.node])).toEqual([
      ['RangeError: cholesky: `a` is not positive definite (its leading 6×6 minor is not positive)', 2, 1, [0, 2], { chain: 2, transition: 5 }, undefined],
      ['the log density is +Infinity', 1, 0, [1], { chain: 1, transition: 9 }, 'at 2'],
      ['the gradient of the log density has a non-finite entry', 1, 0, [1], { chain: 1, transition: 9 }, undefined],
      ['thrown "bare string"', 1, 0, [1], { chain: 1, transition: 9 }, undefined],
    ]);
    expect(out[0]!.kind).toBe('RangeError: cholesky: `a` is not positive definite (its leading #×# minor is not positive)');
  });
});
