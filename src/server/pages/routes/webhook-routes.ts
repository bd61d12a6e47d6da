import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_FORM_LIMITS, AddWebhookForm } from '../../../contract/account-forms.js';
import { AddressRefused } from '../../webhooks/address-guard.js';
import { parseEventTypes, queueTestEvent, registerWebhook, UnknownEventTypes } from '../../webhooks/registration.js';
import { checkForm, postedText } from '../form-check.js';
import { type PageContext, sendPage } from '../page-context.js';
import type { Session } from '../sessions.js';
import { deliveriesView } from '../views/deliveries-view.js';
import { type WebhooksViewModel, webhooksView } from '../views/webhooks-view.js';
import { csrfChecked, signedIn, takeFlash } from './guards.js';

const ID = /^wh_[0-9a-f]{1,32}$/;
/** The deliveries page shows the newest attempts; the CLI's `webhooks deliveries` has them all. */
const ATTEMPTS_SHOWN = 500;

type Params = { Params: { id: string } };
const sessionOf = (request: FastifyRequest) => request.pageSession as Session;

/** `/account/webhooks` and `/account/webhooks/ID`: the same store and rules as `server webhooks`. */
export async function webhookRoutes(app: FastifyInstance, { ctx }: { ctx: PageContext }): Promise<void> {
  const { webhooks } = ctx.opts;
  const allowsPrivate = ctx.opts.allowPrivateWebhooks;
  app.addHook('onRequest', signedIn(ctx));

  const listPage = (reply: FastifyReply, more: Partial<WebhooksViewModel>, status = 200) =>
    sendPage(
      reply,
      webhooksView({ csrf: reply.generateCsrf(), webhooks: webhooks.list(), allowsPrivate, ...more }),
      status,
    );

  app.get('/webhooks', (request, reply) => listPage(reply, takeFlash(sessionOf(request))));

  app.post('/webhooks', { preHandler: csrfChecked(app, ctx) }, async (request, reply) => {
    const url = postedText(request.body, 'url', ACCOUNT_FORM_LIMITS.urlMax + 100);
    const raw = (request.body as { events?: unknown } | undefined)?.events;
    const named = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(
      (t): t is string => typeof t === 'string',
    );
    const refuse = (errors: { urlError?: string; eventsError?: string }) =>
      listPage(reply, { url, events: named, ...errors }, 400);

    const form = checkForm<AddWebhookForm>(AddWebhookForm, request.body);
    if (!form.ok) {
      return refuse({
        urlError: form.errors.url && `URL ${form.errors.url}.`,
        eventsError: form.errors.events && 'Event types: pick from the list.',
      });
    }
    let events: ReturnType<typeof parseEventTypes>;
    try {
      events = parseEventTypes(named);
    } catch (error) {
      if (error instanceof UnknownEventTypes) return refuse({ eventsError: `${error.message}.` });
      throw error;
    }
    try {
      const created = await registerWebhook(webhooks, {
        url: form.value.url.trim(),
        events,
        allowPrivate: false,
        serverAllowsPrivate: allowsPrivate,
        resolve: ctx.opts.resolve,
      });
      sessionOf(request).flash = { shownOnce: { kind: 'secret', id: created.id, value: created.secret } };
    } catch (error) {
      if (error instanceof AddressRefused) return refuse({ urlError: `${error.message}.` });
      throw error;
    }
    return reply.redirect('/account/webhooks', 303);
  });

  app.get<Params>('/webhooks/:id', (request, reply) => {
    const { id } = request.params;
    const webhook = ID.test(id) ? webhooks.get(id) : undefined;
    if (!webhook) return reply.callNotFound();
    const { secret: _secret, ...info } = webhook;
    const { rows, total } = webhooks.recentAttempts(id, ATTEMPTS_SHOWN);
    return sendPage(reply, deliveriesView({ csrf: reply.generateCsrf(), webhook: info, attempts: rows, total }));
  });

  const act = (verb: string, work: (id: string) => string | undefined) =>
    app.post<Params>(`/webhooks/:id/${verb}`, { preHandler: csrfChecked(app, ctx) }, (request, reply) => {
      const { id } = request.params;
      // an unknown id (or one removed meanwhile): 404, nothing changes
      const notice = ID.test(id) ? work(id) : undefined;
      if (notice === undefined) return reply.callNotFound();
      sessionOf(request).flash = { notice };
      return reply.redirect('/account/webhooks', 303);
    });

  act('enable', (id) => (webhooks.enable(id) ? `Enabled ${id}; its failure count starts again at 0.` : undefined));
  act('remove', (id) => (webhooks.remove(id) ? `Removed ${id} and its queued deliveries.` : undefined));
  act('test', (id) => {
    const queued = queueTestEvent(webhooks, id);
    if (!queued.queued) return undefined;
    ctx.opts.onQueued?.();
    return `Queued webhook.test ${queued.eventId} for ${id}.`;
  });
}
