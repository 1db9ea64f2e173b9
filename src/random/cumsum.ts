/**
 * Inclusive prefix sums in the order XLA:CPU adds them for `jnp.cumsum`: JAX lowers cumsum on
 * CPU to `lax.associative_scan` (Blelloch-style). Adjacent pairs are summed, the half-length
 * sequence is scanned recursively (giving the odd positions), and each even position after the
 * first is the previous odd prefix plus its own element. In float32 every sum is rounded to
 * float32, so the order decides the last bits.
 */
export function associativeCumsum(x: readonly number[], round: (v: number) => number): number[] {
  const n = x.length;
  if (n < 2) return [...x];
  const pairs: number[] = [];
  for (let j = 0; j + 1 < n; j += 2) pairs.push(round(x[j]! + x[j + 1]!));
  const odd = associativeCumsum(pairs, round);        // prefixes ending at 1, 3, 5, ...
  const out = new Array<number>(n);
  out[0] = x[0]!;
  for (let j = 0; j < odd.length; j++) {
    out[2 * j + 1] = odd[j]!;
    if (2 * j + 2 < n) out[2 * j + 2] = round(odd[j]! + x[2 * j + 2]!);
  }
  return out;
}
