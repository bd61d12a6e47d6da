import type { Command } from 'commander';
import { usageError } from '../exit-codes.js';

/** Commands of the contract whose issue has not landed yet: they exist, show help, and exit 2. */
export function notYet(command: Command): Command {
  return command.action(() => {
    throw usageError(`${command.name()}: not implemented yet`);
  });
}

export function monitorCommand(program: Command): void {
  notYet(
    program
      .command('monitor', { isDefault: true })
      .description('the terminal monitor (no key configured means --demo)')
      .option('--demo', 'run against the reference service in-process')
      .option('--offline', 'review the cache with no network')
      .option('--listen <port>', 'also run the webhook listener on this port')
      .option('--city <id>', 'city to show first')
      .option('--db <file>', 'cache file'),
  );
}
