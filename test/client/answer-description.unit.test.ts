import { describe, expect, it } from 'vitest';
import { answerDescription } from '../../src/client/errors.js';
import { wrongBaseUrlHint, wrongBaseUrlLine } from '../../src/sync/base-url-hint.js';

const page = `<!doctype html>\n<html lang="en">\n<head><title>Not found</title></head>\n${'<p>x</p>\n'.repeat(600)}</html>\n`;

describe('an answer’s body in an error line', () => {
  it('quotes the API’s one-line {error}, describes HTML and long bodies by status, type and size', () => {
    expect(answerDescription(404, 'application/json; charset=utf-8', '{"error":"unknown city_id: atlantis"}')).toEqual({
      quoted: 'unknown city_id: atlantis',
      line: 'HTTP 404 application/json (37 B, not shown)',
      html: false,
    });
    // the lines' bytes with their newlines: 16 + 17 + 38 + 600 x 9 + 8 = 5,479: 5.5 kB
    expect(Buffer.byteLength(page)).toBe(5479);
    expect(answerDescription(404, 'text/html; charset=utf-8', page)).toEqual({
      quoted: null,
      line: 'HTTP 404 text/html (not the API: 5.5 kB of HTML)',
      html: true,
    });
    // HTML under another content type is HTML all the same
    expect(answerDescription(200, undefined, '<html><body>hi</body></html>').line).toBe(
      'HTTP 200 no content type (not the API: 28 B of HTML)',
    );
    // two lines of plain text: described, not shown
    expect(answerDescription(403, 'text/plain', 'Forbidden\nby the proxy')).toEqual({
      quoted: null,
      line: 'HTTP 403 text/plain (22 B, not shown)',
      html: false,
    });
    // a short line is shown, its control characters inert
    expect(answerDescription(400, 'text/plain', 'bad \u001b]52;c;x\u0007 request').quoted).toBe(
      'bad  ]52;c;x  request',
    );
  });
});

describe('the wrong base URL hint', () => {
  const notTheApi = (stream: string) => ({
    stream,
    error: `${stream}: HTTP 404`,
    kind: 'refused' as const,
    notTheApi: true as const,
  });

  it('names the address in use and the API’s, when every stream of the pass answered 404 or HTML', () => {
    const pass = { streams: {}, errors: ['cities', 'metar'].map(notTheApi) };
    expect(wrongBaseUrlHint(pass, 'http://127.0.0.1:8787/account/api/public/v1')).toBe(
      'the base URL is probably wrong: every stream answered 404 or HTML from ' +
        "http://127.0.0.1:8787/account/api/public/v1; it should be the service's address ending with /api/public/v1 " +
        '(as http://127.0.0.1:8787/api/public/v1)',
    );
    // one stream answered, or one failed otherwise: no hint
    const answered = { fetched: 1, inserted: 1, updated: 0 };
    expect(wrongBaseUrlHint({ ...pass, streams: { daily: answered } }, 'http://h/x')).toBeNull();
    const down = { stream: 'daily', error: 'no answer', kind: 'unreachable' as const };
    expect(wrongBaseUrlHint({ streams: {}, errors: [...pass.errors, down] }, 'http://h/x')).toBeNull();
  });

  it('never prints credentials or a query (an api_key parameter): each is `…`', () => {
    expect(wrongBaseUrlLine('https://user:pw@svc.example/account?api_key=SECRET')).toBe(
      'the base URL is probably wrong: every stream answered 404 or HTML from https://…:…@svc.example/account?…; ' +
        "it should be the service's address ending with /api/public/v1 (as https://svc.example/api/public/v1)",
    );
  });
});
