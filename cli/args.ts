/**
 * A small flag parser: `--name value`, `--name=value`, boolean `--name`, `-h`; positionals
 * everywhere else; `--` ends the flags. Unknown flags and malformed integers are
 * {@link CliError}s naming the flag.
 */
import { CliError } from './errors.js';

/** A flag's kind: a string, an integer (with a minimum), or a switch. */
export type FlagSpec =
  | { readonly kind: 'string' }
  | { readonly kind: 'int'; readonly min: number }
  | { readonly kind: 'seed' }
  | { readonly kind: 'bool' }
  /** A finite decimal number (`1e-8`, `0.5`); `positive`: > 0, else ≥ 0. */
  | { readonly kind: 'number'; readonly positive: boolean };

export interface Parsed {
  readonly positionals: string[];
  readonly flags: Map<string, string | number | bigint | boolean>;
}

const ALIASES: Readonly<Record<string, string>> = { '-h': '--help', '-o': '--out' };

/**
 * Parses `argv` (after the command name) against `spec` (flag names without dashes).
 *
 * @throws CliError for an unknown flag, a missing value, or an integer flag that is not one.
 * @example
 * parseArgs(['m.ts', '--chains', '2'], { chains: { kind: 'int', min: 1 } }, 'sample');
 */
export function parseArgs(argv: readonly string[], spec: Readonly<Record<string, FlagSpec>>, command: string): Parsed {
  const positionals: string[] = [];
  const flags = new Map<string, string | number | bigint | boolean>();
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i]!;
    if (raw === '--') { positionals.push(...argv.slice(i + 1)); break; }
    const arg = ALIASES[raw] ?? raw;
    if (!arg.startsWith('-') || arg === '-') { positionals.push(arg); continue; }
    const eq = arg.indexOf('=');
    const name = (eq < 0 ? arg : arg.slice(0, eq)).replace(/^--?/, '');
    if (name === 'help') { flags.set('help', true); continue; }
    const s = spec[name];
    if (s === undefined) {
      const known = Object.keys(spec).map((k) => `--${k}`).join(', ');
      throw new CliError(`unknown flag ${arg.slice(0, eq < 0 ? undefined : eq)} (${command} takes ${known || 'no flags'}; see stochax ${command} --help)`);
    }
    if (s.kind === 'bool') {
      if (eq >= 0) throw new CliError(`--${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) throw new CliError(`--${name} needs a value`);
      value = next;
      i++;
    }
    flags.set(name, convert(name, s, value));
  }
  return { positionals, flags };
}

function convert(name: string, s: FlagSpec, value: string): string | number | bigint {
  if (s.kind === 'string') {
    if (value === '') throw new CliError(`--${name} needs a value`);
    return value;
  }
  if (s.kind === 'seed') {
    if (!/^\d+$/.test(value)) throw new CliError(`--${name} must be a non-negative integer; got '${value}'`);
    const big = BigInt(value);
    return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : big;
  }
  if (s.kind === 'number') {
    const x = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(value) ? Number(value) : Number.NaN;
    const what = s.positive ? 'a positive number' : 'a non-negative number';
    if (!Number.isFinite(x) || (s.positive ? !(x > 0) : !(x >= 0))) throw new CliError(`--${name} must be ${what}; got '${value}'`);
    return x;
  }
  const min = (s as { min: number }).min;
  if (!/^[+-]?\d+$/.test(value)) throw new CliError(`--${name} must be an integer${min > 0 ? ` ≥ ${min}` : min === 0 ? ' ≥ 0' : ''}; got '${value}'`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min) throw new CliError(`--${name} must be an integer ≥ ${min}; got ${value}`);
  return n;
}

/**
 * A comma-separated string flag (`--var-names a,b`) as its non-empty trimmed entries, or
 * undefined when the flag is absent.
 *
 * @example
 * listFlag(parseArgs(['--var-names', 'mu, tau'], { 'var-names': { kind: 'string' } }, 'summary').flags, 'var-names');   // ['mu', 'tau']
 */
export function listFlag(flags: ReadonlyMap<string, unknown>, name: string): string[] | undefined {
  return (flags.get(name) as string | undefined)?.split(',').map((v) => v.trim()).filter((v) => v !== '');
}
