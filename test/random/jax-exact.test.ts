/**
 * Ground truth from JAX itself: values produced by jax 0.10.2 / jaxlib 0.10.2 on CPU for the
 * functions stochax claims bit-exact (seeds, split, foldIn, bits, uniform at any range, randint,
 * bernoulli, permutation, choice), in all four modes. Generator and command:
 * test/random/fixtures/jax-exact.py (see its header).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { tensor, type Tensor } from '../../src/tensor/tensor.js';
import { f32Bits, withModes } from '../helpers.js';

interface Case {
  fn: string;
  mode: { x64: boolean; partitionable: boolean };
  seed: number;
  args: Record<string, any>;
  dtype?: string;
  shape?: number[];
  values?: (number | string | boolean)[];
  bits32?: number[];
  bits64?: string[];
  error?: string;
}

const { cases } = JSON.parse(readFileSync(fileURLToPath(new URL('./fixtures/jax-exact.json', import.meta.url)), 'utf8')) as { cases: Case[] };

function run(c: Case): Tensor {
  const key = random.key(c.seed);
  const a = c.args;
  const float = c.mode.x64 ? 'float64' : 'float32';
  switch (c.fn) {
    case 'key': return random.keyData(key);
    case 'split': return random.keyData(random.split(key, a.num));
    case 'foldIn': return random.keyData(random.foldIn(key, a.data));
    case 'bits': return random.bits(key, a.shape, { dtype: a.dtype });
    case 'uniform': return random.uniform(key, a.shape, { dtype: a.dtype, minval: a.minval, maxval: a.maxval });
    case 'randint': return random.randint(key, a.shape, BigInt(a.minval), BigInt(a.maxval), { dtype: a.dtype });
    case 'bernoulli':
      return random.bernoulli(key, Array.isArray(a.p) ? tensor(a.p, float) : a.p, a.shape ?? undefined);
    case 'permutation':
      return random.permutation(key, typeof a.x === 'number' ? a.x : tensor(a.x, 'int32'), { axis: a.axis, independent: a.independent });
    case 'choice':
      return random.choice(key, a.a, a.shape, { replace: a.replace, ...(a.p ? { p: tensor(a.p, float) } : {}) });
  }
  throw new Error(`no runner for ${c.fn}`);
}

/** Exact comparable form: integers as decimal strings, floats as their bit patterns. */
function actual(t: Tensor): string[] {
  if (t.dtype === 'float32') return Array.from(t.data as Float32Array, (v) => String(f32Bits(v)));
  if (t.dtype === 'float64') {
    const b = new BigUint64Array(Float64Array.from(t.data as Float64Array).buffer);
    return Array.from(b, String);
  }
  if (t.dtype === 'bool') return Array.from(t.data as Uint8Array, (v) => String(v === 1));
  return Array.from(t.data as ArrayLike<number | bigint>, String);
}

const expected = (c: Case) => (c.bits32 ?? c.bits64 ?? c.values!).map(String);

describe('bit-exact agreement with JAX 0.10.2', () => {
  it('has every function in all four modes', () => {
    expect(new Set(cases.map((c) => `${c.fn}/${c.mode.x64}/${c.mode.partitionable}`)).size).toBe(9 * 4);
    expect(cases.length).toBeGreaterThan(2900);
  });

  for (const fn of ['key', 'split', 'foldIn', 'bits', 'uniform', 'randint', 'bernoulli', 'permutation', 'choice']) {
    it(`${fn}: every case, bit for bit`, () => {
      const failures: string[] = [];
      for (const c of cases.filter((k) => k.fn === fn && !k.error)) {
        const got = withModes({ x64: c.mode.x64, threefryPartitionable: c.mode.partitionable }, () => run(c));
        const same = JSON.stringify(actual(got)) === JSON.stringify(expected(c)) && JSON.stringify(got.shape) === JSON.stringify(c.shape);
        if (!same) failures.push(`${JSON.stringify(c.mode)} seed ${c.seed} ${JSON.stringify(c.args).slice(0, 120)}\n   got ${actual(got).slice(0, 6)} [${got.shape}] ${got.dtype}\n  want ${expected(c).slice(0, 6)} [${c.shape}] ${c.dtype}`);
      }
      expect(failures.slice(0, 4).join('\n')).toBe('');
    });
  }

  it('throws where JAX refuses to draw (more draws than entries without replacement)', () => {
    for (const c of cases.filter((k) => k.error && k.fn === 'choice')) {
      expect(() => withModes({ x64: c.mode.x64, threefryPartitionable: c.mode.partitionable }, () => run(c))).toThrow(RangeError);
    }
  });
});
