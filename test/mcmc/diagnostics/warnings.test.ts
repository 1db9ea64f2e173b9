// samplingWarnings: every kind provoked by draws and traces built for it (exact counts and
// names), absent on iid draws and on a healthy NUTS run (a standard normal, 4 × 1000); real runs
// that provoke chains-disagree (a chain started in the far minor mode of a bimodal mixture) and
// divergences (Neal's funnel); the onWarning / warn hooks of windowedAdaptiveNuts; bad input.
// Draws come from fixed keys, so every check is deterministic; the healthy checks' false-alarm
// rates are those the warnings are designed for (R-hat and ESS: far below 1e-6 for iid 4 × 1000
// draws; chains-disagree: about 1e-4 per run, none in 1500 healthy NUTS runs, see
// mcmc/diagnostics/chains-disagree.ts and warnings.slow.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JointDistributionNamed } from '../../../distributions/joint/joint-distribution-named.js';
import { Normal } from '../../../distributions/normal.js';
import { Sample } from '../../../distributions/sample.js';
import { samplingWarnings, summary, type SamplingWarning } from '../../../mcmc/diagnostics/index.js';
import { flaggedChains, chainsDisagreeThreshold } from '../../../mcmc/diagnostics/chains-disagree.js';
import { windowedAdaptiveNuts } from '../../../mcmc/windowed-adaptive-nuts.js';
import { sampleChains } from '../../../mcmc/parallel/sample-chains.js';
import { windowedAdaptiveNutsChains } from '../../../mcmc/parallel/windowed-chains.js';
import { key } from '../../../src/random/keys.js';
import { normal } from '../../../src/random/normal.js';
import { exp, mul } from '../../../src/tensor/ops/elementwise.js';
import { Tensor, tensor } from '../../../src/tensor/tensor.js';

const N = 1000, C = 4;

/** iid N(0, 1) values `[N, C]` from key `k`, with `f(draw, chain, v)` applied. */
function iid(k: number, f: (d: number, c: number, v: number) => number = (_d, _c, v) => v, n = N, chains = C): Tensor {
  const v = normal(key(k), [n, chains]).data as Float64Array;
  return new Tensor(Float64Array.from(v, (x, i) => f(Math.floor(i / chains), i % chains, x)), [n, chains], 'float64');
}

/** A healthy default trace `[N, C]`: no divergence, depth 3, iid energies and log densities. */
function healthyTrace(n = N, chains = C): Record<string, Tensor> {
  return {
    diverging: new Tensor(new Uint8Array(n * chains), [n, chains], 'bool'),
    treeDepth: new Tensor(new Int32Array(n * chains).fill(3), [n, chains], 'int32'),
    energy: iid(101, undefined, n, chains),
    targetLogProb: iid(102, undefined, n, chains),
  };
}

const kinds = (ws: readonly SamplingWarning[]) => ws.map((w) => w.kind);

describe('samplingWarnings on constructed draws', () => {
  it('iid draws and a healthy trace: no warning', () => {
    expect(samplingWarnings({ mu: iid(1), theta: normal(key(2), [N, C, 3]) }, healthyTrace())).toEqual([]);
    expect(samplingWarnings(iid(1))).toEqual([]);
  });

  it('rhat: one chain shifted by 0.5 sd; names the parameter and the value', () => {
    const ws = samplingWarnings({ mu: iid(3, (_d, c, v) => v + (c === 3 ? 0.5 : 0)), sigma: iid(4) }, healthyTrace());
    const w = ws.find((x) => x.kind === 'rhat')!;
    expect(w.variables).toEqual(['mu']);
    expect(w.message).toMatch(/^R-hat is above 1\.01 for 1 parameter of 2 \(mu 1\.0\d\d\)/);
    expect(w.message).toMatch(/more warm-up and draws/);
    // The same shift is a chain that disagrees: chain 3 alone, on mu.
    const d = ws.find((x) => x.kind === 'chains-disagree')!;
    expect(d.chains).toEqual([3]);
    expect(d.variables).toEqual(['mu']);
    expect(d.message).toMatch(/chain 3's mean of mu is 0\.\d+ against -?0\.0\d+ in the other chains/);
  });

  it('ess-bulk and ess-tail: AR(1) chains with φ = 0.99 (ESS ≈ 20 of 4000); the threshold is 100 per chain', () => {
    const v = normal(key(5), [N, C]).data as Float64Array;
    const ar = new Float64Array(N * C);
    for (let c = 0; c < C; c++) {
      let x = 0;
      for (let d = 0; d < N; d++) { x = 0.99 * x + Math.sqrt(1 - 0.99 ** 2) * v[d * C + c]!; ar[d * C + c] = x; }
    }
    const ws = samplingWarnings({ a: new Tensor(ar, [N, C], 'float64'), b: iid(6) });
    expect(kinds(ws)).toContain('ess-bulk');
    expect(kinds(ws)).toContain('ess-tail');
    const bulk = ws.find((w) => w.kind === 'ess-bulk')!;
    expect(bulk.variables).toEqual(['a']);
    expect(bulk.message).toMatch(/^Bulk ESS is below 100 per chain \(400 for 4 chains\) for 1 parameter \(a \d+\)/);
    expect(ws.find((w) => w.kind === 'ess-tail')!.message).toMatch(/^Tail ESS .* quantiles/);
    // One chain: the rule is ESS < 100 (and R-hat and chains-disagree do not apply).
    const one = samplingWarnings(new Tensor(ar.filter((_, i) => i % C === 0), [N, 1], 'float64'));
    expect(kinds(one)).toEqual(['ess-bulk', 'ess-tail']);
    expect(one[0]!.message).toMatch(/\(100 for 1 chain\)/);
  });

  it('divergences: counts those after warm-up only (tune, or warmupDraws), per chain', () => {
    const div = new Uint8Array(N * C);
    for (const [d, c] of [[5, 0], [500, 2], [501, 2], [999, 2], [10, 1]]) div[d! * C + c!] = 1;
    const tune = new Uint8Array(N * C).fill(1, 0, 100 * C);   // the first 100 records are warm-up
    const trace = { ...healthyTrace(), diverging: new Tensor(div, [N, C], 'bool'), tune: new Tensor(tune, [N, C], 'bool') };
    const ws = samplingWarnings(iid(7), trace);
    expect(kinds(ws)).toEqual(['divergences']);
    expect(ws[0]!.chains).toEqual([2]);
    expect(ws[0]!.message).toBe('3 of 3600 transitions after warm-up diverged (chain 2: 3): the sampler could not follow the posterior\'s curvature there, '
      + 'so the draws may be biased. Raise targetAcceptProb (e.g. 0.95 or 0.99), or reparameterise (e.g. a non-centred hierarchical model).');
    // warmupDraws overrides tune; 0 counts them all.
    expect(samplingWarnings(iid(7), trace, { warmupDraws: 0 })[0]!.message).toMatch(/^5 of 4000 transitions after warm-up diverged \(chain 0: 1, chain 1: 1, chain 2: 3\)/);
    expect(samplingWarnings(iid(7), trace, { warmupDraws: 600 })[0]!.message).toMatch(/^1 of 1600 /);
  });

  it('tree-depth: transitions at maxTreeDepth (default 10) or deeper', () => {
    const depth = new Int32Array(N * C).fill(4);
    for (let d = 0; d < 7; d++) depth[d * C + 1] = 10;
    depth[3 * C + 3] = 6;
    const trace = { ...healthyTrace(), treeDepth: new Tensor(depth, [N, C], 'int32') };
    const ws = samplingWarnings(iid(8), trace);
    expect(kinds(ws)).toEqual(['tree-depth']);
    expect(ws[0]!.chains).toEqual([1]);
    expect(ws[0]!.message).toMatch(/^7 of 4000 transitions \(0\.18%\) hit the maximum tree depth 10 \(chain 1: 7\): .*Raise maxTreeDepth/);
    expect(samplingWarnings(iid(8), trace, { maxTreeDepth: 6 })[0]!.message).toMatch(/^8 of 4000 .* depth 6 \(chain 1: 7, chain 3: 1\)/);
    expect(samplingWarnings(iid(8), trace, { maxTreeDepth: 11 })).toEqual([]);
  });

  it('e-bfmi: a chain whose energy is a slow AR(1) (E-BFMI ≈ 0.02) is named; iid energies (≈ 2) are not', () => {
    const e = healthyTrace().energy!.data as Float64Array;
    const energy = Float64Array.from(e);
    let x = 0;
    for (let d = 0; d < N; d++) { x = 0.99 * x + e[d * C + 1]!; energy[d * C + 1] = x; }
    const ws = samplingWarnings(iid(9), { ...healthyTrace(), energy: new Tensor(energy, [N, C], 'float64') });
    expect(kinds(ws)).toEqual(['e-bfmi']);
    expect(ws[0]!.chains).toEqual([1]);
    expect(ws[0]!.message).toMatch(/^E-BFMI is below 0\.3 in 1 chain \(chain 1 0\.0\d\): .*Reparameterise/);
  });

  it('chains-disagree on the log density: chain 2 lower by 0.5 sd; its mean and the others\' in the message', () => {
    const lp = iid(10, (_d, c, v) => v - 20 - (c === 2 ? 0.5 : 0));
    const ws = samplingWarnings({ x: iid(11) }, { ...healthyTrace(), targetLogProb: lp });
    expect(kinds(ws)).toEqual(['chains-disagree']);
    expect(ws[0]!.chains).toEqual([2]);
    expect(ws[0]!.variables).toEqual(['lp']);
    expect(ws[0]!.message).toMatch(/^1 chain of 4 disagrees with the others beyond Monte Carlo error: chain 2's mean log density is -20\.\d+ against -(19\.9|20\.0)\d* in the other chains \(z = -\d+\.\d\)\. It may be stuck in another mode/);
    expect(ws[0]!.message).toMatch(/init, currentState/);
  });

  it('chains-disagree by separation: a chain far below the others that drifts (its own error too large for z) is named', () => {
    // Chains 0–2 iid N(−2107, 3²); chain 3 wanders slowly between −2560 and −2500 (one slow
    // sine: its own ESS is ~1, so its Monte Carlo error swamps the z-test), as rstan's seed 5 on
    // low_dim_gauss_mix did. The z-test alone does not flag it; the separation rule does.
    const lp = iid(12, (d, c, v) => (c === 3 ? -2530 + 30 * Math.sin((2 * Math.PI * d) / N) : -2107 + 3 * v));
    const chainsOf = (t: Tensor) => {
      const v = t.data as Float64Array, out = new Float64Array(N * C);
      for (let d = 0; d < N; d++) for (let c = 0; c < C; c++) out[c * N + d] = v[d * C + c]!;
      return { data: out, chains: C, draws: N };
    };
    // With chain 3 in the z-test's reference, the z-test alone names a healthy chain (chain 3's
    // low scores drag the others' mean) and never chain 3 (its own error is huge):
    expect(flaggedChains([chainsOf(lp)], chainsDisagreeThreshold(2 * C)).map((f) => f.chain)).not.toContain(3);
    const ws = samplingWarnings({ x: iid(13) }, { ...healthyTrace(), targetLogProb: lp });
    const d = ws.find((w) => w.kind === 'chains-disagree')!;
    expect(d.chains).toEqual([3]);   // separated first, then left out of the z-test: chain 2 is not named
    expect(d.message).toMatch(/chain 3's mean log density is -2\d+\.?\d* against -2107\.?\d* in the other chains \(95% of its log densities lie below 95% of theirs\)/);
    // A healthy lp (iid, the same law in every chain) is never separated.
    expect(kinds(samplingWarnings({ x: iid(13) }, { ...healthyTrace(), targetLogProb: iid(14, (_d, _c, v) => -2107 + 3 * v) }))).toEqual([]);
  });

  it('chains-disagree: two chains of four against the other two: one pair is named (with the log density, the lower pair); of two chains, both', () => {
    const x = iid(12, (_d, c, v) => v + (c === 0 || c === 3 ? 3 : 0));
    // Two against two: one pair is named (which one is a toss-up; either says the chains split).
    expect([[0, 3], [1, 2]]).toContainEqual(samplingWarnings({ x }).find((w) => w.kind === 'chains-disagree')!.chains);
    const lp = iid(20, (_d, c, v) => v - (c === 0 || c === 3 ? 3 : 0));
    // With the log density, the pair with the lower log density is named: chains 0 and 3 (lower by 3), either way round.
    const both = samplingWarnings({ x }, { ...healthyTrace(), targetLogProb: lp }).find((w) => w.kind === 'chains-disagree')!;
    expect(both.chains).toEqual([0, 3]);
    const flipped = iid(20, (_d, c, v) => v - (c === 1 || c === 2 ? 3 : 0));
    expect(samplingWarnings({ x }, { ...healthyTrace(), targetLogProb: flipped }).find((w) => w.kind === 'chains-disagree')!.chains).toEqual([1, 2]);
    expect(both.variables).toEqual(expect.arrayContaining(['lp', 'x']));
    const two = iid(13, (_d, c, v) => v + (c === 1 ? 3 : 0), N, 2);
    expect(samplingWarnings({ x: two }).find((w) => w.kind === 'chains-disagree')!.chains).toEqual([0, 1]);
  });

  it('chains-disagree: rank-normalised, so a heavy-tailed parameter (Cauchy-like) does not raise a false alarm, and a shift does', () => {
    const v = normal(key(14), [N, C, 2]).data as Float64Array;
    const ratio = new Float64Array(N * C);
    for (let i = 0; i < N * C; i++) ratio[i] = v[2 * i]! / v[2 * i + 1]!;   // standard Cauchy
    expect(samplingWarnings({ t: new Tensor(ratio, [N, C], 'float64') })).toEqual([]);
    expect(flaggedChains([{ data: Float64Array.from({ length: 2 * 40 }, (_, i) => (i < 40 ? i : i + 0.5)), chains: 2, draws: 40 }], 3)).toEqual([]);
  });

  it('the chains-disagree threshold is Bonferroni at α = 1e-4 over chains × quantities', () => {
    expect(chainsDisagreeThreshold(8)).toBeCloseTo(4.3687, 3);
    expect(chainsDisagreeThreshold(44)).toBeCloseTo(4.7275, 3);
  });

  it('NaN draws, constant draws and one chain skip the checks that cannot be made', () => {
    const x = iid(15);
    (x.data as Float64Array)[17] = Number.NaN;
    expect(samplingWarnings({ x, c: new Tensor(new Float64Array(N * C).fill(2), [N, C], 'float64') })).toEqual([]);
  });

  it('a custom trace (other fields, other shapes) is ignored; an array of parts is named x0, x1 or by names', () => {
    expect(samplingWarnings(iid(16), { foo: tensor([1, 2, 3]), diverging: tensor([true, false]) })).toEqual([]);
    expect(samplingWarnings(iid(16), { energy: 'high', treeDepth: { a: 1 } })).toEqual([]);
    const shifted = iid(17, (_d, c, v) => v + (c === 0 ? 1 : 0));
    expect(samplingWarnings([iid(18), shifted]).find((w) => w.kind === 'rhat')!.variables).toEqual(['x1']);
    expect(samplingWarnings([iid(18), shifted], undefined, { names: ['a', 'b'] }).find((w) => w.kind === 'rhat')!.variables).toEqual(['b']);
    expect(samplingWarnings({ theta: new Tensor(Float64Array.from({ length: N * C * 2 }, (_, i) => (normal(key(19), [N * C * 2]).data as Float64Array)[i]! + (i % 8 === 1 ? 1 : 0)), [N, C, 2], 'float64') })
      .find((w) => w.kind === 'rhat')!.variables).toEqual(['theta[1]']);
  });

  it('coords and dims name the parameters by coordinate, in the messages, variables and chains-disagree, as summary\'s rows', () => {
    // theta[·, 1] of chain 3 shifted by 3 sd: R-hat, ESS and chains-disagree fire for that element only
    const z = normal(key(20), [N, C, 2, 2]).data as Float64Array;
    const theta = new Tensor(Float64Array.from(z, (v, i) => v + (Math.floor(i / 4) % C === 3 && i % 2 === 1 ? 3 : 0)), [N, C, 2, 2], 'float64');
    const labels = { coords: { school: ['Choate', 'Deerfield'], coef: ['a', 'b'] }, dims: { theta: ['school', 'coef'], y: ['obs'] } };
    const w = samplingWarnings({ mu: iid(21), theta }, undefined, labels);
    const rhat = w.find((x) => x.kind === 'rhat')!;
    expect(rhat.variables).toHaveLength(2);
    expect([...rhat.variables!].sort()).toEqual(['theta[Choate, b]', 'theta[Deerfield, b]']);
    expect(rhat.message).toMatch(/\(theta\[(Choate|Deerfield), b\] 1\.\d+, theta\[(Choate|Deerfield), b\] 1\.\d+\)/);
    expect(w.find((x) => x.kind === 'chains-disagree')!.variables).toEqual(expect.arrayContaining(['theta[Choate, b]']));
    // the same labels as summary's rows; without coords, indices (ArviZ's default coordinates)
    const rows = summary({ mu: iid(21), theta }, labels).rows.map((r) => r.name);
    for (const x of w) for (const v of x.variables ?? []) expect(rows).toContain(v);
    expect(samplingWarnings({ mu: iid(21), theta }).find((x) => x.kind === 'rhat')!.variables!.every((v) => /^theta\[[01], 1\]$/.test(v))).toBe(true);
    // dims alone: the axes' indices; a dims entry that does not fit its variable is an error naming it
    expect(samplingWarnings({ theta }, undefined, { dims: { theta: ['school', 'coef'] } })[0]!.variables!.every((v) => /^theta\[[01], 1\]$/.test(v))).toBe(true);
    expect(() => samplingWarnings({ theta }, undefined, { dims: { theta: ['school'] } })).toThrow(/samplingWarnings.*dims/);
    expect(() => samplingWarnings({ theta }, undefined, { coords: { school: ['A'] }, dims: { theta: ['school', 'coef'] } })).toThrow(RangeError);
  });

  it('windowedAdaptiveNuts passes its coords and dims to its warnings', () => {
    const model = new JointDistributionNamed({ theta: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 2 }) });
    const r = windowedAdaptiveNuts(model, { seed: 0, nDraws: 50, numAdaptationSteps: 100, coords: { school: ['Choate', 'Deerfield'] }, dims: { theta: ['school'] } });
    const bulk = r.warnings.find((x) => x.kind === 'ess-bulk')!;   // 200 draws cannot give 400
    expect([...bulk.variables!].sort()).toEqual(['theta[Choate]', 'theta[Deerfield]']);
    expect(bulk.message).toMatch(/theta\[Choate\]/);
  });

  it('bad input: TypeError/RangeError naming samplingWarnings and the argument', () => {
    expect(() => samplingWarnings(iid(1), 3)).toThrow(TypeError);
    expect(() => samplingWarnings(iid(1), 3)).toThrow(/samplingWarnings.*trace/);
    expect(() => samplingWarnings(iid(1), undefined, { maxDepth: 3 } as never)).toThrow(/samplingWarnings.*maxDepth/);
    expect(() => samplingWarnings(iid(1), undefined, { maxTreeDepth: 0 })).toThrow(/samplingWarnings.*maxTreeDepth/);
    expect(() => samplingWarnings(iid(1), undefined, { warmupDraws: N })).toThrow(RangeError);
    expect(() => samplingWarnings(iid(1), undefined, { warmupDraws: -1 })).toThrow(/samplingWarnings.*warmupDraws/);
    expect(() => samplingWarnings({ a: iid(1), b: iid(2, undefined, 10) })).toThrow(/samplingWarnings.*draws\.b/);
    expect(() => samplingWarnings('x' as never)).toThrow(TypeError);
    expect(() => samplingWarnings([iid(1)], undefined, { names: ['a', 'b'] })).toThrow(/samplingWarnings.*names/);
  });
});

describe('samplingWarnings on real runs (windowedAdaptiveNuts)', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('a standard normal, 4 × 1000 (seed 0): warnings is [] and nothing is printed', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }), v: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }) });
    const r = windowedAdaptiveNuts(model, { seed: 0 });
    expect(r.warnings).toEqual([]);
    expect(samplingWarnings(r.draws, r.trace)).toEqual([]);
    expect(spy).not.toHaveBeenCalled();
  });

  // A bimodal posterior: x ~ N(5, 5), y ~ N(x², 1) with y = 100 has modes at x ≈ ±10, the one at −10 with about e⁻⁴ of
  // the mass (the prior), behind a barrier of ~5000 nats at x = 0. Chains started at −10 stay there.
  const bimodal = new JointDistributionNamed({
    x: new Normal({ loc: 5, scale: 5 }),
    y: (x: Tensor) => new Normal({ loc: mul(x, x), scale: 1 }),
  });
  const pins = { y: tensor(100) };

  it('chains-disagree: one of four chains started in the far minor mode is named (and R-hat fires); onWarning and warn get each warning', () => {
    const seen: SamplingWarning[] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const r = windowedAdaptiveNuts(bimodal, { pins, seed: 1, nDraws: 500, numAdaptationSteps: 300, currentState: { x: tensor([10, 10, 10, -10]) }, onWarning: (w) => seen.push(w), warn: true });
    const x = r.draws.x.data as Float64Array;
    for (let d = 0; d < 500; d++) expect(x[d * 4 + 3]).toBeLessThan(0);   // it stayed there
    expect(kinds(r.warnings)).toContain('rhat');
    const d = r.warnings.find((w) => w.kind === 'chains-disagree')!;
    expect(d.chains).toEqual([3]);
    expect(d.variables).toEqual(expect.arrayContaining(['lp', 'x']));
    expect(d.message).toMatch(/chain 3's mean (log density|of x)/);
    expect(seen).toEqual(r.warnings);
    expect(spy.mock.calls.map((c) => c[0])).toEqual(r.warnings.map((w) => `windowedAdaptiveNuts: ${w.message}`));
  });

  it('chains-disagree with two chains: both are named, the minor mode\'s lower log density in the message', () => {
    const r = windowedAdaptiveNuts(bimodal, { pins, seed: 2, nChains: 2, nDraws: 500, numAdaptationSteps: 300, currentState: { x: tensor([10, -10]) } });
    const d = r.warnings.find((w) => w.kind === 'chains-disagree')!;
    expect(d.chains).toEqual([0, 1]);
    expect(d.message).toMatch(/chain 1's mean log density is (-?\d+\.?\d*) against (-?\d+\.?\d*)/);
    const [, lp1, lp0] = /chain 1's mean log density is (-?[\d.]+) against (-?[\d.]+)/.exec(d.message)!;
    expect(Number(lp1)).toBeLessThan(Number(lp0) - 3);   // the minor mode: about 4 nats lower
  });

  it('divergences: Neal\'s funnel (centred) diverges after warm-up; the warning counts what the trace counts', () => {
    const funnel = new JointDistributionNamed({
      v: new Normal({ loc: 0, scale: 3 }),
      z: (v: Tensor) => new Sample({ distribution: new Normal({ loc: 0, scale: exp(mul(v, 0.5)) }), sampleShape: 4 }),
    });
    const r = windowedAdaptiveNuts(funnel, { seed: 0, nDraws: 500, numAdaptationSteps: 300 });
    const div = Array.from(r.trace.diverging.data as Uint8Array).filter((b) => b !== 0).length;
    expect(div).toBeGreaterThan(0);
    const w = r.warnings.find((x) => x.kind === 'divergences')!;
    expect(w.message.startsWith(`${div} of 2000 transitions after warm-up diverged`)).toBe(true);
  });

  it('tree-depth: a standard normal with maxTreeDepth 1 hits it nearly always', () => {
    const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }) });
    const r = windowedAdaptiveNuts(model, { seed: 0, maxTreeDepth: 1, nDraws: 300, numAdaptationSteps: 200 });
    const hits = Array.from(r.trace.treeDepth.data as Int32Array).filter((d) => d >= 1).length;
    const w = r.warnings.find((x) => x.kind === 'tree-depth')!;
    expect(w.message.startsWith(`${hits} of 1200 transitions`)).toBe(true);
    expect(w.message).toMatch(/maximum tree depth 1 /);
    expect(hits).toBeGreaterThan(1000);
  });

  it('a pooled run whose traceFn returns one tensor: warnings from the draws alone', () => {
    const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }) });
    const r = windowedAdaptiveNuts(model, { seed: 0, adaptation: 'pooled', nDraws: 50, numAdaptationSteps: 100, traceFn: (_s, _b, _a, k) => k.hasDivergence });
    expect(r.trace).toBeInstanceOf(Tensor);
    expect(kinds(r.warnings)).toContain('ess-bulk');   // 200 draws cannot give 400
    expect(kinds(r.warnings).filter((k) => !['rhat', 'ess-bulk', 'ess-tail', 'chains-disagree'].includes(k))).toEqual([]);   // nothing from the trace
  });

  it('warn and onWarning are checked before sampling', () => {
    const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }) });
    expect(() => windowedAdaptiveNuts(model, { warn: 'yes' as never })).toThrow(/windowedAdaptiveNuts.*warn/);
    expect(() => windowedAdaptiveNuts(model, { onWarning: 3 as never })).toThrow(/windowedAdaptiveNuts.*onWarning/);
    expect(() => windowedAdaptiveNuts(model, { onWarnings: () => {} } as never)).toThrow(/onWarnings/);
  });

  it('discardTuning: false: the warm-up records are left out (tune), pooled adaptation too', () => {
    const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }) });
    const r = windowedAdaptiveNuts(model, { seed: 0, nDraws: 1000, numAdaptationSteps: 200, discardTuning: false });
    expect(r.draws.x.shape).toEqual([1200, 4]);
    expect(r.warnings).toEqual([]);
    const p = windowedAdaptiveNuts(model, { seed: 0, adaptation: 'pooled', nDraws: 1000, numAdaptationSteps: 200 });
    expect(p.warnings).toEqual([]);
  });
});

describe('the other samplers return warnings too', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('windowedAdaptiveNutsChains (in this thread and on a worker): the warnings of all chains together, as windowedAdaptiveNuts gives them', async () => {
    const model = new URL('../parallel/fixtures/joint-model.ts', import.meta.url);
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const seen: SamplingWarning[] = [];
    const here = await windowedAdaptiveNutsChains({ model, workers: 0, seed: 3, onWarning: (w) => seen.push(w), warn: true });
    // The module's 25 draws per chain are too few for 100 per chain.
    expect(kinds(here.warnings)).toContain('ess-bulk');
    expect(seen).toEqual(here.warnings);
    expect(spy.mock.calls.map((c) => c[0])).toEqual(here.warnings.map((w) => `windowedAdaptiveNuts: ${w.message}`));
    const onWorker = await windowedAdaptiveNutsChains({ model, workers: 1, seed: 3 });
    expect(onWorker.warnings).toEqual(here.warnings);
    expect(spy).toHaveBeenCalledTimes(here.warnings.length);   // warn defaults to false
    await expect(windowedAdaptiveNutsChains({ model, workers: 0, warn: 1 as never })).rejects.toThrow(/windowedAdaptiveNutsChains.*warn/);
  }, 60_000);

  it('sampleChains: warnings from the draws and the trace fields it records (here targetLogProb)', async () => {
    const model = new URL('../parallel/fixtures/gaussian-model.ts', import.meta.url);
    const seen: SamplingWarning[] = [];
    const r = await sampleChains({ model, chains: 2, workers: 0, seed: 0, numResults: 40, numBurninSteps: 20, onWarning: (w) => seen.push(w) });
    expect(kinds(r.warnings)).toContain('ess-bulk');   // 80 draws cannot give 200
    expect(seen).toEqual(r.warnings);
    await expect(sampleChains({ model, chains: 2, workers: 0, numResults: 5, onWarning: 'x' as never })).rejects.toThrow(/sampleChains.*onWarning/);
  }, 60_000);
});

describe('warnings are computed when first read, unless a hook asks for them at once', () => {
  it('the same list either way; an enumerable field kept once computed', () => {
    const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }) });
    const o = { seed: 4, nDraws: 40, numAdaptationSteps: 40, cores: 1 } as const;   // short: ESS warnings appear
    const lazy = windowedAdaptiveNuts(model, o);
    expect(Object.keys(lazy)).toContain('warnings');
    const seen: SamplingWarning[] = [];
    const eager = windowedAdaptiveNuts(model, { ...o, onWarning: (w) => seen.push(w) });
    expect(lazy.warnings.length).toBeGreaterThan(0);
    expect(lazy.warnings).toEqual(eager.warnings);
    expect(seen).toEqual(eager.warnings);
    expect(lazy.warnings).toBe(lazy.warnings);
    expect(lazy.warnings).toEqual(samplingWarnings(lazy.draws, lazy.trace, { maxTreeDepth: 10 }));
    expect({ ...lazy }.warnings).toEqual(eager.warnings);
  });
});
