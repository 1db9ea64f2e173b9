/**
 * Fused GLM log likelihoods, value and gradient in one pass over the data, as Stan Math's
 * `normal_id_glm`, `bernoulli_logit_glm` and `poisson_log_glm` compute them: for a constant
 * design matrix X [n, d] and constant outcomes y [n],
 *
 *   η = α + X·β,   value = Σᵢ ℓ(yᵢ, ηᵢ),   ∂/∂α = Σᵢ ∂ℓ/∂ηᵢ,   ∂/∂β = Xᵀ(∂ℓ/∂η)   (and ∂/∂σ for normal),
 *
 * with ℓ(y, η) = −½((y − η)/σ)² − log σ − ½ log 2π (normal_id), y·η − log(1 + e^η) written as
 * −softplus(±η) = −(max(±η, 0) + log1p(e^−|η|)) (bernoulli_logit), and y·η − e^η − log y!
 * (poisson_log; Σ log y! is computed once, here).
 *
 * How the work is split, and why it has the same bits everywhere. Rows go in blocks of
 * {@link BLOCK_PAIRS} row pairs (X's block stays in cache between the passes), three passes per block:
 *   1. η for the block: WebAssembly SIMD (wasm/glm.wat) or its JavaScript mirror `etaJs`;
 *   2. ℓ and ∂ℓ/∂η per row (the value and ∂/∂α sums accumulated here, in row order), with the
 *      library's deterministic `detExp`/`detLog1p` (src/math/): in JavaScript below, the
 *      definition, or in WebAssembly, two rows at a time in f64x2 lanes (wasm/detmath.wat: the
 *      same operations step by step, so the same bits; the sums still one row at a time, in
 *      order), where the wasm `vg` runs all three passes of every block in one call;
 *   3. the block's rows added into Xᵀ(∂ℓ/∂η): wasm or its mirror `xtgJs`.
 * X is stored interleaved by row pairs (rows 2p and 2p + 1 side by side per column, an odd last
 * row paired with zeros), so an f64x2 lane is one row and each lane performs exactly the scalar
 * loop of the mirror: every product and sum rounded once (no fused multiply-add), sums in row or
 * column order. Xᵀg is kept as two partial sums per column (even rows, odd rows), added once at
 * the end on both paths. So the wasm and JavaScript paths give the same bits on every engine
 * (test/compile/glm.test.ts checks it at odd and even n and d, n = 1, d = 1, and with η over
 * every branch of the wasm exp/log1p; test/math/wasm-detmath.test.ts checks those alone).
 *
 * The kernel as an op (`glmLowering`, made by a named kernel factory so compiled programs stay
 * portable to workers): `forward` computes the value and the gradient together and keeps the
 * gradient; `backward` (which generated code calls after the forward of the same run) scales it
 * by the output's adjoint. A value-only run therefore also pays for the gradient pass: the
 * samplers always ask for both. The compiler rewrites the matching shapes to this op
 * (src/compile/glm-fuse.ts).
 */
import { checkOneOf, checkOptions, checkPositiveInteger, fail } from '../checks.js';
import { detExp, detLog, detLog1p } from '../math/index.js';
import { decodeBase64 } from '../prng/wasm.js';
import { kernelFactory, type Lowering } from '../tensor/lowering.js';
import { lgamma } from '../tensor/special/gamma.js';
import { GLM_DATA_START, GLM_WASM_BASE64 } from './glm.wasm.js';

/** The three families, with Stan Math's names. */
export type GlmFamily = 'normal_id' | 'bernoulli_logit' | 'poisson_log';
const FAMILIES: readonly GlmFamily[] = ['normal_id', 'bernoulli_logit', 'poisson_log'];

/**
 * Row pairs per block: 128 pairs (256 rows; 51 KB of X at d = 25) stay in L2 from pass 1 to pass
 * 3. Measured on the logistic X (N = 5000, D = 25, bench/glm.ts): 32 → 128 pairs 5–10% faster,
 * 512 pairs or one block (three whole passes) no faster.
 */
export const BLOCK_PAIRS = 128;

const LOG_SQRT_2PI = 0.5 * detLog(2 * Math.PI);

/** A fused GLM log likelihood over fixed X and y. */
export interface GlmKernel {
  readonly family: GlmFamily;
  readonly n: number;
  readonly d: number;
  /** Whether it runs in WebAssembly (the passes over X and the rows' exp/log1p; else the JavaScript mirror: the same bits). */
  readonly wasm: boolean;
  /**
   * The log likelihood at (β, α, σ) (σ is read by normal_id only); writes ∂/∂β into `gBeta`
   * (length d) and ∂/∂α, ∂/∂σ into `gScalars[0]`, `gScalars[1]`. Arguments are not checked.
   */
  valueAndGradient(beta: ArrayLike<number>, alpha: number, sigma: number, gBeta: Float64Array, gScalars: Float64Array): number;
}

let wasmEnabled = true;

/**
 * Enables or disables the WebAssembly passes for kernels made from now on (for tests and
 * benchmarks: both paths give the same bits); returns the previous setting.
 *
 * @example
 * const was = setGlmWasmEnabled(false);   // kernels made now use the JavaScript mirror
 * setGlmWasmEnabled(was);
 */
export function setGlmWasmEnabled(on: boolean): boolean {
  const was = wasmEnabled;
  wasmEnabled = on === true;
  return was;
}

/** The compiled module: undefined until first asked for, null where WebAssembly SIMD cannot be compiled synchronously. */
let compiled: WebAssembly.Module | null | undefined;
/** The GLM module (with wasm/detmath.wat inside), compiled once; null without WebAssembly SIMD. @internal for det-sums.ts */
export function glmModule(): WebAssembly.Module | null {
  if (compiled === undefined) {
    try { compiled = typeof WebAssembly === 'object' ? new WebAssembly.Module(decodeBase64(GLM_WASM_BASE64)) : null; } catch { compiled = null; }
  }
  return compiled;
}

interface GlmExports {
  vg(family: number, xi: number, beta: number, eta: number, y: number, g: number, gsum: number, P: number, n: number, d: number,
    block: number, io: number, gb: number): void;
  detExp(x: number): number;
  detLog(x: number): number;
  detLog1p(x: number): number;
  detExpPairs(src: number, dst: number, pairs: number): void;
  detLog1pPairs(src: number, dst: number, pairs: number): void;
  eta(xi: number, beta: number, eta: number, p0: number, p1: number, d: number, alpha: number): void;
  xtg(xi: number, g: number, gsum: number, p0: number, p1: number, d: number): void;
  peak(n: number, mul: number, add: number): number;
}

/** The peak loop of wasm/glm.wat (n iterations, 40 flops each), or null without WebAssembly SIMD; for bench/glm.ts. */
export function glmPeakLoop(): ((n: number) => number) | null {
  const mod = glmModule();
  if (mod === null) return null;
  const k = new WebAssembly.Instance(mod, { env: { memory: new WebAssembly.Memory({ initial: 1 }) } }).exports as unknown as GlmExports;
  return (n) => k.peak(n, 0.999999, 1e-6);
}

/** Bytes at the start of a kernel's wasm memory that hold wasm/detmath.wat's tables and constants (its data segment). */
const DETMATH_BYTES = GLM_DATA_START;

/**
 * The WebAssembly versions of `detExp`, `detLog` and `detLog1p` (wasm/detmath.wat, in the GLM
 * module), scalar, and of `detExp` and `detLog1p` two lanes at a time over an array (`expPairs`,
 * `log1pPairs`: the f64x2 code the kernels run): the same bits as the JavaScript for every input;
 * null without WebAssembly SIMD. For tests and benchmarks (each call crosses from JavaScript into
 * wasm; the kernels call them inside).
 *
 * @example
 * const m = glmWasmDetMath();
 * if (m !== null) m.detExp(1);                     // 2.718281828459045, the bits of detExp(1)
 * if (m !== null) m.log1pPairs(Float64Array.of(1, 0.5));   // [detLog1p(1), detLog1p(0.5)]
 */
export function glmWasmDetMath(): {
  detExp(x: number): number; detLog(x: number): number; detLog1p(x: number): number;
  expPairs(xs: Float64Array): Float64Array; log1pPairs(xs: Float64Array): Float64Array;
} | null {
  const mod = glmModule();
  if (mod === null) return null;
  const CHUNK = 4096;                                   // values per call: two buffers after the tables
  const memory = new WebAssembly.Memory({ initial: 2 });
  const k = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as GlmExports;
  const src = new Float64Array(memory.buffer, DETMATH_BYTES, CHUNK), dst = new Float64Array(memory.buffer, DETMATH_BYTES + 8 * CHUNK, CHUNK);
  const pairs = (f: (s: number, d: number, pairs: number) => void) => (xs: Float64Array): Float64Array => {
    const out = new Float64Array(xs.length);
    for (let i = 0; i < xs.length; i += CHUNK) {
      const m = Math.min(CHUNK, xs.length - i);
      src.fill(0);
      src.set(xs.subarray(i, i + m));
      f(DETMATH_BYTES, DETMATH_BYTES + 8 * CHUNK, (m + 1) >> 1);
      out.set(dst.subarray(0, m), i);
    }
    return out;
  };
  return { detExp: k.detExp, detLog: k.detLog, detLog1p: k.detLog1p, expPairs: pairs(k.detExpPairs), log1pPairs: pairs(k.detLog1pPairs) };
}

/** Flops of the peak loop per iteration (10 f64x2 chains × mul + add × 2 lanes). */
export const PEAK_FLOPS_PER_ITERATION = 40;

/** Pass 1, JavaScript: η for pairs [p0, p1), each lane `wasm/glm.wat`'s `eta` (from +0, j ascending, then + α). */
export function etaJs(xi: Float64Array, beta: Float64Array, eta: Float64Array, p0: number, p1: number, d: number, alpha: number): void {
  for (let p = p0; p < p1; p++) {
    let a0 = 0, a1 = 0;
    for (let j = 0, o = 2 * p * d; j < d; j++, o += 2) {
      const b = beta[j]!;
      a0 += xi[o]! * b;
      a1 += xi[o + 1]! * b;
    }
    eta[2 * p] = a0 + alpha;
    eta[2 * p + 1] = a1 + alpha;
  }
}

/** Pass 3, JavaScript: G[2j + lane] += X[2p + lane, j]·g[2p + lane] for pairs p ascending (`wasm/glm.wat`'s `xtg`). */
export function xtgJs(xi: Float64Array, g: Float64Array, gsum: Float64Array, p0: number, p1: number, d: number): void {
  for (let p = p0; p < p1; p++) {
    const g0 = g[2 * p]!, g1 = g[2 * p + 1]!;
    for (let j = 0, o = 2 * p * d; j < d; j++, o += 2) {
      gsum[2 * j] += xi[o]! * g0;
      gsum[2 * j + 1] += xi[o + 1]! * g1;
    }
  }
}

/** Checks y for the family (the fused kernels assume outcomes in the support) and returns Σ log yᵢ! for poisson_log. */
function checkOutcomes(fn: string, family: GlmFamily, y: ArrayLike<number>): number {
  let c = 0;
  for (let i = 0; i < y.length; i++) {
    const v = y[i]!;
    if (family === 'bernoulli_logit' ? v !== 0 && v !== 1 : family === 'poisson_log' ? !(Number.isInteger(v) && v >= 0) : !Number.isFinite(v)) {
      const want = family === 'bernoulli_logit' ? '0 or 1' : family === 'poisson_log' ? 'a non-negative integer' : 'finite';
      fail('range', fn, `y[${i}]`, `must be ${want} for ${family}`, v);
    }
    if (family === 'poisson_log') c += lgamma(v + 1);
  }
  return c;
}

/**
 * A fused GLM log likelihood (value and gradient in one pass over X) for the design matrix `x`
 * (row-major, n × d) and outcomes `y` (n), both copied. It runs in WebAssembly SIMD where
 * available (and enabled), else in JavaScript, with the same bits. `blockPairs`
 * (default {@link BLOCK_PAIRS}) sets the row pairs per block; it changes no bits (every sum keeps
 * its order), only speed.
 *
 * @throws TypeError/RangeError naming the argument for an unknown family, non-integer sizes,
 *   wrong lengths, outcomes outside the family's support, or unknown options.
 * @example
 * const k = glmKernel('bernoulli_logit', [1, 0, 0, 1, 1, 1], [1, 0, 1], 3, 2);
 * const gBeta = new Float64Array(2), gs = new Float64Array(2);
 * k.valueAndGradient([0, 0], 0, 1, gBeta, gs);   // 3·log ½ = −2.0794…; gBeta = [1, 0], gs[0] = ∂/∂α = 0.5
 */
export function glmKernel(family: GlmFamily, x: ArrayLike<number>, y: ArrayLike<number>, n: number, d: number, options: { wasm?: boolean; blockPairs?: number } = {}): GlmKernel {
  const fn = 'glmKernel';
  checkOneOf(fn, 'family', family, FAMILIES);
  checkPositiveInteger(fn, 'n', n);
  checkPositiveInteger(fn, 'd', d);
  const o = checkOptions(fn, options, ['wasm', 'blockPairs']);
  const block = o.blockPairs === undefined ? BLOCK_PAIRS : checkPositiveInteger(fn, 'options.blockPairs', o.blockPairs);
  if (x === null || typeof x !== 'object' || x.length !== n * d) fail('range', fn, 'x', `must be an array of n·d = ${n * d} numbers`, x === null || typeof x !== 'object' ? x : x.length);
  if (y === null || typeof y !== 'object' || y.length !== n) fail('range', fn, 'y', `must be an array of n = ${n} numbers`, y === null || typeof y !== 'object' ? y : y.length);
  const logFactorials = checkOutcomes(fn, family, y);
  const ys = Float64Array.from(y);
  const P = (n + 1) >> 1;
  const mod = (o.wasm ?? wasmEnabled) ? glmModule() : null;

  // Buffers: in the kernel's own wasm memory (16-byte aligned, never grown) or plain arrays.
  const sizes = [2 * P * d, d + (d & 1), 2 * P, 2 * P, 2 * d, 2 * P, 2, d + (d & 1)];   // xi, β, η, g, G, y, io, ∂/∂β (doubles; each a multiple of 2)
  let views: Float64Array[], exp: GlmExports | null = null;
  const offsets: number[] = [];
  if (mod !== null) {
    let at = DETMATH_BYTES;
    for (const s of sizes) { offsets.push(at); at += 8 * s; }
    const memory = new WebAssembly.Memory({ initial: Math.max(1, Math.ceil(at / 65536)) });
    exp = new WebAssembly.Instance(mod, { env: { memory } }).exports as unknown as GlmExports;
    views = sizes.map((s, k) => new Float64Array(memory.buffer, offsets[k]!, s));
  } else {
    views = sizes.map((s) => new Float64Array(s));
  }
  const [xi, betaBuf, eta, g, gsum, yBuf, io] = views as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  const gbOut = views[7]!.subarray(0, d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) xi[2 * ((i >> 1) * d + j) + (i & 1)] = Number(x[i * d + j]);
  yBuf.set(ys);
  const [oXi, oBeta, oEta, oG, oSum, oY, oIo, oGb] = offsets;
  const code = family === 'normal_id' ? 0 : family === 'bernoulli_logit' ? 1 : 2;   // wasm/glm.wat's vg

  const valueAndGradient = (beta: ArrayLike<number>, alpha: number, sigma: number, gBeta: Float64Array, gScalars: Float64Array): number => {
    // Copies by `set` and the per-call work in wasm: until V8 optimizes this closure (a short
    // function now, so after many calls), every double it touches is allocated (see wasm/glm.wat's vg).
    if (beta.length === d) betaBuf.set(beta);
    else for (let j = 0; j < d; j++) betaBuf[j] = beta[j]!;
    let acc = 0, ga = 0;
    if (exp !== null) {
      io[0] = alpha;                       // in through memory, like the results
      io[1] = sigma;
      exp.vg(code, oXi!, oBeta!, oEta!, oY!, oG!, oSum!, P, n, d, block, oIo!, oGb!);
      gBeta.set(gbOut);
      acc = io[0]!;
      ga = io[1]!;
    } else {
      gsum.fill(0);
      g[2 * P - 1] = 0;                    // the padding row of an odd n sends nothing
      const invSigma = 1 / sigma;
      for (let p0 = 0; p0 < P; p0 += block) {
        const p1 = p0 + block < P ? p0 + block : P;
        etaJs(xi, betaBuf, eta, p0, p1, d, alpha);
        const end = 2 * p1 < n ? 2 * p1 : n;
        if (family === 'bernoulli_logit') {
          for (let i = 2 * p0; i < end; i++) {
            const e = eta[i]!, a = e < 0 ? -e : e, ex = detExp(-a), l = detLog1p(ex);
            const t = ys[i] === 1 ? -e : e;
            acc -= (t > 0 ? t : 0) + l;       // −softplus(t), t = ∓η
            const gi = ys[i]! - (e >= 0 ? 1 / (1 + ex) : ex / (1 + ex));
            g[i] = gi;
            ga += gi;
          }
        } else if (family === 'poisson_log') {
          for (let i = 2 * p0; i < end; i++) {
            const e = eta[i]!, ex = detExp(e), yi = ys[i]!;
            acc += yi * e - ex;
            const gi = yi - ex;
            g[i] = gi;
            ga += gi;
          }
        } else {
          for (let i = 2 * p0; i < end; i++) {
            const z = (ys[i]! - eta[i]!) * invSigma;
            acc += z * z;
            const gi = z * invSigma;
            g[i] = gi;
            ga += gi;
          }
        }
        xtgJs(xi, g, gsum, p0, p1, d);
      }
      for (let j = 0; j < d; j++) gBeta[j] = gsum[2 * j]! + gsum[2 * j + 1]!;
    }
    gScalars[0] = ga;
    if (family === 'normal_id') {
      gScalars[1] = (acc - n) * (1 / sigma);
      return -0.5 * acc - n * (LOG_SQRT_2PI + detLog(sigma));
    }
    gScalars[1] = 0;
    return family === 'poisson_log' ? acc - logFactorials : acc;
  };
  return { family, n, d, wasm: exp !== null, valueAndGradient };
}

/**
 * The fused GLM as a compiled program's op: operands (β [d], α [1], σ [1] for normal_id), one
 * value. `forward` keeps the gradient for the `backward` of the same run (see the module header).
 * Made by a named factory, so a compiled program that uses it can be rebuilt in a worker.
 *
 * @example
 * const op = glmLowering('poisson_log', Float64Array.of(1, 2), Float64Array.of(0, 3), 2, 1);
 * const out = new Float64Array(1);
 * op.forward([[0.5], [0]], out);   // out[0] = Σ y·η − e^η − log y! at η = [0.5, 1]
 */
export const glmLowering = kernelFactory('glm', (family: GlmFamily, x: Float64Array, y: Float64Array, n: number, d: number): Lowering => {
  const k = glmKernel(family, x, y, n, d);
  const gBeta = new Float64Array(d), gScalars = new Float64Array(2);
  return {
    name: `glm.${family}`,
    forward(ins, out) {
      out[0] = k.valueAndGradient(ins[0]!, ins[1]![0]!, family === 'normal_id' ? ins[2]![0]! : 1, gBeta, gScalars);
    },
    backward(g, _ins, _out, parts) {
      const s = g[0]!;
      const pb = parts[0], pa = parts[1], ps = parts[2];
      if (pb !== null && pb !== undefined) for (let j = 0; j < d; j++) pb[j] = s * gBeta[j]!;
      if (pa !== null && pa !== undefined) pa[0] = s * gScalars[0]!;
      if (ps !== null && ps !== undefined) ps[0] = s * gScalars[1]!;
    },
  };
});
