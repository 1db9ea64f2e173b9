/**
 * The Bayesian workflow around the sampler: prior and posterior predictive draws and the
 * pointwise log-likelihood of the observed nodes (NumPyro's `Predictive` and `log_likelihood`,
 * PyMC's `sample_prior_predictive` / `sample_posterior_predictive` / `compute_log_likelihood`).
 *
 * Models are written for one draw (no sample, draw or chain axis: see `windowedAdaptiveNuts`),
 * so every function here runs the model once per draw, with that draw's own key:
 *
 * - prior predictive draw s: `model.sample([], { seed: foldIn(S, s) })` with
 *   S = `sanitizeSeed(seed, { salt: 'samplePriorPredictive' })`;
 * - posterior predictive replicate (t, c): `model.sample([], { seed: foldIn(foldIn(P, c), t),
 *   value: draw (t, c) })` with P = `sanitizeSeed(seed, { salt: 'samplePosteriorPredictive' })`.
 *
 * So the same seed gives the same draws bit for bit, and draw s (or chain c's draw t) depends
 * only on the seed, its indices and that draw's values — not on how many draws or chains are
 * taken, nor on the other draws. The salts keep these keys apart from the sampler's own
 * (`foldIn(sanitizeSeed(seed), c)` per chain), so one seed can serve both.
 *
 * Two paths, one result. Where the model allows, the model is traced once (`src/compile/`) and
 * each draw runs generated code over Float64Arrays instead of rebuilding every distribution and
 * tensor (`internal/compile-predictive.ts` for the predictive draws, `internal/compile-derived.ts`
 * for the log-likelihood, log prior and derived values); otherwise the model runs once per draw
 * on the tape. The keys above are the same on both paths and so are the bits: the compiled
 * code calls the eager kernels, each drawn node is sampled by its own distribution's code (a
 * `Normal` straight into the result, as `z · scale + loc`, a `Bernoulli` as u < p, a `Poisson`
 * by TFP's sampler, a `HalfCauchy` as loc + scale · tan(πu/2); an observed `Bernoulli`'s log mass from its compiled logits or probs:
 * `internal/leaf-kernels.ts`), the node keys are derived as raw words (`nodeSeedWords`), and the
 * first and last draws are compared bit for bit with the model run before the compiled path is
 * used for the rest. Every
 * call takes the tape path for a model the tracer cannot follow (it reads values in JavaScript:
 * `item()`) or a discrete (int32) or float32 given node; the predictive draws also for a
 * `JointDistributionCoroutine` (its structure may follow the values), a node with imputed missing
 * values (`y_missing`), a drawn distribution with an object option (a bijector), or more than
 * 30 nodes.
 *
 * Data that can change (PyMC's `pm.Data`/`set_data`, NumPyro's model arguments): the documented
 * way is a model factory, `const model = (x) => new JointDistributionNamed({ … })`, fitted as
 * `windowedAdaptiveNuts(model(xTrain), { pins: { y } })` and asked for predictions at new inputs
 * as `samplePosteriorPredictive(model(xTest), draws, { seed, deterministics: true })`. Why a
 * function and not a mutable `model.withData(...)`/`set_data`: a closure is how JavaScript
 * parametrises anything, so there is nothing new to learn; each model stays immutable, so the
 * caches keyed on a model (its compiled log density, node names, derived-value names) can never
 * describe stale data; pins work as for any model; and the draws name only the latent nodes, so
 * they fit a model of any data size (N = 20 to fit, 7 to predict: the observed node's shape may
 * change, the latent nodes' shapes may not). The same draws give the same predictions for the
 * same seed.
 */
import { checkBoolean, checkNonNegativeInteger, checkOptions, fail } from '../src/checks.js';
import { foldIn, sanitizeSeed, zerosSeed, type Seed } from '../src/samplers/seeds.js';
import { add } from '../src/tensor/ops/elementwise.js';
import { sum } from '../src/tensor/ops/reduce.js';
import { Tensor } from '../src/tensor/tensor.js';
import type { Distribution } from '../distributions/distribution.js';
import { JointDistribution } from '../distributions/joint/joint-distribution.js';
import { JointDistributionPinned } from '../distributions/joint/joint-distribution-pinned.js';
import { isPlainObject, type PartialValues, type StructKind, type ValueLike } from '../distributions/joint/values.js';
import { pointwiseLogProb } from '../distributions/joint/pointwise-log-prob.js';
import { MISSING_SUFFIX } from '../distributions/joint/impute-missing.js';
import { enumerationPlan } from '../distributions/enumerate/enumerate.js';
import { asTensor } from '../src/tensor/core.js';
import { sizeOf } from '../src/tensor/shapes.js';
import { compileDerived, compileLogLikelihood, type DerivedProgram, type DerivedValues } from './internal/compile-derived.js';
import { compilePredictive } from './internal/compile-predictive.js';
import type { DirectArray, DirectDtype } from './internal/leaf-kernels.js';
import { allocate } from '../src/tensor/dtype.js';
import type { KeyArray } from '../src/random/key-array.js';

let fastPaths = true;
let lastPath: 'compiled' | 'tape' | undefined;
let lastDirect = 0;
/** @internal The path the last per-draw call took (`'compiled'` or `'tape'`), for tests. */
export function lastPredictivePath(): 'compiled' | 'tape' | undefined { return lastPath; }
/**
 * @internal How many nodes the last compiled call drew or scored straight from their leaf's
 * parameters (leaf-kernels.ts: `directDraw`, `directLogProb`), for tests.
 */
export function lastDirectLeaves(): number { return lastDirect; }
/** @internal Runs `f` with the compiled paths on or off (tests and the benchmark compare them). */
export function withFastPaths<T>(on: boolean, f: () => T): T {
  const was = fastPaths;
  fastPaths = on;
  try { return f(); } finally { fastPaths = was; }
}

/** A joint model, or one with its observed nodes pinned. */
export type PredictiveModel = JointDistribution<StructKind> | JointDistributionPinned<StructKind>;

/**
 * Posterior draws of some nodes, each `[draws, chains, ...event]` (what `windowedAdaptiveNuts`
 * returns as `draws`): a record by node name, or for array-structured models an array — of the
 * unpinned nodes in model order when the model is pinned, else of the first nodes in model order.
 */
export type PosteriorDraws = Readonly<Record<string, Tensor>> | readonly (Tensor | undefined)[];

function jointOf(fn: string, model: unknown): { jd: JointDistribution<StructKind>; pinned: JointDistributionPinned<StructKind> | undefined } {
  if (model instanceof JointDistributionPinned) return { jd: model.distribution as JointDistribution<StructKind>, pinned: model as JointDistributionPinned<StructKind> };
  if (model instanceof JointDistribution) return { jd: model as JointDistribution<StructKind>, pinned: undefined };
  return fail('type', fn, 'model', 'must be a joint distribution (e.g. JointDistributionNamed) or a pinned one', model);
}

/** Results of at least this many values are stored in SharedArrayBuffers (see {@link stackingShared}). */
let sharedFrom = Infinity;

/**
 * Runs `f` with the results of the predictive functions (`logLikelihood`,
 * `samplePosteriorPredictive`, `samplePriorPredictive`, …) of at least `minValues` values stored
 * in SharedArrayBuffers where the runtime has them: the same values, which another thread can
 * then read without a copy (the CLI's outputs worker; a copy of a 40 MB log-likelihood into
 * fresh shared memory cost more than drawing it). Nested calls keep the outer setting. @internal
 *
 * @example
 * const ll = stackingShared(1 << 16, () => logLikelihood(model, draws, { y }));
 * ll.y.data.buffer instanceof SharedArrayBuffer;   // true when large enough
 */
export function stackingShared<T>(minValues: number, f: () => T): T {
  if (sharedFrom !== Infinity) return f();
  sharedFrom = minValues;
  try {
    return f();
  } finally {
    sharedFrom = Infinity;
  }
}

/** Stacks same-shaped per-draw tensors into `[...lead, ...shape]` (float64 unless all share an integer/bool dtype). */
class Stacker {
  private data: Float64Array | Int32Array | Uint8Array | undefined;
  private shape: readonly number[] | undefined;
  private dtype: 'float64' | 'int32' | 'bool' = 'float64';
  constructor(private readonly fn: string, private readonly what: string, private readonly lead: readonly number[]) {}

  put(index: number, t: Tensor): void {
    if (this.shape === undefined) {
      this.allocate(t.shape, t.dtype === 'int32' || t.dtype === 'bool' ? t.dtype : 'float64');
    } else if (t.shape.length !== this.shape.length || t.shape.some((d, k) => d !== this.shape![k])) {
      fail('range', this.fn, this.what, `has shape [${t.shape.join(', ')}] in draw ${index} but [${this.shape.join(', ')}] in draw 0 (every draw must have the same shape)`, [...t.shape]);
    }
    const size = t.size;
    const out = this.data!;
    for (let k = 0; k < size; k++) out[index * size + k] = Number(t.data[k]);
  }

  /** The storage of every draw's value of this shape (draw i's at `i * size`), for writing straight into. */
  storage(shape: readonly number[], dtype: 'float64'): Float64Array;
  storage(shape: readonly number[], dtype: 'float64' | 'int32'): Float64Array | Int32Array;
  storage(shape: readonly number[], dtype: 'float64' | 'int32'): Float64Array | Int32Array {
    this.allocate(shape, dtype);
    return this.data as Float64Array | Int32Array;
  }

  private allocate(shape: readonly number[], dtype: 'float64' | 'int32' | 'bool'): void {
    this.shape = [...shape];
    this.dtype = dtype;
    const n = sizeOf(this.lead) * sizeOf(shape);
    if (n > 2 ** 28) fail('range', this.fn, this.what, `would need ${n} elements ([${[...this.lead, ...shape].join(', ')}]), more than 2^28 (2 GiB as float64); use fewer draws`, [...shape]);
    const bytes = n * (dtype === 'int32' ? 4 : dtype === 'bool' ? 1 : 8);
    const buffer = n >= sharedFrom && typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes);
    this.data = dtype === 'int32' ? new Int32Array(buffer) : dtype === 'bool' ? new Uint8Array(buffer) : new Float64Array(buffer);
  }

  tensor(): Tensor {
    return new Tensor(this.data!, [...this.lead, ...this.shape!], this.dtype);
  }
}

// ---- prior predictive ---------------------------------------------------------------------

export interface PriorPredictiveOptions {
  /** Any seed `sanitizeSeed` accepts (undefined: a fresh one from the global source). */
  readonly seed?: Seed;
  /** Number of draws (default 500, PyMC's). */
  readonly samples?: number;
}

/**
 * Draws every node of a model from the prior: `samples` joint draws, the observed nodes
 * included (for a pinned model the pins are ignored), and its derived values (`deterministic`). Draw s is `model.sample([], { seed:
 * foldIn(sanitizeSeed(seed, { salt: 'samplePriorPredictive' }), s) })`, so the model runs for one
 * draw at a time (as `windowedAdaptiveNuts` runs it) and draw s is the same whatever `samples` is.
 * Most models take the compiled path (each node's parameters as generated code of the nodes drawn
 * before it; see the file header), with the same keys and bits as the model run.
 *
 * @param model - a joint distribution (or a pinned one).
 * @param options - `seed`, `samples` (default 500).
 * @returns A record by node name (then derived value's name), each `[samples, ...shape]`.
 * @throws {TypeError} for a model that is not a joint distribution, a bad seed, a non-integer
 *   `samples`, or an unknown option name.
 * @throws {RangeError} for `samples` < 1, or a node whose shape changes between draws.
 * @example
 * import { JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
 * });
 * import { samplePriorPredictive } from 'stochax/mcmc';
 * const prior = samplePriorPredictive(model, { seed: 1, samples: 200 });
 * prior.y.shape;     // [200, 3]   (and prior.mu: [200])
 */
export function samplePriorPredictive(model: PredictiveModel, options?: PriorPredictiveOptions): Record<string, Tensor> {
  const fn = 'samplePriorPredictive';
  const o = checkOptions(fn, options, ['seed', 'samples']);
  const { jd } = jointOf(fn, model);
  const samples = checkNonNegativeInteger(fn, 'samples', o.samples ?? 500);
  if (samples < 1) fail('range', fn, 'samples', 'must be at least 1', samples);
  const base = sanitizeSeed(o.seed, { salt: fn });
  const names = jd.nodeNames;
  const stacks = names.map((n) => new Stacker(fn, `node \`${n}\``, [samples]));
  const derived = jd.deterministicNames.map((n) => new Stacker(fn, `derived value \`${n}\``, [samples]));
  const derivedNames = jd.deterministicNames;
  // Draw s as the model run gives it: the same draws as jd.sample([], { seed }), with the derived values.
  const tape = (s: number) => {
    const values: Record<string, Tensor> = {};
    const { xs } = jd.executeSample(`${jd.constructor.name}.sample`, [], foldIn(base, s), [], (name, v) => { values[name] = v; });
    names.forEach((n, i) => { values[n] = xs[i]!; });
    return values;
  };
  const table: DrawTable = { draws: samples, chains: 1, nodes: new Map() };
  const fast = fastPaths && predictiveFast(jd, table, names.map((_, i) => i), derivedNames, (s) => tape(s), [base], [...names, ...derivedNames], [...stacks, ...derived]);
  lastPath = fast ? 'compiled' : 'tape';
  if (!fast) {
    for (let s = 0; s < samples; s++) {
      const values = tape(s);
      names.forEach((n, i) => stacks[i]!.put(s, values[n]!));
      derivedNames.forEach((n, k) => derived[k]!.put(s, values[n]!));
    }
  }
  return Object.fromEntries([...names.map((n, i) => [n, stacks[i]!.tensor()]), ...jd.deterministicNames.map((n, k) => [n, derived[k]!.tensor()])]);
}

// ---- posterior draws, one at a time -----------------------------------------------------------

interface DrawTable {
  readonly draws: number;
  readonly chains: number;
  /** Node index → its draws `[draws, chains, ...event]`. */
  readonly nodes: ReadonlyMap<number, Tensor>;
}

function drawTable(fn: string, jd: JointDistribution<StructKind>, pinned: JointDistributionPinned<StructKind> | undefined, draws: unknown): DrawTable {
  const names = jd.nodeNames;
  const nodes = new Map<number, Tensor>();
  const add = (i: number, arg: string, v: unknown) => {
    if (v === undefined || v === null) return;
    const t = v instanceof Tensor ? v : asTensor(fn, arg, v as ValueLike & object);
    nodes.set(i, t);
  };
  if (Array.isArray(draws)) {
    if (jd.structKind !== 'array') fail('type', fn, 'draws', `must be a record by node name for model "${jd.name}"`, draws);
    const order = pinned === undefined ? names.map((_, i) => i) : names.map((_, i) => i).filter((i) => !pinned.isPinned(i));
    if (draws.length > order.length) fail('range', fn, 'draws', `has ${draws.length} entries but the model has ${order.length} ${pinned ? 'unpinned ' : ''}nodes`, draws);
    draws.forEach((v, j) => add(order[j]!, `draws[${j}]`, v));
  } else if (isPlainObject(draws)) {
    // Derived values (`deterministic`) may come along with the draws; they are recomputed, not read.
    const derived = jd.deterministicNames;
    // So may the imputed missing values (`y_missing`) of a model run with NaN in its data; they are not this model's nodes.
    const imputed = (k: string) => k.endsWith(MISSING_SUFFIX) && names.includes(k.slice(0, -MISSING_SUFFIX.length));
    const unknown = Object.keys(draws).filter((k) => !names.includes(k) && !derived.includes(k) && !imputed(k));
    if (unknown.length > 0) fail('range', fn, 'draws', `names unknown nodes of model "${jd.name}": ${unknown.join(', ')} (its nodes are ${names.join(', ')})`, draws);
    for (const [k, v] of Object.entries(draws)) if (names.includes(k)) add(names.indexOf(k), `draws.${k}`, v);
  } else {
    fail('type', fn, 'draws', 'must be a record of posterior draws by node name (each [draws, chains, ...event]), or an array for array-structured models', draws);
  }
  if (nodes.size === 0) fail('range', fn, 'draws', 'gives no node\'s draws', draws);
  let shape: [number, number] | undefined;
  let first = '';
  for (const [i, t] of nodes) {
    const arg = `draws.${names[i]}`;
    if (t.ndim < 2) fail('range', fn, arg, 'must have shape [draws, chains, ...event]', [...t.shape]);
    if (t.shape[0] === 0 || t.shape[1] === 0) fail('range', fn, arg, 'must have at least one draw and one chain', [...t.shape]);
    if (shape === undefined) { shape = [t.shape[0]!, t.shape[1]!]; first = arg; }
    else if (t.shape[0] !== shape[0] || t.shape[1] !== shape[1]) {
      fail('range', fn, arg, `has [draws, chains] = [${t.shape[0]}, ${t.shape[1]}] but ${first} has [${shape.join(', ')}]`, [...t.shape]);
    }
  }
  return { draws: shape![0], chains: shape![1], nodes };
}

/** Draw (t, c) of every node in the table, as values in model order (undefined elsewhere). */
function drawValues(jd: JointDistribution<StructKind>, table: DrawTable, t: number, c: number, base: readonly (Tensor | undefined)[]): (Tensor | undefined)[] {
  const values = [...base];
  for (const [i, x] of table.nodes) {
    const event = x.shape.slice(2);
    const size = sizeOf(event);
    const at = (t * table.chains + c) * size;
    values[i] = new Tensor(x.data.slice(at, at + size) as Tensor['data'], event, x.dtype);
  }
  return values;
}

/** Model-order values as a record by node name (accepted by every joint distribution's `value`). */
function asRecord(jd: JointDistribution<StructKind>, values: readonly (Tensor | undefined)[]): Record<string, Tensor> {
  const out: Record<string, Tensor> = {};
  jd.nodeNames.forEach((n, i) => { if (values[i] !== undefined) out[n] = values[i]!; });
  return out;
}

/** A compiled path tried before `compileDerived` (`compileLogLikelihood`): the drawn nodes, the values at the first and last draws. */
type CompileDirect = (drawn: readonly number[], first: readonly (Tensor | undefined)[], last: readonly (Tensor | undefined)[]) => DerivedProgram | undefined;

/**
 * For every draw (t, c), the tensors `f` makes of its node values (the draw's, and `base` for the
 * other nodes), stacked by name into `stacks` (in the order of `names`). Fast path: `f` traced
 * once (at the first draw, checked at the last; `compileDerived`) and run as generated code per
 * draw; otherwise `f` runs per draw. Draws are taken chain by chain in both, so a kernel that
 * throws (cholesky) throws at the same draw.
 */
function perDraw(jd: JointDistribution<StructKind>, table: DrawTable, base: readonly (Tensor | undefined)[],
  f: DerivedValues, names: readonly string[], stacks: readonly Stacker[], direct?: CompileDirect): void {
  const { draws: N, chains: C } = table;
  const valuesAt = (t: number, c: number) => drawValues(jd, table, t, c, base);
  const drawn = [...table.nodes.keys()];
  let program: DerivedProgram | undefined;
  lastDirect = 0;
  if (fastPaths) {
    const first = valuesAt(0, 0), last = valuesAt(N - 1, C - 1);
    program = direct?.(drawn, first, last);
    if (program !== undefined) lastDirect = names.length;
    else program = compileDerived(f, names, drawn, first, last);
  }
  lastPath = program === undefined ? 'tape' : 'compiled';
  if (program === undefined) {
    for (let c = 0; c < C; c++) {
      for (let t = 0; t < N; t++) {
        const values = f(valuesAt(t, c));
        names.forEach((n, k) => stacks[k]!.put(t * C + c, values[n]!));
      }
    }
    return;
  }
  const from = drawn.map((i) => table.nodes.get(i)!.data as Float64Array);
  const to = stacks.map((s, k) => s.storage(program.shapes[k]!, 'float64'));
  const { inputs, outputs } = program;
  // Draw (t, c) is at t * C + c in the draws and in the stacked values alike.
  for (let c = 0; c < C; c++) {
    for (let t = 0; t < N; t++) {
      const d = t * C + c;
      for (let q = 0; q < inputs.length; q++) {
        const buf = inputs[q]!, src = from[q]!, n = buf.length, at = d * n;
        for (let e = 0; e < n; e++) buf[e] = src[at + e]!;
      }
      program.run();
      for (let k = 0; k < outputs.length; k++) {
        const out = outputs[k]!, dst = to[k]!, n = out.length, at = d * n;
        for (let e = 0; e < n; e++) dst[at + e] = out[e]!;
      }
    }
  }
}

// ---- posterior predictive ------------------------------------------------------------------

/** The dtype of a direct draw's array. */
function dtypeOf(a: DirectArray): DirectDtype {
  return a instanceof Int32Array ? 'int32' : a instanceof Float32Array ? 'float32' : 'float64';
}

/** Same shape, dtype and bits (NaN payloads aside: `Object.is`). */
function sameBits(a: Tensor | undefined, b: Tensor | undefined): boolean {
  if (a === undefined || b === undefined || a.dtype !== b.dtype || a.shape.length !== b.shape.length || a.shape.some((d, k) => d !== b.shape[k])) return false;
  for (let k = 0; k < a.size; k++) if (!Object.is(a.data[k], b.data[k])) return false;
  return true;
}

/**
 * The compiled path of `samplePosteriorPredictive` and `samplePriorPredictive` (no given nodes,
 * one "chain" keyed `base`; `internal/compile-predictive.ts`): the replicated nodes' parameters as
 * generated code of the given draws (and of the nodes drawn before), each node drawn from its
 * distribution rebuilt at them, with the key of the model run (`foldIn(chainKeys[c], t)`). The
 * draws at (0, 0) and at the last (t, c) are checked bit for bit against `tape` (the model run);
 * returns false, having stacked nothing for good, when the model is declined, the check differs
 * or a draw throws (the caller then runs the model per draw, which throws the same error at the
 * same draw).
 */
function predictiveFast(jd: JointDistribution<StructKind>, table: DrawTable, replicated: readonly number[], derivedNames: readonly string[],
  tape: (t: number, c: number) => Record<string, Tensor>, chainKeys: readonly KeyArray[], names: readonly string[], stacks: readonly Stacker[]): boolean {
  const { draws: N, chains: C } = table;
  const given = [...table.nodes.keys()];
  const first = tape(0, 0);
  const at = drawValues(jd, table, 0, 0, jd.nodeNames.map(() => undefined));
  replicated.forEach((i) => { at[i] = first[jd.nodeNames[i]!]; });
  const program = compilePredictive(jd, given, replicated, derivedNames, at as Tensor[]);
  lastDirect = 0;
  if (program === undefined) return false;
  const from = given.map((i) => table.nodes.get(i)!.data as Float64Array);
  const { inputs, derived, derivedShapes, direct, size } = program;
  const R = replicated.length;
  const shapeOf = (j: number) => first[names[j]!]!.shape;
  // Draw (t, c): the given values into the program's inputs, then the replicated nodes drawn
  // (a directly drawn node into `into[j]`, the others returned) and the derived values computed
  // into the program's buffers.
  const draw = (t: number, c: number, into: readonly (DirectArray | undefined)[]): (Tensor | undefined)[] => {
    const d = t * C + c;
    for (let q = 0; q < inputs.length; q++) {
      const buf = inputs[q]!, src = from[q]!, n = buf.length, off = d * n;
      for (let e = 0; e < n; e++) buf[e] = src[off + e]!;
    }
    return program.sample(chainKeys[c]!, t, into);
  };
  const checks: [number, number, Record<string, Tensor>][] = [[0, 0, first], [N - 1, C - 1, tape(N - 1, C - 1)]];
  for (const [t, c, expected] of checks) {
    const targets = direct.map((dir, j) => (dir ? allocate(dir, size[j]!) : undefined));
    let got: (Tensor | undefined)[];
    try { got = draw(t, c, targets); } catch { return false; }
    got = got.map((x, j) => x ?? new Tensor(targets[j]!, shapeOf(j), dtypeOf(targets[j]!)));
    for (let k = 0; k < derived.length; k++) got.push(new Tensor(derived[k] as Float64Array, derivedShapes[k]!, 'float64'));
    if (!names.every((n, k) => sameBits(got[k], expected[n]))) return false;
  }
  // Directly drawn nodes go straight into their stack's storage, draw (t, c) at (t·C + c)·size
  // (as `Stacker.put` stores them: float32 draws as float64), and so do the derived values.
  const storage = direct.map((dir, j) => (dir ? stacks[j]!.storage(shapeOf(j), dir === 'int32' ? 'int32' : 'float64') : undefined));
  const derivedStorage = derived.map((_, k) => stacks[R + k]!.storage(derivedShapes[k]!, 'float64'));
  const targets: (DirectArray | undefined)[] = direct.map(() => undefined);
  lastDirect = direct.filter((dir) => dir !== undefined).length;
  try {
    for (let c = 0; c < C; c++) {
      for (let t = 0; t < N; t++) {
        const d = t * C + c;
        for (let j = 0; j < R; j++) if (direct[j]) targets[j] = storage[j]!.subarray(d * size[j]!, (d + 1) * size[j]!);
        const xs = draw(t, c, targets);
        for (let j = 0; j < R; j++) if (!direct[j]) stacks[j]!.put(d, xs[j]!);
        for (let k = 0; k < derived.length; k++) {
          const src = derived[k]!, dst = derivedStorage[k]!, n = src.length, off = d * n;
          for (let e = 0; e < n; e++) dst[off + e] = src[e]!;
        }
      }
    }
  } catch {
    lastDirect = 0;
    return false;
  }
  return true;
}

export interface PosteriorPredictiveOptions {
  /** Any seed `sanitizeSeed` accepts (undefined: a fresh one from the global source). */
  readonly seed?: Seed;
  /**
   * The chain index of each chain in `draws` (default 0, 1, …): chain j's replicates use the key
   * of chain `chains[j]`, so the replicates of one chain run alone (`chainIndex`) equal its
   * replicates in the all-chains run.
   */
  readonly chains?: readonly number[];
  /**
   * Also return the model's derived values (`deterministic`) as computed in each replicate
   * (default false): at new data (a model built from other inputs) these are the predictions of
   * the mean, e.g. `mu = a + b·x` at the new x (PyMC's `var_names=['mu', 'y']`).
   */
  readonly deterministics?: boolean;
}

/**
 * Replicates the data for every posterior draw (NumPyro's `Predictive(model, samples)`, PyMC's
 * `sample_posterior_predictive`): for draw t of chain c, the nodes not given in `draws` (for a
 * model pinned to its data: the observed nodes) are drawn from the model given that draw's
 * values, with the key `foldIn(foldIn(sanitizeSeed(seed, { salt: 'samplePosteriorPredictive' }),
 * c), t)` passed to `model.sample([], { seed, value })`. The same seed gives the same
 * replicated data; chain c's replicates do not depend on the other chains. Most models take the
 * compiled path (the replicated nodes' parameters as generated code of the draws; see the file
 * header for the models that run per draw instead); the keys and the bits are the same on both.
 *
 * @param model - the joint distribution (its pins, if any, are ignored: they are what gets replicated).
 * @param draws - posterior draws `[draws, chains, ...event]` per node (`windowedAdaptiveNuts`' `draws`).
 * @param options - `seed`; `chains`, the chain index of each chain in `draws` (default 0, 1, …);
 *   `deterministics`, also return the derived values (default false).
 * @returns A record by node name of the replicated nodes, each `[draws, chains, ...node shape]`
 *   (then the derived values, with `deterministics`).
 * @throws {TypeError} for a model that is not a joint distribution, draws that are not a record
 *   (or array, for array-structured models) of tensors, a bad seed, or an unknown option name.
 * @throws {RangeError} for draws naming unknown nodes, without a `[draws, chains]` lead, or
 *   disagreeing on it, or when every node is given.
 * @example
 * import { JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
 * });
 * import { samplePosteriorPredictive, windowedAdaptiveNuts } from 'stochax/mcmc';
 * const y = [1.2, 0.7, 2.1];
 * const { draws } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * const { y: yRep } = samplePosteriorPredictive(model, draws, { seed: 1 });
 * yRep.shape;        // [1000, 4, 3]: one replicated data set per draw and chain
 * // New data: the model as a function of its inputs, fitted at x and predicting at xNew with the same draws.
 * const line = (x: number[]) => new JointDistributionNamed({
 *   a: new Normal({ loc: 0, scale: 5 }), b: new Normal({ loc: 0, scale: 5 }),
 *   mu: deterministic(({ a, b }) => add(a, mul(b, tensor(x)))),
 *   y: ({ mu }) => new Independent({ distribution: new Normal({ loc: mu, scale: 1 }), reinterpretedBatchNdims: 1 }),
 * });
 * const fit = windowedAdaptiveNuts(line([0, 1, 2]), { pins: { y: [0.1, 1.2, 1.9] }, seed: 0 });
 * const atNew = samplePosteriorPredictive(line([5, 6]), fit.draws, { seed: 1, deterministics: true });
 * atNew.y.shape;     // [1000, 4, 2]; atNew.mu: a + b·x at x = 5, 6 per draw
 */
export function samplePosteriorPredictive(model: PredictiveModel, draws: PosteriorDraws, options?: PosteriorPredictiveOptions): Record<string, Tensor> {
  const fn = 'samplePosteriorPredictive';
  const o = checkOptions(fn, options, ['seed', 'chains', 'deterministics']);
  const withDerived = checkBoolean(fn, 'deterministics', o.deterministics ?? false);
  const { jd, pinned } = jointOf(fn, model);
  const table = drawTable(fn, jd, pinned, draws);
  if (o.chains !== undefined) {
    if (!Array.isArray(o.chains)) fail('type', fn, 'chains', 'must be an array of chain indices', o.chains);
    if (o.chains.length !== table.chains) fail('range', fn, 'chains', `must give one index per chain of the draws (${table.chains})`, o.chains);
    o.chains.forEach((c, j) => checkNonNegativeInteger(fn, `chains[${j}]`, c));
  }
  const names = jd.nodeNames;
  const replicated = names.map((_, i) => i).filter((i) => !table.nodes.has(i));
  if (replicated.length === 0) fail('range', fn, 'draws', `gives every node of model "${jd.name}", so there is nothing to replicate`, Object.keys(draws));
  const base = sanitizeSeed(o.seed, { salt: fn });
  const { draws: N, chains: C } = table;
  const stacks = replicated.map((i) => new Stacker(fn, `node \`${names[i]}\``, [N, C]));
  const derivedNames = withDerived ? jd.deterministicNames : [];
  const derived = derivedNames.map((n) => new Stacker(fn, `derived value \`${n}\``, [N, C]));
  const chainKeys = Array.from({ length: C }, (_, c) => foldIn(base, o.chains?.[c] ?? c));
  const none: undefined[] = names.map(() => undefined);
  // The model run for draw (t, c): the same draws as jd.sample([], { seed, value }), with the derived values when asked.
  const tape = (t: number, c: number) => {
    const values: Record<string, Tensor> = {};
    const { xs } = jd.executeSample(`${jd.constructor.name}.sample`, [], foldIn(chainKeys[c]!, t), drawValues(jd, table, t, c, none),
      withDerived ? (name, v) => { values[name] = v; } : undefined);
    replicated.forEach((i) => { values[names[i]!] = xs[i]!; });
    return values;
  };
  const fast = fastPaths && predictiveFast(jd, table, replicated, derivedNames, tape, chainKeys, [...replicated.map((i) => names[i]!), ...derivedNames], [...stacks, ...derived]);
  lastPath = fast ? 'compiled' : 'tape';
  if (!fast) {
    for (let c = 0; c < C; c++) {
      for (let t = 0; t < N; t++) {
        const values = tape(t, c);
        replicated.forEach((i, j) => stacks[j]!.put(t * C + c, values[names[i]!]!));
        derivedNames.forEach((n, k) => derived[k]!.put(t * C + c, values[n]!));
      }
    }
  }
  return Object.fromEntries([...replicated.map((i, j) => [names[i]!, stacks[j]!.tensor()]), ...derivedNames.map((n, k) => [n, derived[k]!.tensor()])]);
}

// ---- pointwise log-likelihood --------------------------------------------------------------

export { pointwiseLogProb } from '../distributions/joint/pointwise-log-prob.js';

/**
 * The pointwise log-likelihood of the observed nodes, per draw, chain and observation
 * (NumPyro's `log_likelihood`, PyMC's `compute_log_likelihood`): for draw t of chain c, the
 * model is run on that draw's values and the data, and each observed node's log density is
 * taken per observation (`Independent` and `Sample` wrappers opened: see
 * {@link pointwiseLogProb}). Ready for {@link loo}, {@link waic} and {@link compare}.
 * Where the model allows (see the file header), the pointwise log densities are traced once as a
 * function of the latent values and run per draw as generated code; that code calls the eager
 * kernels and is not GLM-fused (the fused kernels of `compileLogDensity` agree with the tape to
 * ~1e-13 only), and it is checked against the model run at the first and last draws, so the
 * values are the tape's bit for bit.
 *
 * The observed nodes are the pinned ones: `pins` here, or the model's own pins for a pinned
 * model (both may be given; `pins` adds to the model's). Every other node must have draws.
 *
 * @param model - the joint distribution (or pinned to its data).
 * @param draws - posterior draws `[draws, chains, ...event]` per unpinned node.
 * @param pins - the observed data by node name (optional for a pinned model).
 * @returns A record by observed node name, each `[draws, chains, ...observations]` (float64).
 * @throws {TypeError} for a model that is not a joint distribution, or draws that are not tensors.
 * @throws {RangeError} for no observed node, a node with neither draws nor data, pins or draws
 *   naming unknown nodes, draws without a shared `[draws, chains]` lead.
 * @example
 * import { JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
 * });
 * import { logLikelihood, loo, windowedAdaptiveNuts } from 'stochax/mcmc';
 * const y = [1.2, 0.7, 2.1];
 * const { draws } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * const ll = logLikelihood(model, draws, { y });
 * ll.y.shape;                            // [1000, 4, 3]: one value per draw, chain and observation
 * loo(ll, { posterior: draws }).elpdLoo; // → a number
 */
export function logLikelihood(model: PredictiveModel, draws: PosteriorDraws, pins?: PartialValues): Record<string, Tensor> {
  const fn = 'logLikelihood';
  const { jd: given, pinned } = jointOf(fn, model);
  let full: JointDistributionPinned<StructKind>;
  if (pins === undefined) {
    if (pinned === undefined) fail('type', fn, 'pins', `must give the observed data (model "${given.name}" is not pinned)`, pins);
    full = pinned;
  } else {
    if (isPlainObject(pins)) {
      const unknown = Object.keys(pins).filter((k) => !given.nodeNames.includes(k));
      if (unknown.length > 0) fail('range', fn, 'pins', `names unknown nodes of model "${given.name}": ${unknown.join(', ')} (its nodes are ${given.nodeNames.join(', ')})`, pins);
    }
    full = pinned === undefined ? given.experimentalPin(pins) : pinned.experimentalPin(pins);
  }
  // Pins with missing values (NaN) pin a model with `y_missing` nodes added: that is the model run here.
  const jd = full.distribution as JointDistribution<StructKind>;
  const names = jd.nodeNames;
  const observed = names.map((_, i) => i).filter((i) => full.isPinned(i));
  if (observed.length === 0) fail('range', fn, 'pins', 'must pin at least one observed node', pins);
  const table = drawTable(fn, jd, full, draws);
  for (const i of observed) {
    if (table.nodes.has(i)) fail('range', fn, `draws.${names[i]}`, 'is an observed (pinned) node; give draws of the latent nodes only', names[i]);
  }
  const missing = names.filter((_, i) => !full.isPinned(i) && !table.nodes.has(i));
  if (missing.length > 0) {
    // Discrete nodes the sampler summed out: the likelihood LOO wants sums them out too.
    const summed = enumerationPlan(fn, full)?.sites.map((st) => st.name) ?? [];
    const why = missing.every((n) => summed.includes(n)) ? '; they are summed out (enumerated): marginalLogLikelihood(model, draws, { pins }) gives each observation\'s likelihood with them summed out' : ' (every unpinned node needs draws)';
    fail('range', fn, 'draws', `has no draws of ${missing.map((n) => `\`${n}\``).join(', ')}${why}`, Object.keys(draws));
  }
  const pinnedValues = names.map((n) => full.pins[n]);
  const observedNames = observed.map((i) => names[i]!);
  const stacks = observed.map((i) => new Stacker(fn, `the log-likelihood of \`${names[i]}\``, [table.draws, table.chains]));
  // The observed nodes' distributions at model-order values (every node given: nothing is drawn).
  const observedAt = (values: readonly (Tensor | undefined)[]): Distribution[] => {
    const [dists] = jd.sampleDistributions([], { seed: zerosSeed(), value: asRecord(jd, values) });
    return observed.map((i) => (Array.isArray(dists) ? dists[i]! : (dists as Record<string, Distribution>)[names[i]!]!));
  };
  const pointwise = (values: readonly (Tensor | undefined)[]): Record<string, Tensor> => {
    const dists = observedAt(values);
    return Object.fromEntries(observed.map((i, k) => {
      const lp = pointwiseLogProb(dists[k]!, values[i]!);
      return [names[i]!, lp.dtype === 'float64' ? lp : lp.astype('float64')];
    }));
  };
  const data = observed.map((i) => pinnedValues[i]!);
  perDraw(jd, table, pinnedValues, pointwise, observedNames, stacks,
    (drawn, first, last) => compileLogLikelihood(observedAt, data, pointwise, observedNames, drawn, first, last));
  return Object.fromEntries(observedNames.map((n, j) => [n, stacks[j]!.tensor()]));
}

/**
 * The log prior density of each posterior draw: the sum of the unpinned (latent) nodes' log
 * densities given their parents, at that draw (in constrained space, no Jacobian), for draw t of
 * chain c — the `lprior` of priorsense, for {@link powerscaleSensitivity} beside
 * {@link logLikelihood}. The observed nodes are the pinned ones, as in `logLikelihood`.
 *
 * @param model - the joint distribution (or pinned to its data).
 * @param draws - posterior draws `[draws, chains, ...event]` per unpinned node.
 * @param pins - the observed data by node name (optional for a pinned model; adds to its pins).
 * @returns `[draws, chains]` (float64).
 * @throws {TypeError} for a model that is not a joint distribution, or draws that are not tensors.
 * @throws {RangeError} for no observed node, a node with neither draws nor data, names of unknown
 *   nodes, draws without a shared `[draws, chains]` lead.
 * @example
 * import { JointDistributionNamed, Normal, Sample } from 'stochax/distributions';
 * import { logPrior, windowedAdaptiveNuts } from 'stochax/mcmc';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 10 }),
 *   y: ({ mu }) => new Sample({ distribution: new Normal({ loc: mu, scale: 1 }), sampleShape: 3 }),
 * });
 * const y = [1.2, 0.7, 2.1];
 * const { draws } = windowedAdaptiveNuts(model, { pins: { y }, seed: 0 });
 * logPrior(model, draws, { y }).shape;   // [1000, 4]
 */
export function logPrior(model: PredictiveModel, draws: PosteriorDraws, pins?: PartialValues): Tensor {
  const fn = 'logPrior';
  const { jd, pinned } = jointOf(fn, model);
  const names = jd.nodeNames;
  let full: JointDistributionPinned<StructKind>;
  if (pins === undefined) {
    if (pinned === undefined) fail('type', fn, 'pins', `must give the observed data (model "${jd.name}" is not pinned)`, pins);
    full = pinned;
  } else {
    if (isPlainObject(pins)) {
      const unknown = Object.keys(pins).filter((k) => !names.includes(k));
      if (unknown.length > 0) fail('range', fn, 'pins', `names unknown nodes of model "${jd.name}": ${unknown.join(', ')} (its nodes are ${names.join(', ')})`, pins);
    }
    full = pinned === undefined ? jd.experimentalPin(pins) : pinned.experimentalPin(pins);
  }
  const latent = names.map((_, i) => i).filter((i) => !full.isPinned(i));
  if (latent.length === names.length) fail('range', fn, 'pins', 'must pin at least one observed node', pins);
  const table = drawTable(fn, jd, full, draws);
  const missing = latent.filter((i) => !table.nodes.has(i)).map((i) => names[i]!);
  if (missing.length > 0) fail('range', fn, 'draws', `has no draws of ${missing.map((n) => `\`${n}\``).join(', ')} (every unpinned node needs draws)`, Object.keys(draws));
  const stack = new Stacker(fn, 'the log prior', [table.draws, table.chains]);
  const total = (values: readonly (Tensor | undefined)[]): Record<string, Tensor> => {
    const [dists] = jd.sampleDistributions([], { seed: zerosSeed(), value: asRecord(jd, values) });   // every node given: nothing is drawn
    let lp: Tensor | undefined;
    for (const i of latent) {
      const d = Array.isArray(dists) ? dists[i]! : (dists as Record<string, Distribution>)[names[i]!]!;
      let l = d.logProb(values[i]!);
      if (l.ndim > 0) l = sum(l);   // a node with batch dims: its elements are independent
      lp = lp === undefined ? l : add(lp, l);
    }
    return { lprior: lp!.dtype === 'float64' ? lp! : lp!.astype('float64') };
  };
  perDraw(jd, table, names.map((n) => full.pins[n]), total, ['lprior'], [stack]);
  return stack.tensor();
}

// ---- derived values --------------------------------------------------------------------------

/**
 * The model's derived values (`deterministic(...)`: PyMC's `pm.Deterministic`, NumPyro's
 * `numpyro.deterministic`) for every posterior draw: for draw t of chain c, the model is run on
 * that draw's values and the data (nothing is drawn; no seed is used) and each derived value is
 * recorded. `windowedAdaptiveNuts` returns these as `deterministics`; this is the same for draws
 * from anywhere else (merged chains, a draws file).
 *
 * When it can, the model is traced once (`src/compile/`) and the generated code runs per draw,
 * with the same bits; a model it cannot trace (one that reads values with `item()`, say) runs
 * per draw instead. As in `compileLogDensity`, what a traced model computes from values in
 * JavaScript (`validateArgs` checks, a read of `Tensor.data`) sees only the draws it is traced
 * and checked at (the first and the last).
 *
 * @param model - the joint distribution (or pinned to its data).
 * @param draws - posterior draws `[draws, chains, ...event]` per unpinned node.
 * @param pins - the observed data by node name (optional for a pinned model; adds to its pins).
 * @returns A record by derived value's name, each `[draws, chains, ...shape]` (empty when the
 *   model has none).
 * @throws {TypeError} for a model that is not a joint distribution, or draws that are not tensors.
 * @throws {RangeError} for a node with neither draws nor data, names of unknown nodes, or draws
 *   without a shared `[draws, chains]` lead.
 * @example
 * import { add, mul } from 'stochax';
 * import { HalfCauchy, Independent, JointDistributionNamed, Normal, Sample, deterministic } from 'stochax/distributions';
 * import { computeDeterministics, windowedAdaptiveNuts } from 'stochax/mcmc';
 * const model = new JointDistributionNamed({
 *   mu: new Normal({ loc: 0, scale: 5 }),
 *   tau: new HalfCauchy({ loc: 0, scale: 5 }),
 *   thetaTilde: new Sample({ distribution: new Normal({ loc: 0, scale: 1 }), sampleShape: 2 }),
 *   theta: deterministic(({ mu, tau, thetaTilde }) => add(mu, mul(tau, thetaTilde))),
 *   y: ({ theta }) => new Independent({ distribution: new Normal({ loc: theta, scale: 10 }), reinterpretedBatchNdims: 1 }),
 * });
 * const { draws } = windowedAdaptiveNuts(model, { pins: { y: [10, -2] }, seed: 0 });
 * computeDeterministics(model, draws, { y: [10, -2] }).theta.shape;   // [1000, 4, 2]
 */
export function computeDeterministics(model: PredictiveModel, draws: PosteriorDraws, pins?: PartialValues): Record<string, Tensor> {
  const fn = 'computeDeterministics';
  const { jd: given, pinned } = jointOf(fn, model);
  const derivedNames = given.deterministicNames;
  if (derivedNames.length === 0) return {};
  let full = pinned;
  if (pins !== undefined) {
    if (isPlainObject(pins)) {
      const unknown = Object.keys(pins).filter((k) => !given.nodeNames.includes(k));
      if (unknown.length > 0) fail('range', fn, 'pins', `names unknown nodes of model "${given.name}": ${unknown.join(', ')} (its nodes are ${given.nodeNames.join(', ')})`, pins);
    }
    full = pinned === undefined ? given.experimentalPin(pins) : pinned.experimentalPin(pins);
  }
  // Pins with missing values (NaN) pin a model with `y_missing` nodes added: that is the model run here.
  const jd = (full?.distribution ?? given) as JointDistribution<StructKind>;
  const names = jd.nodeNames;
  const table = drawTable(fn, jd, full, draws);
  const pinnedValues = names.map((n, i) => (table.nodes.has(i) ? undefined : full?.pins[n]));
  const missing = names.filter((_, i) => pinnedValues[i] === undefined && !table.nodes.has(i));
  if (missing.length > 0) fail('range', fn, 'draws', `has no draws of ${missing.map((n) => `\`${n}\``).join(', ')} (every node needs draws or data)`, Object.keys(draws));
  const stacks = derivedNames.map((n) => new Stacker(fn, `derived value \`${n}\``, [table.draws, table.chains]));
  perDraw(jd, table, pinnedValues as (Tensor | undefined)[], (values) => jd.deterministicValues(asRecord(jd, values)), derivedNames, stacks);
  return Object.fromEntries(derivedNames.map((n, k) => [n, stacks[k]!.tensor()]));
}
