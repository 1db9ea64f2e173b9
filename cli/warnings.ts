/** How the CLI prints a run's warnings (`samplingWarnings`): on stderr, after the summary table. */
import type { CliIo } from './errors.js';

/**
 * The warnings on stderr, one per line, after the summary table.
 *
 * @example
 * printWarnings(io, result.warnings);   // "warning [rhat]: R-hat is above 1.01 for …"
 */
export function printWarnings(io: CliIo, warnings: readonly { readonly kind: string; readonly message: string }[] | undefined): void {
  if (warnings === undefined || warnings.length === 0) return;
  io.stderr(`\n${warnings.length} warning${warnings.length === 1 ? '' : 's'}:\n${warnings.map((w) => `warning [${w.kind}]: ${w.message}\n`).join('')}`);
}
