/** Fault injection for the rejection tests (rejections.test.ts, tfp-rejections.test.ts): faults at points chosen by a hash, and a KS check on ESS-thinned draws. */
import { essBulk } from '../../mcmc/diagnostics/index.js';
import { erf } from '../../src/tensor/special/erf.js';
import type { Tensor } from '../../src/tensor/tensor.js';
import { ksPValue } from '../stats.js';

const bits = new Float64Array(1), words = new Uint32Array(bits.buffer);
/** A uniform in [0, 1) from the bits of `v` (a 32-bit finalizer of both words): the same point always gets the same value, whichever sampler reaches it. */
export function unitHash(v: number): number {
  bits[0] = v;
  let h = Math.imul(words[0]! ^ 0x9e3779b9, 0x85ebca6b) ^ words[1]!;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}

/** The sum of a tensor's entries. */
export const total = (t: Tensor) => Array.from(t.data as ArrayLike<number>).reduce((a, b) => a + b, 0);

/** KS p-value of draws [N, C] against N(0, sd²), thinned per chain to about one draw per effective draw (bulk ESS). */
export function thinnedNormalKs(draws: Tensor, sd = 1): { p: number; n: number; ess: number } {
  const [N, C] = draws.shape as [number, number];
  const ess = Number(essBulk(draws).item());
  const k = Math.max(1, Math.ceil((N * C) / ess));
  const kept: number[] = [];
  const d = draws.data as Float64Array;
  for (let c = 0; c < C; c++) for (let t = 0; t < N; t += k) kept.push(d[t * C + c]!);
  return { p: ksPValue(kept, (v) => 0.5 * (1 + erf(v / sd / Math.SQRT2))), n: kept.length, ess };
}
