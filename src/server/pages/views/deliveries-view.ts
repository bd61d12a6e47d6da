import type { AttemptLogRow, WebhookInfo } from '../../store/webhooks.js';
import { type Html, html } from '../html.js';
import { layout, when } from './layout.js';

/** `/account/webhooks/ID`: the attempt log of one webhook, newest first (the newest `shown` of `total`). */
export function deliveriesView(m: {
  csrf: string;
  webhook: WebhookInfo;
  attempts: AttemptLogRow[];
  total: number;
}): Html {
  const w = m.webhook;
  const rows = m.attempts.map(
    (a) => html`<tr>
<td>${when(a.attempted_at)}</td>
<td class="mono">${a.event_id}</td>
<td class="mono">${a.delivery_id}</td>
<td>${a.attempt}</td>
<td>${a.status_code !== null ? String(a.status_code) : (a.error ?? 'error')}</td>
<td>${a.duration_ms} ms</td>
<td>${when(a.next_attempt_at, '—')}</td>
</tr>`,
  );
  return layout(
    { title: `Deliveries of ${w.id}`, signedIn: { csrf: m.csrf } },
    html`<p><a href="/account/webhooks">All webhooks</a></p>
<p>To <code>${w.url}</code>: ${w.status}, ${w.consecutive_failures} consecutive failures.</p>
${
  m.attempts.length === 0
    ? html`<p class="muted">No delivery attempt yet.</p>`
    : html`<p class="muted">${
        m.total > m.attempts.length
          ? `The newest ${m.attempts.length} of ${m.total} attempts.`
          : `${m.total} attempt${m.total === 1 ? '' : 's'}.`
      }</p>
<div class="table-box"><table>
<thead><tr><th scope="col">Attempted</th><th scope="col">Event id</th><th scope="col">Delivery id</th><th scope="col">Attempt</th><th scope="col">Status or error</th><th scope="col">Duration</th><th scope="col">Next attempt</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}`,
  );
}
