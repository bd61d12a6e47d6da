import type { Command } from 'commander';
import type { KeyStore } from '../../server/store/keys.js';
import { usageError } from '../exit-codes.js';

/** The store loads when a subcommand runs: `server keys --help` and its usage errors need none of it. */
async function withStore<T>(dataDir: string | undefined, work: (keys: KeyStore) => T): Promise<T> {
  const [{ KeyStore }, { withServerStore }] = await Promise.all([
    import('../../server/store/keys.js'),
    import('../server-store.js'),
  ]);
  return withServerStore(dataDir, (db) => work(new KeyStore(db)));
}

/** `server keys create|list|revoke`: acts on the data dir, also while the server runs (it reads keys per request). */
export function serverKeysCommand(server: Command): void {
  const keys = server.command('keys').description('API key management');
  keys
    .command('create')
    .description('create a key and print it once (only its hash is stored)')
    .option('--label <text>', 'a note to recognise the key by')
    .option('--json', 'print {id, key}')
    .option('--data-dir <dir>', 'the server data dir')
    .action(async (flags: { label?: string; json?: boolean; dataDir?: string }) => {
      const created = await withStore(flags.dataDir, (store) => store.create(flags.label ?? null));
      if (flags.json) process.stdout.write(`${JSON.stringify(created)}\n`);
      else process.stdout.write(`${created.id}\n${created.key}\n`);
      process.stderr.write('the key is shown this once; store it now\n');
    });
  keys
    .command('list')
    .description('list keys (ids and dates, never the keys)')
    .option('--json', 'machine-readable output')
    .option('--data-dir <dir>', 'the server data dir')
    .action(async (flags: { json?: boolean; dataDir?: string }) => {
      const list = await withStore(flags.dataDir, (store) => store.list());
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(list)}\n`);
        return;
      }
      for (const k of list) {
        const status = k.revoked_at ? `revoked ${k.revoked_at}` : 'active';
        process.stdout.write(`${k.id}  ${k.created_at}  ${status}${k.label ? `  ${k.label}` : ''}\n`);
      }
    });
  keys
    .command('revoke')
    .description('revoke a key; the running server refuses it from the next request on')
    .argument('<id>', 'key id (from list)')
    .option('--data-dir <dir>', 'the server data dir')
    .action(async (id: string, flags: { dataDir?: string }) => {
      const revoked = await withStore(flags.dataDir, (store) => store.revoke(id));
      if (!revoked) throw usageError(`no active key with id ${id}`);
      process.stdout.write(`revoked ${id}\n`);
    });
}
