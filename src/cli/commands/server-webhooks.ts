import type { Command } from 'commander';
import { notYet } from './not-yet.js';

/** `server webhooks ...`: registration and delivery log (issue 3). */
export function serverWebhooksCommand(server: Command): void {
  const webhooks = server.command('webhooks').description('webhook registration and deliveries');
  notYet(
    webhooks
      .command('add')
      .argument('<url>')
      .option('--events <types>', 'comma-separated event types')
      .option('--allow-private', 'allow a private, loopback or link-local target'),
  );
  notYet(webhooks.command('list').option('--json', 'machine-readable output'));
  notYet(webhooks.command('remove').argument('<id>'));
  notYet(webhooks.command('enable').argument('<id>'));
  notYet(webhooks.command('test').argument('<id>'));
  notYet(webhooks.command('deliveries').argument('<id>'));
}
