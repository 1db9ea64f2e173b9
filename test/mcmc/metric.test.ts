// The metric (mcmc/internal/metric.ts): one chain's diagonal and dense metrics (momentum draw,
// velocity, kinetic energy) and the tensor kernels' batched diagonal metric (per-chain kinetic
// energies, inner product, U-turn check, momentum draws); the two agree bit for bit where they
// define the same quantity; the NUTS trajectory keeps no state between kernels.
// Deterministic: false-failure rate 0.
import { describe, expect, it } from 'vitest';
import { BatchMetric, DenseMetric, DiagonalMetric, diagonalMetric, identityMetric } from '../../mcmc/internal/metric.js';
import { geometryOf } from '../../mcmc/internal/geometry.js';
import { NoUTurnSampler } from '../../mcmc/kernels/no-u-turn-sampler.js';
import { getModes } from '../../src/config.js';
import { random } from '../../src/index.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { Tensor, tensor } from '../../src/tensor/tensor.js';
import { correlatedGaussian, twoParts } from './conjugate.js';

const f64 = (...v: number[]) => Float64Array.from(v);

describe('DiagonalMetric (one chain)', () => {
  it('draws p = z/√m, has velocity m·p and kinetic energy ½ Σ p·(m·p), bit for bit', () => {
    const m = f64(4, 0.25, 2), z = f64(1, -1, 0.5);
    const metric = new DiagonalMetric(m);
    expect(metric.kind).toBe('diagonal');
    expect(metric.dim).toBe(3);
    const p = new Float64Array(3), v = new Float64Array(3);
    metric.sampleMomentum(z, p);
    expect(Array.from(p)).toEqual([0.5, -2, 0.5 / Math.sqrt(2)]);
    const k = metric.kineticEnergy(p, v);
    expect(Array.from(v)).toEqual(Array.from(p, (pi, i) => m[i]! * pi));
    expect(k).toBe(0.5 * (p[0]! * v[0]! + p[1]! * v[1]! + p[2]! * v[2]!));
    const w = new Float64Array(3);
    metric.velocity(p, w);
    expect(Array.from(w)).toEqual(Array.from(v));
  });

  it('reads its inverse mass in place (adaptation writes it)', () => {
    const m = f64(1, 1);
    const metric = new DiagonalMetric(m);
    m[1] = 9;
    const p = new Float64Array(2);
    metric.sampleMomentum(f64(3, 3), p);
    expect(Array.from(p)).toEqual([3, 1]);
  });
});

describe('DenseMetric (one chain)', () => {
  const cov = f64(2, 0.6, -0.3, 0.6, 1, 0.2, -0.3, 0.2, 0.5);

  it('is the identity until set', () => {
    const metric = new DenseMetric(2);
    const p = new Float64Array(2), v = new Float64Array(2);
    metric.sampleMomentum(f64(0.3, -1.2), p);
    expect(Array.from(p)).toEqual([0.3, -1.2]);
    expect(metric.kineticEnergy(p, v)).toBeCloseTo(0.5 * (0.09 + 1.44), 15);
  });

  it('draws p = L⁻ᵀz, so ½ pᵀΣp = ½ zᵀz; velocity Σp', () => {
    const metric = new DenseMetric(3);
    metric.set(cov, 'test');
    expect(metric.kind).toBe('dense');
    const z = f64(0.7, -1.1, 0.4), p = new Float64Array(3), v = new Float64Array(3);
    metric.sampleMomentum(z, p);
    expect(metric.kineticEnergy(p, v)).toBeCloseTo(0.5 * (0.49 + 1.21 + 0.16), 14);
    for (let i = 0; i < 3; i++) expect(v[i]).toBeCloseTo(cov[3 * i]! * p[0]! + cov[3 * i + 1]! * p[1]! + cov[3 * i + 2]! * p[2]!, 14);
  });

  it('with a diagonal Σ gives the DiagonalMetric’s bits', () => {
    const d = f64(0.3, 2.5, 1.7), z = f64(-0.4, 1.9, 0.8);
    const dense = new DenseMetric(3);
    dense.set(f64(d[0]!, 0, 0, 0, d[1]!, 0, 0, 0, d[2]!), 'test');
    const diag = new DiagonalMetric(Float64Array.from(d));
    const [pa, pb, va, vb] = [0, 0, 0, 0].map(() => new Float64Array(3)) as [Float64Array, Float64Array, Float64Array, Float64Array];
    dense.sampleMomentum(z, pa); diag.sampleMomentum(z, pb);
    expect(Array.from(pa)).toEqual(Array.from(pb));
    expect(dense.kineticEnergy(pa, va)).toBe(diag.kineticEnergy(pb, vb));
    expect(Array.from(va)).toEqual(Array.from(vb));
  });

  it('refuses a Σ that is not positive definite, naming the caller', () => {
    expect(() => new DenseMetric(2).set(f64(1, 2, 2, 1), 'windowedAdaptiveNuts')).toThrow(/windowedAdaptiveNuts: the adapted dense metric is not positive definite/);
    expect(() => new DenseMetric(2).set(f64(1, 2, 2, 1), 'x')).toThrow(RangeError);
  });
});

describe('BatchMetric (the tensor kernels’ diagonal metric)', () => {
  // Two parts, [3] and [3, 2]: three chains.
  const g = geometryOf('test', [tensor([0, 0, 0]), tensor([[0, 0], [0, 0], [0, 0]])], tensor([0, 0, 0]));
  const p = [f64(1, -2, 0.5), f64(0.3, 1, -1, 2, 0.25, -0.5)];
  const m = [f64(2, 0.5, 1.5), f64(1, 4, 0.5, 0.25, 3, 1)];

  it('kinetic energy per chain: ½ Σ p·(m·p) over the chain’s elements of every part', () => {
    const k = new BatchMetric(m, g).kineticEnergy(p);
    const want = [0, 1, 2].map((c) => 0.5 * (m[0]![c]! * p[0]![c]! ** 2) + 0.5 * (m[1]![2 * c]! * p[1]![2 * c]! ** 2 + m[1]![2 * c + 1]! * p[1]![2 * c + 1]! ** 2));
    k.forEach((v, c) => expect(v).toBeCloseTo(want[c]!, 14));
    [0, 1, 2].forEach((c) => expect(new BatchMetric(m, g).chainKineticEnergy(p, c)).toBeCloseTo(want[c]!, 14));
  });

  it('identity parts (null) and undefined inverseMassDiag entries are unit masses', () => {
    const a = new BatchMetric([null, m[1]!], g), b = new BatchMetric([f64(1, 1, 1), m[1]!], g);
    expect(Array.from(a.kineticEnergy(p))).toEqual(Array.from(b.kineticEnergy(p)));
    expect(diagonalMetric('test', [undefined, tensor([1, 4])], g).invMass[0]).toBeNull();
    expect(Array.from(diagonalMetric('test', [undefined, tensor([1, 4])], g).invMass[1]!)).toEqual([1, 4, 1, 4, 1, 4]);
    expect(identityMetric(g).invMass).toEqual([null, null]);
  });

  it('inner product ⟨a, b⟩ = Σ a·b·m per chain; velocity m·p; the U-turn check', () => {
    const metric = new BatchMetric(m, g);
    const q = [f64(0.5, 1, -1), f64(1, 1, 1, 1, 1, 1)];
    expect(metric.innerProduct(p, q, 1)).toBeCloseTo(-2 * 1 * 0.5 + (-1 * 1 * 0.5 + 2 * 1 * 0.25), 14);
    const v = [new Float64Array(3), new Float64Array(6)];
    metric.velocity(p, v);
    expect(Array.from(v[1]!)).toEqual(Array.from(p[1]!, (x, i) => m[1]![i]! * x));
    // Momentum sum along both ends: no U-turn; against one end: a U-turn.
    expect(metric.isTurning(p, p, p, 0)).toBe(false);
    expect(metric.isTurning(p, p.map((a) => a.map((x) => -x)), p, 0)).toBe(true);
  });

  it('draws p = z/√m from one key per part (z: the identity metric’s draw from the same keys)', () => {
    const keys = splitSeed(random.key(3), { n: 2 });
    const z = identityMetric(g).sampleMomentum(keys, getModes());
    const pm = new BatchMetric(m, g).sampleMomentum(keys, getModes());
    pm.forEach((pk, k) => pk.forEach((v, i) => expect(v).toBe(z[k]![i]! / Math.sqrt(m[k]![i]!))));
  });

  it('one chain with one part: the same kinetic energy as the per-chain DiagonalMetric, bit for bit', () => {
    const g1 = geometryOf('test', [tensor([0, 0, 0, 0])], tensor(0));
    const mm = f64(0.7, 1.9, 3.3, 0.2), pp = f64(1.3, -0.7, 0.11, 2.9);
    expect(new BatchMetric([mm], g1).kineticEnergy([pp])[0]).toBe(new DiagonalMetric(mm).kineticEnergy(pp, new Float64Array(4)));
  });
});

describe('NUTS trajectories keep no shared state', () => {
  it('two kernels stepping in turn give each one’s draws alone', () => {
    const cg = correlatedGaussian(4);
    const make = () => [
      new NoUTurnSampler({ targetLogProbAndGradFn: twoParts, stepSize: [0.4, 0.3], inverseMassDiag: [tensor([0.7, 1.3, 2.1]), tensor([0.5, 2.5])] }),
      new NoUTurnSampler({ targetLogProbAndGradFn: cg.targetLogProbAndGradFn, stepSize: 0.5 }),
    ];
    const init = [[tensor([0.5, -1, 2]), tensor([[0.1, 0.2], [1, -1], [0, 3]])], tensor([[0.1, 0.2, 0.3, 0.4]])];
    const seeds = splitSeed(random.key(9), { n: 20 });
    const flat = (s: unknown) => (Array.isArray(s) ? s : [s]).flatMap((t: Tensor) => Array.from(t.data as Float64Array));
    /** Steps the kernels `order` says (indices into kernels), recording each kernel's states. */
    const run = (kernels: NoUTurnSampler[], order: number[]) => {
      const st = init.slice() as unknown[], res = kernels.map((k, i) => k.bootstrapResults(st[i] as never));
      const out: number[][][] = kernels.map(() => []);
      const step = kernels.map(() => 0);
      for (const i of order) {
        [st[i], res[i]] = kernels[i]!.oneStep(st[i] as never, res[i]!, seeds[step[i]!]!);
        step[i]!++;
        out[i]!.push(flat(st[i]));
      }
      return out;
    };
    const order = Array.from({ length: 40 }, (_, t) => t % 2);
    const together = run(make(), order);
    const a = run(make(), new Array<number>(20).fill(0))[0]!, b = run(make(), new Array<number>(20).fill(1))[1]!;
    expect(together[0]).toEqual(a);
    expect(together[1]).toEqual(b);
  });
});
