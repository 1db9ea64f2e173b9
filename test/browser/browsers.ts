// The headless browsers of the engine tests (test/browser/*.slow.test.ts), in one place: where
// each is found, how it is launched, and the rule for a missing one. One driver for both:
// puppeteer-core speaks the DevTools protocol to Chromium and WebDriver BiDi to stock Firefox
// (Debian's `firefox-esr`); playwright's Firefox needs its own patched build.
//
// A missing browser skips its tests with a message, except in CI (env CI set), where it is a
// failing test: .ci/run installs both browsers, so a skip there would leave the same-bits
// guarantee unchecked on that engine.
import { existsSync } from 'node:fs';
import { describe, it } from 'vitest';
import type { Browser } from 'puppeteer-core';

export type BrowserName = 'chromium' | 'firefox';

interface BrowserSpec {
  /** For test titles and messages. */
  readonly label: string;
  /** Environment variable naming the executable; when set, only it is tried. */
  readonly env: string;
  readonly candidates: readonly string[];
  /** Debian's package, which .ci/run installs. */
  readonly debian: string;
  /** What navigator.userAgent must match, so a test knows which browser ran it. */
  readonly userAgent: RegExp;
}

export const BROWSERS: Readonly<Record<BrowserName, BrowserSpec>> = {
  chromium: {
    label: 'Chromium', env: 'CHROMIUM_PATH', debian: 'chromium', userAgent: /HeadlessChrome\//,
    candidates: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'],
  },
  firefox: {
    label: 'Firefox', env: 'FIREFOX_PATH', debian: 'firefox-esr', userAgent: /Gecko\/\d+ Firefox\/\d+/,
    candidates: ['/usr/bin/firefox-esr', '/usr/bin/firefox'],
  },
};

/** A browser found on this machine, ready to launch. */
export interface BrowserUnderTest {
  readonly name: BrowserName;
  readonly label: string;
  readonly executablePath: string;
  readonly userAgent: RegExp;
  /** Starts it headless. Close it in an afterAll. */
  launch(): Promise<Browser>;
}

function candidates(name: BrowserName): readonly string[] {
  const spec = BROWSERS[name];
  const fromEnv = process.env[spec.env];
  return fromEnv ? [fromEnv] : spec.candidates;
}

/** The executable of `name` (its env variable if set, else the usual Debian/Ubuntu paths), or undefined. */
export function findBrowser(name: BrowserName): string | undefined {
  return candidates(name).find((p) => existsSync(p));
}

/**
 * Starts `name` headless. Timeouts are generous: on a loaded 2-core machine Firefox's start took
 * 30 s and more, and a page computing for minutes holds a protocol call open that long.
 */
async function launch(name: BrowserName, executablePath: string): Promise<Browser> {
  const puppeteer = (await import('puppeteer-core')).default;
  return puppeteer.launch({
    browser: name === 'firefox' ? 'firefox' : 'chrome',
    executablePath,
    headless: true,
    // Chromium's sandbox needs user namespaces, which containers and CI as root often lack.
    args: name === 'chromium' ? ['--no-sandbox'] : [],
    timeout: 180_000,
    protocolTimeout: 900_000,
  });
}

/**
 * For each browser in `names`: `body` inside a describe titled `title(label)`, run when the
 * browser is found; otherwise skipped with a warning (locally) or replaced by one failing test
 * (under CI).
 */
export function describeBrowsers(tag: string, names: readonly BrowserName[], title: (label: string) => string,
  body: (b: BrowserUnderTest) => void): void {
  for (const name of names) {
    const spec = BROWSERS[name];
    const executablePath = findBrowser(name);
    const missing = `no ${spec.label} binary found (tried ${candidates(name).join(', ')})`;
    if (executablePath === undefined && process.env.CI) {
      // A failing test, not a failing hook: vitest reports a hook's error with the tests as skipped.
      it(`CI runs ${title(spec.label)}`, () => {
        throw new Error(`CI must run the ${spec.label} test, but ${missing}: .ci/run installs Debian's ${spec.debian} as root`);
      });
      continue;
    }
    if (executablePath === undefined) {
      console.warn(`[${tag}] SKIPPED in ${spec.label}: ${missing}. ` +
        `Install Debian \`${spec.debian}\` (apt-get install -y ${spec.debian}) or set ${spec.env}.`);
    }
    // Registered even when skipped, so the file reports its tests as skipped rather than none.
    describe.skipIf(executablePath === undefined)(title(spec.label), () => body({
      name, label: spec.label, executablePath: executablePath ?? '', userAgent: spec.userAgent,
      launch: () => launch(name, executablePath!),
    }));
  }
}
