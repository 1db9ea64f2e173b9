import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/**/*.slow.test.ts', 'node_modules/**'],
    // Statistical and sampling tests take 1–3 s alone; on a busy 2-core machine (CPU hog, parallel
    // test files) 10 s was seen, so vitest's 5-s default is too tight for them.
    testTimeout: 60_000,
  },
});
