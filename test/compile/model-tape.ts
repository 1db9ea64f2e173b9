/**
 * compileLogDensity on a joint model against the tape (the pre-compiler path): the same bits at
 * two points, finite differences at a third. Shared by the compiler's coverage tests and each
 * distribution's test.
 */
import { expect } from 'vitest';
import { compileLogDensity } from '../../distributions/compile-log-density.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import type { JointDistribution } from '../../distributions/joint/joint-distribution.js';
import type { StructKind } from '../../distributions/joint/values.js';
import { valueAndGrad } from '../../src/tensor/autodiff.js';
import { Tensor } from '../../src/tensor/tensor.js';

type Pins = Record<string, unknown>;

/** The tape's value and gradient of the flat unconstrained target at x (the pre-compiler path). */
function tape(model: JointDistribution<StructKind>, pins: Pins, x: Float64Array, sizes: readonly number[]): [number, number[]] {
  const m = flatModel('test', model.experimentalPin(pins as never));
  let o = 0;
  const parts = sizes.map((n) => { const p = new Tensor(x.slice(o, o + n), [n], 'float64'); o += n; return p; });
  const [v, g] = valueAndGrad((...xs: Tensor[]) => m.target(...xs), parts.map((_, i) => i))(...parts) as [Tensor, Tensor[]];
  return [v.data[0] as number, g.flatMap((t) => Array.from(t.data as Float64Array))];
}

/** compileLogDensity on a model: the tape's bits at two points, finite differences at one. */
export function expectModelMatchesTape(model: JointDistribution<StructKind>, pins: Pins, scale = 1): void {
  const ld = compileLogDensity(model, { pins: pins as never });
  const grad = new Float64Array(ld.dim);
  const sizes = ld.params.map((p) => p.size);
  for (const s of [0.3, -0.8]) {
    const x = Float64Array.from({ length: ld.dim }, (_, i) => scale * s * Math.sin(i + 1));
    const lp = ld.logDensityGradient(x, grad);
    const [v, g] = tape(model, pins, x, sizes);
    expect(lp).toBe(v);
    expect(Array.from(grad)).toEqual(g);
    expect([lp, ...grad].every(Number.isFinite)).toBe(true);
  }
  const x = Float64Array.from({ length: ld.dim }, (_, i) => scale * 0.2 * Math.cos(i));
  ld.logDensityGradient(x, grad);
  for (let i = 0; i < ld.dim; i++) {
    const h = 1e-5, up = x.slice(), down = x.slice();
    up[i]! += h; down[i]! -= h;
    const fd = (ld.logDensity(up) - ld.logDensity(down)) / (2 * h);
    expect(Math.abs(fd - grad[i]!), `coordinate ${ld.paramNames[i]}: fd ${fd}, compiled ${grad[i]}`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(grad[i]!)));
  }
}
