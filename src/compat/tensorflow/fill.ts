/**
 * TensorFlow's Philox fill layout on CPU (`FillPhiloxRandom`, reference/philox.md §3.1): output
 * group `g` (4 values for 32-bit and 16-bit outputs, 2 for 64-bit ones) is made from the block at
 * counter `C + g`; the unused words of the last block are dropped. Variable-sample distributions
 * (truncated normal) instead give group `g` its own word stream starting at `C + g·skip`.
 */
import { philox4x32Rounds } from '../../prng/philox.js';
import { philoxFill } from '../../prng/wasm.js';
import type { KeyCounter } from './seed.js';

const TWO_POW_32 = 4294967296;
/** Blocks per chunk: 64 KiB of words, reused across chunks. */
const CHUNK_BLOCKS = 4096;

/** True on little-endian engines (all current ones), where a Uint32Array pair reads as a uint64. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The 128-bit counter `counter + n` (n a non-negative safe integer), as 4 fresh words. */
export function counterAdd(counter: ArrayLike<number>, n: number): Uint32Array {
  const out = new Uint32Array(4);
  let s = counter[0]! + (n % TWO_POW_32);
  out[0] = s;
  s = counter[1]! + Math.floor(n / TWO_POW_32) + (s >= TWO_POW_32 ? 1 : 0);
  out[1] = s;
  s = counter[2]! + (s >= TWO_POW_32 ? 1 : 0);
  out[2] = s;
  out[3] = counter[3]! + (s >= TWO_POW_32 ? 1 : 0);
  return out;
}

/**
 * Generates blocks `0 .. nBlocks-1` of the stream `kc` in chunks and calls
 * `visit(words, firstBlock, count)` for each: `words[4j .. 4j+3]` is block `firstBlock + j`.
 * The `words` array is reused between calls.
 */
export function forEachBlockChunk(
  kc: KeyCounter, nBlocks: number, visit: (words: Uint32Array, firstBlock: number, count: number) => void,
): void {
  const words = new Uint32Array(4 * Math.min(nBlocks, CHUNK_BLOCKS));
  for (let first = 0; first < nBlocks; first += CHUNK_BLOCKS) {
    const count = Math.min(CHUNK_BLOCKS, nBlocks - first);
    philoxFill(kc.key, counterAdd(kc.counter, first), count, words);
    visit(words, first, count);
  }
}

/**
 * TF's `SingleSampleAdapter` over a Philox generator: hands out the words of consecutive blocks
 * one at a time. `reset(g·skip)` repositions it at a group's own region, as TF's
 * `gen.Skip(group_index · kGeneratorSkipPerOutputGroup)` does.
 */
export class WordStream {
  private readonly block = new Uint32Array(4);
  private readonly counter = new Uint32Array(4);
  private pos = 4;

  constructor(private readonly kc: KeyCounter) {}

  /** Moves to block `C + n` of the base counter `C`. */
  reset(n: number): void {
    this.counter.set(counterAdd(this.kc.counter, n));
    this.pos = 4;
  }

  next(): number {
    if (this.pos === 4) {
      const c = this.counter;
      philox4x32Rounds(10, c, this.kc.key, this.block);
      c[0] = c[0]! + 1;
      if (c[0] === 0) { c[1] = c[1]! + 1; if (c[1] === 0) { c[2] = c[2]! + 1; if (c[2] === 0) c[3] = c[3]! + 1; } }
      this.pos = 0;
    }
    return this.block[this.pos++]!;
  }
}
