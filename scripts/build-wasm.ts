/**
 * `npm run build:wasm`: regenerates wasm/kernels.wat (scripts/gen-wat.ts), assembles it with
 * wabt (SIMD enabled) and writes src/prng/wasm/kernels.wasm.ts, which exports the module bytes
 * as a base64 string (gitignored; the npm scripts run this before tsc and vitest). It also
 * assembles the hand-written wasm/nuts-loops.wat into mcmc/nuts/stan/nuts-loops.wasm.ts, and
 * wasm/glm.wat (the fused GLM kernels' passes over X) into src/compile/glm.wasm.ts, with
 * wasm/detmath.wat (the library's deterministic exp, log, log1p) spliced in at its
 * `;; #include detmath.wat` line and their tables, from src/math/constants.ts, as a data segment.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';
import { EXP_T_HI, EXP_T_LO, LOG_C_HI, LOG_C_LO, LOG_INVC } from '../src/math/constants.js';
import { DEFAULT_OPTIONS, generateWat, MEMORY_PAGES, type GenOptions } from './gen-wat.js';

/** Assembles WAT text into a module binary (SIMD128 enabled; validated). */
export async function assembleWat(wat: string, filename = 'kernels.wat'): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const mod = wabt.parseWat(filename, wat, { simd: true });
  try {
    mod.resolveNames();
    mod.validate();
    return mod.toBinary({}).buffer;
  } finally {
    mod.destroy();
  }
}

/** Base64 without padding-sensitive tricks; plain RFC 4648 with '=' padding. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function writeIfChanged(path: string, text: string): boolean {
  let old: string | undefined;
  try { old = readFileSync(path, 'utf8'); } catch { old = undefined; }
  if (old === text) return false;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return true;
}

/** Bytes of wasm/detmath.wat's tables and constant pool at the start of a module's memory (the module's own data starts here). */
export const DETMATH_BYTES = 8192;
/** Where the constant pool starts (after the exp and log tables). */
const POOL = 6144;

/** The double a WAT f64 literal denotes: decimal, or hex `[-]0x1.<hex>p<exp>` (exact: at most 52 fraction bits, normal exponent). */
function watF64(lit: string): number {
  const m = /^(-?)0x1(?:\.([0-9a-f]+))?p([+-]?\d+)$/i.exec(lit);
  if (m === null) {
    const v = Number(lit);
    if (!Number.isFinite(v) || !/^-?[0-9.e+-]+$/i.test(lit)) throw new Error(`detmath: unsupported f64 literal ${lit}`);
    return v;
  }
  const frac = m[2] ?? '';
  if (frac.length > 13) throw new Error(`detmath: literal ${lit} has more than 52 fraction bits`);
  const v = (1 + (frac === '' ? 0 : parseInt(frac, 16) / 16 ** frac.length)) * 2 ** Number(m[3]);   // exact
  return m[1] === '-' ? -v : v;
}

/**
 * wasm/detmath.wat's fields plus its tables and constant pool as a data segment at byte 0 (the
 * layout its header gives), the tables written from src/math/constants.ts so that the wasm reads
 * the JavaScript's very bits. Each `(f64x2.splat (f64.const c))` (and `i32x4.splat` of an
 * `i32.const`) becomes a 16-byte load of the same vector from the pool (V8 otherwise rebuilds a
 * vector constant at every use).
 */
export function detmathFields(): string {
  const source = readFileSync(fileURLToPath(new URL('../wasm/detmath.wat', import.meta.url)), 'utf8');
  const pool: string[] = [];
  const fields = source.split('\n').map((line) => {
    const at = line.indexOf(';;'), code = at < 0 ? line : line.slice(0, at);   // comments left as they are
    return code.replace(/\((f64x2|i32x4)\.splat \((?:f64|i32)\.const ([^()\s]+)\)\)/g, (_, shape: string, lit: string) => {
      const key = `${shape} ${lit}`;
      let k = pool.indexOf(key);
      if (k < 0) { k = pool.length; pool.push(key); }
      return `(v128.load offset=${POOL + 16 * k} (i32.const 0))`;
    }) + (at < 0 ? '' : line.slice(at));
  }).join('\n');
  if (POOL + 16 * pool.length > DETMATH_BYTES) throw new Error(`detmath: ${pool.length} pooled constants do not fit below ${DETMATH_BYTES}`);
  const bytes = new DataView(new ArrayBuffer(DETMATH_BYTES));
  for (let j = 0; j < 128; j++) {
    bytes.setFloat64(16 * j, EXP_T_HI[j]!, true);
    bytes.setFloat64(16 * j + 8, EXP_T_LO[j]!, true);
    bytes.setFloat64(2048 + 32 * j, LOG_INVC[j]!, true);
    bytes.setFloat64(2048 + 32 * j + 8, LOG_C_HI[j]!, true);
    bytes.setFloat64(2048 + 32 * j + 16, LOG_C_LO[j]!, true);
  }
  pool.forEach((key, k) => {
    const [shape, lit] = key.split(' ') as [string, string];
    if (shape === 'f64x2') {
      const v = watF64(lit);
      for (let l = 0; l < 2; l++) bytes.setFloat64(POOL + 16 * k + 8 * l, v, true);
    } else {
      const v = Number(lit);
      if (!Number.isInteger(v) || v < -(2 ** 31) || v >= 2 ** 32) throw new Error(`detmath: unsupported i32 literal ${lit}`);
      for (let l = 0; l < 4; l++) bytes.setUint32(POOL + 16 * k + 4 * l, v >>> 0, true);
    }
  });
  let hex = '';
  for (let i = 0; i < DETMATH_BYTES; i++) hex += '\\' + bytes.getUint8(i).toString(16).padStart(2, '0');
  return `${fields}\n  ;; detmath tables and constant pool (generated by scripts/build-wasm.ts)\n  (data (i32.const 0) "${hex}")\n`;
}

/** A hand-written module's text with wasm/detmath.wat spliced in at its `;; #include detmath.wat` line. */
export function includeDetmath(wat: string): string {
  const marker = /^[ \t]*;; #include detmath\.wat[ \t]*$/m;
  return marker.test(wat) ? wat.replace(marker, () => detmathFields()) : wat;
}

export async function buildWasm(opts: GenOptions = DEFAULT_OPTIONS): Promise<{ wat: string; bytes: Uint8Array }> {
  const wat = generateWat(opts);
  const bytes = await assembleWat(wat);
  return { wat, bytes };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const t0 = performance.now();
  const { wat, bytes } = await buildWasm();
  const watPath = fileURLToPath(new URL('../wasm/kernels.wat', import.meta.url));
  const tsPath = fileURLToPath(new URL('../src/prng/wasm/kernels.wasm.ts', import.meta.url));
  writeIfChanged(watPath, wat);
  const ts = [
    '// GENERATED by scripts/build-wasm.ts from wasm/kernels.wat -- do not edit, do not commit.',
    '/** The SIMD128 kernel module (see scripts/gen-wat.ts for its ABI), base64-encoded. */',
    `export const KERNELS_WASM_BASE64 =\n  '${toBase64(bytes)}';`,
    `/** Byte length of the decoded module. */`,
    `export const KERNELS_WASM_BYTES = ${bytes.length};`,
    '/** Minimum size of the memory the module imports as env.memory, in 64 KiB pages. */',
    `export const KERNELS_MEMORY_PAGES = ${MEMORY_PAGES};`,
    '',
  ].join('\n');
  writeIfChanged(tsPath, ts);
  console.log(`build:wasm: ${bytes.length} bytes -> ${tsPath} (${(performance.now() - t0).toFixed(0)} ms)`);
  const loopsWat = readFileSync(fileURLToPath(new URL('../wasm/nuts-loops.wat', import.meta.url)), 'utf8');
  const loopsBytes = await assembleWat(loopsWat, 'nuts-loops.wat');
  const loopsPath = fileURLToPath(new URL('../mcmc/nuts/stan/nuts-loops.wasm.ts', import.meta.url));
  writeIfChanged(loopsPath, [
    '// GENERATED by scripts/build-wasm.ts from wasm/nuts-loops.wat -- do not edit, do not commit.',
    '/** The NUTS chain\'s leaf and merge loops (see wasm/nuts-loops.wat), base64-encoded. */',
    `export const NUTS_LOOPS_WASM_BASE64 =\n  '${toBase64(loopsBytes)}';`,
    '',
  ].join('\n'));
  console.log(`build:wasm: ${loopsBytes.length} bytes -> ${loopsPath}`);
  const glmWat = readFileSync(fileURLToPath(new URL('../wasm/glm.wat', import.meta.url)), 'utf8');
  const glmBytes = await assembleWat(includeDetmath(glmWat), 'glm.wat');
  const glmPath = fileURLToPath(new URL('../src/compile/glm.wasm.ts', import.meta.url));
  writeIfChanged(glmPath, [
    '// GENERATED by scripts/build-wasm.ts from wasm/glm.wat -- do not edit, do not commit.',
    '/** The fused GLM kernels\' passes over X and the peak loop (see wasm/glm.wat), base64-encoded. */',
    `export const GLM_WASM_BASE64 =\n  '${toBase64(glmBytes)}';`,
    '/** Bytes at the start of the module\'s memory taken by wasm/detmath.wat\'s tables and constants (a data segment): the kernels\' own data starts here. */',
    `export const GLM_DATA_START = ${DETMATH_BYTES};`,
    '',
  ].join('\n'));
  console.log(`build:wasm: ${glmBytes.length} bytes -> ${glmPath}`);
}
