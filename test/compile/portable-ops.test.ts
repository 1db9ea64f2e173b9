import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// Only these two: the registry a `cores` worker loads (mcmc/nuts/stan/cores-worker.ts), so this
// file's module graph holds the factories a worker that rebuilds programs can make.
import '../../mcmc/nuts/stan/portable-catalogue.js';
import { remakeKernel } from '../../src/tensor/lowering.js';

const ROOT = join(import.meta.dirname, '../..');
const SOURCE_DIRS = ['src', 'distributions', 'mcmc', 'optimize'];

/** Every `kernelFactory('name', …)` in the library's sources, with its file. */
function declaredFactories(): { name: string; file: string }[] {
  const out: { name: string; file: string }[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
        const text = readFileSync(join(ROOT, rel), 'utf8');
        // skip doc-comment examples (lines starting with *)
        for (const line of text.split('\n')) {
          if (/^\s*\*/.test(line)) continue;
          for (const m of line.matchAll(/kernelFactory\(\s*'([^']+)'/g)) out.push({ name: m[1]!, file: rel });
        }
      }
    }
  };
  for (const d of SOURCE_DIRS) walk(d);
  return out;
}

describe('portable registry', () => {
  it('loads every module that declares a kernel factory, so workers can remake every kernel', () => {
    const declared = declaredFactories();
    expect(declared.length).toBeGreaterThan(15);
    const missing = declared.filter(({ name }) => {
      try {
        remakeKernel(name, []);
      } catch (e) {
        // wrong arguments may throw anything else; only an unknown name means the module is not loaded
        return e instanceof TypeError && /no kernel factory is named/.test(e.message);
      }
      return false;
    });
    expect(missing.map(({ name, file }) => `${name} (${file}): load it from src/compile/portable-ops.ts or the catalogue`)).toEqual([]);
  });
});
