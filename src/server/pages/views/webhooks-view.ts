import { EVENT_TYPES } from '../../../contract/events.js';
import type { WebhookInfo } from '../../store/webhooks.js';
import { type Html, html } from '../html.js';
import type { ShownOnce } from '../sessions.js';
import { csrfField, describedBy, fieldError, layout, when } from './layout.js';

export interface WebhooksViewModel {
  csrf: string;
  webhooks: WebhookInfo[];
  shownOnce?: ShownOnce;
  notice?: string;
  /** The add form as posted, when it was refused. */
  url?: string;
  events?: readonly string[];
  urlError?: string;
  eventsError?: string;
  /** Whether this server takes private, loopback and link-local targets (`--allow-private-webhooks`). */
  allowsPrivate: boolean;
}

/** `/account/webhooks`: add (the secret shown once), list with status, failures and last attempt, and act on each. */
export function webhooksView(m: WebhooksViewModel): Html {
  const created =
    m.shownOnce?.kind === 'secret'
      ? html`<section class="shown-once" aria-labelledby="new-secret-label">
<p id="new-secret-label"><strong>Signing secret of webhook ${m.shownOnce.id}</strong>: shown this once; give it to the receiver now.
It verifies <code>X-Svc-Signature</code> (HMAC-SHA256 of the raw body).</p>
<output id="new-secret" data-copy aria-labelledby="new-secret-label">${m.shownOnce.value}</output>
</section>`
      : '';
  const checked = new Set(m.events ?? []);
  return layout(
    { title: 'Webhooks', signedIn: { csrf: m.csrf }, copyScript: created !== '' },
    html`${m.notice ? html`<p class="notice" role="status">${m.notice}</p>` : ''}
${created}
<h2>Add a webhook</h2>
<form method="post" action="/account/webhooks">
${csrfField(m.csrf)}
<label for="url">Receiver URL</label>
<input type="url" id="url" name="url" required maxlength="2048" placeholder="https://example.com/hook" value="${m.url ?? ''}"${describedBy('url', m.urlError)}>
${fieldError('url', m.urlError)}
<p class="muted">http or https. ${
      m.allowsPrivate
        ? 'This server allows private, loopback and link-local targets (--allow-private-webhooks).'
        : 'Private, loopback and link-local targets are refused.'
    }</p>
<fieldset${describedBy('events', m.eventsError)}>
<legend>Event types (none checked: all of them)</legend>
${EVENT_TYPES.map(
  (t, i) =>
    html`<label for="event-${i}"><input type="checkbox" id="event-${i}" name="events" value="${t}"${
      checked.has(t) ? html` checked` : ''
    }> ${t}</label>`,
)}
</fieldset>
${fieldError('events', m.eventsError)}
<button type="submit" class="primary">Add webhook</button>
</form>
<h2>Registered webhooks</h2>
${m.webhooks.length === 0 ? html`<p class="muted">No webhook yet.</p>` : webhookTable(m.webhooks, m.csrf)}`,
  );
}

function webhookTable(webhooks: WebhookInfo[], csrf: string): Html {
  const action = (id: string, verb: string, button: string) =>
    html`<form method="post" action="/account/webhooks/${id}/${verb}" class="inline">${csrfField(csrf)}<button type="submit">${button}</button></form>`;
  const rows = webhooks.map(
    (w) => html`<tr id="${w.id}">
<td class="mono"><a href="/account/webhooks/${w.id}">${w.url}</a></td>
<td>${w.events?.join(', ') ?? 'all'}</td>
<td>${w.status}</td>
<td>${w.consecutive_failures}</td>
<td>${w.last_attempt_at ? `${when(w.last_attempt_at)}: ${w.last_result ?? ''}` : 'never'}</td>
<td>${w.status === 'disabled' ? action(w.id, 'enable', 'Enable') : ''}${action(w.id, 'test', 'Send test event')}
<details><summary>Remove…</summary><p>Deletes the webhook and its queued deliveries.</p>${action(w.id, 'remove', 'Remove')}</details></td>
</tr>`,
  );
  return html`<div class="table-box"><table>
<thead><tr><th scope="col">URL (deliveries)</th><th scope="col">Events</th><th scope="col">Status</th><th scope="col">Consecutive failures</th><th scope="col">Last attempt</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}
