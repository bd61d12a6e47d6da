import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HISTORICAL_TABLES } from '../../../contract/historical.js';
import { API_PREFIX } from '../../../contract/limits.js';
import { HttpError } from '../http-error.js';

/** Friendlier words than a regular expression for the parameters that carry one. */
const PATTERN_HINTS: Record<string, string> = {
  since: 'must be YYYY-MM-DD or an ISO 8601 instant',
  until: 'must be YYYY-MM-DD or an ISO 8601 instant',
  date: 'must be a date YYYY-MM-DD',
  cursor: 'is not a cursor this service issued (pass next_cursor back unchanged)',
};

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

/** One sentence naming the parameter and what is wrong with it. */
function describeValidation(issues: AjvIssue[]): string {
  const first = issues[0];
  if (!first) return 'bad request';
  if (first.keyword === 'required') {
    const missing = (first.params.requiredProperties as string[] | undefined)?.[0] ?? first.params.missingProperty;
    return `missing query parameter '${String(missing)}'`;
  }
  const name = first.instancePath.replace(/^\//, '') || 'query';
  const allowed = issues
    .filter((i) => i.instancePath === first.instancePath && i.keyword === 'const')
    .map((i) => String(i.params.allowedValue));
  const why =
    allowed.length > 0
      ? `must be one of ${allowed.join(', ')}`
      : first.keyword === 'pattern'
        ? (PATTERN_HINTS[name] ?? 'has the wrong format')
        : first.keyword === 'type' && first.params.type === 'integer'
          ? 'must be a whole number written in digits'
          : (first.message ?? 'is not valid');
  return `invalid query parameter '${name}': ${why}`;
}

/**
 * Every failure is `{error}` JSON. Client mistakes say what was wrong; anything unexpected is logged and answered
 * with a bare 500, never a stack trace.
 */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      return reply.code(400).send({ error: describeValidation(error.validation as AjvIssue[]) });
    }
    const status = error instanceof HttpError ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ error: error.message || 'bad request' });
    }
    request.log.error({ err: error, route: request.routeOptions.url }, 'internal error');
    return reply.code(500).send({ error: 'internal error' });
  });

  app.setNotFoundHandler((request, reply) => {
    const path = (request.url.split('?')[0] ?? '').slice(0, 200);
    if (path.startsWith(`${API_PREFIX}/historical/`)) {
      const table = decodeSafely(path.slice(`${API_PREFIX}/historical/`.length));
      return reply.code(404).send({
        error: `unknown historical table '${table}'; the tables are ${HISTORICAL_TABLES.join(', ')}`,
      });
    }
    return reply.code(404).send({ error: `no such route: ${request.method} ${path}` });
  });
});

/**
 * Errors Fastify raises before routing (a malformed %-escape, say). Its own body would echo the URL, query and
 * any `api_key=` with it; this one says what is wrong and nothing more.
 */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
  const what = error.code === 'FST_ERR_BAD_URL' ? 'malformed URL (bad percent-encoding)' : 'malformed request';
  reply.code(status).header('access-control-allow-origin', '*').send({ error: what });
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text).slice(0, 100);
  } catch {
    return text.slice(0, 100);
  }
}
