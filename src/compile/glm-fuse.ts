/**
 * The compiler's GLM rewrite: a traced program's `sum(likelihood(y, α + X·β))` with X and y
 * constants becomes one fused GLM op (src/compile/glm.ts), so a model written the ordinary way —
 * `Normal({ loc: add(a, matmul(X, b)), scale })`, `Bernoulli({ logits: … })`,
 * `Poisson({ logRate: … })` with y pinned — gets Stan's `*_glm` kernels without the user writing
 * anything new.
 *
 * Why a rewrite of the trace, and not a `BernoulliLogitGlm` distribution: the compiler knows
 * tensor ops, not distributions, and the trace already holds every fact needed — the matvec node
 * (kind `matvec`, a constant matrix times a traced vector), the add of a one-element intercept,
 * the distribution's element-wise log-prob node (a `fused` lowering named `Normal.logProb`,
 * `Bernoulli.logProb` or `Poisson.logProb`, whose scalar function is probed here to confirm the
 * parameterisation: logits, not probs; log rate, not rate) with the constant outcomes as its value
 * operand, and the `sum` of it (an `Independent` over the rows). A new distribution would need
 * users to change their models and a second definition of each density; the rewrite needs
 * neither, and a program that does not match is left exactly as it was.
 *
 * The rewrite turns the `sum` node itself into the fused op (same index, same readers; its
 * operands become β, α and σ), so the matvec, the add and the log-prob nodes are no longer read
 * through it and the code generator drops them unless something else reads them. The fused
 * value and gradient are not the unfused bits (another summation, log1p(e^−|η|) in place of the
 * log-prob's own formula): they agree to ~1e-13 relative, well inside the compiled-against-tape
 * check (1e-12) that every compiled log density passes.
 */
import { detExp, detLog } from '../math/index.js';
import { softplusScalar } from '../tensor/ops/elementwise.js';
import type { Constant, Lowering, TraceNode } from '../tensor/lowering.js';
import { lgamma } from '../tensor/special/gamma.js';
import { glmLowering, type GlmFamily } from './glm.js';
import type { Program } from './trace.js';

type Operand = TraceNode | Constant;
const isConst = (o: Operand): o is Constant => 'constant' in o;

let fusionEnabled = true;

/**
 * Enables or disables the GLM rewrite for programs compiled from now on (for benchmarks and
 * tests that compare with the unfused program); returns the previous setting.
 *
 * @example
 * const was = setGlmFusionEnabled(false);
 * setGlmFusionEnabled(was);
 */
export function setGlmFusionEnabled(on: boolean): boolean {
  const was = fusionEnabled;
  fusionEnabled = on === true;
  return was;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

/** The family of a log-prob node's lowering, from its name and its scalar function at probe points; undefined otherwise. */
function familyOf(op: Lowering): GlmFamily | undefined {
  const ew = op.elementwise;
  if (ew?.kind !== 'fused' || ew.maps?.some((m) => m !== null)) return undefined;
  const f = ew.f;
  try {
    if (op.name === 'Bernoulli.logProb' && close(f(1, 0.3, 0, 0), -softplusScalar(-0.3)) && close(f(0, -1.7, 0, 0), -softplusScalar(-1.7))) return 'bernoulli_logit';
    if (op.name === 'Poisson.logProb' && close(f(2, 0.3, 0, 0), 2 * 0.3 - detExp(0.3) - lgamma(3)) && close(f(0, -1.2, 0, 0), -detExp(-1.2))) return 'poisson_log';
    if (op.name === 'Normal.logProb') {
      const z = (0.5 - 0.2) / 1.5;
      if (close(f(0.5, 0.2, 1.5, 0), -0.5 * z * z - 0.5 * detLog(2 * Math.PI) - detLog(1.5))) return 'normal_id';
    }
  } catch { /* a function that cannot run at the probe is not one of ours */ }
  return undefined;
}

/** The matvec X·β under η (a constant [n, d] times a traced [d]), or undefined. */
function matvecOf(o: Operand, n: number): { x: Constant; beta: TraceNode; d: number } | undefined {
  if (isConst(o) || o.op === null) return undefined;
  const ew = o.op.elementwise;
  if (ew?.kind !== 'matvec' || o.size !== n || o.operands.length !== 2) return undefined;
  const [x, beta] = o.operands as [Operand, Operand];
  if (!isConst(x) || isConst(beta) || beta.size !== ew.inner || x.data.length !== n * ew.inner) return undefined;
  return { x, beta, d: ew.inner };
}

/** η = α + X·β (either order) or X·β alone, with a one-element α; undefined otherwise. */
function linearPredictor(eta: Operand, n: number): { x: Constant; beta: TraceNode; d: number; alpha: Operand } | undefined {
  const direct = matvecOf(eta, n);
  if (direct !== undefined) return { ...direct, alpha: { constant: true, data: Float64Array.of(0), shape: [] } };
  if (isConst(eta) || eta.op === null || eta.size !== n) return undefined;
  const ew = eta.op.elementwise;
  if (ew?.kind !== 'binary' || ew.infix !== '+' || ew.maps !== undefined || eta.operands.length !== 2) return undefined;
  for (const k of [0, 1]) {
    const mv = matvecOf(eta.operands[k]!, n), alpha = eta.operands[1 - k]!;
    const size = isConst(alpha) ? alpha.data.length : alpha.size;
    if (mv !== undefined && size === 1) return { ...mv, alpha };
  }
  return undefined;
}

/** Whether y lies in the family's support (the unfused density is left alone otherwise). */
function inSupport(family: GlmFamily, y: ArrayLike<number>): boolean {
  for (let i = 0; i < y.length; i++) {
    const v = Number(y[i]);
    if (family === 'bernoulli_logit' ? v !== 0 && v !== 1 : family === 'poisson_log' ? !(Number.isInteger(v) && v >= 0) : !Number.isFinite(v)) return false;
  }
  return true;
}

/**
 * Rewrites, in place, every `sum` of a GLM-shaped log likelihood in `program` into the fused GLM
 * op (see the module header) and returns the program. Does nothing while disabled
 * ({@link setGlmFusionEnabled}).
 *
 * @example
 * const X = tensor([[1, 0], [0, 1], [1, 1]]), y = tensor([1, 0, 1]);
 * const f = (b: Tensor, a: Tensor) => sum(new Bernoulli({ logits: add(a, matmul(X, b)) }).logProb(y));
 * const p = fuseGlms(traceProgram('f', f, [tensor([0, 0]), tensor(0)]));
 * formatProgram(p);   // ends with `%… = glm.bernoulli_logit(%0, %1) []`
 */
export function fuseGlms(program: Program): Program {
  if (!fusionEnabled) return program;
  for (const t of program.trace.nodes) {
    const tew = t.op?.elementwise;
    if (tew?.kind !== 'total' || tew.scale !== 1 || t.operands.length !== 1) continue;
    const lp = t.operands[0]!;
    if (isConst(lp) || lp.op === null) continue;
    const family = familyOf(lp.op);
    if (family === undefined || lp.operands.length !== (family === 'normal_id' ? 3 : 2)) continue;
    const [y, eta, sigma] = lp.operands as [Operand, Operand, Operand | undefined];
    const n = lp.size;
    if (!isConst(y) || y.data.length !== n || !inSupport(family, y.data)) continue;
    const lin = linearPredictor(eta, n);
    if (lin === undefined) continue;
    if (sigma !== undefined && (isConst(sigma) ? sigma.data.length : sigma.size) !== 1) continue;
    const x = Float64Array.from(lin.x.data, Number), ys = Float64Array.from(y.data, Number);
    const operands: Operand[] = [lin.beta, lin.alpha, ...(sigma === undefined ? [] : [sigma])];
    // In place: readers of the sum keep their reference to this node (see the module header).
    const node = t as { op: Lowering | null; operands: readonly Operand[]; inputs: readonly (TraceNode | null)[] };
    node.op = glmLowering(family, x, ys, n, lin.d);
    node.operands = operands;
    node.inputs = operands.map((o) => (isConst(o) ? null : o));
  }
  return program;
}
