import { withoutControls } from '../domain/without-controls.js';

/** Failures of a call to the service, each naming the endpoint (never the key). */
export class ApiError extends Error {
  constructor(
    readonly endpoint: string,
    message: string,
    /**
     * The answer was not the API's: HTML (a web page, a proxy's error page) or a 404. When every stream gets one, the
     * base URL is probably wrong (DESIGN 3 `sync`).
     */
    readonly notTheApi = false,
  ) {
    super(`${endpoint}: ${message}`);
  }
}

/** 401: the key was rejected. Never retried; the CLI exits 3. */
export class AuthRejected extends ApiError {
  constructor(endpoint: string) {
    super(endpoint, 'the service rejected the API key (401); check SVC_API_KEY or --api-key');
  }
}

/** Network errors, timeouts, 5xx and 429 that outlasted every retry. The CLI exits 4. */
export class ServiceUnreachable extends ApiError {
  constructor(
    endpoint: string,
    message: string,
    /**
     * Every attempt failed before a connection: refused, or the host not found. Nothing listens at the base URL, so
     * no other endpoint of it answers either (a timeout or a 5xx says nothing of the others).
     */
    readonly noConnection = false,
  ) {
    super(endpoint, message);
  }
}

/**
 * 400, 404, 405: our request was wrong, a bug report, not something to retry; or the address answers with something
 * else than the API (a web page). `body` is the answer's one-line description (`answerDescription`).
 */
export class RequestRefused extends ApiError {
  constructor(
    endpoint: string,
    readonly status: number,
    body: AnswerDescription,
  ) {
    super(
      endpoint,
      body.quoted === null ? body.line : `the service refused the request (${status}): ${body.quoted}`,
      status === 404 || body.html,
    );
  }
}

/** The body was not JSON or did not match the contract; nothing from it may be stored. */
export class InvalidResponse extends ApiError {}

/** undici refused to send the request (a header it cannot carry, say). Sending it again cannot help. */
export class RequestNotSent extends ApiError {}

/** The client was cancelled (the monitor or the daemon is stopping); nothing is wrong with the service. */
export class Cancelled extends ApiError {
  constructor(endpoint: string) {
    super(endpoint, 'cancelled: stopping');
  }
}

/** What the error line says of an answer's body: the API's own `{error}` text quoted, or a description of it. */
export interface AnswerDescription {
  /** The service's own words (its `{error}`, or a short line of text), one line; null: the body is not shown. */
  quoted: string | null;
  /** `HTTP 404 text/html (not the API: 5.2 kB of HTML)`: the status, the content type and the size, never the body. */
  line: string;
  html: boolean;
}

/** A body one line long and at most this long is shown as it is (an API error, a proxy's one-liner). */
const SHOWN_BODY_CHARS = 300;

const size = (bytes: number) => (bytes < 1000 ? `${bytes} B` : `${(bytes / 1000).toFixed(1)} kB`);

/**
 * An answer's body as one line for an error: a 500-line account page printed as it came was 56 lines of HTML for 11
 * streams. The API's `{error}` text (or a short line of text) is quoted; HTML or a longer body is described by its
 * status, content type and size, never shown.
 */
export function answerDescription(status: number, contentType: string | undefined, text: string): AnswerDescription {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() || 'no content type';
  const html = type.includes('html') || /^\s*<(!doctype|html)/i.test(text);
  const bytes = Buffer.byteLength(text);
  const line = html
    ? `HTTP ${status} ${type} (not the API: ${size(bytes)} of HTML)`
    : `HTTP ${status} ${type} (${size(bytes)}, not shown)`;
  if (html) return { quoted: null, line, html };
  let said = text;
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body?.error === 'string') said = body.error;
  } catch {
    // not the API's error shape: shown only when it is one short line
  }
  const oneLine = !/[\r\n]/.test(said.trim()) && said.length <= SHOWN_BODY_CHARS;
  // a control character from the wire is made inert, as every text from the service on a terminal is
  return { quoted: oneLine ? withoutControls(said.trim()) : null, line, html };
}
