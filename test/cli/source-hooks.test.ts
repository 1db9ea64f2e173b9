// The compiled CLI's module hooks (cli/source-hooks.ts): an import of the package's own sources
// from a model module maps to its compiled module in dist/, when there is one; anything else is
// left to Node. (The whole path, `node dist/cli/main.js` on a model importing ../src: the slow
// test beside this one.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { distCounterpart, initialize, resolve } from '../../cli/source-hooks.js';

const dir = mkdtempSync(join(tmpdir(), 'stochax-hooks-'));
const root = pathToFileURL(dir).href + '/';
for (const f of ['dist/src/tensor/tensor.js', 'dist/cli/report/index.js', 'src/tensor/tensor.ts', 'src/only-source.ts']) {
  mkdirSync(join(dir, f, '..'), { recursive: true });
  writeFileSync(join(dir, f), '');
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('source hooks of the compiled CLI', () => {
  it('map the package\'s sources (.ts as tsx resolves them, or .js as they are imported) to dist/, and nothing else', () => {
    expect(distCounterpart(`${root}src/tensor/tensor.ts`, root)).toBe(`${root}dist/src/tensor/tensor.js`);
    expect(distCounterpart(`${root}src/tensor/tensor.js`, root)).toBe(`${root}dist/src/tensor/tensor.js`);
    expect(distCounterpart(`${root}cli/report/index.js`, root)).toBe(`${root}dist/cli/report/index.js`);
    expect(distCounterpart(`${root}src/only-source.ts`, root)).toBeUndefined();   // nothing compiled: loads as it is
    expect(distCounterpart(`${root}examples/tensor/tensor.ts`, root)).toBeUndefined();   // not a library layer
    expect(distCounterpart(`${root}dist/src/tensor/tensor.js`, root)).toBeUndefined();   // already compiled
    expect(distCounterpart(`${root}src/tensor/tensor.d.ts`, root)).toBeUndefined();
    expect(distCounterpart(`file:///elsewhere/src/tensor/tensor.ts`, root)).toBeUndefined();
  });

  it('resolve short-circuits relative imports of sources and passes the rest on', async () => {
    initialize({ root });
    const next = async (s: string) => ({ url: `next:${s}` });
    const parentURL = `${root}examples/model.ts`;
    expect(await resolve('../src/tensor/tensor.js', { parentURL }, next)).toEqual({ url: `${root}dist/src/tensor/tensor.js`, format: 'module', shortCircuit: true });
    expect(await resolve('stochax', { parentURL }, next)).toEqual({ url: 'next:stochax' });
    expect(await resolve('./helper.js', { parentURL }, next)).toEqual({ url: 'next:./helper.js' });
    expect(await resolve('../src/only-source.js', { parentURL }, next)).toEqual({ url: 'next:../src/only-source.js' });
  });
});
