import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MONITOR_PAGE_CACHE_MIB, openCacheFile } from '../../../src/cache/db/open-cache-file.js';

// SQLite's cache_size is in KiB when negative: -1024 a MiB. The world tier: a reading connection opens a cache file
// that exists (an empty or in-memory one is refused), so these need a file
describe("a cache connection's page cache", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'page-cache-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is 32 MiB for the bulk commands (sync, listen, export)', () => {
    const db = openCacheFile(join(dir, 'cache.db'));
    expect(db.pragma('cache_size', { simple: true })).toBe(-32768);
    db.close();
  });

  it("is 4 MiB on the monitor's connections, writing or reading", () => {
    expect(MONITOR_PAGE_CACHE_MIB).toBe(4);
    const writer = openCacheFile(join(dir, 'cache.db'), 'write', MONITOR_PAGE_CACHE_MIB);
    expect(writer.pragma('cache_size', { simple: true })).toBe(-4096);
    const reader = openCacheFile(join(dir, 'cache.db'), 'read', MONITOR_PAGE_CACHE_MIB);
    expect(reader.pragma('cache_size', { simple: true })).toBe(-4096);
    reader.close();
    writer.close();
  });
});
