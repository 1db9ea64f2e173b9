// Every `@example` line of src/math of the form `detX(args);   // result` is run and must print
// exactly the documented result, so the doc comments stay true.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as dm from '../../src/math/index.js';
import { fma32 } from '../../src/math/float32.js';

const dir = new URL('../../src/math/', import.meta.url);
const scope: Record<string, unknown> = { ...dm, fma32 };

describe('src/math doc examples', () => {
  const examples: [string, string, string][] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(new URL(file, dir), 'utf8');
    for (const m of text.matchAll(/^ \* ((?:det\w+|fma32|log1pDet|erfinv(?:64|32)det|normalF(?:64|32)FromUnitDet)\([^;]*\));\s*\/\/ (\S+)/gm)) examples.push([file, m[1]!, m[2]!]);
  }

  it('has an example for every exported function of the index', () => {
    const names = new Set(examples.map(([, call]) => call.slice(0, call.indexOf('('))));
    for (const name of Object.keys(dm).filter((n) => n.startsWith('det'))) expect(names.has(name), name).toBe(true);
  });

  it('every example gives the documented result', () => {
    for (const [file, call, want] of examples) {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval
      const got = new Function(...Object.keys(scope), `return ${call};`)(...Object.values(scope)) as number;
      expect(String(got), `${file}: ${call}`).toBe(want);
    }
  });
});
