// odeRk45 and odeRosenbrock23 (src/ode/): solutions against scipy's solve_ivp at tolerance 1e-12
// (test/fixtures/ode/solve-ivp.json, made by generate.py beside it), sensitivities against central
// finite differences of the solution, compiled against the tape bit for bit, the portable kernel,
// the discrete adjoint against forward sensitivities, failures as OdeError, a worker thread, and bad input. Deterministic (no random draws); ~10 s.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { compileGradient, exportCompiled, importCompiled } from '../../src/compile/index.js';
import '../../mcmc/nuts/stan/portable-catalogue.js';
import { compileRhs, RhsEval } from '../../src/ode/rhs.js';
import { adjointDopri5, solveDopri5, StepLog, type OdeSetup } from '../../src/ode/solvers.js';   // the registry of library functions, as the samplers and workers load it
import {
  OdeError, add, div, gather, mul, neg, odeRk45, odeRosenbrock23, square, stack, sub, sum, tensor, valueAndGrad, type Tensor,
} from '../../src/index.js';

interface Problem {
  readonly name: string; readonly y0: number[]; readonly theta: number[]; readonly t0: number; readonly ts: number[]; readonly solution: number[][];
}
const fixture = JSON.parse(readFileSync(new URL('../fixtures/ode/solve-ivp.json', import.meta.url), 'utf8')) as { problems: Problem[] };
const problem = (name: string) => fixture.problems.find((p) => p.name === name)!;

const at = (x: Tensor, i: number) => gather(x, i);

/** The right-hand sides of generate.py, written with tensor ops. */
export const RHS: Record<string, (t: Tensor, y: Tensor, theta: Tensor) => Tensor> = {
  lotkaVolterra: (_t, z, th) => {
    const u = at(z, 0), v = at(z, 1);
    return stack([mul(sub(at(th, 0), mul(at(th, 1), v)), u), mul(add(neg(at(th, 2)), mul(at(th, 3), u)), v)]);
  },
  pkOneCompartment: (_t, y, th) => {
    const gut = at(y, 0), central = at(y, 1), ka = at(th, 0);
    return stack([neg(mul(ka, gut)), sub(mul(ka, gut), mul(at(th, 1), central).div(at(th, 2)))]);
  },
  robertson: (_t, y, th) => {
    const a = at(y, 0), b = at(y, 1), c = at(y, 2);
    const r1 = mul(at(th, 0), a), r2 = mul(at(th, 1), square(b)), r3 = mul(mul(at(th, 2), b), c);
    return stack([add(neg(r1), r3), sub(sub(r1, r3), r2), r2]);
  },
  vanDerPol: (_t, y, th) => {
    const y1 = at(y, 0), y2 = at(y, 1);
    return stack([y2, sub(mul(mul(at(th, 0), sub(1, square(y1))), y2), y1)]);
  },
};

/** max over entries of |a − b| / (|b| + floor). */
function maxRelErr(a: number[][], b: number[][], floor: number): number {
  let m = 0;
  a.forEach((row, k) => row.forEach((v, i) => { m = Math.max(m, Math.abs(v - b[k]![i]!) / (Math.abs(b[k]![i]!) + floor)); }));
  return m;
}

type Solver = typeof odeRk45;
const solve = (solver: Solver, p: Problem, opts: Parameters<Solver>[5] = {}, y0: number[] = p.y0, theta: number[] = p.theta) =>
  solver(RHS[p.name]!, y0, p.t0, p.ts, theta, opts);

describe('odeRk45 vs scipy solve_ivp (DOP853, rtol = atol = 1e-12)', () => {
  for (const name of ['lotkaVolterra', 'pkOneCompartment']) {
    it(`${name}: within 1e-8 relative at tolerance 1e-12, within 1e-4 at Stan's defaults`, () => {
      const p = problem(name);
      const tight = solve(odeRk45, p, { relativeTolerance: 1e-12, absoluteTolerance: 1e-12 }).toArray() as number[][];
      expect(maxRelErr(tight, p.solution, 1e-3)).toBeLessThan(1e-8);
      const loose = solve(odeRk45, p).toArray() as number[][];
      const e = maxRelErr(loose, p.solution, 1);   // absolute below 1: the absolute tolerance governs there
      expect(e).toBeLessThan(1e-4);
      expect(e).toBeGreaterThan(1e-10);   // the tolerance is honoured: a looser solve is less exact
    });
  }
});

describe('odeRosenbrock23 vs scipy solve_ivp (Radau, rtol 1e-12, atol 1e-14) on stiff problems', () => {
  it('Robertson (rates 0.04, 3e7, 1e4) to t = 4e4: within 1e-4 relative at rtol 1e-7, atol 1e-12', () => {
    const p = problem('robertson');
    const y = solve(odeRosenbrock23, p, { relativeTolerance: 1e-7, absoluteTolerance: 1e-12 }).toArray() as number[][];
    expect(maxRelErr(y, p.solution, 1e-10)).toBeLessThan(1e-4);
  });

  it('van der Pol, μ = 1000, to t = 3000: within 1e-3 of the reference at rtol = atol = 1e-7', () => {
    const p = problem('vanDerPol');
    const y = solve(odeRosenbrock23, p, { relativeTolerance: 1e-7, absoluteTolerance: 1e-7 }).toArray() as number[][];
    // y₂ passes through 0 quickly on the fast transitions, so compare y₁ relatively and y₂ against its scale.
    const y1 = y.map((r) => [r[0]!]), ref1 = p.solution.map((r) => [r[0]!]);
    expect(maxRelErr(y1, ref1, 1e-3)).toBeLessThan(1e-3);
  });

  it('odeRk45 on the same stiff problem runs out of steps (OdeError), as Stan\'s ode_rk45 does', () => {
    const p = problem('vanDerPol');
    expect(() => solve(odeRk45, p, { maxNumSteps: 2000 })).toThrow(OdeError);
    expect(() => solve(odeRk45, p, { maxNumSteps: 2000 })).toThrow(/^odeRk45: more than maxNumSteps = 2000 steps between t = \d+ and t = \d+ \(the ODE may be stiff: try odeRosenbrock23\)$/);
  });
});

/** Central finite differences of Σ w·solution in every y0 and θ coordinate, step `rel`·max(|x|, scale). */
function finiteDifferences(f: (y0: number[], theta: number[]) => number, y0: number[], theta: number[], rel: number): number[][] {
  const fd = (xs: number[], put: (v: number[]) => number) => xs.map((x, i) => {
    const e = rel * Math.max(Math.abs(x), 1);
    const hi = xs.slice(), lo = xs.slice();
    hi[i] = x + e; lo[i] = x - e;
    return (put(hi) - put(lo)) / (2 * e);
  });
  return [fd(y0, (v) => f(v, theta)), fd(theta, (v) => f(y0, v))];
}

describe('sensitivities (the gradient of Σ w·y(tₖ) in y0 and θ) vs central finite differences of the solution', () => {
  const cases: [string, Solver, Parameters<Solver>[5], number][] = [
    ['lotkaVolterra', odeRk45, { relativeTolerance: 1e-11, absoluteTolerance: 1e-11 }, 1e-6],
    ['pkOneCompartment', odeRk45, { relativeTolerance: 1e-11, absoluteTolerance: 1e-11 }, 1e-6],
    ['lotkaVolterra', odeRosenbrock23, { relativeTolerance: 1e-9, absoluteTolerance: 1e-9 }, 1e-4],
    ['robertson', odeRosenbrock23, { relativeTolerance: 1e-8, absoluteTolerance: 1e-13 }, 1e-4],
  ];
  for (const [name, solver, opts, tol] of cases) {
    it(`${solver.name} on ${name}: within ${tol} relative`, () => {
      const p = problem(name);
      const w = tensor(p.ts.map((_, k) => p.y0.map((_, i) => 1 + 0.1 * k - 0.3 * i)));
      const f = (y0: unknown, theta: unknown) => sum(mul(w, solver(RHS[name]!, y0 as number[], p.t0, p.ts, theta as number[], opts)));
      const [, [gy0, gth]] = valueAndGrad(f, [0, 1])(p.y0, p.theta) as [Tensor, Tensor[]];
      const [fy0, fth] = finiteDifferences((a, b) => f(a, b).item() as number, p.y0, p.theta, 1e-6);
      const got = [...(gy0!.toArray() as number[]), ...(gth!.toArray() as number[])], want = [...fy0!, ...fth!];
      const scale = Math.max(...want.map(Math.abs));
      for (let j = 0; j < got.length; j++) expect(Math.abs(got[j]! - want[j]!), `coordinate ${j}: ${got[j]} vs ${want[j]}`).toBeLessThan(tol * scale);
    });
  }

  it('odeRk45\'s backward pass (the discrete adjoint of the logged steps) equals forward sensitivities over the same steps, to 1e-12', () => {
    // At Stan's loose tolerances, where the two differ from finite differences (~1e-3): both are the derivative of the computed solution at fixed steps.
    const p = problem('lotkaVolterra');
    const setup: OdeSetup = { fn: 'test', n: 2, p: 4, t0: 0, ts: Float64Array.from(p.ts), relativeTolerance: 1e-5, absoluteTolerance: 1e-3, maxNumSteps: 500 };
    const rhs = new RhsEval(compileRhs('test', RHS.lotkaVolterra!, 0, p.y0, p.theta).valueAndGrad, 2, 4);
    const g = Float64Array.from({ length: 2 * p.ts.length }, (_, i) => 1 + 0.05 * i - 0.4 * (i % 2));
    const out = new Float64Array(g.length), log = new StepLog(2);
    const forward = { g, gy0: new Float64Array(2), gTheta: new Float64Array(4) }, adjoint = { g, gy0: new Float64Array(2), gTheta: new Float64Array(4) };
    solveDopri5(setup, rhs, p.y0, p.theta, out, forward);
    solveDopri5(setup, rhs, p.y0, p.theta, out, null, log);
    adjointDopri5(setup, rhs, log, p.theta, adjoint);
    const want = [...forward.gy0, ...forward.gTheta], got = [...adjoint.gy0, ...adjoint.gTheta];
    for (let j = 0; j < want.length; j++) expect(Math.abs(got[j]! - want[j]!), `coordinate ${j}: ${got[j]} vs ${want[j]}`).toBeLessThan(1e-12 * Math.abs(want[j]!));
    expect(log.length).toBeGreaterThan(20);
  });

  it('f from the forward-only entry equals f from a gradient call, bit for bit, and so do the solutions', () => {
    // The forward solve calls f alone through `values` (no reverse pass); the bits must be those a gradient call gives.
    for (const [name, f] of [['lotkaVolterra', RHS.lotkaVolterra!], ['pk', (_t: Tensor, a: Tensor, th: Tensor) => {
      const absorbed = mul(at(th, 0), at(a, 0));
      return stack([neg(absorbed), sub(absorbed, mul(div(at(th, 1), at(th, 2)), at(a, 1)))]);
    }]] as const) {
      const lv = name === 'lotkaVolterra', y0 = lv ? [33, 6] : [100, 0], theta = lv ? [0.55, 0.028, 0.8, 0.024] : [1.2, 4, 20];
      const c = compileRhs('test', f, 0, y0, theta);
      const both = new RhsEval(c.valueAndGrad, 2, theta.length, c.values), gradOnly = new RhsEval(c.valueAndGrad, 2, theta.length);
      both.setTheta(theta); gradOnly.setTheta(theta);
      const a = new Float64Array(2), b = new Float64Array(2);
      for (const y of [[33, 6], [1e-300, -0], [-2.5, 1e6], [NaN, 1], [Infinity, 3], [0.1, 0.2]]) {
        both.f(0.3, y, 0, a, 0); gradOnly.f(0.3, y, 0, b, 0);
        for (let i = 0; i < 2; i++) expect(Object.is(a[i], b[i]), `${name} f[${i}] at [${y}]: ${a[i]} vs ${b[i]}`).toBe(true);
      }
      const setup: OdeSetup = { fn: 'test', n: 2, p: theta.length, t0: 0, ts: Float64Array.of(0.5, 1, 2, 5), relativeTolerance: 1e-6, absoluteTolerance: 1e-6, maxNumSteps: 1000 };
      const out1 = new Float64Array(8), out2 = new Float64Array(8);
      solveDopri5(setup, both, y0, theta, out1, null);
      solveDopri5(setup, gradOnly, y0, theta, out2, null);
      expect(Array.from(out1)).toEqual(Array.from(out2));
      expect(c.portable?.source).toMatch(/function values\(x, out\)/);
    }
  });

  it('a gradient only in θ (y0 data) equals the θ part of the full gradient, bit for bit', () => {
    const p = problem('lotkaVolterra');
    const f = (y0: unknown, theta: unknown) => sum(odeRk45(RHS.lotkaVolterra!, y0 as number[], 0, p.ts, theta as number[]));
    const [, [, both]] = valueAndGrad(f, [0, 1])(p.y0, p.theta) as [Tensor, Tensor[]];
    const [, only] = valueAndGrad(f, 1)(p.y0, p.theta) as [Tensor, Tensor];
    expect(Array.from(only.data as Float64Array)).toEqual(Array.from(both!.data as Float64Array));
  });
});

describe('one traced op: compiled = tape, bit for bit; portable to workers', () => {
  const p = problem('lotkaVolterra');
  const model = (y0: Tensor, theta: Tensor) => sum(square(sub(odeRk45(RHS.lotkaVolterra!, y0, 0, p.ts, theta, { relativeTolerance: 1e-8 }), tensor(p.solution))));

  it('compileGradient gives the tape\'s value and gradient exactly', () => {
    const y0 = tensor([31, 5.5]), theta = tensor([0.5, 0.03, 0.85, 0.025]);
    const c = compileGradient('test', model, [tensor([30, 6]), tensor([0.55, 0.028, 0.8, 0.024])]);
    c.inputs[0]!.set(y0.data as Float64Array);
    c.inputs[1]!.set(theta.data as Float64Array);
    c.run(true);
    const [v, [gy, gt]] = valueAndGrad(model, [0, 1])(y0, theta) as [Tensor, Tensor[]];
    expect(c.outputs[0]![0]).toBe(v.item());
    expect(Array.from(c.grads[0]!)).toEqual(Array.from(gy!.data as Float64Array));
    expect(Array.from(c.grads[1]!)).toEqual(Array.from(gt!.data as Float64Array));
    expect(c.program.trace.nodes.filter((n) => n.op?.name === 'odeRk45')).toHaveLength(1);
  });

  it('the backward pass replaying the forward pass\'s steps equals a fresh solve with sensitivities, bit for bit', () => {
    const c = compileGradient('test', model, [tensor([30, 6]), tensor([0.55, 0.028, 0.8, 0.024])]);
    const op = c.program.trace.nodes.find((n) => n.op?.name === 'odeRk45')!.op!;
    const a = [Float64Array.of(30, 6), Float64Array.of(0.55, 0.028, 0.8, 0.024)];
    const b = [Float64Array.of(31, 5.5), Float64Array.of(0.5, 0.03, 0.85, 0.025)];
    const g = Float64Array.from({ length: 40 }, (_, i) => 1 + 0.01 * i);
    const out = new Float64Array(40);
    const parts = () => [new Float64Array(2), new Float64Array(4)];
    op.forward(a, out);
    const fresh = parts();
    op.backward!(g, b, out, fresh);       // the log is at a: solves again
    op.forward(b, out);
    const replayed = parts();
    op.backward!(g, b, out, replayed);    // the log is at b: replays
    expect(replayed.map((x) => Array.from(x))).toEqual(fresh.map((x) => Array.from(x)));
    expect(fresh[1]!.some((v) => v !== 0)).toBe(true);
  });

  it('exportCompiled gives a portable program whose imported value and gradient are the same bits', () => {
    const c = compileGradient('test', model, [tensor([31, 5.5]), tensor([0.5, 0.03, 0.85, 0.025])]);
    const e = exportCompiled(c);
    expect(e.ok, e.ok ? '' : e.reason).toBe(true);
    if (!e.ok) return;
    const cloned = structuredClone(e.program);
    const vg = importCompiled(cloned);
    const x = Float64Array.of(32, 6.5, 0.52, 0.027, 0.79, 0.023);
    const g1 = new Float64Array(6), g2 = new Float64Array(6);
    expect(vg(x, g1)).toBe(c.valueAndGrad!(x, g2));
    expect(Array.from(g1)).toEqual(Array.from(g2));
  });
});

describe('a compiled model with odeRk45 rebuilt in a worker thread', () => {
  it('gives the same value and gradient bits (test/compile/fixtures/portable-worker.ts rebuilds it)', async () => {
    const p = problem('lotkaVolterra');
    const model = (y0: Tensor, theta: Tensor) => sum(square(sub(odeRk45(RHS.lotkaVolterra!, y0, 0, p.ts, theta), tensor(p.solution))));
    const c = compileGradient('test', model, [tensor([31, 5.5]), tensor([0.5, 0.03, 0.85, 0.025])]);
    const e = exportCompiled(c);
    if (!e.ok) throw new Error(e.reason);
    const xs = [Float64Array.of(33, 6, 0.55, 0.028, 0.8, 0.024), Float64Array.of(25, 8, 0.7, 0.04, 0.6, 0.02)];
    const want = xs.map((x) => { const g = new Float64Array(6); return [c.valueAndGrad!(x, g), ...g]; });
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
    const worker = new Worker(`const { workerData } = require('node:worker_threads');
import(workerData.tsx).then((t) => { t.register(); return import(workerData.entry); });`, { eval: true, workerData: { tsx, entry: new URL('../compile/fixtures/portable-worker.ts', import.meta.url).href } });
    try {
      const got = await new Promise<{ results?: { value: number; grad: Float64Array }[]; error?: string }>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage({ program: e.program, points: xs });
      });
      expect(got.error).toBeUndefined();
      expect(got.results!.map((r) => [r.value, ...r.grad])).toEqual(want);
    } finally {
      await worker.terminate();
    }
  });
});

describe('failures throw OdeError (a rejection at the sampler, not a TypeError)', () => {
  const blowUp = (_t: Tensor, y: Tensor, th: Tensor) => mul(th, square(y));   // y = 1/(1 − k·t) blows up at t = 1/k
  for (const solver of [odeRk45, odeRosenbrock23]) {
    it(`${solver.name}: a solution that blows up, too many steps, and what is not an OdeError`, () => {
      let err: unknown;
      try { solver(blowUp, [1], 0, [2], [1]); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(OdeError);
      expect(err).not.toBeInstanceOf(TypeError);
      expect((err as Error).message).toMatch(new RegExp(`^${solver.name}: (the state is not finite|the step size underflowed|more than maxNumSteps)`));
      expect(() => solver(blowUp, [1], 0, [0.5, 0.9], [1], { maxNumSteps: 3 })).toThrow(/more than maxNumSteps = 3 steps between t = 0 and t = 0.5/);
      // y(0.5) = 2; the second-order Rosenbrock pair's global error here is ~1e-4 at the default tolerances.
      expect((solver(blowUp, [1], 0, [0.5], [1]).toArray() as number[][])[0]![0]).toBeCloseTo(2, solver === odeRk45 ? 5 : 3);
    });
  }
});

describe('bad input names the function and the argument', () => {
  const f = RHS.lotkaVolterra!;
  it('options, times, shapes and f', () => {
    expect(() => odeRk45(f, [1, 1], 0, [1], [1, 1, 1, 1], { rtol: 1e-6 } as never)).toThrow(/odeRk45: `options` has unknown option `rtol`/);
    expect(() => odeRk45(f, [1, 1], 0, [1], [1, 1, 1, 1], { relativeTolerance: 0 })).toThrow(RangeError);
    expect(() => odeRk45(f, [1, 1], 0, [1], [1, 1, 1, 1], { absoluteTolerance: -1 })).toThrow(/`absoluteTolerance` must be a positive/);
    expect(() => odeRk45(f, [1, 1], 0, [1], [1, 1, 1, 1], { maxNumSteps: 1.5 })).toThrow(/`maxNumSteps` must be a positive integer/);
    expect(() => odeRk45(f, [1, 1], 0, [2, 1], [1, 1, 1, 1])).toThrow(/odeRk45: `ts` must be finite, increasing and after t0/);
    expect(() => odeRk45(f, [1, 1], 1, [1], [1, 1, 1, 1])).toThrow(/`ts` must be finite, increasing and after t0/);
    expect(() => odeRosenbrock23(f, [[1, 1]], 0, [1], [1, 1, 1, 1])).toThrow(/odeRosenbrock23: `y0` must be a non-empty vector/);
    expect(() => odeRk45(f, [1, 1], Number.NaN, [1], [1, 1, 1, 1])).toThrow(/`t0` must be a finite number/);
    expect(() => odeRk45('f' as never, [1, 1], 0, [1], [1, 1, 1, 1])).toThrow(/odeRk45: `f` must be a function/);
    expect(() => odeRk45((_t, y) => stack([at(y, 0), at(y, 0), at(y, 0)]), [1, 1], 0, [1], [1])).toThrow(/odeRk45: `f` must return a vector of 2 values/);
  });

  it('an f with no parameters takes θ = []', () => {
    const y = odeRk45((_t, y) => neg(y), [1], 0, [1], []);
    expect((y.toArray() as number[][])[0]![0]).toBeCloseTo(Math.exp(-1), 6);
  });
});
