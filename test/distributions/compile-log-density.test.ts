import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  Bernoulli, compileLogDensity, Gamma, HalfNormal, Independent, isCompiledLogDensity, JointDistributionNamed, JointDistributionSequential, LKJ, Normal, Sample,
} from '../../distributions/index.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { nonCentered, y } from '../../examples/eight-schools.js';
import { windowedAdaptiveNuts } from '../../mcmc/index.js';
import { expandDims, matmul, mul, Tensor, tensor, valueAndGrad, type Tensor as T } from '../../src/index.js';
import { newSpaceGrowth, randTensor } from '../helpers.js';

/** The tape's value and gradient of the flat unconstrained target at x (the pre-compiler path). */
function tape(model: Parameters<typeof compileLogDensity>[0], pins: Record<string, unknown>, x: Float64Array, sizes: readonly number[]): [number, number[]] {
  const m = flatModel('test', (model as JointDistributionNamed).experimentalPin(pins as never));
  let o = 0;
  const parts = sizes.map((n) => { const p = new Tensor(x.slice(o, o + n), [n], 'float64'); o += n; return p; });
  const [v, g] = valueAndGrad((...xs: T[]) => m.target(...xs), parts.map((_, i) => i))(...parts) as [T, T[]];
  return [v.data[0] as number, g.flatMap((t) => Array.from(t.data as Float64Array))];
}

describe('compileLogDensity (BridgeStan\'s model interface)', () => {
  const ld = compileLogDensity(nonCentered, { pins: { y } });

  it('names one coordinate per unconstrained dimension', () => {
    expect(ld.dim).toBe(10);
    expect(isCompiledLogDensity(ld)).toBe(true);
    expect(isCompiledLogDensity({})).toBe(false);
    expect([...ld.paramNames].sort()).toEqual(['mu', 'tau', ...Array.from({ length: 8 }, (_, i) => `thetaTilde[${i}]`)].sort());
    for (const p of ld.params) expect(ld.paramNames[p.offset]).toBe(p.shape.length === 0 ? p.name : `${p.name}[0]`);
  });

  it('gives the tape\'s log density and gradient bit for bit, at points away from the trace point', () => {
    const grad = new Float64Array(ld.dim);
    for (const scale of [0.3, -1.7, 4]) {
      const x = Float64Array.from({ length: ld.dim }, (_, i) => scale * Math.sin(i + 1));
      const lp = ld.logDensityGradient(x, grad);
      const [v, g] = tape(nonCentered, { y }, x, ld.params.map((p) => p.size));
      expect(lp).toBe(v);
      expect(Array.from(grad)).toEqual(g);
      expect(ld.logDensity(x)).toBe(lp);
    }
  });

  it('its gradient matches central finite differences', () => {
    const x = Float64Array.from({ length: ld.dim }, (_, i) => 0.2 * Math.cos(i));
    const grad = new Float64Array(ld.dim);
    ld.logDensityGradient(x, grad);
    for (let i = 0; i < ld.dim; i++) {
      const h = 1e-6, up = x.slice(), down = x.slice();
      up[i]! += h; down[i]! -= h;
      const fd = (ld.logDensity(up) - ld.logDensity(down)) / (2 * h);
      expect(Math.abs(fd - grad[i]!)).toBeLessThan(1e-6 * Math.max(1, Math.abs(fd)));
    }
  });

  it('constrain and unconstrain are inverse maps onto the model\'s support', () => {
    const x = Float64Array.from({ length: ld.dim }, (_, i) => 0.1 * i - 0.4);
    const values = ld.constrain(x) as Record<string, T>;
    expect((values.tau!.data as Float64Array)[0]).toBeCloseTo(Math.exp(x[ld.params.find((p) => p.name === 'tau')!.offset]!), 14);
    expect(values.thetaTilde!.shape).toEqual([8]);
    const back = ld.unconstrain(values);
    for (let i = 0; i < ld.dim; i++) expect(back[i]).toBeCloseTo(x[i]!, 13);
  });

  it('handles constrained nodes of several kinds (positive, correlation matrices, matrix-shaped)', () => {
    const model = new JointDistributionSequential([
      new Gamma({ concentration: 2, rate: 1 }),
      new LKJ({ dimension: 3, concentration: 2, inputOutputCholesky: true }),
      (_L: T, g: T) => new Independent({ distribution: new Normal({ loc: tensor([0, 0, 0]), scale: g }), reinterpretedBatchNdims: 1 }),
    ]);
    const c = compileLogDensity(model, { pins: [undefined, undefined, tensor([0.5, -1, 2])] as never });
    expect(c.dim).toBe(1 + 3);
    expect(c.paramNames).toEqual(['g', '_L[0]', '_L[1]', '_L[2]']);   // names from the callable's arguments
    const grad = new Float64Array(c.dim);
    const x = Float64Array.from({ length: c.dim }, (_, i) => 0.3 - 0.2 * i);
    const lp = c.logDensityGradient(x, grad);
    const [v, g] = tape(model as never, [undefined, undefined, tensor([0.5, -1, 2])] as never, x, c.params.map((p) => p.size));
    expect(lp).toBe(v);
    expect(Array.from(grad)).toEqual(g);
  });

  // Nothing is allocated but the double each call returns (16 B; V8 boxes it for the caller).
  // The deterministic math (src/math) keeps it so: no double crosses a call V8 may not inline
  // (test/math/inlining.test.ts). The bounds catch the tape's allocation (~87 KB per
  // eight-schools call) and a box per element or per transcendental call.
  it('allocates nothing per gradient call but the returned number', () => {
    const x = Float64Array.from({ length: ld.dim }, (_, i) => 0.1 * i);
    const grad = new Float64Array(ld.dim);
    expect(newSpaceGrowth(() => { for (let i = 0; i < 20_000; i++) { x[i % 10] = (i % 7) * 0.1; ld.logDensityGradient(x, grad); } })).toBeLessThan(20_000 * 32);
  });

  it('allocates nothing per element either: a logistic regression (Bernoulli logits over 500 rows)', () => {
    const rows = 500, X = randTensor([rows, 3], 4), y = tensor(Array.from({ length: rows }, (_, i) => (i * 7) % 3 === 0 ? 1 : 0));
    const reg = new JointDistributionNamed({
      beta: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 3 }),
      y: (beta: T) => new Independent({ distribution: new Bernoulli({ logits: matmul(X, beta) }), reinterpretedBatchNdims: 1 }),
    });
    const c = compileLogDensity(reg, { pins: { y } });
    const x = Float64Array.of(0.2, -0.1, 0.3), grad = new Float64Array(3);
    // A double boxed per row would be 12 B × 500 rows × 200 calls = 1.2 MB; the tape allocates ~1 KB per row.
    expect(newSpaceGrowth(() => { for (let i = 0; i < 200; i++) { x[i % 3] = (i % 7) * 0.1; c.logDensityGradient(x, grad); } })).toBeLessThan(200 * 256);
  });

  it('kernels never return the global `NaN` (V8 then boxes every value the inlined kernel returns; `Number.NaN` does not)', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const bare = /(?<![\w.'"`])NaN(?![\w'"`])/;
    const offenders: string[] = [];
    for (const dir of ['distributions', 'src/tensor', 'src/random', 'src/compile', 'mcmc']) {
      for (const f of readdirSync(join(root, dir), { recursive: true }) as string[]) {
        if (!f.endsWith('.ts')) continue;
        readFileSync(join(root, dir, f), 'utf8').split('\n').forEach((line, i) => {
          const code = line.trim();
          if (code.startsWith('*') || code.startsWith('//') || code.startsWith('/*')) return;
          if (bare.test(code.split(' // ')[0]!.replace(/(['"`]).*?\1/g, ''))) offenders.push(`${dir}/${f}:${i + 1}`);
        });
      }
    }
    expect(offenders).toEqual([]);
  });

  it('is traced once per model, pins and shape (cached)', () => {
    let calls = 0;
    const model = new JointDistributionNamed({
      m: new Normal({ loc: 0, scale: 1 }),
      x: (m: T) => { calls++; return new Normal({ loc: m, scale: 1 }); },
    });
    const x = tensor(0.5);
    const first = compileLogDensity(model, { pins: { x } });
    const tracing = calls;
    calls = 0;
    const second = compileLogDensity(model, { pins: { x } });
    const cached = calls;
    expect(cached).toBeLessThan(tracing);           // no trace, no check against the tape
    expect(second.logDensity([0.2])).toBe(first.logDensity([0.2]));
    calls = 0;
    compileLogDensity(model, { pins: { x: tensor(0.5) } });    // other pinned values: traced again
    expect(calls).toBeGreaterThan(cached);
  });

  it('NaN in gives NaN out', () => {
    const x = new Float64Array(ld.dim);
    x[0] = NaN;
    const grad = new Float64Array(ld.dim);
    expect(ld.logDensityGradient(x, grad)).toBeNaN();
  });

  it('rejects bad input by name', () => {
    expect(() => ld.logDensity(new Float64Array(3))).toThrow(RangeError);
    expect(() => ld.logDensity(new Float64Array(3))).toThrow(/compileLogDensity: `x` must have length dim = 10; got 3/);
    expect(() => ld.logDensityGradient(new Float64Array(10), new Float64Array(9))).toThrow(/`grad` must have length dim = 10/);
    expect(() => ld.logDensityGradient(new Float64Array(10), [] as never)).toThrow(TypeError);
    expect(() => ld.logDensity(5 as never)).toThrow(TypeError);
    expect(() => ld.constrain(null as never)).toThrow(/compileLogDensity: `x` must be a Float64Array/);
    expect(() => ld.constrain([1, 2])).toThrow(RangeError);
    expect(() => compileLogDensity({} as never)).toThrow(/compileLogDensity: `model` must be a joint distribution/);
    expect(() => compileLogDensity(nonCentered, { pins: { z: 1 } })).toThrow(/names unknown nodes/);
    expect(() => compileLogDensity(nonCentered, { pins: { y }, jit: true } as never)).toThrow(/unknown option/i);
  });

  it('a model that reads values in JavaScript fails with an error naming what it read', () => {
    const model = new JointDistributionNamed({
      s: new HalfNormal({ scale: 1 }),
      x: (s: T) => new Normal({ loc: 0, scale: (s.item() as number) > 1 ? 2 : 1 }),
    });
    expect(() => compileLogDensity(model, { pins: { x: 0.3 } })).toThrow(/Tensor\.item\(\).*where/);
  });
});

describe('windowedAdaptiveNuts on the compiled log density', () => {
  it('draws exactly what the tape draws (compile: false)', () => {
    const opts = { pins: { y }, seed: 3, nChains: 2, numAdaptationSteps: 40, nDraws: 30 };
    const a = windowedAdaptiveNuts(nonCentered, opts);
    const b = windowedAdaptiveNuts(nonCentered, { ...opts, compile: false });
    for (const k of ['mu', 'tau', 'thetaTilde'] as const) {
      expect(Array.from((a.draws as Record<string, T>)[k]!.data as Float64Array)).toEqual(Array.from((b.draws as Record<string, T>)[k]!.data as Float64Array));
    }
    expect(Array.from(a.trace.nSteps.data as Int32Array)).toEqual(Array.from(b.trace.nSteps.data as Int32Array));
  }, 60_000);

  it('a batched (chain-axis) model compiles too', () => {
    const model = new JointDistributionNamed({
      mu: new Normal({ loc: 0, scale: 1 }),
      obs: (mu: T) => new Independent({ distribution: new Normal({ loc: mul(expandDims(mu, -1), tensor([1, 1, 1])), scale: 1 }), reinterpretedBatchNdims: 1 }),
    });
    const r = windowedAdaptiveNuts(model, { pins: { obs: tensor([0.2, 0.4, 0.1]) }, seed: 1, nChains: 3, numAdaptationSteps: 30, nDraws: 20 });
    expect((r.draws as Record<string, T>).mu!.shape).toEqual([20, 3]);
  });

  it('rejects a non-boolean compile option', () => {
    expect(() => windowedAdaptiveNuts(nonCentered, { pins: { y }, compile: 'yes' as never })).toThrow(/windowedAdaptiveNuts: `compile` must be a boolean/);
  });
});


