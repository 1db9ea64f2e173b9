// Loop rolling (src/compile/roll.ts): repeated steps run as loops with the bits of the
// straight-line code and of the tape, where the pattern holds, and straight-line code where it
// does not; the rolled program's source does not grow with the number of steps.
import { afterEach, describe, expect, it } from 'vitest';
import { armaData, armaModel, garchData, garchModel } from '../../bench/models/time-series.js';
import { compileTarget } from '../../distributions/compile-log-density.js';
import { Normal } from '../../distributions/index.js';
import { flatModel } from '../../distributions/joint/flat-model.js';
import { compileGradient, type Compiled } from '../../src/compile/index.js';
import { MIN_ITERATIONS, setRolling } from '../../src/compile/roll.js';
import { add, div, exp, log1p, mul, neg, sqrt, square, stack, sub, sum, tanh, tensor, valueAndGrad, type Tensor } from '../../src/index.js';
import { observations, pinsOf, stepByStepHmm } from '../../examples/hmm-step-by-step.js';
import { mulberry32 } from '../helpers.js';

afterEach(() => setRolling(true));

const rolledLoops = (c: Compiled) => (c.source.match(/for \(let t = /g) ?? []).length;

/** Compiles f rolled and straight-line; both and the tape give the same bits at each point. */
function sameBits(f: (...xs: Tensor[]) => Tensor, points: readonly (readonly number[])[]): { rolled: Compiled; straight: Compiled } {
  const at = points[0]!.map((v) => tensor(v));
  setRolling(true);
  const rolled = compileGradient('test', f, at);
  setRolling(false);
  const straight = compileGradient('test', f, at);
  setRolling(true);
  const tape = valueAndGrad(f, points[0]!.map((_, i) => i));
  for (const p of points) {
    const [value, grads] = tape(...p.map((v) => tensor(v))) as [Tensor, Tensor[]];
    for (const c of [rolled, straight]) {
      p.forEach((v, i) => c.inputs[i]!.set([v]));
      c.run(true);
      expect(Object.is(c.outputs[0]![0], value.data[0]), `value at ${p}: ${c.outputs[0]![0]} vs ${value.data[0]}`).toBe(true);
      grads.forEach((g, i) => expect(Object.is(c.grads[i]![0], g.data[0]), `gradient ${i} at ${p}: ${c.grads[i]![0]} vs ${g.data[0]}`).toBe(true));
      c.run(false);
      expect(Object.is(c.outputs[0]![0], value.data[0])).toBe(true);
    }
  }
  return { rolled, straight };
}

const rand = mulberry32(33);
const data = (T: number) => Array.from({ length: T }, () => 2 * rand() - 1);
const points = [[0.3, 0.1, 0.5], [-0.7, 1.3, 0.05], [0.95, -2, 3], [0, 0, 0], [-0, 1e-300, -5]];

/** An ARMA-like recursion with a GARCH-like variance over T steps (y per step, shared constants). */
const recursion = (y: readonly number[]) => (phi: Tensor, theta: Tensor, w: Tensor) => {
  let err = sub(tensor(y[0]!), phi);
  let h = add(w, square(err));
  const terms: Tensor[] = [];
  for (let t = 1; t < y.length; t++) {
    err = sub(tensor(y[t]!), add(mul(phi, tensor(y[t - 1]!)), mul(tanh(theta), err)));
    h = add(w, add(mul(0.1, square(err)), mul(0.8, h)));
    terms.push(add(log1p(h), mul(square(err), exp(neg(log1p(h))))));
  }
  return sum(stack(terms));
};

describe('loop rolling', () => {
  it('rolls a long recursion into loops with the bits of straight-line code and of the tape', () => {
    const { rolled, straight } = sameBits(recursion(data(200)), points);
    expect(rolledLoops(rolled)).toBeGreaterThan(0);
    expect(rolledLoops(straight)).toBe(0);
    expect(rolled.source.length).toBeLessThan(straight.source.length / 5);
  });

  it('rolls K ≥ MIN_ITERATIONS steps and leaves fewer straight-line (K = 1, 2, threshold − 1, threshold)', () => {
    // A step of three positions; the first step reads w where later ones read the recursion.
    const steps = (K: number) => (a: Tensor, b: Tensor, w: Tensor) => {
      let s = w;
      for (let t = 0; t < K; t++) s = add(mul(a, s), div(b, add(square(s), 1.5)));
      return mul(s, 2);   // an output is not rolled (its buffer is the caller's)
    };
    for (const K of [1, 2, MIN_ITERATIONS - 1, MIN_ITERATIONS + 1, MIN_ITERATIONS + 2, 3 * MIN_ITERATIONS]) {
      const { rolled } = sameBits(steps(K), points);
      // The first step reads w (not the recursion), so K steps give a run of K − 1.
      expect(rolledLoops(rolled) > 0, `K = ${K}`).toBe(K - 1 >= MIN_ITERATIONS);
    }
  });

  it('splits a run broken in the middle, and where an invariant operand changes partway', () => {
    const broken = (a: Tensor, b: Tensor, w: Tensor) => {
      let s = w;
      for (let t = 0; t < 40; t++) s = t === 20 ? tanh(s) : add(mul(a, s), mul(b, tensor(t)));
      return s;
    };
    const r1 = sameBits(broken, points).rolled;
    expect(rolledLoops(r1)).toBeGreaterThanOrEqual(2);   // two forward loops (and their reverse loops)
    const switched = (a: Tensor, b: Tensor, w: Tensor) => {
      let s = w;
      for (let t = 0; t < 40; t++) s = add(mul(t < 25 ? a : b, s), 0.25);
      return add(s, w);
    };
    const r2 = sameBits(switched, points).rolled;
    expect(rolledLoops(r2)).toBeGreaterThanOrEqual(2);
  });

  it('rolls two interleaved recursions, a constant per step and shared constants, and stacked values', () => {
    const y = data(60);
    const f = (a: Tensor, b: Tensor, w: Tensor) => {
      let u = a, v = b;
      const us: Tensor[] = [];
      for (let t = 0; t < y.length; t++) {
        const un = add(mul(0.5, u), mul(w, v));                // reads both recursions
        const vn = sub(tensor(y[t]!), mul(tanh(v), 0.3));      // a constant per step
        u = un; v = mul(vn, vn);
        us.push(u);
      }
      return add(sum(square(stack(us))), mul(v, 2));
    };
    const { rolled } = sameBits(f, points);
    expect(rolledLoops(rolled)).toBeGreaterThan(0);
  });

  it('rolls per-step densities whose constant parameters differ per step (hoisted literals) and where they are shared', () => {
    const y = data(40), scales = y.map((v) => 0.5 + Math.abs(v));
    for (const perStep of [true, false]) {
      const f = (a: Tensor, b: Tensor, w: Tensor) => {
        let s = w, lp: Tensor = tensor(0);
        for (let t = 0; t < y.length; t++) {
          s = add(mul(a, s), b);
          lp = add(lp, new Normal({ loc: s, scale: perStep ? scales[t]! : 0.7 }).logProb(y[t]!));
        }
        return lp;
      };
      // Per-step scales make per-step literals (different code): straight-line; shared ones roll.
      expect(rolledLoops(sameBits(f, points).rolled) > 0, `per step: ${perStep}`).toBe(!perStep);
    }
  });

  it('keeps a step-by-step reduction whose operands are not a recursion straight-line', () => {
    // Each add reads a different earlier node: a chain, but no operand is the same node or the same distance back.
    const f = (a: Tensor, b: Tensor, w: Tensor) => {
      const xs = Array.from({ length: 30 }, (_, t) => mul(a, tensor(t)));
      let s = add(b, w);
      for (const x of xs) s = add(s, sqrt(add(square(x), 1)));
      return s;
    };
    sameBits(f, points);
  });

  it('random step patterns give the straight-line bits', () => {
    const unary = [tanh, square, (x: Tensor) => log1p(square(x)), exp, neg];
    for (let trial = 0; trial < 12; trial++) {
      const r = mulberry32(100 + trial);
      const P = 1 + Math.floor(r() * 4), K = 2 + Math.floor(r() * 30);
      const plan = Array.from({ length: P }, () => ({ u: Math.floor(r() * unary.length), c: r() < 0.5, back: r() < 0.6, shared: r() < 0.5 }));
      const y = Array.from({ length: K }, () => r() - 0.5);
      const f = (a: Tensor, b: Tensor, w: Tensor) => {
        let prev: Tensor[] = plan.map(() => w);
        const out: Tensor[] = [];
        for (let t = 0; t < K; t++) {
          const cur: Tensor[] = [];
          plan.forEach((q, p) => {
            const x = q.back ? prev[p]! : (cur[p - 1] ?? a);
            const c = q.c ? tensor(q.shared ? 0.7 : y[t]!) : b;
            cur.push(mul(c, exp(neg(square(unary[q.u]!(add(x, 0.1)))))));
          });
          prev = cur;
          out.push(cur[P - 1]!);
        }
        return sum(stack(out));
      };
      sameBits(f, points.slice(0, 3));
    }
  });

  it('rolls posteriordb\'s arma11 and garch11 written step by step: same bits, source length independent of T', () => {
    const compile = (make: () => { model: unknown; pins: object }) => {
      const { model, pins } = make();
      return compileTarget('test', flatModel('test', (model as { experimentalPin(p: object): never }).experimentalPin(pins)));
    };
    for (const [name, make] of [['arma', (T: number) => armaModel(armaData(T))], ['garch', (T: number) => garchModel(garchData(T))]] as const) {
      const small = compile(() => make(100)), large = compile(() => make(1000));
      setRolling(false);
      const straight = compile(() => make(1000));
      setRolling(true);
      expect(rolledLoops(large), name).toBeGreaterThan(0);
      // 10× the steps: the same code (up to the numbers in names and literals), longer arrays.
      const shape = (c: Compiled) => c.source.replace(/\d+(\.\d+)?(e-?\d+)?/g, '0').length;
      expect(shape(large), name).toBeLessThan(shape(small) * 1.02);
      expect(shape(straight), name).toBeGreaterThan(shape(small) * 5);
      const dim = large.flatInput.length;
      for (let k = 0; k < 20; k++) {
        const x = Array.from({ length: dim }, (_, i) => Math.sin(3.1 * k + 1.7 * i) * (k % 4));
        const g1 = new Float64Array(dim), g2 = new Float64Array(dim);
        const v1 = large.valueAndGrad!(x, g1), v2 = straight.valueAndGrad!(x, g2);
        expect(Object.is(v1, v2), `${name} value at ${x}`).toBe(true);
        g1.forEach((g, i) => expect(Object.is(g, g2[i]), `${name} gradient ${i} at ${x}`).toBe(true));
      }
    }
  }, 60_000);

  it('rolls the enumerated HMM written step by step (vector steps, kernel calls through per-step views): same bits, source length independent of T', () => {
    const compile = (T: number) => compileTarget('test', flatModel('test', stepByStepHmm(T).experimentalPin(pinsOf(observations(T))) as never));
    const small = compile(60), large = compile(240);
    setRolling(false);
    const straight = compile(240);
    setRolling(true);
    expect(rolledLoops(large)).toBeGreaterThan(0);
    const shape = (c: Compiled) => c.source.replace(/\d+(\.\d+)?(e-?\d+)?/g, '0').length;
    expect(shape(large)).toBeLessThan(shape(small) * 1.02);
    expect(shape(straight)).toBeGreaterThan(shape(large) * 3);
    for (let k = 0; k < 20; k++) {
      const x = [Math.sin(k) * 3, Math.cos(2 * k), k % 3 - 1];
      const g1 = new Float64Array(3), g2 = new Float64Array(3);
      const v1 = large.valueAndGrad!(x, g1), v2 = straight.valueAndGrad!(x, g2);
      expect(Object.is(v1, v2), `value at ${x}`).toBe(true);
      g1.forEach((g, i) => expect(Object.is(g, g2[i]), `gradient ${i} at ${x}`).toBe(true));
    }
  }, 60_000);
});
