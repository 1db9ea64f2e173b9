import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('npm run demo (examples/demo.ts)', () => {
  it('runs and reproduces every JAX-documented value it prints', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], { cwd: root, encoding: 'utf8' });
    expect(out).toContain('All JAX-documented values reproduced.');
    expect(out).not.toContain('!= JAX');
    expect(out.match(/= JAX/g)!.length).toBeGreaterThanOrEqual(9);
  }, 60_000);
});
