import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/server/store/open-store.js';

// the world tier: the store opens a data folder and its file (openStore has no in-memory form)
describe("the store's page cache", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-page-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("is better-sqlite3's 16 MB when not given (its build's SQLITE_DEFAULT_CACHE_SIZE=-16000)", () => {
    const db = openStore(join(dir, 'server'));
    expect(db.pragma('cache_size', { simple: true })).toBe(-16000);
    db.close();
  });

  it('is the size asked for, in MiB (the demo asks 4)', () => {
    const db = openStore(join(dir, 'server'), 4);
    expect(db.pragma('cache_size', { simple: true })).toBe(-4096);
    db.close();
  });
});
