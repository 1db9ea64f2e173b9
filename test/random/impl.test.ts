/**
 * Every optional fused hook of a `PrngImpl` gives the bits of the generic path it replaces
 * (src/random/impl.ts), for every registered implementation that has it, in all four modes.
 * (The `gamma` hook is checked against `gammaReference` in gamma.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { Modes } from '../../src/config.js';
import type { PrngImpl } from '../../src/random/impl.js';
import { IMPLS } from '../../src/random/key-array.js';
import { normalFromUnit } from '../../src/random/normal-fill.js';
import { unitF32, unitF64 } from '../../src/random/unit.js';

const MODES: Modes[] = [
  { x64: true, partitionable: true }, { x64: true, partitionable: false },
  { x64: false, partitionable: true }, { x64: false, partitionable: false },
];
const KEYS = [Uint32Array.of(0, 42), Uint32Array.of(0x9e3779b9, 0x243f6a88)];
const SIZES = [1, 2, 3, 7, 8, 24, 41];

/** The generic unit uniforms from `bits` (uniform.ts's fallback). */
function generic(impl: PrngImpl, key: Uint32Array, n: number, modes: Modes): [Float64Array, Float32Array] {
  const b64 = impl.bits(key, 64, n, modes) as Uint32Array;
  const b32 = impl.bits(key, 32, n, modes) as Uint32Array;
  return [
    Float64Array.from({ length: n }, (_, i) => unitF64(b64[2 * i]!, b64[2 * i + 1]!)),
    Float32Array.from({ length: n }, (_, i) => unitF32(b32[i]!)),
  ];
}

describe.each(Object.values(IMPLS))('$name hooks', (impl) => {
  it.each(MODES)('agree with the generic paths in %j', (modes) => {
    for (const key of KEYS) {
      for (const n of SIZES) {
        const [u64, u32] = generic(impl, key, n, modes);
        if (impl.uniformFloat64) { const o = new Float64Array(n); impl.uniformFloat64(key, o, modes); expect(o).toEqual(u64); }
        if (impl.uniformFloat32) { const o = new Float32Array(n); impl.uniformFloat32(key, o, modes); expect(o).toEqual(u32); }
        if (impl.uniformFloat64At) expect(Float64Array.from({ length: n }, (_, i) => impl.uniformFloat64At!(key, i, n, modes))).toEqual(u64);
        if (impl.uniformFloat32At) expect(Float32Array.from({ length: n }, (_, i) => impl.uniformFloat32At!(key, i, n, modes))).toEqual(u32);
        const z64 = u64.slice(), z32 = u32.slice();
        normalFromUnit(z64);
        normalFromUnit(z32);
        if (impl.normalFloat64) { const o = new Float64Array(n); impl.normalFloat64(key, o, modes); expect(o).toEqual(z64); }
        if (impl.normalFloat32) { const o = new Float32Array(n); impl.normalFloat32(key, o, modes); expect(o).toEqual(z32); }
      }
      if (impl.foldInUniforms) {
        for (const dtype of ['float64', 'float32'] as const) {
          const first = 0xfffffff0;                     // runs across the uint32 counter wrap
          const out = new Float64Array(40);
          impl.foldInUniforms(key, first, dtype, out, modes);
          const expected = Array.from({ length: 40 }, (_, i) => {
            const [u64, u32] = generic(impl, impl.foldIn(key, (first + i) >>> 0, modes), 1, modes);
            return dtype === 'float64' ? u64[0]! : u32[0]!;
          });
          expect(Array.from(out)).toEqual(expected);
        }
      }
    }
  });
});

describe.each(Object.values(IMPLS))('$name split and foldIn into a given array', (impl) => {
  it('write the keys they return, whatever the array held', () => {
    for (const modes of MODES) {
      for (const key of KEYS) {
        for (const n of [1, 2, 3, 30]) {
          const out = new Uint32Array(n * impl.keyWords).fill(0xdeadbeef);
          expect(impl.split(key, n, modes, out)).toBe(out);
          expect(Array.from(out)).toEqual(Array.from(impl.split(key, n, modes)));
        }
        const out = new Uint32Array(impl.keyWords).fill(7);
        expect(impl.foldIn(key, 12345, modes, out)).toBe(out);
        expect(Array.from(out)).toEqual(Array.from(impl.foldIn(key, 12345, modes)));
      }
    }
  });
});
