// `node dist/cli/main.js sample` (the compiled CLI, as `npx stochax` runs it in a clone) on a
// model module importing the package's sources (../src, ../distributions, as the examples do):
// the model gets the CLI's compiled copy of the library (cli/source-hooks.ts), not a second one
// compiled from TypeScript. dist/ is built first if stale (scripts/prepare.mjs, as npm does).
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dir = join(repo, 'test', 'cli', `.tmp-hooks-${process.pid}`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the compiled CLI and a model importing the sources', () => {
  it('shares one copy of the library with the model', async () => {
    execFileSync(process.execPath, [join(repo, 'scripts', 'prepare.mjs')], { stdio: 'ignore' });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'model.ts'), `import { Tensor } from '../../../src/tensor/tensor.js';
import { JointDistributionNamed, Normal } from '../../../distributions/index.js';
const compiled = await import('../../../dist/src/tensor/tensor.js');
process.stderr.write(\`one copy: \${compiled.Tensor === Tensor}\\n\`);
export const model = new JointDistributionNamed({ x: new Normal({ loc: 0, scale: 1 }) });
`);
    const { stderr } = await promisify(execFile)(process.execPath, [join(repo, 'dist', 'cli', 'main.js'), 'sample', 'model.ts', '--chains', '1', '--draws', '20', '--warmup', '20', '--out', 'out'], { cwd: dir });
    expect(stderr).toContain('one copy: true');
    expect(stderr).toContain('sampled in');
  }, 300_000);
});
