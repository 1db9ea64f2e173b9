#!/usr/bin/env node
/**
 * npm's `prepare`: `npm run build`, unless dist/ was built from exactly these sources.
 *
 * npm runs `prepare` after `npm install`, and again each time `npx stochax` installs this clone
 * into its cache to run its bin (npm 11 does that for a package's own bin), which cost a full
 * build (~1 min on a busy 2-core machine) on the first `npx stochax`. The build's inputs
 * (what tsconfig.build.json includes, the wasm sources, the build scripts and configs) are
 * hashed; the hash is kept in dist/.source-hash after a build and compared before the next one.
 * Plain JavaScript so it starts without tsx.
 */
import { createHash } from 'node:crypto';
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const INPUTS = ['src', 'distributions', 'mcmc', 'optimize', 'cli', 'wasm', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];
const stamp = join(root, 'dist', '.source-hash');

function sourceHash() {
  const h = createHash('sha256');
  const visit = (rel) => {
    const abs = join(root, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) visit(`${rel}/${name}`);
    } else {
      h.update(`${rel}\0`).update(readFileSync(abs)).update('\0');
    }
  };
  for (const rel of INPUTS) visit(rel);
  return h.digest('hex');
}

const hash = sourceHash();
if (existsSync(join(root, 'dist', 'cli', 'main.js')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
  console.log('prepare: dist/ is up to date with the sources (delete dist/.source-hash to force a build)');
} else {
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
  // Hashed again after the build: it generates sources under src/ (the wasm modules).
  writeFileSync(stamp, sourceHash());
}
