// Long programs are split into functions V8 optimizes (src/compile/chunk.ts): the split program
// keeps the tape's bits, and the splitter leaves shapes it does not handle whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkRun, setChunking } from '../../src/compile/chunk.js';
import { compileGradient } from '../../src/compile/index.js';
import { setRolling } from '../../src/compile/roll.js';
import { add, exp, log1p, mul, square, stack, sub, sum, tanh, tensor, valueAndGrad, where, greater, logsumexp, type Tensor } from '../../src/index.js';
import { mulberry32 } from '../helpers.js';

const rand = mulberry32(11);

/** An ARMA(1,1)-like recursion of scalar ops over T steps, with a GARCH-like variance: a long scalar program. */
const recursion = (T: number, y: readonly number[]) => (phi: Tensor, theta: Tensor, w: Tensor) => {
  let err = sub(tensor(y[0]!), phi);
  let h = add(w, square(err));
  const terms: Tensor[] = [];
  for (let t = 1; t < T; t++) {
    err = sub(tensor(y[t]!), add(mul(phi, tensor(y[t - 1]!)), mul(tanh(theta), err)));
    h = add(w, add(mul(0.1, square(err)), mul(0.8, h)));
    terms.push(add(log1p(h), mul(square(err), exp(mul(-1, log1p(h))))));
  }
  return sum(stack(terms));
};

describe('chunkRun', () => {
  // Straight-line code is what is split: the recursion would otherwise be rolled into loops (roll.ts).
  beforeAll(() => setRolling(false));
  afterAll(() => setRolling(true));
  it('a 300-step recursion runs as pieces with the tape\'s value and gradient bits', () => {
    const T = 300;
    const y = Array.from({ length: T }, () => 2 * rand() - 1);
    const f = recursion(T, y);
    const c = compileGradient('test', f, [tensor(0.3), tensor(0.1), tensor(0.5)]);
    expect(c.source).toMatch(/function f1\(withGrad\)/);
    expect(c.source).toMatch(/function b1\(withGrad\)/);
    for (const p of [[0.3, 0.1, 0.5], [-0.7, 1.3, 0.05], [0.95, -2, 3]]) {
      p.forEach((v, i) => c.inputs[i]!.set([v]));
      c.run(true);
      const [value, grads] = valueAndGrad(f, [0, 1, 2])(...p.map((v) => tensor(v))) as [Tensor, Tensor[]];
      expect(Object.is(c.outputs[0]![0], value.data[0])).toBe(true);
      grads.forEach((g, i) => expect(Object.is(c.grads[i]![0], g.data[0]), `gradient ${i} at ${p}`).toBe(true));
      c.run(false);   // the forward pass alone gives the same value
      expect(Object.is(c.outputs[0]![0], value.data[0])).toBe(true);
    }
  });

  it('declares each adjoint local where it is first written: no statement too long to cut into pieces', () => {
    const T = 300;
    const y = Array.from({ length: T }, () => 2 * rand() - 1);
    const c = compileGradient('test', recursion(T, y), [tensor(0.3), tensor(0.1), tensor(0.5)]);
    // All locals declared in one statement made a piece of their own, over V8's size limit at 50,000 operations.
    const longest = Math.max(...c.source.split('\n').slice(2).map((l) => l.length));
    expect(longest).toBeLessThan(1000);
    expect(c.source).toMatch(/^let a\d+_0 = 0;$/m);
  });

  it('leaves short bodies, shadowed locals and stray returns whole', () => {
    expect(chunkRun('const v1_0 = e0[0] * 2; e1[0] = v1_0;\nif (!withGrad) return;')).toBeUndefined();
    const filler = Array.from({ length: 3000 }, (_, i) => `const v${i}_0 = e0[0] * ${i}; e1[0] += v${i}_0;`).join('\n');
    expect(chunkRun(filler)).toBeDefined();
    expect(chunkRun(`${filler}\n{ const v5_0 = 1; e1[0] = v5_0; }`)).toBeUndefined();   // v5_0 declared again inside a block
    expect(chunkRun(`${filler}\nreturn;`)).toBeUndefined();
    expect(chunkRun(`${filler}\nconst S = 1;`)).toBeUndefined();                         // the slot array's name is taken
  });

  it('gives slots to locals used across pieces only, splits mixed declarations, and splits between statements', () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `const v${i}_0 = e0[0] * ${i}; e1[0] += v${i}_0;`).join('\n');
    const body = `let p1 = 1, q1 = 2; e1[0] += p1;\n${filler}\nlet s9 = 0;\nfor (let k = 0; k < 4; k++) {\nconst v = e2[k];\ns9 += v * v1_0 * q1;\n}\ne1[0] += s9;\nif (!withGrad) return;\nlet a1_0 = 0, a2_0 = e3(v2_0, 1);\n{ const g = a1_0 + a2_0; e4[0] += g * v2999_0; }`;
    const split = chunkRun(body)!;
    expect(split.body).toMatch(/^f0\(withGrad\); f1\(withGrad\);.*\nif \(!withGrad\) return;\nb0\(withGrad\);$/);
    const p = split.prelude;
    expect(p).toMatch(/^let p1 = 1; S\[\d+\] = 2; e1\[0\] \+= p1;$/m);             // q1 is read in a later piece, p1 is not
    expect(p).toContain('const v0_0 = e0[0] * 0; e1[0] += v0_0;');                       // used where it is made
    expect(p).toMatch(/^S\[\d+\] = e0\[0\] \* 1; e1\[0\] \+= S\[\d+\];$/m);            // v1_0: read again in the last forward piece
    expect(p).toMatch(/for \(let k = 0; k < 4; k\+\+\) \{\nconst v = e2\[k\];\ns9 \+= v \* S\[\d+\] \* S\[\d+\];\n\}/);
    expect(p).toMatch(/let a1_0 = 0, a2_0 = e3\(S\[\d+\], 1\);\n\{ const g = a1_0 \+ a2_0; e4\[0\] \+= g \* S\[\d+\]; \}/);
    // the same program, run both ways
    const env = () => ({ e0: [1.5], e1: [0], e2: [1, 2, 3, 4], e3: (a: number, b: number) => a + b, e4: [0] });
    const run = (src: string) => {
      const e = env();
      new Function('e0', 'e1', 'e2', 'e3', 'e4', `${src}\nrun(true);`)(e.e0, e.e1, e.e2, e.e3, e.e4);
      return [e.e1[0], e.e4[0]];
    };
    expect(run(`${split.prelude}\nfunction run(withGrad) {\n${split.body}\n}`)).toEqual(run(`function run(withGrad) {\n${body}\n}`));
  });

  it('a long program with vector steps, loops and branches gives the same bits as pieces and as one function', () => {
    // Scalar recursion, 3-vector steps (loops whose adjoints are buffers), a logsumexp kernel,
    // `where`, broadcast constants: ~7,500 traced ops.
    const T = 300;
    const y = Array.from({ length: T }, () => 2 * rand() - 1);
    const f = (phi: Tensor, theta: Tensor, w: Tensor) => {
      let err = sub(tensor(y[0]!), phi);
      let v = mul(w, tensor([1, -0.5, 0.25]));
      const terms: Tensor[] = [];
      for (let t = 1; t < T; t++) {
        err = sub(tensor(y[t]!), add(mul(phi, tensor(y[t - 1]!)), mul(tanh(theta), err)));
        v = add(mul(0.9, v), mul(err, tensor([0.1, 0.2, 0.3])));
        const lse = logsumexp(v);
        terms.push(add(where(greater(err, 0), square(err), mul(-0.5, err)), mul(lse, exp(mul(-1, log1p(square(w)))))));
      }
      return sum(stack(terms));
    };
    const compile = (chunked: boolean) => {
      setChunking(chunked);
      try { return compileGradient('test', f, [tensor(0.3), tensor(0.1), tensor(0.5)]); } finally { setChunking(true); }
    };
    const pieces = compile(true), whole = compile(false);
    expect(pieces.source).toMatch(/function b1\(withGrad\)/);
    expect(whole.source).not.toMatch(/function f0\(withGrad\)/);
    expect(pieces.source).toMatch(/for \(let k = 0; k < 3; k\+\+\)/);
    expect(pieces.source).toMatch(/\.backward\(|logsumexp/i);
    for (const p of [[0.3, 0.1, 0.5], [-0.7, 1.3, 0.05], [0.95, -2, 3], [0, 0, -1.5]]) {
      for (const c of [pieces, whole]) { p.forEach((v, i) => c.inputs[i]!.set([v])); c.run(true); }
      expect(Object.is(pieces.outputs[0]![0], whole.outputs[0]![0]), `value at ${p}`).toBe(true);
      for (let i = 0; i < 3; i++) expect(Object.is(pieces.grads[i]![0], whole.grads[i]![0]), `gradient ${i} at ${p}`).toBe(true);
    }
  }, 60_000);

  it('tells generated names apart from names that only look alike (v1, v1_0, v01_0, v1_00, tmp1_0)', () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `const w${i}_0 = e0[0] * ${i}; e1[0] += w${i}_0;`).join('\n');
    const body = `const v1 = 2; const v1_0 = 3; let v01_0 = 5, v1_00 = 7; const tmp1_0 = 11; const V1_0 = 13;\n${filler}\n`
      + 'e1[0] += v1 + 10 * v1_0 + 100 * v01_0 + 1000 * v1_00 + 10000 * tmp1_0 + 100000 * V1_0;';
    const split = chunkRun(body)!;
    expect(split).toBeDefined();
    // All six are read in the last piece: six slots, each name its own.
    expect(split.prelude).toMatch(/^S\[0\] = 2; S\[1\] = 3; S\[2\] = 5; S\[3\] = 7; S\[4\] = 11; S\[5\] = 13;$/m);
    const run = (src: string) => { const e1 = [0]; new Function('e0', 'e1', `${src}\nrun(true);`)([1.5], e1); return e1[0]; };
    expect(run(`${split.prelude}\nfunction run(withGrad) {\n${split.body}\n}`)).toBe(run(`function run(withGrad) {\n${body}\n}`));
  });

  it('grows in proportion to the program: source, pieces and slots per op are the same at 100 and 1,000 steps, and no piece grows', () => {
    // Counts, not times: a step that grew faster than the program (a statement declaring every
    // local, a slot per pair of pieces) would show here as a longer piece or more per op.
    const shape = (T: number) => {
      const y = Array.from({ length: T }, (_, i) => Math.sin(i));
      const c = compileGradient('test', recursion(T, y), [tensor(0.3), tensor(0.1), tensor(0.5)]);
      const ops = c.program.trace.nodes.length;
      const pieces = c.source.split(/\nfunction [fb]\d+\(withGrad\) \{\n/).slice(1).map((p) => p.slice(0, p.indexOf('\n}\n')));
      const slots = Number(/const S = new Float64Array\((\d+)\)/.exec(c.source)![1]);
      return { ops, chars: c.source.length / ops, pieces: pieces.length / ops, slots: slots / ops, longest: Math.max(...pieces.map((p) => p.length)) };
    };
    const small = shape(100), large = shape(1000);
    expect(large.ops).toBeGreaterThan(9 * small.ops);
    expect(large.chars / small.chars).toBeGreaterThan(0.9);
    expect(large.chars / small.chars).toBeLessThan(1.1);
    expect(large.pieces / small.pieces).toBeLessThan(1.2);
    expect(large.slots / small.slots).toBeLessThan(1.1);
    expect(large.longest).toBeLessThan(30_000);   // CHUNK_CHARS plus one statement
  }, 60_000);
});
