import { describe, expect, it } from 'vitest';
import { mulhi32, philox4x32Rounds, philoxFillJs } from '../../src/prng/philox.js';
import { loadKatVectors } from './kat.js';

const vectors = loadKatVectors().filter((v) => v.name === 'philox4x32');

describe('philox4x32 against Random123 known answers', () => {
  it('has every philox line of the fixture (7 and 10 rounds)', () => {
    expect(vectors.length).toBe(3 * 2 + 52 * 2);
  });

  it.each(vectors.map((v) => [`${v.rounds} rounds ctr=${v.counter} key=${v.key}`, v] as const))(
    'generic kernel: %s',
    (_, v) => {
      const out = new Uint32Array(4);
      philox4x32Rounds(v.rounds, v.counter, v.key, out);
      expect(Array.from(out)).toEqual(v.expected);
    },
  );

  it.each(vectors.filter((v) => v.rounds === 10).map((v) => [`ctr=${v.counter} key=${v.key}`, v] as const))(
    '10-round fill: %s',
    (_, v) => {
      const out = new Uint32Array(4);
      philoxFillJs(v.key, v.counter, 1, out);
      expect(Array.from(out)).toEqual(v.expected);
    },
  );
});

describe('mulhi32', () => {
  it('equals the BigInt high word on edge and pseudo-random inputs', () => {
    const xs = [0, 1, 2, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0xd2511f53, 0xcd9e8d57];
    let s = 12345;
    for (let i = 0; i < 2000; i++) { s = (Math.imul(s, 1103515245) + 12345) >>> 0; xs.push(s); }
    for (const a of xs) for (const b of [0xd2511f53, 0xcd9e8d57, 0xffffffff, a]) {
      const lo = Math.imul(a, b) >>> 0;
      const want = Number((BigInt(a) * BigInt(b)) >> 32n);
      expect(mulhi32(a, b, lo) >>> 0).toBe(want);
    }
  });
});

describe('philoxFillJs counter increments', () => {
  it('carries through all four counter words', () => {
    const key = [0xa4093822, 0x299f31d0];
    const start = [0xfffffffe, 0xffffffff, 0xffffffff, 7];
    const out = new Uint32Array(12);
    philoxFillJs(key, start, 3, out);
    const expected = new Uint32Array(12);
    philox4x32Rounds(10, [0xfffffffe, 0xffffffff, 0xffffffff, 7], key, expected, 0);
    philox4x32Rounds(10, [0xffffffff, 0xffffffff, 0xffffffff, 7], key, expected, 4);
    philox4x32Rounds(10, [0, 0, 0, 8], key, expected, 8);
    expect(Array.from(out)).toEqual(Array.from(expected));
  });
});
