import type { Command } from 'commander';
import { EVENT_TYPES } from '../../contract/names.js';
import type { WebhookStore } from '../../server/store/webhooks.js';
import { usageError } from '../exit-codes.js';

interface DirFlag {
  dataDir?: string;
  json?: boolean;
}

/** The store loads when a subcommand runs: `server webhooks --help` and its usage errors need none of it. */
async function withWebhooks<T>(
  dataDir: string | undefined,
  work: (store: WebhookStore, serverAllowsPrivate: boolean) => T | Promise<T>,
): Promise<T> {
  const [{ getMeta }, { WebhookStore }, { withServerStore }] = await Promise.all([
    import('../../server/store/open-store.js'),
    import('../../server/store/webhooks.js'),
    import('../server-store.js'),
  ]);
  return withServerStore(dataDir, (db) => work(new WebhookStore(db), getMeta(db, 'allow_private_webhooks') === '1'));
}

/** The registration rules (address guard, event types, the test event's contract): for add and test only. */
const registration = () => import('../../server/webhooks/registration.js');

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
/** The shared rules' refusals are usage errors here (exit 2, one line). */
async function refusedAsUsage<T>(work: () => T | Promise<T>): Promise<Awaited<T>> {
  try {
    return await work();
  } catch (error) {
    const [{ AddressRefused }, { UnknownEventTypes }] = await Promise.all([
      import('../../server/webhooks/address-guard.js'),
      registration(),
    ]);
    if (error instanceof AddressRefused || error instanceof UnknownEventTypes) throw usageError(error.message);
    throw error;
  }
}
const mustExist = (found: boolean, id: string) => {
  if (!found) throw usageError(`no webhook with id ${id}`);
};

/** `server webhooks ...`: registration and the delivery log, on the data dir (the running server sees changes). */
export function serverWebhooksCommand(server: Command): void {
  const webhooks = server.command('webhooks').description('webhook registration and deliveries');
  const command = (name: string, description: string) =>
    webhooks.command(name).description(description).option('--data-dir <dir>', 'the server data dir');

  command('add', 'register a receiver; prints its id and secret once')
    .argument('<url>', 'http or https URL of the receiver')
    .option('--events <types>', `comma-separated event types (default all): ${EVENT_TYPES.join(', ')}`)
    .option('--allow-private', 'allow a private, loopback or link-local target (local development)')
    .option('--json', 'print {id, secret}')
    .action(async (url: string, flags: DirFlag & { events?: string; allowPrivate?: boolean }) => {
      const { parseEventTypes, registerWebhook } = await registration();
      const events = await refusedAsUsage(() => parseEventTypes(flags.events?.split(',').map((t) => t.trim())));
      const created = await withWebhooks(flags.dataDir, (store, serverAllowsPrivate) =>
        refusedAsUsage(() =>
          registerWebhook(store, { url, events, allowPrivate: Boolean(flags.allowPrivate), serverAllowsPrivate }),
        ),
      );
      print(flags.json ? JSON.stringify(created) : `${created.id}\n${created.secret}`);
      process.stderr.write('the secret is shown this once; give it to the receiver now\n');
    });

  command('list', 'registered webhooks (never their secrets)')
    .option('--json', 'machine-readable output')
    .action(async (flags: DirFlag) => {
      const list = await withWebhooks(flags.dataDir, (store) => store.list());
      if (flags.json) return print(JSON.stringify(list));
      for (const w of list) {
        print(
          [w.id, w.status, w.url, w.events?.join(',') ?? 'all events', `failures ${w.consecutive_failures}`]
            .concat(w.last_attempt_at ? [`last ${w.last_attempt_at} ${w.last_result}`] : [])
            .join('  '),
        );
      }
    });

  command('remove', 'delete a webhook and its queued deliveries')
    .argument('<id>')
    .action(async (id: string, flags: DirFlag) => {
      mustExist(await withWebhooks(flags.dataDir, (store) => store.remove(id)), id);
      print(`removed ${id}`);
    });

  command('enable', 're-enable a webhook and reset its failure count')
    .argument('<id>')
    .action(async (id: string, flags: DirFlag) => {
      mustExist(await withWebhooks(flags.dataDir, (store) => store.enable(id)), id);
      print(`enabled ${id}`);
    });

  command('test', 'queue a webhook.test event for one webhook')
    .argument('<id>')
    .action(async (id: string, flags: DirFlag) => {
      const { queueTestEvent } = await registration();
      const queued = await withWebhooks(flags.dataDir, (store) => queueTestEvent(store, id));
      if (!queued.queued) throw usageError(`no webhook with id ${id}`);
      print(`queued webhook.test ${queued.eventId} for ${id}`);
    });

  command('deliveries', 'the attempt log of one webhook')
    .argument('<id>')
    .option('--json', 'machine-readable output')
    .action(async (id: string, flags: DirFlag) => {
      const log = await withWebhooks(flags.dataDir, (store) => {
        mustExist(store.get(id) !== undefined, id);
        return store.attempts(id);
      });
      if (flags.json) return print(JSON.stringify(log));
      for (const a of log) {
        const result = a.status_code !== null ? String(a.status_code) : (a.error ?? 'error');
        const next = a.next_attempt_at ? `next ${a.next_attempt_at}` : '';
        print(
          `${a.attempted_at}  ${a.event_id}  ${a.delivery_id}  #${a.attempt}  ${result}  ${a.duration_ms} ms  ${next}`.trimEnd(),
        );
      }
    });
}
