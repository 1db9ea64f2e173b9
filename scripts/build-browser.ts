/**
 * `npm run build:browser`: bundles the entry points (`stochax`, `stochax/distributions`,
 * `stochax/mcmc`, `stochax/optimize`, and the sampleChains worker) for browsers with esbuild into `dist/browser/` as ES modules:
 *
 *   dist/browser/stochax.js        core (random, samplers, Tensor, Generator, compat, prng, ...)
 *   dist/browser/distributions.js  distributions, joint distributions, bijectors
 *   dist/browser/mcmc.js           sampleChain, kernels, windowedAdaptiveNuts, diagnostics
 *   dist/browser/optimize.js       optimize, laplace, pathfinder, advi
 *   dist/browser/worker.js         the module Web Worker that sampleChains starts
 *   dist/browser/chunk-*.js        code shared between them (esbuild code splitting)
 *
 * The entries share chunks, so a `Tensor` made by `stochax.js` is the same class that
 * `mcmc.js` checks with `instanceof` (three separate bundles would each carry their own copy).
 * The WebAssembly kernels are inlined as base64 (src/prng/wasm/kernels.wasm.ts, from
 * `npm run build:wasm`, which the npm script runs first).
 *
 * The build fails, naming the importing file, if anything reachable from the entry points
 * imports a Node built-in (`node:fs`, `worker_threads`, ...), and it fails if the output
 * refers to the Node globals `process`, `Buffer`, `require`, `__dirname` or `__filename`
 * (invariant 6: the same program gives the same bits in Node and in a browser).
 *
 * Usage:
 *   npx tsx scripts/build-browser.ts [--no-minify] [--outdir dir] [--serve [port]]
 * `--serve` then serves the repository root over http (the demo is at
 * /examples/browser/index.html).
 */
import { createReadStream, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { builtinModules } from 'node:module';
import { extname, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type Plugin } from 'esbuild';

/** The repository root (this file lives in scripts/). */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Output name (without `.js`) → entry module, relative to the repository root. */
export const BROWSER_ENTRIES: Readonly<Record<string, string>> = {
  stochax: 'src/index.ts',
  distributions: 'distributions/index.ts',
  mcmc: 'mcmc/index.ts',
  optimize: 'optimize/index.ts',
  // The Web Worker script of sampleChains: mcmc/parallel/platform-browser.ts starts it as
  // `new URL('./worker.js', import.meta.url)`, beside the chunk that references it.
  worker: 'mcmc/parallel/worker.ts',
};

/** Options of {@link buildBrowser}. */
export interface BuildBrowserOptions {
  /** Output name → entry module relative to the repository root (default {@link BROWSER_ENTRIES}). */
  readonly entries?: Readonly<Record<string, string>>;
  /** Output folder (default `dist/browser` under the repository root). */
  readonly outdir?: string;
  /** Minify identifiers, syntax and whitespace (default true). */
  readonly minify?: boolean;
  /** Write linked source maps (default true). */
  readonly sourcemap?: boolean;
}

/** One output file of the browser build. */
export interface BrowserOutput {
  /** Path relative to the repository root. */
  readonly path: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  /** The entry name for entry points (`stochax`, `distributions`, `mcmc`), or null for a shared chunk. */
  readonly entry: string | null;
}

/** What {@link buildBrowser} produced. */
export interface BrowserBuildResult {
  readonly outdir: string;
  readonly outputs: readonly BrowserOutput[];
  readonly metafile: Metafile;
  /** Node built-ins imported only by lazily loaded (dynamic `import()`), Node-only chunks. */
  readonly nodeOnlyLazyImports: readonly string[];
  /** Reads of Node globals in bundled dependencies (all behind guards when last checked; listed for review). */
  readonly dependencyNodeGlobals: readonly string[];
}

/** A Node built-in import found while bundling. */
interface BuiltinImport {
  readonly path: string;
  readonly importer: string;
}

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/**
 * Records every import of a Node built-in with the importing file, and leaves it external. Whether
 * that is allowed is decided afterwards from the output graph (see `staticNodeImports`): a
 * built-in in a chunk that only a dynamic `import()` reaches (a Node-only platform module, loaded
 * when the code finds itself in Node) is never loaded by a browser.
 */
function nodeBuiltinGuard(found: BuiltinImport[]): Plugin {
  return {
    name: 'stochax-no-node-builtins',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.split('/')[0]!;
        if (!args.path.startsWith('node:') && !BUILTINS.has(args.path) && !BUILTINS.has(bare)) return undefined;
        // Packages that map a built-in away in their package.json "browser" field (seedrandom's
        // `crypto: false`) are resolved by esbuild itself; let it try first.
        if (args.importer.includes(`${sep}node_modules${sep}`)) return undefined;
        found.push({ path: args.path, importer: relative(REPO_ROOT, args.importer) });
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * Splits the Node built-ins the bundle imports by how they are reached: through static imports
 * from an entry point (an error: a browser would load them) or only through dynamic `import()`
 * (allowed: lazily loaded, Node-only chunks). Returns `builtin (in source files; output)` lines.
 */
function nodeImportsByReach(
  meta: Metafile, entryFiles: readonly string[], found: readonly BuiltinImport[],
): { staticImports: string[]; lazyChunks: string[] } {
  const outputs = meta.outputs;
  const sourcesOf = (builtin: string, out: string) => {
    const inputs = new Set(Object.keys(outputs[out]!.inputs));
    const files = found.filter((f) => f.path === builtin && inputs.has(f.importer)).map((f) => f.importer);
    return [...new Set(files)].join(', ') || '?';
  };
  const describe = (out: string) => outputs[out]!.imports
    .filter((i) => i.external && (i.path.startsWith('node:') || BUILTINS.has(i.path)))
    .map((i) => `'${i.path}' (in ${sourcesOf(i.path, out)}; ${out})`);
  const reached = new Set<string>();
  // esbuild also marks dynamically imported modules as entry points; start from the declared ones.
  const declared = new Set(entryFiles.map((f) => resolve(f)));
  const stack = Object.keys(outputs).filter((o) => {
    const e = outputs[o]!.entryPoint;
    return o.endsWith('.js') && e !== undefined && declared.has(resolve(REPO_ROOT, e));
  });
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (reached.has(o)) continue;
    reached.add(o);
    for (const i of outputs[o]!.imports) if (!i.external && i.kind !== 'dynamic-import' && outputs[i.path]) stack.push(i.path);
  }
  const staticImports: string[] = [], lazyChunks: string[] = [];
  for (const o of Object.keys(outputs)) {
    if (!o.endsWith('.js')) continue;
    (reached.has(o) ? staticImports : lazyChunks).push(...describe(o));
  }
  return { staticImports, lazyChunks };
}

/** Identifiers of Node's globals that must not appear free in a browser bundle. */
const NODE_GLOBALS = ['process', 'Buffer', '__dirname', '__filename', 'global', 'setImmediate'] as const;

/** Reads of Node globals found in the bundle, as `name (in file)`. */
interface NodeGlobalUses {
  /** In the project's own code (src/, distributions/, mcmc/): the build fails. */
  readonly own: string[];
  /** In dependencies (e.g. `debug`'s `process.env.DEBUG` behind a `typeof process` guard): warned about. */
  readonly deps: string[];
}

/**
 * Node globals the bundled code reads, per source file. esbuild's metafile does not list free
 * identifiers, so the check bundles once more (unminified) with each global `define`d to a
 * marker and looks for the marker: a marker appears only where the code reads the global (not
 * in strings, comments or property names such as `x.process`); `typeof process` guards are not
 * counted. `require` cannot be checked that way (esbuild bundles CommonJS dependencies by
 * rewriting their `require` calls); a `require` esbuild could not bundle stays as a call of its
 * `__require` shim, which throws in a browser, so those calls are reported instead.
 */
async function nodeGlobalUses(entryPoints: Record<string, string>): Promise<NodeGlobalUses> {
  const define: Record<string, string> = {};
  for (const g of NODE_GLOBALS) define[g] = `__STOCHAX_NODE_GLOBAL_${g}__`;
  const res = await build({
    entryPoints, bundle: true, splitting: true, format: 'esm', platform: 'browser', target: 'es2022',
    write: false, outdir: 'out', define, logLevel: 'silent', plugins: [nodeBuiltinGuard([])], absWorkingDir: REPO_ROOT,
  });
  const own = new Set<string>(), deps = new Set<string>();
  const add = (what: string, file: string) => (file.startsWith('node_modules/') ? deps : own).add(`${what} (in ${file})`);
  // esbuild emits a `// path/to/file` comment before each module it bundles.
  const where = (text: string, at: number): string => {
    const before = text.lastIndexOf('\n// ', at);
    return before >= 0 ? text.slice(before + 4, text.indexOf('\n', before + 1)) : '?';
  };
  for (const f of res.outputFiles) {
    const text = f.text;
    for (const m of text.matchAll(/\b__require\(\s*(["'][^"']*["'])/g)) add(`require(${m[1]})`, where(text, m.index));
    for (const g of NODE_GLOBALS) {
      for (const m of text.matchAll(new RegExp(`(typeof\\s+)?__STOCHAX_NODE_GLOBAL_${g}__`, 'g'))) {
        if (m[1] === undefined) add(g, where(text, m.index));
      }
    }
  }
  return { own: [...own], deps: [...deps] };
}

/**
 * Builds the browser bundles (see the file comment). Throws, listing every offender, if the
 * code reachable from the entry points imports a Node built-in or reads a Node global.
 *
 * @example
 * const { outputs } = await buildBrowser({ minify: true });
 * for (const o of outputs) console.log(o.path, o.bytes, o.gzipBytes);
 */
export async function buildBrowser(options: BuildBrowserOptions = {}): Promise<BrowserBuildResult> {
  const outdir = resolve(REPO_ROOT, options.outdir ?? 'dist/browser');
  const entryPoints: Record<string, string> = {};
  const entries = options.entries ?? BROWSER_ENTRIES;
  for (const [name, path] of Object.entries(entries)) entryPoints[name] = join(REPO_ROOT, path);

  // Remove the previous build's files (chunk names change with their content; lazily imported
  // modules become `name-HASH.js`).
  const ours = new RegExp(`^(chunk-[A-Z0-9]+|[\\w-]+-[A-Z0-9]{8}|${Object.keys(entries).join('|')})\\.js(\\.map)?$`);
  let old: string[] = [];
  try { old = readdirSync(outdir); } catch { /* no previous build */ }
  for (const f of old) if (ours.test(f)) rmSync(join(outdir, f));

  const found: BuiltinImport[] = [];
  const result = await build({
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: options.minify ?? true,
    sourcemap: (options.sourcemap ?? true) ? 'linked' : false,
    chunkNames: 'chunk-[hash]',
    absWorkingDir: REPO_ROOT,
    metafile: true,
    legalComments: 'eof',
    logLevel: 'warning',
    plugins: [nodeBuiltinGuard(found)],
  });
  const { staticImports, lazyChunks } = nodeImportsByReach(result.metafile, Object.values(entryPoints), found);
  if (staticImports.length > 0) {
    throw new Error(`build:browser: Node built-ins are statically reachable from the browser entry points:\n  ${staticImports.join('\n  ')}\n` +
      'Keep them behind a platform module that only a dynamic import() reaches (loaded in Node only).');
  }
  const globals = await nodeGlobalUses(entryPoints);
  if (globals.own.length > 0) {
    throw new Error(`build:browser: the browser entry points read Node globals:\n  ${globals.own.join('\n  ')}\n` +
      'Guard them (e.g. `globalThis.process?.env`) or move them behind a platform module.');
  }

  const outputs: BrowserOutput[] = [];
  for (const [file, meta] of Object.entries(result.metafile.outputs)) {
    if (!file.endsWith('.js')) continue;
    const abs = resolve(REPO_ROOT, file);
    const text = readFileSync(abs);
    const entry = meta.entryPoint === undefined ? null
      : Object.keys(entryPoints).find((k) => resolve(entryPoints[k]!) === resolve(REPO_ROOT, meta.entryPoint!)) ?? null;
    outputs.push({ path: relative(REPO_ROOT, abs), bytes: text.length, gzipBytes: gzipSync(text).length, entry });
  }
  outputs.sort((a, b) => (a.entry === null ? 1 : 0) - (b.entry === null ? 1 : 0) || a.path.localeCompare(b.path));
  return { outdir, outputs, metafile: result.metafile, nodeOnlyLazyImports: lazyChunks, dependencyNodeGlobals: globals.deps };
}

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
};

/** A running static file server (see {@link serveStatic}). */
export interface StaticServer {
  readonly server: Server;
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  readonly url: string;
  close(): Promise<void>;
}

/** Options of {@link serveStatic}. */
export interface ServeStaticOptions {
  /** Port on 127.0.0.1 (default 0: a free port). */
  readonly port?: number;
  /** In-memory files by URL path (`/__test/page.html` → its text), served before the disk. */
  readonly files?: Readonly<Record<string, string | Uint8Array>>;
}

/**
 * Serves the files under `root` over http on 127.0.0.1, plus `files` from memory. GET/HEAD
 * only; paths outside `root` are refused; nothing is cached. For the browser test and `--serve`.
 *
 * @example
 * const srv = await serveStatic(REPO_ROOT);
 * console.log(`${srv.url}/examples/browser/index.html`);
 * await srv.close();
 */
export function serveStatic(root: string, options: ServeStaticOptions = {}): Promise<StaticServer> {
  const base = resolve(root);
  const port = options.port ?? 0;
  const files = options.files ?? {};
  const server = createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const type = (p: string) => MIME[extname(p)] ?? 'application/octet-stream';
    const mem = Object.hasOwn(files, urlPath) ? files[urlPath]! : undefined;
    if (mem !== undefined) {
      const body = typeof mem === 'string' ? Buffer.from(mem) : mem;
      res.writeHead(200, { 'content-type': type(urlPath), 'content-length': body.length, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    let path = normalize(join(base, urlPath));
    if (path !== base && !path.startsWith(base + sep)) { res.writeHead(403).end(); return; }
    try {
      if (statSync(path).isDirectory()) path = join(path, 'index.html');
      const size = statSync(path).size;
      res.writeHead(200, { 'content-type': type(path), 'content-length': size, 'cache-control': 'no-store' });
      if (req.method === 'HEAD') { res.end(); return; }
      createReadStream(path).pipe(res);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const addr = server.address();
      const p = typeof addr === 'object' && addr !== null ? addr.port : port;
      ok({
        server,
        url: `http://127.0.0.1:${p}`,
        close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
      });
    });
  });
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--outdir');
  const t0 = performance.now();
  const res = await buildBrowser({
    minify: !args.includes('--no-minify'),
    ...(outIdx >= 0 && args[outIdx + 1] !== undefined ? { outdir: args[outIdx + 1]! } : {}),
  });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  for (const o of res.outputs) {
    console.log(`  ${o.path.padEnd(36)} ${kb(o.bytes).padStart(10)}  (gzip ${kb(o.gzipBytes)})${o.entry === null ? '  shared chunk' : ''}`);
  }
  const total = res.outputs.reduce((a, o) => a + o.bytes, 0), gz = res.outputs.reduce((a, o) => a + o.gzipBytes, 0);
  console.log(`build:browser: ${res.outputs.length} files, ${kb(total)} (gzip ${kb(gz)}) -> ${relative(REPO_ROOT, res.outdir)} ` +
    `(${(performance.now() - t0).toFixed(0)} ms); no Node built-ins statically reachable`);
  for (const d of res.nodeOnlyLazyImports) console.log(`  note: a lazily loaded (Node-only) chunk imports ${d}`);
  for (const d of res.dependencyNodeGlobals) console.log(`  note: a dependency reads a Node global: ${d}`);
  const serveIdx = args.indexOf('--serve');
  if (serveIdx >= 0) {
    const port = Number(args[serveIdx + 1] ?? 8080);
    const srv = await serveStatic(REPO_ROOT, { port: Number.isInteger(port) ? port : 8080 });
    console.log(`serving ${REPO_ROOT} at ${srv.url}/ -- demo: ${srv.url}/examples/browser/index.html (Ctrl-C stops)`);
  }
}
