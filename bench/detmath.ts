/**
 * `npx tsx bench/detmath.ts`: src/math's deterministic functions beside the engine's `Math.*`,
 * per call, in one process. For each function both loops run over the same preallocated inputs
 * (a typical range for that function) in interleaved rounds with alternating order; the table
 * reports median CPU ns/call and the median same-round ratio det/Math (lower is faster; the target
 * is ≤ 1.5). Every loop's sum is consumed (and checked for NaN) so nothing is optimised away.
 * Each loop is its own function literal, so every call site stays monomorphic and V8 can inline.
 *
 * Options: BENCH_N (inputs per loop, default 200000), BENCH_ROUNDS (default 9).
 */
import {
  detAcos, detAcosh, detAsin, detAsinh, detAtan, detAtan2, detAtanh, detCbrt, detCos, detCosh, detExp, detExpm1,
  detLog, detLog10, detLog1p, detLog2, detPow, detSin, detSinh, detTan, detTanh,
} from '../src/math/index.js';
import { median } from './median.js';

const N = Number(process.env.BENCH_N ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

/** A small deterministic generator for the inputs (mulberry32). */
let state = 20;
function rand(): number {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function fill(f: () => number): Float64Array {
  const a = new Float64Array(N);
  for (let i = 0; i < N; i++) a[i] = f();
  return a;
}
const logU = (lo: number, hi: number) => () => lo * (hi / lo) ** rand();
const uni = (lo: number, hi: number) => () => lo + (hi - lo) * rand();

type Loop = (xs: Float64Array, ys: Float64Array) => number;
interface Entry { name: string; range: string; xs: Float64Array; ys: Float64Array; math: Loop; det: Loop }

const none = new Float64Array(N);
const entries: Entry[] = [
  { name: 'exp', range: 'U(−50, 50)', xs: fill(uni(-50, 50)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.exp(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detExp(xs[i]!); return s; } },
  { name: 'expm1', range: 'U(−2, 2)', xs: fill(uni(-2, 2)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.expm1(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detExpm1(xs[i]!); return s; } },
  { name: 'log', range: 'log-U(1e-3, 1e3)', xs: fill(logU(1e-3, 1e3)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.log(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detLog(xs[i]!); return s; } },
  { name: 'log1p', range: 'U(−0.9, 10)', xs: fill(uni(-0.9, 10)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.log1p(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detLog1p(xs[i]!); return s; } },
  { name: 'log2', range: 'log-U(1e-3, 1e3)', xs: fill(logU(1e-3, 1e3)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.log2(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detLog2(xs[i]!); return s; } },
  { name: 'log10', range: 'log-U(1e-3, 1e3)', xs: fill(logU(1e-3, 1e3)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.log10(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detLog10(xs[i]!); return s; } },
  { name: 'pow', range: 'x log-U(1e-2, 1e2), y U(−5, 5)', xs: fill(logU(1e-2, 1e2)), ys: fill(uni(-5, 5)),
    math: (xs, ys) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.pow(xs[i]!, ys[i]!); return s; },
    det: (xs, ys) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detPow(xs[i]!, ys[i]!); return s; } },
  { name: 'sin', range: 'U(−10, 10)', xs: fill(uni(-10, 10)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.sin(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detSin(xs[i]!); return s; } },
  { name: 'cos', range: 'U(−10, 10)', xs: fill(uni(-10, 10)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.cos(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detCos(xs[i]!); return s; } },
  { name: 'tan', range: 'U(−10, 10)', xs: fill(uni(-10, 10)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.tan(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detTan(xs[i]!); return s; } },
  { name: 'sin (huge x)', range: 'log-U(1e7, 1e300)', xs: fill(logU(1e7, 1e300)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.sin(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detSin(xs[i]!); return s; } },
  { name: 'atan', range: 'U(−10, 10)', xs: fill(uni(-10, 10)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.atan(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detAtan(xs[i]!); return s; } },
  { name: 'atan2', range: 'y, x U(−10, 10)', xs: fill(uni(-10, 10)), ys: fill(uni(-10, 10)),
    math: (xs, ys) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.atan2(xs[i]!, ys[i]!); return s; },
    det: (xs, ys) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detAtan2(xs[i]!, ys[i]!); return s; } },
  { name: 'asin', range: 'U(−1, 1)', xs: fill(uni(-1, 1)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.asin(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detAsin(xs[i]!); return s; } },
  { name: 'acos', range: 'U(−1, 1)', xs: fill(uni(-1, 1)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.acos(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detAcos(xs[i]!); return s; } },
  { name: 'sinh', range: 'U(−10, 10)', xs: fill(uni(-10, 10)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.sinh(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detSinh(xs[i]!); return s; } },
  { name: 'cosh', range: 'U(−10, 10)', xs: fill(uni(-10, 10)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.cosh(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detCosh(xs[i]!); return s; } },
  { name: 'tanh', range: 'U(−5, 5)', xs: fill(uni(-5, 5)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.tanh(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detTanh(xs[i]!); return s; } },
  { name: 'asinh', range: 'U(−100, 100)', xs: fill(uni(-100, 100)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.asinh(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detAsinh(xs[i]!); return s; } },
  { name: 'acosh', range: 'U(1, 100)', xs: fill(uni(1, 100)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.acosh(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detAcosh(xs[i]!); return s; } },
  { name: 'atanh', range: 'U(−1, 1)', xs: fill(uni(-1, 1)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.atanh(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detAtanh(xs[i]!); return s; } },
  { name: 'cbrt', range: 'U(−1000, 1000)', xs: fill(uni(-1000, 1000)), ys: none,
    math: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += Math.cbrt(xs[i]!); return s; },
    det: (xs) => { let s = 0; for (let i = 0; i < xs.length; i++) s += detCbrt(xs[i]!); return s; } },
];

/** CPU time per call in ns (process.cpuUsage: on a shared VM, time spent descheduled is not counted). */
function time(loop: Loop, e: Entry): [number, number] {
  const t0 = process.cpuUsage();
  const s = loop(e.xs, e.ys);
  const u = process.cpuUsage(t0);
  const dt = ((u.user + u.system) * 1000) / N;
  if (Number.isNaN(s)) throw new Error(`${e.name} produced NaN`);
  return [dt, s];
}

console.log(`detmath bench: ${N.toLocaleString()} calls per loop, ${ROUNDS} interleaved rounds, node ${process.version}`);
console.log('\n| function | inputs | Math.* ns/call | det ns/call | det / Math (same round) |');
console.log('|---|---|---:|---:|---:|');
let sink = 0;
for (const e of entries) {
  for (let w = 0; w < 3; w++) { sink += time(e.math, e)[1] + time(e.det, e)[1]; }   // warm up, optimise
  const tm: number[] = [], td: number[] = [], ratio: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    let a: number, b: number;
    if (r % 2 === 0) { a = time(e.math, e)[0]; b = time(e.det, e)[0]; } else { b = time(e.det, e)[0]; a = time(e.math, e)[0]; }
    tm.push(a); td.push(b); ratio.push(b / a);
  }
  console.log(`| ${e.name} | ${e.range} | ${median(tm).toFixed(1)} | ${median(td).toFixed(1)} | ${median(ratio).toFixed(2)} |`);
}
console.log(`(checksum ${sink.toPrecision(6)})`);
