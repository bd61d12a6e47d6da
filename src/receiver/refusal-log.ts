import type { IncomingMessage } from 'node:http';
import { withoutControls } from '../domain/without-controls.js';

/** A header as a log line may show it: cut short, control characters gone (it comes from whoever connected). */
const HEADER_CHARS = 64;

function shown(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? withoutControls(value).slice(0, HEADER_CHARS) : undefined;
}

/** What a refusal line and the cache keep of a refused request: never its body, never its signature. */
export interface RefusedRequest {
  remoteAddress?: string;
  eventId?: string;
  eventType?: string;
}

export function refusedRequest(req: IncomingMessage): RefusedRequest {
  const address = req.socket.remoteAddress;
  return {
    // an IPv4 peer on a dual-stack socket reads ::ffff:127.0.0.1
    remoteAddress: address?.replace(/^::ffff:(?=\d+\.)/, ''),
    eventId: shown(req, 'x-svc-event-id'),
    eventType: shown(req, 'x-svc-event'),
  };
}

/** `from ADDR (X-Svc-Event-Id ID, X-Svc-Event TYPE)`, each part `none` when the request did not send it. */
export const describeRequest = (r: RefusedRequest): string =>
  `from ${r.remoteAddress ?? 'an unknown address'} (X-Svc-Event-Id ${r.eventId ?? 'none'}, ` +
  `X-Svc-Event ${r.eventType ?? 'none'})`;

/** At most one refusal line this often: a sender retrying, or a stranger flooding, cannot flood the log. */
export const REFUSAL_LINE_EVERY_MS = 1_000;

/**
 * Refusal lines of one kind, at most one a second. The first of a quiet spell is logged at once; those that follow
 * within the second are counted, and when the second is over the last of them is logged with how many more were
 * refused since the previous line (`..., and 4 more refused since 2026-11-21T12:00:01.000Z`), which opens the next
 * second. Nothing refused is left unsaid, and a log line a second is the most a flood costs.
 */
export class RefusalLog {
  private windowEnds = Number.NEGATIVE_INFINITY;
  private held: { line: string; count: number } | null = null;
  private since = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: (line: string) => void,
    private readonly nowMs: () => number = Date.now,
  ) {}

  refused(line: string): void {
    const now = this.nowMs();
    if (now >= this.windowEnds && !this.held) {
      this.say(line, now);
      return;
    }
    this.held = { line, count: (this.held?.count ?? 0) + 1 };
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.windowEnds - now));
    this.timer.unref();
  }

  /** Says what is held now (the listener is stopping). */
  close(): void {
    clearTimeout(this.timer);
    this.flush();
  }

  private flush(): void {
    this.timer = undefined;
    const held = this.held;
    this.held = null;
    if (!held) return;
    const more = held.count - 1;
    this.say(more > 0 ? `${held.line}, and ${more} more refused since ${this.since}` : held.line, this.nowMs());
  }

  private say(line: string, now: number): void {
    this.log(line);
    this.since = new Date(now).toISOString();
    this.windowEnds = now + REFUSAL_LINE_EVERY_MS;
  }
}
