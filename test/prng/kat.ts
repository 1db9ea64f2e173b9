import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One Random123 known-answer line: generator, rounds, counter, key, expected output. */
export interface KatVector {
  name: 'threefry2x32' | 'philox4x32';
  rounds: number;
  counter: number[];
  key: number[];
  expected: number[];
}

const path = fileURLToPath(new URL('./fixtures/random123-kat-vectors.txt', import.meta.url));

/** Parses the fixture copied from Random123's kat_vectors (see its header for provenance). */
export function loadKatVectors(): KatVector[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [name, rounds, ...hex] = line.trim().split(/\s+/);
      const words = hex.map((h) => parseInt(h, 16));
      // threefry2x32: 2 counter, 2 key, 2 out; philox4x32: 4 counter, 2 key, 4 out.
      const n = name === 'threefry2x32' ? 2 : 4;
      return {
        name: name as KatVector['name'],
        rounds: Number(rounds),
        counter: words.slice(0, n),
        key: words.slice(n, n + 2),
        expected: words.slice(n + 2),
      };
    });
}
