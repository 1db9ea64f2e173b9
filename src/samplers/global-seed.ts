import seedrandom from 'seedrandom';
import { checkInteger, fail } from '../checks.js';

/**
 * The one piece of global state in `samplers`: the stateful source that turns an `undefined`
 * seed into a fresh key. It is a `seedrandom` (ARC4) generator; each fresh key takes its two
 * words from two `int32()` draws. Unseeded, it is seeded once, lazily, from
 * `globalThis.crypto.getRandomValues` (256 bits), so undefined seeds differ between runs.
 */
let source: seedrandom.PRNG | undefined;

function cryptoSeeded(): seedrandom.PRNG {
  const c = (globalThis as { crypto?: { getRandomValues?: (a: Uint32Array) => Uint32Array } }).crypto;
  if (typeof c?.getRandomValues !== 'function') return seedrandom(); // seedrandom's own autoseed
  const words = c.getRandomValues(new Uint32Array(8));
  return seedrandom(Array.from(words, (w) => w.toString(16).padStart(8, '0')).join(''));
}

/**
 * Seeds the global source behind `undefined` seeds, so that a program that never passes seeds
 * is still reproducible: after `setGlobalSeed(n)`, the sequence of keys that `undefined` seeds
 * draw is a fixed function of `n`. `setGlobalSeed(undefined)` reseeds from
 * `crypto.getRandomValues` (fresh randomness again). Explicit seeds are never affected.
 *
 * @param seed an integer `number` (safe range) or `bigint`; `5` and `5n` seed alike.
 * @throws TypeError for a non-integer seed; RangeError for an unsafe integer number.
 * @example
 * samplers.setGlobalSeed(42);
 * const a = samplers.normal([3]);
 * samplers.setGlobalSeed(42);
 * const b = samplers.normal([3]);   // the same values as `a`
 */
export function setGlobalSeed(seed?: number | bigint): void {
  const fn = 'samplers.setGlobalSeed';
  if (seed === undefined) { source = cryptoSeeded(); return; }
  if (typeof seed !== 'bigint') {
    if (typeof seed !== 'number') fail('type', fn, 'seed', 'must be an integer number or bigint (or undefined)', seed);
    checkInteger(fn, 'seed', seed);
  }
  source = seedrandom(`stochax:${String(seed)}`);
}

/** Two fresh uint32 key words from the global source (seeding it from crypto on first use). */
export function freshKeyWords(): [number, number] {
  source ??= cryptoSeeded();
  return [source.int32() >>> 0, source.int32() >>> 0];
}
