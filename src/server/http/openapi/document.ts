import type { SwaggerOptions } from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifySchema, type RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import Type from 'typebox';
import { API_PREFIX } from '../../../contract/limits.js';
import { packageVersion } from '../../../package-root.js';
import { json, V1_METHODS } from '../routes/v1-route.js';
import { v1Schema } from './operations.js';
import { webhooksSection } from './webhooks.js';

/** Where the interface describes itself; the one v1 path that answers without a key (plugins/auth.ts). */
export const OPENAPI_URL = `${API_PREFIX}/openapi.json`;
export const OPENAPI_VERSION = '3.1.0';

const DESCRIPTION = [
  "The v1 interface of the weather forecast and trade-signal service, as svc-monitor's reference service serves it,",
  'generated from the TypeBox schemas its routes validate with (`src/contract/`).',
  '',
  'Every operation is a GET answering a JSON object; any other method is a 405. Every failure is `{"error": "..."}`',
  'with one sentence saying what was wrong. Present an API key in any one of three ways: the `X-API-Key` header,',
  '`Authorization: Bearer`, or the `api_key` query parameter; this document is the only path that needs none.',
  '`/historical/...` and `/fusion-locks` are paged: pass `next_cursor` back unchanged as `cursor` until it is null;',
  "the strategy lists have no cursor. Every answer's `Date` header is the service's clock.",
  '',
  'Events are POSTed, signed, to the webhooks registered on the account pages or with `svc-monitor server webhooks',
  'add`: see `webhooks`.',
].join('\n');

/** @fastify/swagger's options: everything of the document but its paths, which come from the routes. */
function documentOptions(version: string): SwaggerOptions {
  return {
    openapi: {
      openapi: OPENAPI_VERSION,
      info: { title: 'Weather forecast and trade-signal service, v1', version, description: DESCRIPTION },
      servers: [{ url: API_PREFIX, description: 'The v1 base path, on the host that serves this document.' }],
      components: {
        securitySchemes: {
          ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          Bearer: { type: 'http', scheme: 'bearer', description: 'The same key, as `Authorization: Bearer <key>`.' },
          ApiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
        },
      },
      // any one of the three
      security: [{ ApiKeyHeader: [] }, { Bearer: [] }, { ApiKeyQuery: [] }],
      webhooks: webhooksSection(),
    },
    convertConstToEnum: false,
    transform: ({ schema, url }) => ({ schema: schema && withDefaultsOptional(schema), url }),
  };
}

/**
 * A query parameter with a default (`limit`) is required by the contract's schema because the service fills it in
 * before the check (query-validator.ts); to a client it is optional.
 */
function withDefaultsOptional(schema: FastifySchema): FastifySchema {
  const query = schema.querystring as { required?: string[]; properties?: Record<string, { default?: unknown }> };
  if (!query?.required) return schema;
  const required = query.required.filter((name) => query.properties?.[name]?.default === undefined);
  return { ...schema, querystring: { ...query, required } };
}

/**
 * The v1 routes, described by @fastify/swagger from the schemas they carry (openapi/operations.ts) when the document
 * is first asked for. Registering the plugin in the service itself cost its start 100 to 200 ms of CPU (loading
 * `yaml` and the schema resolver, with the routes registering through its hook); here the start only keeps each
 * route's options, and a documentation-only Fastify instance is given the same routes, their GET alone: the other
 * methods are registered only so that the method guard answers 405. It validates and serialises nothing.
 */
async function describe(routes: readonly RouteOptions[]): Promise<string> {
  const { default: swagger } = await import('@fastify/swagger');
  const describer = Fastify({ exposeHeadRoutes: false });
  describer.setValidatorCompiler(() => () => true);
  describer.setSerializerCompiler(INERT_SERIALIZER);
  await describer.register(swagger, documentOptions(packageVersion()));
  for (const route of routes) describer.route({ method: 'GET', url: route.url, schema: route.schema, handler: noop });
  await describer.ready();
  const text = JSON.stringify(describer.swagger());
  await describer.close();
  return text;
}

const noop = () => undefined;

/**
 * Response schemas are documentation only: the routes send the stored JSON text, and an error body is compiled to
 * plain `JSON.stringify`, the bytes it had without a schema, so no serializer is generated at startup
 * (fast-json-stringify for 21 routes and six statuses).
 */
const INERT_SERIALIZER = () => (data: unknown) => JSON.stringify(data);

/**
 * The document of one v1 scope: `collect` goes first (it sees the routes registered after it), `route` serves
 * `GET /openapi.json`, built at its first request (not at startup: the demo starts the service in-process) and kept.
 * The route is under the method guard and the rate limit, which counts it by address since it has no key.
 */
export function openapiDocument() {
  const routes: RouteOptions[] = [];
  let text: Promise<string> | undefined;
  const collect = fp(async (app: FastifyInstance) => {
    app.setSerializerCompiler(INERT_SERIALIZER);
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
  });
  const route = async (app: FastifyInstance) => {
    app.route({
      method: V1_METHODS,
      url: OPENAPI_URL.slice(API_PREFIX.length),
      schema: v1Schema({
        id: 'openapi',
        summary: 'This document: the interface as OpenAPI 3.1, webhooks included.',
        answer: Type.Object({ openapi: Type.Literal(OPENAPI_VERSION) }),
        keyless: true,
      }),
      handler: async (_request, reply) => {
        text ??= describe(routes).catch((error) => {
          text = undefined;
          throw error;
        });
        return reply.type(json).send(await text);
      },
    });
  };
  return { collect, route };
}
