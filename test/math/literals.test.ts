// src/math writes some constants as literals inside hot functions (V8 loads module constants
// from memory on every use); each is followed by a comment naming the constant it stands for.
// This checks every such literal against the named constant (src/math/constants.ts, generated
// from mpmath, or the bit-pattern constants of src/math/log.ts) bit for bit.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as constants from '../../src/math/constants.js';
import * as log from '../../src/math/log.js';

const dir = new URL('../../src/math/', import.meta.url);
const named: Record<string, unknown> = { ...constants, ...log };

describe('literal constants in src/math', () => {
  const found: [string, string, string][] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(new URL(file, dir), 'utf8');
    for (const m of text.matchAll(/(-?[0-9][0-9.e+-]*)\s*\/\*\s*([A-Z][A-Z0-9_]*)\s*\*\//g)) found.push([file, m[1]!, m[2]!]);
  }

  it('finds the annotated literals', () => {
    expect(found.length).toBeGreaterThan(10);
  });

  it('every annotated literal equals the constant it names, bit for bit', () => {
    for (const [file, literal, name] of found) {
      expect(typeof named[name], `${file}: ${name} is not an exported constant`).toBe('number');
      expect(Object.is(Number(literal), named[name]), `${file}: ${literal} /* ${name} */ is ${String(named[name])}`).toBe(true);
    }
  });
});
