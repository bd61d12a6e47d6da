import { createHash, randomBytes } from 'node:crypto';
import type { Db } from './open-store.js';

export interface ApiKeyInfo {
  id: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  /** The first characters of the key (`svc_` and four more): enough to tell keys apart, far too few to use. */
  key_prefix: string | null;
  /** When a request last came with it, to the minute (null: never). */
  last_used_at: string | null;
}

/** How often the time a key was last used is written: at most once a minute a key, not once a request. */
const LAST_USED_EVERY_MS = 60_000;
const keyPrefix = (key: string): string => key.slice(0, 8);

const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/** API keys are stored only as SHA-256 hashes; the key itself is shown once, at creation. */
export class KeyStore {
  private readonly lookup;
  /** Verified keys, valid while no other connection has committed (an admin command may have revoked one). */
  private readonly verified = new Map<string, string | undefined>();
  private verifiedAt = -1;
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(private readonly db: Db) {
    this.lookup = db.prepare('SELECT id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL').pluck();
  }

  create(label: string | null = null): { id: string; key: string } {
    const key = `svc_${randomBytes(24).toString('base64url')}`;
    return { id: this.insert(key, label), key };
  }

  /** Makes sure a given key exists (`server --api-key`); returns its id. */
  ensure(key: string, label = 'from --api-key'): string {
    const existing = this.db.prepare('SELECT id FROM api_keys WHERE key_hash = ?').pluck().get(hashKey(key)) as
      | string
      | undefined;
    if (existing) {
      this.verified.clear();
      this.db.prepare('UPDATE api_keys SET revoked_at = NULL WHERE id = ?').run(existing);
      return existing;
    }
    return this.insert(key, label);
  }

  list(): ApiKeyInfo[] {
    return this.db
      .prepare(
        'SELECT id, label, created_at, revoked_at, key_prefix, last_used_at FROM api_keys ORDER BY created_at, id',
      )
      .all() as ApiKeyInfo[];
  }

  revoke(id: string): boolean {
    this.verified.clear();
    const result = this.db
      .prepare(
        "UPDATE api_keys SET revoked_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ? AND revoked_at IS NULL",
      )
      .run(id);
    return result.changes > 0;
  }

  /** The id of the active key, or undefined. A revocation, from any process, takes effect on the next request. */
  verify(key: string): string | undefined {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version !== this.verifiedAt || this.verified.size > 10_000) {
      this.verified.clear();
      this.verifiedAt = version;
    }
    let id: string | undefined;
    if (this.verified.has(key)) id = this.verified.get(key);
    else {
      id = this.lookup.get(hashKey(key)) as string | undefined;
      this.verified.set(key, id);
    }
    if (id !== undefined) this.noteUse(id);
    return id;
  }

  /** Whether there is an active key with this id (the pages' revoke refuses an unknown or revoked one). */
  isActive(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM api_keys WHERE id = ? AND revoked_at IS NULL').get(id) !== undefined;
  }

  private noteUse(id: string): void {
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(id) ?? 0) < LAST_USED_EVERY_MS) return;
    this.lastUsedWritten.set(id, now);
    try {
      this.db.prepare("UPDATE api_keys SET last_used_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?").run(id);
    } catch {
      // a busy store (an admin command writing) costs the request nothing: the next minute's use is written
    }
    // our own write does not move data_version, so the verified keys stay valid
  }

  private insert(key: string, label: string | null): string {
    this.verified.clear();
    const id = `key_${randomBytes(6).toString('hex')}`;
    this.db
      .prepare(
        "INSERT INTO api_keys (id, key_hash, key_prefix, label, created_at) VALUES (?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
      )
      .run(id, hashKey(key), keyPrefix(key), label);
    return id;
  }
}
