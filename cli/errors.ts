/**
 * The CLI's error type and its streams. A {@link CliError} is a user mistake (a missing file, a
 * bad flag, a model module that breaks the contract): `run` prints its message on one line and
 * exits with code 1, never a stack trace.
 */

/** Where the CLI writes: injectable so tests run it in-process. */
export interface CliIo {
  /** Results: the summary table, where the files are. */
  readonly stdout: (text: string) => void;
  /** Progress, notes and errors. */
  readonly stderr: (text: string) => void;
  /** Whether stderr is a terminal (progress bars redrawn in place) or not (plain lines). */
  readonly isTTY?: boolean;
  /** The directory relative paths are resolved against (default `process.cwd()`). */
  readonly cwd?: string;
  /** Environment variables (default `process.env`): the schedulers' array-task indices. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A mistake the user can fix, reported as `stochax <command>: <message>` and exit code 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

/**
 * The first line of an error's message (library errors are one line; some causes are not), with
 * the next line too when the first only announces it (esbuild's `Transform failed with 1 error:`
 * puts the reason on the second).
 */
export function oneLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  const lines = msg.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) return msg.trim();
  return lines[0]!.endsWith(':') && lines.length > 1 ? `${lines[0]} ${lines[1]}` : lines[0]!;
}
