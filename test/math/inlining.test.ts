// src/math's calling convention (see src/math/exp.ts): V8 boxes a double passed to or returned
// from a call it did not inline, so the public exp/log functions are a few bytes that V8 always
// inlines, around one core per family (exp, log, trig, pow) whose bytecode is over V8's per-function inlining limit
// (`--max-inlined-bytecode-size`, 460 bytes in Node 20–24): the core is never inlined, so it does
// not spend its callers' inlining budget (which, spent, leaves their other double-returning
// calls out of line and boxing), and no double crosses the call into it. This reads the sizes
// V8 itself reports (`--print-bytecode`); the compiled-gradient allocation tests
// (test/distributions/compile-log-density.test.ts) check the effect.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'stochax-inlining-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** V8's bytecode length of each named function, after running `code` (which must call them). */
function bytecodeLengths(names: readonly string[], code: string): Record<string, number> {
  const file = join(dir, 'run.mts');
  writeFileSync(file, `import * as dm from ${JSON.stringify(pathToFileURL(join(repo, 'src/math/index.ts')).href)};\n${code}\n`);
  const out: Record<string, number> = {};
  for (const name of names) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--print-bytecode', `--print-bytecode-filter=${name}`, file], { cwd: repo, encoding: 'utf8', maxBuffer: 64 << 20 });
    const m = /Bytecode length: (\d+)/.exec(r.stdout);
    expect(m, `no bytecode printed for ${name}: ${r.stderr.slice(0, 400)}`).not.toBeNull();
    out[name] = Number(m![1]);
  }
  return out;
}

describe('src/math calling convention', () => {
  it('the exp, log, trig (and tan) and pow cores are over V8\'s inlining limit, the public functions far under it', () => {
    const calls = 'dm.detExp(1); dm.detExpm1(0.5); dm.detTanh(0.5); dm.detLog(2); dm.detLog1p(0.5); dm.detLog2(3); dm.detSin(2); dm.detCos(2); dm.detTan(2); dm.detPow(2.5, 1.5);';
    const cores = ['expCore', 'logCore', 'trigCore', 'tanKernel', 'powCore'];
    const wrappers = ['detExp', 'detExpm1', 'detTanh', 'detLog', 'detLog1p', 'detLog2', 'detSin', 'detCos', 'detTan', 'detPow'];
    const n = bytecodeLengths([...cores, ...wrappers], calls);
    for (const f of cores) expect(n[f], f).toBeGreaterThan(460);
    for (const f of wrappers) expect(n[f], f).toBeLessThan(60);
  }, 180_000);
});
