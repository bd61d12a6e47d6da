import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { CacheError } from '../cache/index.js';
import { AuthRejected, ServiceUnreachable } from '../client/errors.js';
import { ServiceConfigError } from '../server/service.js';
import { StoreError } from '../server/store/open-store.js';
import { WorldMismatchError } from '../server/world/world.js';
import { exportCommand } from './commands/export.js';
import { listenCommand } from './commands/listen.js';
import { monitorCommand } from './commands/monitor.js';
import { serverCommand } from './commands/server.js';
import { syncCommand } from './commands/sync.js';
import { CliError, EXIT } from './exit-codes.js';
import { redactUsage, typedValues, withoutTypedValues } from './typed-values.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/** The program; `typed` are the command line's values that no message may repeat (typed-values.ts). */
export function buildProgram(typed: readonly string[] = []): Command {
  const program = new Command('svc-monitor')
    .description('a terminal monitor for weather-market traders, and the reference service it watches')
    .version(pkg.version)
    // `server keys create --data-dir X` must give X to `create`, not to `server`
    .enablePositionalOptions()
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    // commander's complaints name the option and what it expects, never the value typed (a key in the wrong place)
    .configureOutput({ outputError: (text, write) => write(withoutTypedValues(redactUsage(text), typed)) });
  monitorCommand(program);
  syncCommand(program);
  listenCommand(program);
  exportCommand(program);
  serverCommand(program);
  everyCommand(program, (command) => {
    command.enablePositionalOptions().option('--verbose', 'show stack traces on errors');
    if (command !== program) command.version(pkg.version);
  });
  return program;
}

function everyCommand(command: Command, visit: (command: Command) => void): void {
  visit(command);
  for (const sub of command.commands) everyCommand(sub, visit);
}

/** Runs the CLI; resolves to the exit code. Errors are one line on stderr (a stack only with --verbose). */
export async function run(argv: string[]): Promise<number> {
  const typed = typedValues(argv);
  const program = buildProgram(typed);
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version are successes; every other commander complaint is a usage error (already printed)
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const code = exitCodeOf(error);
    const message = unresolvedHost(error) ?? (error instanceof Error ? error.message : String(error));
    process.stderr.write(`svc-monitor: ${withoutTypedValues(message, typed)}\n`);
    if (argv.includes('--verbose') && error instanceof Error && error.stack)
      process.stderr.write(`${withoutTypedValues(error.stack, typed)}\n`);
    return code;
  }
}

/** A `--host` that names no address: say which option, not the name (it may be a key typed in the wrong place). */
function unresolvedHost(error: unknown): string | undefined {
  const e = error as NodeJS.ErrnoException | undefined;
  if (e?.syscall !== 'getaddrinfo') return undefined;
  return `--host: the address given cannot be resolved (${e.code}); expected an IP address or a host name`;
}

function exitCodeOf(error: unknown): number {
  if (unresolvedHost(error)) return EXIT.usage;
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof AuthRejected) return EXIT.authRejected;
  if (error instanceof ServiceUnreachable) return EXIT.unreachable;
  if (error instanceof CacheError) return EXIT.usage;
  if (error instanceof StoreError || error instanceof ServiceConfigError || error instanceof WorldMismatchError) {
    return EXIT.usage;
  }
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') return EXIT.usage;
  return EXIT.failure;
}
