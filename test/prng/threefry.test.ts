import { describe, expect, it } from 'vitest';
import { threefry2x32Rounds, threefryFillJs } from '../../src/prng/threefry.js';
import { loadKatVectors } from './kat.js';

const vectors = loadKatVectors().filter((v) => v.name === 'threefry2x32');

describe('threefry2x32 against Random123 known answers', () => {
  it('has every threefry line of the fixture (13, 20 and 32 rounds)', () => {
    expect(vectors.length).toBe(3 * 3 + 28 * 2);
    expect(new Set(vectors.map((v) => v.rounds))).toEqual(new Set([13, 20, 32]));
  });

  it.each(vectors.map((v) => [`${v.rounds} rounds ctr=${v.counter} key=${v.key}`, v] as const))(
    'generic kernel: %s',
    (_, v) => {
      const out = new Uint32Array(2);
      threefry2x32Rounds(v.rounds, v.key[0]!, v.key[1]!, v.counter[0]!, v.counter[1]!, out);
      expect(Array.from(out)).toEqual(v.expected);
    },
  );

  it.each(vectors.filter((v) => v.rounds === 20).map((v) => [`ctr=${v.counter} key=${v.key}`, v] as const))(
    'unrolled 20-round fill: %s',
    (_, v) => {
      const out = new Uint32Array(2);
      threefryFillJs('blocks', v.key[0]!, v.key[1]!, v.counter[0]!, v.counter[1]!, 0, 1, out);
      expect(Array.from(out)).toEqual(v.expected);
    },
  );
});

describe('threefryFillJs layouts', () => {
  const k0 = 0x13198a2e, k1 = 0x03707344;
  const n = 37;
  // Reference blocks from the generic kernel, counters (7 + i, 0xfffffff0 + i) wrapping.
  const ref = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) threefry2x32Rounds(20, k0, k1, 7 + i, (0xfffffff0 + i) >>> 0, ref, 2 * i);

  it('blocks, xor, halves, f64 and f32 all derive from the same blocks', () => {
    const blocks = new Uint32Array(2 * n);
    const xor = new Uint32Array(n);
    const ha = new Uint32Array(n), hb = new Uint32Array(n);
    const f64 = new Float64Array(n);
    const f32 = new Float32Array(n);
    threefryFillJs('blocks', k0, k1, 7, 0xfffffff0, 1, n, blocks);
    threefryFillJs('xor', k0, k1, 7, 0xfffffff0, 1, n, xor);
    threefryFillJs('halves', k0, k1, 7, 0xfffffff0, 1, n, ha, hb);
    threefryFillJs('f64', k0, k1, 7, 0xfffffff0, 1, n, f64);
    threefryFillJs('f32', k0, k1, 7, 0xfffffff0, 1, n, f32);
    expect(Array.from(blocks)).toEqual(Array.from(ref));
    for (let i = 0; i < n; i++) {
      const y0 = ref[2 * i]!, y1 = ref[2 * i + 1]!;
      expect(xor[i]).toBe((y0 ^ y1) >>> 0);
      expect([ha[i], hb[i]]).toEqual([y0, y1]);
      const u64 = (BigInt(y0) << 32n) | BigInt(y1);
      expect(f64[i]).toBe(Number(u64 >> 12n) / 2 ** 52);
      expect(f32[i]).toBe(((y0 ^ y1) >>> 9) / 2 ** 23);
    }
  });

  it('writes at an offset and leaves the rest alone', () => {
    const out = new Uint32Array(6).fill(9);
    threefryFillJs('xor', k0, k1, 7, 0xfffffff0, 1, 2, out, undefined, 3);
    expect(Array.from(out)).toEqual([9, 9, 9, (ref[0]! ^ ref[1]!) >>> 0, (ref[2]! ^ ref[3]!) >>> 0, 9]);
  });
});

describe('threefryLanes (one key per block)', () => {
  it('equals the generic kernel for every listed lane, in any order and count', async () => {
    const { threefryLanes } = await import('../../src/prng/threefry.js');
    const n = 11;
    const keys = new Int32Array(2 * n);
    let s = 5;
    for (let i = 0; i < 2 * n; i++) { s = (Math.imul(s, 1103515245) + 12345) | 0; keys[i] = s; }
    for (const m of [1, 2, 3, 4, 5, 8, 11]) {
      const lanes = Int32Array.from({ length: m }, (_, t) => (t * 7) % n);
      const out = new Int32Array(2 * n);
      threefryLanes(keys, 0x243f6a88, 0x85a308d3, lanes, m, out);
      for (const j of lanes) {
        const want = new Uint32Array(2);
        threefry2x32Rounds(20, keys[2 * j]!, keys[2 * j + 1]!, 0x243f6a88, 0x85a308d3, want);
        expect([out[2 * j]! >>> 0, out[2 * j + 1]! >>> 0]).toEqual([want[0], want[1]]);
      }
    }
  });
});
