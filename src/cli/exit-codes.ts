/** DESIGN.md section 3. */
export const EXIT = {
  ok: 0,
  failure: 1,
  usage: 2,
  authRejected: 3,
  unreachable: 4,
} as const;

/** A failure the CLI reports as one line on stderr with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);
