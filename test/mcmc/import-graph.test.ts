// The sampler layer's import graph (issue 32): no import cycle under mcmc/, the samplers import
// nothing from mcmc/parallel/ (it builds on them, not the reverse), and no hidden flat-target
// symbol is left in the sampler layer. Static imports and re-exports, type-only ones included.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const mcmc = join(root, 'mcmc');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

/** The mcmc/ files `file` imports (relative specifiers that resolve inside mcmc/). */
function importsOf(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const specs = [...src.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gms)].map((m) => m[1]!);
  return specs.filter((s) => s.startsWith('.'))
    .map((s) => resolve(dirname(file), s.replace(/\.js$/, '.ts')))
    .filter((p) => p.startsWith(mcmc + '/'));
}

const files = tsFiles(mcmc);
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const name = (p: string) => relative(root, p);

describe('mcmc/ import graph', () => {
  it('parses imports (the check can see an edge it must forbid)', () => {
    expect(graph.get(join(mcmc, 'index.ts'))).toContain(join(mcmc, 'parallel', 'index.ts'));
  });

  it('has no cycle', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, path: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') { cycles.push([...path.slice(path.indexOf(f)), f].map(name).join(' → ')); return; }
      state.set(f, 'open');
      for (const g of graph.get(f) ?? []) visit(g, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it('the samplers import nothing from mcmc/parallel/', () => {
    const parallel = join(mcmc, 'parallel') + '/';
    const bad = files.filter((f) => !f.startsWith(parallel) && f !== join(mcmc, 'index.ts'))
      .flatMap((f) => graph.get(f)!.filter((g) => g.startsWith(parallel)).map((g) => `${name(f)} → ${name(g)}`));
    expect(bad).toEqual([]);
  });

  it('no hidden FLAT symbol in the sampler or distribution layers', () => {
    const all = [...files, ...tsFiles(join(root, 'distributions'))];
    expect(all.filter((f) => /\bFLAT\b|compiledTarget\.flat/.test(readFileSync(f, 'utf8'))).map(name)).toEqual([]);
  });
});
