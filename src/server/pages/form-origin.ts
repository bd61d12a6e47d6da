import type { FastifyRequest } from 'fastify';

/** scheme://host[:port] of an http(s) URL as browsers write it (host in lower case, no default port); else undefined. */
function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** A Host header as HTTP has it (a name, IPv4 or bracketed IPv6, then a port): nothing a URL would read as a path. */
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The pages' own origin: the scheme of the connection and the Host header the request was sent to. No proxy is
 * trusted (Fastify's `trustProxy` is off), so `X-Forwarded-Host` and `-Proto` are not read: the browser sets Host to
 * the address it posts to, and no page can change it.
 */
function pagesOrigin(request: FastifyRequest): string | undefined {
  const host = request.host;
  return typeof host === 'string' && HOST.test(host) ? originOf(`${request.protocol}://${host}`) : undefined;
}

const header = (request: FastifyRequest, name: 'origin' | 'referer'): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * Why a form post did not come from these pages, or undefined when it did: beside the CSRF token, its `Origin` must
 * be the pages' own. Browsers send `Origin` with every POST, and the pages' `Referrer-Policy: same-origin` keeps it
 * the real origin on their own forms (under `no-referrer` Chromium sends `Origin: null`). Without an `Origin`, the
 * origin of the `Referer` stands in (sent to the same origin under that policy, by browsers too old to send Origin);
 * with neither, the post is refused: every form these pages serve names where it came from, so one that names
 * nothing is not theirs (a script posting to the pages sends an `Origin` header, as a browser does).
 */
export function notFromThesePages(request: FastifyRequest): string | undefined {
  const own = pagesOrigin(request);
  const origin = header(request, 'origin');
  const referer = header(request, 'referer');
  const said = origin ?? (referer === undefined ? undefined : originOf(referer));
  if (own !== undefined && said !== undefined && originOf(said) === own) return undefined;
  const pages = own ?? 'an address without a valid Host header';
  if (origin === undefined && referer === undefined) {
    return `This form names no origin (no Origin or Referer header), so it cannot be told from one posted by another site; these pages are ${pages}.`;
  }
  const from = origin === undefined ? `a page at ${said ?? 'an unreadable Referer'}` : `Origin ${origin.slice(0, 200)}`;
  return `This form was posted from ${from}, not from these pages (${pages}).`;
}
