/**
 * test/fixtures/tfp-jax/log-prob-x64.json (written by log-prob.py beside it: TFP on JAX's log
 * densities for OrderedLogistic, CholeskyLKJ, MultivariateStudentTLinearOperator and Inflated).
 * Python's json writes ±Infinity and NaN as bare words; they are read back as numbers here.
 */
import { readFileSync } from 'node:fs';

/** The fixture's section `name`, with non-finite numbers restored. */
export function tfpLogProbFixture<T>(name: string): T {
  const text = readFileSync(new URL('../fixtures/tfp-jax/log-prob-x64.json', import.meta.url), 'utf8');
  const quoted = text.replace(/-?Infinity|NaN/g, (m) => `"${m}"`);
  const all = JSON.parse(quoted, (_k, v: unknown) => (v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v === 'NaN' ? NaN : v)) as Record<string, unknown>;
  return all[name] as T;
}
