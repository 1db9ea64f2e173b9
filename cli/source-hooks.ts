/**
 * Module hooks the CLI registers when it runs compiled (`dist/cli/main.js`, as `npx stochax`
 * runs it in a clone) before it imports a model module: an import of this package's own sources
 * (`../src/index.js`, `../distributions/…` from the repository's examples, benches and tests)
 * loads the compiled module in `dist/` instead. Without them the model gets a second copy of the
 * library, compiled from TypeScript on the spot (~0.6 s more before sampling), whose
 * distributions the CLI's copy does not know: a compiled log density that calls them cannot be
 * sent to worker threads, so the chains stay in one. A source file with no compiled counterpart
 * (an example, a bench model) loads as it is.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The library's layers: the folders `tsconfig.build.json` compiles to `dist/` (the CLI too, for `cli/report`). */
const LAYERS = ['src', 'distributions', 'mcmc', 'optimize', 'cli'];

/**
 * The compiled counterpart in `<root>dist/` of a module URL under `root` (the package's folder
 * URL, ending in `/`), or undefined when `url` is not one of the package's own sources or has
 * no compiled counterpart.
 *
 * @example
 * distCounterpart('file:///repo/src/tensor/tensor.ts', 'file:///repo/');   // 'file:///repo/dist/src/tensor/tensor.js' (when built)
 */
export function distCounterpart(url: string, root: string): string | undefined {
  if (!url.startsWith(root)) return undefined;
  const rel = url.slice(root.length);
  const m = /^([a-z]+)\/([^?#]*)\.(?:[mc]?ts|[mc]?js)$/.exec(rel);
  if (m === null || !LAYERS.includes(m[1]!) || m[2]!.endsWith('.d')) return undefined;
  const compiled = `${root}dist/${m[1]}/${m[2]}.js`;
  return existsSync(fileURLToPath(compiled)) ? compiled : undefined;
}

let root = '';

/** Node's `initialize` hook: `data` is the package's folder URL. @internal */
export function initialize(data: { readonly root: string }): void {
  root = data.root;
}

type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };

/** Node's `resolve` hook: a relative or `file:` import of the package's sources becomes its compiled module. @internal */
export async function resolve(specifier: string, context: { readonly parentURL?: string }, next: (s: string, c: unknown) => Promise<Resolved>): Promise<Resolved> {
  if (context.parentURL !== undefined && /^(?:\.{1,2}\/|\/|file:)/.test(specifier)) {
    let url: string | undefined;
    try { url = new URL(specifier, context.parentURL).href; } catch { /* not a URL: the next hook says why */ }
    const compiled = url === undefined ? undefined : distCounterpart(url, root);
    if (compiled !== undefined) return { url: compiled, format: 'module', shortCircuit: true };
  }
  return next(specifier, context);
}
