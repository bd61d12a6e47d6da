import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { CacheError } from '../cache/open-cache.js';
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

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

export function buildProgram(): Command {
  const program = new Command('svc-monitor')
    .description('a terminal monitor for weather-market traders, and the reference service it watches')
    .version(pkg.version)
    // `server keys create --data-dir X` must give X to `create`, not to `server`
    .enablePositionalOptions()
    .exitOverride()
    .showHelpAfterError('(add --help for usage)')
    // a mistyped `--secret=S` or `--api-key=K` comes back in commander's complaint: never with its value
    // (up to the quote that closes commander's own quoting, whatever the value holds)
    .configureOutput({
      outputError: (text, write) => write(text.replace(/(--?[\w-]+)=[^\n]*(?=')|(--?[\w-]+)=\S+/g, '$1$2=…')),
    });
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
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version are successes; every other commander complaint is a usage error (already printed)
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const code = exitCodeOf(error);
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`svc-monitor: ${message}\n`);
    if (argv.includes('--verbose') && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return code;
  }
}

function exitCodeOf(error: unknown): number {
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
