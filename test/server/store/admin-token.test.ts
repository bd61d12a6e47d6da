import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminTokenError, loadAdminToken } from '../../../src/server/store/admin-token.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-admin-token-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the account pages' admin token (the right one always signs in, so its length is the guard)", () => {
  it('is made on first start: adm_ and 32 base64url characters (24 random bytes), kept 0600, the same next time', () => {
    const dir = dataDir();
    const token = loadAdminToken(dir);
    expect(token).toMatch(/^adm_[A-Za-z0-9_-]{32}$/);
    expect(readFileSync(join(dir, 'admin-token'), 'utf8')).toBe(`${token}\n`);
    expect(statSync(join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(loadAdminToken(dir)).toBe(token);
  });

  it('takes a given token of 16 characters and refuses one of 15, or a blank one', () => {
    const dir = dataDir();
    expect(loadAdminToken(dir, 'sixteen-chars-xy')).toBe('sixteen-chars-xy');
    expect(() => loadAdminToken(dir, 'fifteen-chars-x')).toThrow(
      new AdminTokenError('--admin-token must be at least 16 characters long'),
    );
    expect(() => loadAdminToken(dir, '   ')).toThrow(new AdminTokenError('--admin-token must not be empty'));
  });

  it('refuses a kept token an operator shortened by hand, as it refuses one given', () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'admin-token'), 'short-token\n', { mode: 0o600 });
    expect(() => loadAdminToken(dir)).toThrow(
      new AdminTokenError(
        `${join(dir, 'admin-token')} holds a token under 16 characters: delete it to have a new admin token made`,
      ),
    );
    writeFileSync(join(dir, 'admin-token'), 'sixteen-chars-xy\n');
    expect(loadAdminToken(dir)).toBe('sixteen-chars-xy');
  });
});
