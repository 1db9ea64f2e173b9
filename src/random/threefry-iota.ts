import { threefryFill } from '../prng/index.js';

/**
 * JAX's `threefry_2x32(key, count)` array wrapper over `iota(n)` (original mode): the counts
 * are padded with one zero to even length, halved, and block m hashes `(count[m], count[m+h])`;
 * the output is all first words then all second words, truncated to n. So for odd n the last
 * block hashes `(h-1, 0)`, and every word depends on n.
 */
export function threefryIotaWords(key: Uint32Array, n: number): Uint32Array {
  const h = Math.ceil(n / 2);
  const out = new Uint32Array(2 * h);
  const full = n % 2 === 0 ? h : h - 1;             // blocks whose pair is (m, m + h)
  threefryFill('halves', key[0]!, key[1]!, 0, h, 1, full, out.subarray(0, full), out.subarray(h, h + full));
  if (full < h) {                                    // odd n: the padded pair (h - 1, 0)
    const last = new Uint32Array(2);
    threefryFill('blocks', key[0]!, key[1]!, h - 1, 0, 0, 1, last);
    out[h - 1] = last[0]!;
  }
  return out.subarray(0, n);
}
