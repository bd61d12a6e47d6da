import { badRequest } from './http-error.js';

export interface LockPosition {
  lockedAt: string;
  id: string;
}

/** The fusion-lock cursor: opaque to clients, base64url of the last row's (locked_at, id). */
export function encodeLockCursor(position: LockPosition): string {
  return Buffer.from(JSON.stringify([position.lockedAt, position.id])).toString('base64url');
}

export function decodeLockCursor(cursor: string): LockPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(value[0]) &&
      typeof value[1] === 'string'
    ) {
      return { lockedAt: value[0], id: value[1] };
    }
  } catch {
    // falls through to the one error below
  }
  throw badRequest(
    `invalid query parameter 'cursor': is not a cursor this service issued (pass next_cursor back unchanged)`,
  );
}
