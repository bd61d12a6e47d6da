import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { narrowToOwner } from './private-files.js';

/** Where the account pages' sign-in token is kept when `--admin-token` is not given. */
export const adminTokenPath = (dataDir: string): string => join(dataDir, 'admin-token');

export class AdminTokenError extends Error {}

/**
 * The shortest `--admin-token` taken. The sign-in page lets the right token in however many wrong ones came before
 * it from the address (an operator is never locked out), so only its length stands between a guesser and the pages:
 * 16 characters of a password generator's alphabet is over 90 bits. The token made on first start is 32 characters.
 */
export const ADMIN_TOKEN_MIN_LENGTH = 16;

/**
 * The token `server` signs the account pages in with: `--admin-token` when given (then nothing is written), else
 * the one in `DIR/admin-token`, made on first start (mode 0600, the operator reads it there). The caller keeps only
 * its hash.
 */
export function loadAdminToken(dataDir: string, given?: string): string {
  if (given !== undefined) {
    if (given.trim() === '') throw new AdminTokenError('--admin-token must not be empty');
    if (given.trim().length < ADMIN_TOKEN_MIN_LENGTH) {
      throw new AdminTokenError(`--admin-token must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters long`);
    }
    return given;
  }
  const path = adminTokenPath(dataDir);
  try {
    const fd = openSync(path, 'wx', 0o600);
    const token = `adm_${randomBytes(24).toString('base64url')}`;
    try {
      writeSync(fd, `${token}\n`);
    } finally {
      closeSync(fd);
    }
    narrowToOwner([path]);
    return token;
  } catch (error) {
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  }
  narrowToOwner([path]);
  const token = readFileSync(path, 'utf8').trim();
  if (token === '') throw new AdminTokenError(`${path} is empty: delete it to have a new admin token made`);
  if (token.length < ADMIN_TOKEN_MIN_LENGTH) {
    throw new AdminTokenError(
      `${path} holds a token under ${ADMIN_TOKEN_MIN_LENGTH} characters: delete it to have a new admin token made`,
    );
  }
  return token;
}
