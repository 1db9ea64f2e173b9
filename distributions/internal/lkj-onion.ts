/**
 * TFP's vectorised onion-method sampler for LKJ correlation matrices (`lkj.py`'s `sample_lkj`
 * and `_tril_spherical_uniform`, after Lewandowski, Kurowicka & Joe 2009), with TFP's seed
 * structure, so LKJ consumes randomness the way TFP does:
 *
 * 1. `[betaSeed, trilSeed] = splitSeed(seed, { n: 2, salt: 'sample_lkj' })`;
 * 2. y ~ Beta(r/2, η + (D−2)/2 − (r−1)/2), r = 1…D−1, shape [n, ...batch, D−1], drawn as TFP's
 *    `Beta._sample_n`: `[s1, s2] = splitSeed(betaSeed, { salt: 'beta' })`, two log-space gamma
 *    draws (`randomLogGamma`, salts `'random_gamma'`), y = sigmoid(log g₁ − log g₂);
 * 3. directions: `splitSeed(trilSeed, { n: min(D−1, 3), salt: 'sample_lkj' })`, taken from the
 *    end as TFP's `seeds.pop()`: row 0 is a Rademacher sign (`samplers.uniform` of int64 in
 *    [0, 2), int32 in x32 mode), row 1 is (cos u, sin u) with u ~ U[0, 2π), and rows 2… are
 *    normals `samplers.normal([n, ...batch, (D−1)D/2 − 3])` laid out by TFP's `fill_triangular`
 *    (with ones padding rows 0 and 1) and normalised;
 * 4. the Cholesky factor: row 0 = e₀, row i+1 = (√yᵢ·uᵢ, √(1 − yᵢ)) — and, unless Cholesky
 *    output is asked for, C·Cᵀ with its diagonal set to 1. Here 1 − y is computed as
 *    sigmoid(log g₂ − log g₁) (TFP rounds 1 − y, which is 0 — a singular factor — whenever y
 *    rounds to 1, as happens for small η).
 *
 * Arithmetic is carried in float64 and rounded once to the output dtype (TFP rounds each op in
 * float32 for float32 draws); the uniform and normal draws themselves are drawn in `dtype`.
 */
import { getModes } from '../../src/config.js';
import type { KeyArray } from '../../src/random/key-array.js';
import { normal as samplersNormal } from '../../src/samplers/normal.js';
import { splitSeed } from '../../src/samplers/seeds.js';
import { uniform as samplersUniform } from '../../src/samplers/uniform.js';
import { floatStorage } from '../../src/tensor/core.js';
import type { FloatDType } from '../../src/tensor/dtype.js';
import { sigmoidScalar } from '../../src/tensor/ops/elementwise.js';
import { Tensor } from '../../src/tensor/tensor.js';
import { randomLogGamma } from './tfp-random-gamma.js';
import { detCos, detSin } from '../../src/math/index.js';
import { sizeOf } from '../../src/tensor/shapes.js';

/**
 * `n` LKJ draws, shape [n, ...batchShape, D, D]: correlation matrices, or their Cholesky factors
 * when `cholesky`. `concentration` holds one value per batch member (row-major over `batchShape`).
 */
export function sampleLkj(n: number, dimension: number, concentration: ArrayLike<number>, batchShape: readonly number[],
  cholesky: boolean, seed: KeyArray, dtype: FloatDType): Tensor {
  const D = dimension, nb0 = sizeOf(batchShape), nb = n * nb0, DD = D * D;
  const shape = [n, ...batchShape, D, D];
  const out = floatStorage(dtype, nb * DD);
  if (D <= 1) return new Tensor(out.fill(1), shape, dtype);
  const [betaSeed, trilSeed] = splitSeed(seed, { n: 2, salt: 'sample_lkj' }) as [KeyArray, KeyArray];
  const d = D - 1;
  const c1 = new Float64Array(nb * d), c0 = new Float64Array(nb * d);
  for (let q = 0; q < nb; q++) {
    const betaConc = concentration[q % nb0]! + (D - 2) / 2;
    for (let j = 0; j < d; j++) { c1[q * d + j] = (j + 1) / 2; c0[q * d + j] = betaConc - j / 2; }
  }
  const bshape = [n, ...batchShape, d];
  const [s1, s2] = splitSeed(betaSeed, { salt: 'beta' }) as [KeyArray, KeyArray];
  const lg1 = randomLogGamma(bshape, c1, null, s1, dtype);
  const lg2 = randomLogGamma(bshape, c0, null, s2, dtype);
  const dir = trilSphericalUniform(d, [n, ...batchShape], trilSeed, dtype);
  const chol = new Float64Array(nb * DD);
  for (let q = 0; q < nb; q++) {
    const o = q * DD;
    chol[o] = 1;
    for (let i = 0; i < d; i++) {
      const t = lg1[q * d + i]! - lg2[q * d + i]!, dist = Math.sqrt(sigmoidScalar(t));
      for (let j = 0; j <= i; j++) chol[o + (i + 1) * D + j] = dist * dir[q * d * d + i * d + j]!;
      chol[o + (i + 1) * D + i + 1] = Math.sqrt(sigmoidScalar(-t));
    }
  }
  if (cholesky) { out.set(chol); return new Tensor(out, shape, dtype); }
  for (let q = 0; q < nb; q++) {
    const o = q * DD;
    for (let i = 0; i < D; i++) {
      for (let j = 0; j < D; j++) {
        let s = 0;
        for (let m = 0; m <= Math.min(i, j); m++) s += chol[o + i * D + m]! * chol[o + j * D + m]!;
        out[o + i * D + j] = i === j ? 1 : s;
      }
    }
  }
  return new Tensor(out, shape, dtype);
}

/**
 * TFP's `_tril_spherical_uniform(d, batch)`: [...batch, d, d] lower-triangular matrices whose
 * row i is uniform on the unit sphere in ℝ^(i+1) (returned as a flat float64 array).
 */
export function trilSphericalUniform(d: number, batch: readonly number[], seed: KeyArray, dtype: FloatDType): Float64Array {
  const nb = sizeOf(batch), dd = d * d;
  const out = new Float64Array(nb * dd);
  const seeds = splitSeed(seed, { n: Math.min(d, 3), salt: 'sample_lkj' });
  const intDtype = getModes().x64 ? 'int64' : 'int32';
  const signs = samplersUniform([...batch, 1], { minval: 0, maxval: 2, dtype: intDtype, seed: seeds.pop()! }).data;
  for (let q = 0; q < nb; q++) out[q * dd] = 2 * Number(signs[q]!) - 1;
  if (d >= 2) {
    const u = samplersUniform(batch, { minval: 0, maxval: 2 * Math.PI, dtype, seed: seeds.pop()! }).data as ArrayLike<number>;
    for (let q = 0; q < nb; q++) { out[q * dd + d] = detCos(u[q]!); out[q * dd + d + 1] = detSin(u[q]!); }
  }
  if (d > 2) {
    const m = (d * (d + 1)) / 2, w = m - 3;
    const ns = samplersNormal([...batch, w], { seed: seeds.pop()!, dtype }).data as ArrayLike<number>;
    const v = new Float64Array(m), y = new Float64Array(dd);
    for (let q = 0; q < nb; q++) {
      // v = [ns[:d], 1, ns[d:2d−1], 1, 1, ns[2d−1:]]; fill_triangular(v, lower): y = [v[d:], reverse(v)] as d×d, tril.
      let p = 0;
      for (let t = 0; t < w; t++) {
        if (t === d) v[p++] = 1;
        if (t === 2 * d - 1) { v[p++] = 1; v[p++] = 1; }
        v[p++] = ns[q * w + t]!;
      }
      if (w === d) v[p++] = 1;
      if (w <= 2 * d - 1) { v[p++] = 1; v[p++] = 1; }
      y.set(v.subarray(d), 0);
      for (let t = 0; t < m; t++) y[m - d + t] = v[m - 1 - t]!;
      for (let i = 2; i < d; i++) {
        let s = 0;
        for (let j = 0; j <= i; j++) s += y[i * d + j]! ** 2;
        const r = Math.sqrt(s);
        for (let j = 0; j <= i; j++) out[q * dd + i * d + j] = y[i * d + j]! / r;
      }
    }
  }
  return out;
}
