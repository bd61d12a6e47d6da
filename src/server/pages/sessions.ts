import { randomBytes } from 'node:crypto';

/** DESIGN 7: a session lasts 8 hours from sign-in. */
export const SESSION_MS = 8 * 60 * 60 * 1000;

/** A value shown once, on the next page of the session: never stored anywhere else, dropped once shown. */
export type ShownOnce = { kind: 'key'; id: string; value: string } | { kind: 'secret'; id: string; value: string };

export interface Session {
  id: string;
  expiresAt: number;
  /** What the page after a POST shows: a value to show once, or what was done. */
  flash?: { shownOnce?: ShownOnce; notice?: string };
}

/**
 * Signed-in sessions, in memory: a restart signs everyone out, and signing out ends the session here, not only in
 * the browser. The cookie carries the id (signed); nothing else about the session leaves the server.
 */
export class Sessions {
  private readonly sessions = new Map<string, Session>();
  /** CSRF tokens already used: each works once, so a replayed form changes nothing. */
  private readonly usedTokens = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  create(): Session {
    this.sweep();
    const session = { id: randomBytes(24).toString('base64url'), expiresAt: this.now() + SESSION_MS };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id; an expired one is forgotten. */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (session && session.expiresAt <= this.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return session;
  }

  end(id: string): void {
    this.sessions.delete(id);
  }

  /** Marks a CSRF token used; false if it was used before (a replay). */
  spendToken(token: string): boolean {
    if (this.usedTokens.has(token)) return false;
    // a token is valid for 8 h (csrfOpts.validity), so it must be remembered as used that long, and no longer
    if (this.usedTokens.size >= 10_000) this.sweep();
    this.usedTokens.set(token, this.now() + SESSION_MS);
    return true;
  }

  /** What has expired goes (at each sign-in, and when many used tokens pile up). */
  sweep(): void {
    const now = this.now();
    for (const [id, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(id);
    for (const [token, until] of this.usedTokens) if (until <= now) this.usedTokens.delete(token);
  }
}
