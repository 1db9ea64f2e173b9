/**
 * The compiler's constant folding: a kernel-call op whose parameters are constants of the program
 * runs, in place of its lowering, the lowering it makes for those constants (`Lowering.fold`),
 * which computes once, at compile time, what depends only on them — a `TruncatedNormal` prior's
 * normalizing mass with constant bounds, location and scale, which the op's kernel would
 * otherwise recompute in every value and every gradient.
 *
 * Why a pass over the trace: tracing already computes every op whose operands are all constants
 * (trace.ts), but a log-prob op also reads the traced value, so its parameter-only part runs per
 * call inside its kernel. Only the op knows which of its operations read only its parameters; it
 * says so in its lowering (as element-wise ops do with `Hoisted`), and this pass, which knows
 * tensor ops and not distributions, applies it where the program has them constant. The folded
 * kernel makes the same calls in the same order, so the program's bits do not change (tested:
 * test/compile/constant-fold.test.ts).
 */
import type { Constant, Lowering, TraceNode } from '../tensor/lowering.js';
import type { Program } from './trace.js';

type Operand = TraceNode | Constant;
const isConst = (o: Operand | undefined): o is Constant => o !== undefined && 'constant' in o;

let foldingEnabled = true;

/**
 * Enables or disables constant folding for programs compiled from now on (for benchmarks and
 * tests that compare with the unfolded program); returns the previous setting.
 *
 * @example
 * const was = setConstantFoldingEnabled(false);
 * setConstantFoldingEnabled(was);
 */
export function setConstantFoldingEnabled(on: boolean): boolean {
  const was = foldingEnabled;
  foldingEnabled = on === true;
  return was;
}

/**
 * Replaces, in place, the lowering of every node whose op can fold (`Lowering.fold`) and whose
 * operands at `fold.of` are all constants by the folded lowering, and returns the program. The
 * node keeps its index, operands and readers. Does nothing while disabled
 * ({@link setConstantFoldingEnabled}).
 *
 * @example
 * const d = new TruncatedNormal({ loc: 1, scale: 0.5, low: 0, high: 10 });
 * const p = foldConstants(traceProgram('f', (x) => d.logProb(x), [tensor(0.7)]));
 * kernelSource(p.trace.nodes[1].op)?.factory;   // 'TruncatedNormal.logProb#folded' (its name stays 'TruncatedNormal.logProb')
 */
export function foldConstants(program: Program): Program {
  if (!foldingEnabled) return program;
  for (const t of program.trace.nodes) {
    const fold = t.op?.fold;
    if (fold === undefined) continue;
    const fixed = fold.of.map((j) => t.operands[j]);
    if (!fixed.every(isConst)) continue;
    (t as { op: Lowering | null }).op = fold.with(fixed.map((o) => (o as Constant).data));
  }
  return program;
}
