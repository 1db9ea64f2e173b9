// Everything `stochax sample` writes after sampling keeps its bytes (issue 34: the outputs made
// faster, not different): draws.json, draws.csv, report.html, idata/*.nc, the table and the
// warnings of three small runs against the sha256 digests test/fixtures/cli-outputs/make.ts
// recorded (it says how to regenerate them after a deliberate change of an output).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNS, outputDigests } from '../fixtures/cli-outputs/make.js';

const fixture = JSON.parse(readFileSync(new URL('../fixtures/cli-outputs/outputs.json', import.meta.url), 'utf8')) as Record<string, Record<string, string>> & { node: string };

describe('stochax sample outputs keep their bytes', () => {
  for (const [name] of RUNS) {
    it(`${name}: every file, the table and the warnings as recorded`, async () => {
      const got = await outputDigests(name);
      const want = { ...fixture[name]! };
      // the .nc files' attributes hold node's version: compared on the version that recorded them
      if (process.version !== fixture.node) for (const k of Object.keys(want)) if (k.endsWith('.nc')) { delete want[k]; delete got[k]; }
      expect(got).toEqual(want);
    }, 60_000);
  }
});
