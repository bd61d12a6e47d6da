import type { TSchema } from 'typebox';
import { ErrorBody } from '../../../contract/common.js';

/**
 * What a v1 route says of itself in the OpenAPI document (openapi/document.ts): its summary, its query parameters
 * (the querystring schema it validates with) and what it answers: the contract's schema of its 200 body and the
 * `{error}` body of each failure. Fastify keeps these beside the route, where @fastify/swagger reads them; they never
 * shape what is sent (document.ts makes response schemas compile to plain JSON.stringify).
 */
export interface Operation {
  /** Unique across the document: a client generator names its method after it. */
  id: string;
  summary: string;
  description?: string;
  /** The contract's schema of the 200 body. */
  answer: TSchema;
  querystring?: TSchema;
  /** An unknown `city_id` is a 404 (`/current`, `/forecasts`); on a list it only filters to nothing. */
  unknownCity?: boolean;
  /** Answers without a key (the document itself): no 401, and no security requirement. */
  keyless?: boolean;
}

const json = (schema: TSchema) => ({ 'application/json': { schema } });

const failure = (description: string, headers?: Record<string, { type: 'string'; description: string }>) => ({
  description,
  ...(headers && { headers }),
  content: json(ErrorBody),
});

/** The failures every v1 route shares (errors plugin, method guard, rate limit), by status. */
const SHARED_FAILURES = {
  400: failure(
    'A query parameter is bad (not a whole number in range, an impossible date, since after until, a cursor this ' +
      'service did not issue, given twice), or the URL is malformed; `error` names the parameter and why.',
  ),
  405: failure('Any method but GET (the interface is read-only); checked before the key.', {
    allow: { type: 'string', description: 'Always `GET`.' },
  }),
  429: failure("Past the budget of requests a minute: a key's, or without one (this document) the address's.", {
    'retry-after': { type: 'string', description: 'Seconds until the budget allows another request.' },
  }),
  500: failure('Upstream failure or a fault of the service: `{"error":"internal error"}`, never a stack trace.'),
};

const NO_KEY = failure('The API key is missing or is not an active key.');
const UNKNOWN_CITY = failure('The `city_id` is not one of `/cities`; `error` says so.');

/** The route's `schema`: what Fastify validates the query with, and what the document says of the route. */
export function v1Schema(operation: Operation) {
  return {
    operationId: operation.id,
    summary: operation.summary,
    ...(operation.description && { description: operation.description }),
    ...(operation.querystring && { querystring: operation.querystring }),
    response: {
      200: { description: operation.summary, content: json(operation.answer) },
      ...SHARED_FAILURES,
      ...(!operation.keyless && { 401: NO_KEY }),
      ...(operation.unknownCity && { 404: UNKNOWN_CITY }),
    },
    ...(operation.keyless && { security: [] }),
  };
}
