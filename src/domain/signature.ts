import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<hex>`: HMAC-SHA256 of the exact body bytes with the webhook secret (spec 6.3). */
export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * True when `header` is `sha256=` and 64 hex digits matching the body under one of the secrets (several allow
 * rotation). The comparison is timing-safe and runs over fixed-length digests only.
 */
export function verifySignature(secrets: readonly string[], body: Buffer, header: string | undefined): boolean {
  const match = header?.match(/^sha256=([0-9a-fA-F]{64})$/);
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1].toLowerCase(), 'hex');
  let ok = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(body).digest();
    // every secret is tried, so timing does not tell which one matched
    if (timingSafeEqual(given, expected)) ok = true;
  }
  return ok;
}
