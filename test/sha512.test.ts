/**
 * SHA-512 against node:crypto (the reference; the code under test never uses it) and FIPS 180-4's
 * published digests, and `saltToInt` against tfp.md §1.7's table (computed with Python hashlib).
 */
import { createHash } from 'node:crypto';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { saltToInt, sha512 } from '../src/sha512.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const nodeSha512 = (b: Uint8Array) => createHash('sha512').update(b).digest('hex');
const utf8 = (s: string) => new TextEncoder().encode(s);

describe('sha512', () => {
  it('FIPS 180-4 example digests', () => {
    expect(hex(sha512(utf8('abc')))).toBe(
      'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f');
    expect(hex(sha512(new Uint8Array(0)))).toBe(
      'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e');
    const twoBlock = 'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu';
    expect(hex(sha512(utf8(twoBlock)))).toBe(
      '8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909');
  });

  it('the FIPS long message: one million "a"s', () => {
    const msg = new Uint8Array(1_000_000).fill(0x61);
    expect(hex(sha512(msg))).toBe(
      'e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b');
  });

  it('equals node:crypto on random messages of every length 0..300 (all padding boundaries)', () => {
    const rng = seedrandom('sha512-test');
    for (let n = 0; n <= 300; n++) {
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) b[i] = Math.floor(rng() * 256);
      expect(hex(sha512(b)), `length ${n}`).toBe(nodeSha512(b));
    }
  });

  it('equals node:crypto on longer messages and extreme bytes', () => {
    for (const n of [1000, 4096, 65537]) {
      const zeros = new Uint8Array(n);
      const ones = new Uint8Array(n).fill(0xff);
      expect(hex(sha512(zeros))).toBe(nodeSha512(zeros));
      expect(hex(sha512(ones))).toBe(nodeSha512(ones));
    }
  });

  it('hashes a subarray view by its own bytes', () => {
    const big = utf8('xxabcxx');
    expect(hex(sha512(big.subarray(2, 5)))).toBe(nodeSha512(utf8('abc')));
  });

  it('rejects anything but a Uint8Array', () => {
    expect(() => sha512('abc' as never)).toThrow(TypeError);
    expect(() => sha512([1, 2, 3] as never)).toThrow(/sha512: `bytes`/);
  });
});

describe('saltToInt', () => {
  it("tfp.md §1.7's table (Python hashlib, mod 2^31 − 1)", () => {
    const table: [string, number][] = [
      ['gamma', 589445474], ['random_gamma', 1974534584], ['beta_binomial', 7478180], ['binomial', 1481233392],
      ['HiddenMarkovModel', 1796811928], ['JointDistribution', 675271407], ['mcmc.sample_chain', 1365385517],
      ['langevin.one_step', 632912439], ['normal', 790501131],
    ];
    for (const [salt, want] of table) expect(saltToInt(salt), salt).toBe(want);
    expect(saltToInt('gamma')).toBe(0x23223962);
  });

  it('is the big-endian digest mod 2^31 − 1, multi-byte UTF-8 included', () => {
    for (const s of ['', 'a', 'héllo', '日本語', '🎲 dice', 'Ω≈ç√∫', 'x'.repeat(200), 'mcmc.sample_chain/2']) {
      const want = BigInt(`0x${createHash('sha512').update(s, 'utf8').digest('hex')}`) % (2n ** 31n - 1n);
      expect(saltToInt(s), s).toBe(Number(want));
      expect(saltToInt(s)).toBe(Number(want)); // cached path
    }
  });

  it('rejects non-strings and lone surrogates', () => {
    expect(() => saltToInt(5 as never)).toThrow(TypeError);
    expect(() => saltToInt(5 as never)).toThrow(/`salt`/);
    expect(() => saltToInt('a\uD800b')).toThrow(RangeError);
  });
});
