// Fused GLM kernels (src/compile/glm.ts) and the compiler's rewrite to them (glm-fuse.ts):
// - the WebAssembly and JavaScript paths give the same bits (value and every gradient entry) for
//   each family at odd and even n and d, n = 1, d = 1, and sizes spanning several row blocks, and
//   with η over every branch of the wasm exp/log1p (test/math/wasm-detmath.test.ts tests those alone);
// - the kernel equals a direct double-precision evaluation of the definition to 1e-12 relative;
// - a model written the ordinary way (Normal/Bernoulli/Poisson over α + X·β, y pinned) compiles
//   to the fused op, and its log density and gradient equal the unfused compiled program's to
//   1e-12 relative at several points; shapes that do not match are left alone.
// Deterministic: data and points from a fixed-seed LCG; no statistical tests.
import { afterEach, describe, expect, it } from 'vitest';
import { compileTarget, pinModel } from '../../distributions/compile-log-density.js';
import * as Dist from '../../distributions/index.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import type { JointDistributionPinned } from '../../distributions/joint/joint-distribution-pinned.js';
import type { StructKind } from '../../distributions/joint/values.js';
import type { Compiled } from '../../src/compile/codegen.js';
import { glmKernel, setGlmWasmEnabled, type GlmFamily } from '../../src/compile/glm.js';
import { setGlmFusionEnabled } from '../../src/compile/glm-fuse.js';
import { add, mul } from '../../src/tensor/ops/elementwise.js';
import { matmul } from '../../src/tensor/ops/matmul.js';
import { Tensor } from '../../src/tensor/tensor.js';

/** A tiny LCG (Numerical Recipes' constants) in (0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return (s + 0.5) / 4294967296; };
}
const FAMILIES: GlmFamily[] = ['normal_id', 'bernoulli_logit', 'poisson_log'];

function data(family: GlmFamily, n: number, d: number, seed: number) {
  const u = lcg(seed);
  const x = Float64Array.from({ length: n * d }, () => 2 * u() - 1);
  const y = Float64Array.from({ length: n }, () => (family === 'bernoulli_logit' ? (u() < 0.4 ? 1 : 0)
    : family === 'poisson_log' ? Math.floor(6 * u()) : 3 * u() - 1));
  const beta = Float64Array.from({ length: d }, () => 2 * u() - 1);
  return { x, y, beta, alpha: u() - 0.5, sigma: 0.5 + u() };
}

const bits = (v: number) => new BigUint64Array(Float64Array.of(v).buffer)[0]!;

afterEach(() => { setGlmWasmEnabled(true); setGlmFusionEnabled(true); });

describe('glmKernel', () => {
  const shapes: [number, number][] = [[1, 1], [1, 4], [2, 1], [3, 2], [7, 3], [9, 25], [64, 5], [65, 1], [129, 24], [301, 25]];
  for (const family of FAMILIES) {
    it(`${family}: wasm and JavaScript passes give the same bits, any block size (${shapes.length} shapes incl. odd n, d, n = 1, d = 1)`, () => {
      for (const [n, d] of shapes) {
        const { x, y, beta, alpha, sigma } = data(family, n, d, 17 * n + d);
        const kw = glmKernel(family, x, y, n, d, { wasm: true }), kj = glmKernel(family, x, y, n, d, { wasm: false, blockPairs: 1 + (n % 5) });
        expect(kw.wasm).toBe(true);   // Node 20 has WebAssembly SIMD: the comparison must be real
        expect(kj.wasm).toBe(false);
        const gw = new Float64Array(d), gj = new Float64Array(d), sw = new Float64Array(2), sj = new Float64Array(2);
        const vw = kw.valueAndGradient(beta, alpha, sigma, gw, sw), vj = kj.valueAndGradient(beta, alpha, sigma, gj, sj);
        expect([bits(vw), ...Array.from(gw, bits), ...Array.from(sw, bits)], `n = ${n}, d = ${d}`)
          .toEqual([bits(vj), ...Array.from(gj, bits), ...Array.from(sj, bits)]);
      }
    });

    // η over every branch of the wasm exp/log1p (wasm/detmath.wat): the f64x2 fast paths, the
    // log1p series (|η| > 4.85 for bernoulli_logit), pairs with a lane outside the fast domain
    // (|η| > 707: scalar fallback), exp's overflow (poisson_log's value and gradient become ±∞ and
    // NaN), and rows with η = ±0 (a zero row of X at α = ±0). Same bits, NaN compared as NaN.
    it(`${family}: wasm and JavaScript give the same bits with η from 0 to beyond exp's overflow (4 scales × 2 α, n = 301, d = 3)`, () => {
      const n = 301, d = 3;
      const nanBits = (v: number) => (v !== v ? 'NaN' : bits(v));
      for (const scale of [1, 9, 120, 1000]) {
        for (const alpha0 of [0, -0.75]) {
          const { x, y, beta } = data(family, n, d, scale);
          for (let k = 0; k < x.length; k++) x[k]! *= scale;
          for (const i of [0, 7, 150]) for (let j = 0; j < d; j++) x[i * d + j] = 0;   // η = α exactly
          const alpha = alpha0 * (family === 'poisson_log' ? 1 : scale);
          const kw = glmKernel(family, x, y, n, d, { wasm: true }), kj = glmKernel(family, x, y, n, d, { wasm: false });
          const gw = new Float64Array(d), gj = new Float64Array(d), sw = new Float64Array(2), sj = new Float64Array(2);
          const vw = kw.valueAndGradient(beta, alpha, 1.3, gw, sw), vj = kj.valueAndGradient(beta, alpha, 1.3, gj, sj);
          expect([nanBits(vw), ...Array.from(gw, nanBits), ...Array.from(sw, nanBits)], `scale ${scale}, α ${alpha}`)
            .toEqual([nanBits(vj), ...Array.from(gj, nanBits), ...Array.from(sj, nanBits)]);
          if (scale === 1000 && family === 'poisson_log') expect(vj).toBe(-Infinity);   // the overflow case is reached
          if (scale === 1) expect(Number.isFinite(vj)).toBe(true);
        }
      }
    });

    it(`${family}: value and gradient equal the definition to 1e-12 relative`, () => {
      for (const [n, d] of [[1, 1], [7, 3], [301, 25]] as const) {
        const { x, y, beta, alpha, sigma } = data(family, n, d, 3 * n + d);
        let v = 0, ga = 0, gs = 0;
        const gb = new Float64Array(d);
        for (let i = 0; i < n; i++) {
          let eta = alpha;
          for (let j = 0; j < d; j++) eta += x[i * d + j]! * beta[j]!;
          const yi = y[i]!;
          let r: number;
          if (family === 'normal_id') {
            const z = (yi - eta) / sigma;
            v += -0.5 * z * z - Math.log(sigma) - 0.5 * Math.log(2 * Math.PI);
            r = z / sigma; gs += (z * z - 1) / sigma;
          } else if (family === 'bernoulli_logit') {
            v += yi * eta - Math.log1p(Math.exp(eta));
            r = yi - 1 / (1 + Math.exp(-eta));
          } else {
            let lf = 0;
            for (let k = 2; k <= yi; k++) lf += Math.log(k);
            v += yi * eta - Math.exp(eta) - lf;
            r = yi - Math.exp(eta);
          }
          ga += r;
          for (let j = 0; j < d; j++) gb[j] += x[i * d + j]! * r;
        }
        const g = new Float64Array(d), s = new Float64Array(2);
        const got = glmKernel(family, x, y, n, d).valueAndGradient(beta, alpha, sigma, g, s);
        const scale = Math.max(1, Math.abs(v));
        expect(Math.abs(got - v) / scale).toBeLessThan(1e-12);
        const gscale = Math.max(1, ...Array.from(gb, Math.abs), Math.abs(ga));
        for (let j = 0; j < d; j++) expect(Math.abs(g[j]! - gb[j]!) / gscale).toBeLessThan(1e-12);
        expect(Math.abs(s[0]! - ga) / gscale).toBeLessThan(1e-12);
        expect(Math.abs(s[1]! - gs) / Math.max(1, Math.abs(gs))).toBeLessThan(1e-12);
      }
    });
  }

  it('names the argument on bad input', () => {
    expect(() => glmKernel('logit' as GlmFamily, [1], [1], 1, 1)).toThrow(/glmKernel.*family/);
    expect(() => glmKernel('normal_id', [1, 2], [1], 1, 1)).toThrow(RangeError);
    expect(() => glmKernel('normal_id', [1, 2], [1], 1, 1)).toThrow(/glmKernel.*x/);
    expect(() => glmKernel('bernoulli_logit', [1], [2], 1, 1)).toThrow(/glmKernel.*y\[0\].*0 or 1/);
    expect(() => glmKernel('poisson_log', [1], [1.5], 1, 1)).toThrow(/y\[0\].*non-negative integer/);
    expect(() => glmKernel('normal_id', [1], [1], 1.5, 1)).toThrow(/glmKernel.*n/);
    expect(() => glmKernel('normal_id', [1], [1], 1, 1, { simd: true } as never)).toThrow(/simd/);
  });
});

// Models as users write them: one draw, y pinned.
function model(family: GlmFamily, x: Tensor, form: 'a+Xb' | 'Xb+a' | 'Xb' = 'a+Xb') {
  const d = x.shape[1]!;
  const eta = (a: Tensor, b: Tensor) => (form === 'a+Xb' ? add(a, matmul(x, b)) : form === 'Xb+a' ? add(matmul(x, b), a) : matmul(x, b));
  const lik = (s: Tensor, a: Tensor, b: Tensor) => new Dist.Independent({
    distribution: family === 'normal_id' ? new Dist.Normal({ loc: eta(a, b), scale: s })
      : family === 'bernoulli_logit' ? new Dist.Bernoulli({ logits: eta(a, b) }) : new Dist.Poisson({ logRate: eta(a, b) }),
    reinterpretedBatchNdims: 1,
  });
  return new Dist.JointDistributionNamed({
    b: new Dist.Sample({ distribution: new Dist.Normal({ loc: 0, scale: 1 }), sampleShape: d }),
    a: new Dist.Normal({ loc: 0, scale: 2 }),
    s: new Dist.HalfNormal({ scale: 1 }),
    y: lik,
  });
}
const compiled = (m: unknown, pins: Record<string, unknown>): Compiled => compileTarget('test', flatModel('test', pinModel('test', m, pins as never) as JointDistributionPinned<StructKind>));
const hasGlm = (c: Compiled) => c.env.some((e) => typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string' && (e as { name: string }).name.startsWith('glm.'));

describe('the compiler emits the fused GLM', () => {
  for (const family of FAMILIES) {
    for (const form of ['a+Xb', 'Xb+a', 'Xb'] as const) {
      it(`${family} (${form}): fused and unfused compiled log densities agree to 1e-12 relative at 6 points`, () => {
        const n = 57, d = 6;
        const { x, y } = data(family, n, d, 99);
        const X = new Tensor(x, [n, d], 'float64'), Y = new Tensor(y, [n], 'float64');
        const fused = compiled(model(family, X, form), { y: Y });
        setGlmFusionEnabled(false);
        const plain = compiled(model(family, X, form), { y: Y });
        setGlmFusionEnabled(true);
        expect(hasGlm(fused)).toBe(true);
        expect(hasGlm(plain)).toBe(false);
        const dim = fused.flatInput.length, u = lcg(5);
        for (let t = 0; t < 6; t++) {
          const pt = Float64Array.from({ length: dim }, () => 1.5 * (2 * u() - 1));
          const g1 = new Float64Array(dim), g2 = new Float64Array(dim);
          const v1 = fused.valueAndGrad!(pt, g1), v2 = plain.valueAndGrad!(pt, g2);
          expect(Math.abs(v1 - v2) / Math.max(1, Math.abs(v2))).toBeLessThan(1e-12);
          const gs = Math.max(1, ...Array.from(g2, Math.abs));
          for (let k = 0; k < dim; k++) expect(Math.abs(g1[k]! - g2[k]!) / gs, `coordinate ${k}`).toBeLessThan(1e-12);
        }
      });
    }
  }

  it('leaves other shapes alone: Bernoulli by probs, Poisson by rate, a vector scale, a vector intercept', () => {
    const n = 9, d = 2, { x } = data('normal_id', n, d, 1);
    const X = new Tensor(x, [n, d], 'float64');
    const ones = new Tensor(new Float64Array(n).fill(1), [n], 'float64');
    const half = new Tensor(Float64Array.from({ length: n }, (_, i) => i / 2), [n], 'float64');
    const cases = [
      [new Dist.JointDistributionNamed({ b: new Dist.Sample({ distribution: new Dist.Normal({ loc: 0, scale: 1 }), sampleShape: d }),
        y: (b: Tensor) => new Dist.Independent({ distribution: new Dist.Bernoulli({ probs: add(0.5, mul(0.1, matmul(X, b))) }), reinterpretedBatchNdims: 1 }) }), ones],
      [new Dist.JointDistributionNamed({ b: new Dist.Sample({ distribution: new Dist.Normal({ loc: 0, scale: 1 }), sampleShape: d }),
        y: (b: Tensor) => new Dist.Independent({ distribution: new Dist.Poisson({ rate: add(3, matmul(X, b)) }), reinterpretedBatchNdims: 1 }) }), ones],
      [new Dist.JointDistributionNamed({ b: new Dist.Sample({ distribution: new Dist.Normal({ loc: 0, scale: 1 }), sampleShape: d }),
        y: (b: Tensor) => new Dist.Independent({ distribution: new Dist.Normal({ loc: matmul(X, b), scale: add(1, half) }), reinterpretedBatchNdims: 1 }) }), ones],
      [new Dist.JointDistributionNamed({ b: new Dist.Sample({ distribution: new Dist.Normal({ loc: 0, scale: 1 }), sampleShape: d }),
        y: (b: Tensor) => new Dist.Independent({ distribution: new Dist.Normal({ loc: add(half, matmul(X, b)), scale: 1 }), reinterpretedBatchNdims: 1 }) }), ones],
    ] as const;
    for (const [m, y] of cases) expect(hasGlm(compiled(m, { y }))).toBe(false);
  });
});
