import { type Db, openStore } from '../server/store/open-store.js';
import { serverDataDir } from './paths.js';

/** Opens the server's store in a data dir (the running server's too: SQLite WAL), runs `work`, closes it. */
export async function withServerStore<T>(dataDir: string | undefined, work: (db: Db) => T | Promise<T>): Promise<T> {
  const db = openStore(dataDir ?? serverDataDir());
  try {
    return await work(db);
  } finally {
    db.close();
  }
}
