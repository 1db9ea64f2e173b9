/**
 * Large-sample statistical tests (`npm run test:slow`). Same discipline as the fast suite:
 * fixed keys, alpha = 1e-6 per test (see test/stats.ts).
 */
import { describe, expect, it } from 'vitest';
import * as random from '../../src/random/index.js';
import { ALL_MODES, withModes } from '../helpers.js';
import { ALPHA, chiSquarePValue } from '../stats.js';

describe('large-sample uniformity', () => {
  it('float64 uniforms fill 4096 equal bins evenly (n = 8M per mode)', () => {
    for (const m of ALL_MODES) {
      if (!m.x64) continue;
      const counts = new Array(4096).fill(0);
      withModes(m, () => random.uniform(random.key(1), [8_000_000]).data.forEach((u) => counts[Math.floor(u * 4096)]++));
      expect(chiSquarePValue(counts, counts.map(() => 1 / 4096))).toBeGreaterThan(ALPHA);
    }
  });

  it('float32 uniforms: the low mantissa bits are uniform too (n = 4M per mode)', () => {
    for (const m of ALL_MODES) {
      const counts = new Array(256).fill(0);
      withModes(m, () => random.uniform(random.key(2), [4_000_000], { dtype: 'float32' }).data.forEach((u) => counts[(u * 2 ** 23) & 255]++));
      expect(chiSquarePValue(counts, counts.map(() => 1 / 256))).toBeGreaterThan(ALPHA);
    }
  });

  it('randint over a span that is not a power of two (n = 5M, span 1000)', () => {
    for (const m of ALL_MODES) {
      const counts = new Array(1000).fill(0);
      withModes(m, () => random.randint(random.key(3), [5_000_000], 0, 1000, { dtype: 'int32' }).data.forEach((v) => counts[v as number]++));
      expect(chiSquarePValue(counts, counts.map(() => 1 / 1000))).toBeGreaterThan(ALPHA);
    }
  });

  it('two-round permutations (n = 2000) move element 0 uniformly (20000 keys, 100 position bins)', () => {
    const counts = new Array(100).fill(0);
    for (const k of random.split(random.key(4), 20000)) {
      const p = random.permutation(k, 2000).data;
      for (let i = 0; i < 2000; i++) if (Number(p[i]) === 0) { counts[Math.floor(i / 20)]++; break; }
    }
    expect(chiSquarePValue(counts, counts.map(() => 1 / 100))).toBeGreaterThan(ALPHA);
  });

  it('split keys give independent-looking first draws (pairs of consecutive keys, 256 cells, n = 1M)', () => {
    for (const m of ALL_MODES) {
      const counts = new Array(256).fill(0);
      withModes(m, () => {
        const keys = random.keyData(random.split(random.key(5), 1_000_000)).data;
        for (let i = 0; i + 3 < keys.length; i += 4) counts[((keys[i]! >>> 28) << 4) | (keys[i + 2]! >>> 28)]++;
      });
      expect(chiSquarePValue(counts, counts.map(() => 1 / 256))).toBeGreaterThan(ALPHA);
    }
  });
});
