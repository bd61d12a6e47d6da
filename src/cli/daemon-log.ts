/**
 * A daemon's line on stderr (DESIGN 3: every line `sync` and `listen` write starts with its instant): the host's
 * clock when it was written, ISO 8601 UTC, as journald and a terminal scrollback are read beside other logs. The
 * market's instants (the service's clock) are in what the line says, and in `sync --json`'s `at`.
 */
export function stampedLine(line: string, at: Date = new Date()): string {
  return `${at.toISOString()} ${line}\n`;
}

/** A logger writing stamped lines to stderr, each after `prefix` (`sync: `). */
export function daemonLog(prefix = ''): (line: string) => void {
  return (line) => {
    process.stderr.write(stampedLine(`${prefix}${line}`));
  };
}
