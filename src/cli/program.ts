import type { Command as CommandType } from 'commander';
import { packageVersion } from '../package-root.js';
import { Command, CommanderError } from './commander.js';
import { cacheCommand } from './commands/cache.js';
import { exportCommand } from './commands/export.js';
import { listenCommand } from './commands/listen.js';
import { monitorCommand } from './commands/monitor.js';
import { serverCommand } from './commands/server.js';
import { statusCommand } from './commands/status.js';
import { syncCommand } from './commands/sync.js';
import { CliError, EXIT } from './exit-codes.js';
import { setThroughputHeap } from './heap-policy.js';
import { redactUsage, typedValues, withoutTypedValues } from './typed-values.js';

const version = packageVersion();

/** The program; `typed` are the command line's values that no message may repeat (typed-values.ts). */
function buildProgram(typed: readonly string[] = []): CommandType {
  const program = new Command('svc-monitor')
    .description('a terminal monitor for weather-market traders, and the reference service it watches')
    .version(version)
    // `server keys create --data-dir X` must give X to `create`, not to `server`
    .enablePositionalOptions()
    .exitOverride()
    // the monitor keeps the heap the CLI starts with (heap-policy.ts); every other command allocates in bulk
    .hook('preAction', (_program, command) => {
      if (command.name() !== 'monitor') setThroughputHeap();
    });
  monitorCommand(program);
  syncCommand(program);
  listenCommand(program);
  exportCommand(program);
  cacheCommand(program);
  statusCommand(program);
  serverCommand(program);
  everyCommand(program, (command) => {
    command.enablePositionalOptions().option('--verbose', 'show stack traces on errors');
    if (command !== program) command.version(version);
    // commander's complaints as one line, naming the option and what it expects, never the value typed (a key in
    // the wrong place)
    command.configureOutput({
      outputError: (text, write) => write(`svc-monitor: ${withoutTypedValues(oneLine(text, command), typed)}\n`),
    });
  });
  return program;
}

/**
 * A commander complaint (`error: unknown option '--x'`, then maybe `(Did you mean --y?)` on a line of its own) as
 * one line without commander's `error:`: DESIGN 3's one line, after `svc-monitor: ` like every other error.
 */
function oneLine(text: string, command: CommandType): string {
  const said = redactUsage(text)
    .replace(/^error: /, '')
    .replace(/\n\(Did you mean /, ' (did you mean ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');
  return said.includes('(did you mean ') ? said : `${said} (see ${commandPath(command)} --help)`;
}

function commandPath(command: CommandType): string {
  const names: string[] = [];
  for (let c: CommandType | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The program's own flags: with one of these first, the command line is the program's, not the monitor's. */
const PROGRAM_FLAGS = new Set(['-V', '--version', '-h', '--help']);

/**
 * `svc-monitor` alone or with the monitor's options (`svc-monitor --demo`) runs `monitor`. A first word that is not
 * an option is a command: a mistyped one (`svc-monitor synx --once`) is an unknown command, with the nearest name,
 * rather than the monitor's complaint about `--once` (commander's default command would take it).
 */
function withDefaultCommand(argv: readonly string[]): string[] {
  const args = argv.slice(2);
  const first = args.find((arg) => arg !== '--verbose');
  const monitor = first === undefined || (first.startsWith('-') && !PROGRAM_FLAGS.has(first));
  return monitor ? [...argv.slice(0, 2), 'monitor', ...args] : [...argv];
}

function everyCommand(command: CommandType, visit: (command: CommandType) => void): void {
  visit(command);
  for (const sub of command.commands) everyCommand(sub, visit);
}

/** Runs the CLI; resolves to the exit code. Errors are one line on stderr (a stack only with --verbose). */
export async function run(argv: string[]): Promise<number> {
  const typed = typedValues(argv);
  const program = buildProgram(typed);
  try {
    await program.parseAsync(withDefaultCommand(argv));
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version are successes; every other commander complaint is a usage error (already printed)
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const code = await exitCodeOf(error);
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

/**
 * The exit code of a failure (DESIGN 3). The layers' error classes are looked up only here, on the way out: the
 * module that threw one is loaded already, and a command that never loads the cache or the client (`--version`,
 * `server keys list`) does not load them to start.
 */
async function exitCodeOf(error: unknown): Promise<number> {
  if (unresolvedHost(error)) return EXIT.usage;
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof Error && 'code' in error && error.code === 'EADDRINUSE') return EXIT.usage;
  const [{ CacheBusyError, CacheError }, { AuthRejected, ServiceUnreachable }, serverErrors] = await Promise.all([
    import('../cache/index.js'),
    import('../client/errors.js'),
    import('../server/errors.js'),
  ]);
  const { ServiceConfigError, StoreError, WorldMismatchError } = serverErrors;
  if (error instanceof AuthRejected) return EXIT.authRejected;
  if (error instanceof ServiceUnreachable) return EXIT.unreachable;
  // another process holds the cache's lock: a condition of the moment (try again), not a mistake in the command
  if (error instanceof CacheBusyError) return EXIT.failure;
  if (error instanceof CacheError) return EXIT.usage;
  if (error instanceof StoreError || error instanceof ServiceConfigError || error instanceof WorldMismatchError) {
    return EXIT.usage;
  }
  return EXIT.failure;
}
