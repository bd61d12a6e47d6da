import type { FastifyInstance } from 'fastify';
import { ActionForm, CreateKeyForm } from '../../../contract/account-forms.js';
import { checkForm, postedText } from '../form-check.js';
import { type PageContext, sendPage } from '../page-context.js';
import { keysView } from '../views/keys-view.js';
import { csrfChecked, signedIn, takeFlash } from './guards.js';

const ID = /^key_[0-9a-f]{1,32}$/;

/** `/account/keys`: the same KeyStore as `server keys`. A created key goes to the next page once, via the session. */
export async function keyRoutes(app: FastifyInstance, { ctx }: { ctx: PageContext }): Promise<void> {
  const { keys } = ctx.opts;
  app.addHook('onRequest', signedIn(ctx));

  app.get('/keys', (request, reply) => {
    const flash = takeFlash(request.pageSession as NonNullable<typeof request.pageSession>);
    return sendPage(reply, keysView({ csrf: reply.generateCsrf(), keys: keys.list(), ...flash }));
  });

  app.post('/keys', { preHandler: csrfChecked(app, ctx) }, (request, reply) => {
    const form = checkForm<CreateKeyForm>(CreateKeyForm, request.body);
    if (!form.ok) {
      const label = postedText(request.body, 'label', 200);
      const labelError = `Label ${form.errors.label ?? 'is not valid'}.`;
      return sendPage(reply, keysView({ csrf: reply.generateCsrf(), keys: keys.list(), label, labelError }), 400);
    }
    const created = keys.create(form.value.label.trim());
    (request.pageSession as NonNullable<typeof request.pageSession>).flash = {
      shownOnce: { kind: 'key', id: created.id, value: created.key },
    };
    return reply.redirect('/account/keys', 303);
  });

  app.post<{ Params: { id: string } }>('/keys/:id/revoke', { preHandler: csrfChecked(app, ctx) }, (request, reply) => {
    const { id } = request.params;
    const form = checkForm<ActionForm>(ActionForm, request.body);
    // an unknown or already revoked key: 404, nothing changes
    if (!form.ok || !ID.test(id) || !keys.isActive(id) || !keys.revoke(id)) return reply.callNotFound();
    (request.pageSession as NonNullable<typeof request.pageSession>).flash = {
      notice: `Revoked ${id}: requests with it get 401 from now on.`,
    };
    return reply.redirect('/account/keys', 303);
  });
}
