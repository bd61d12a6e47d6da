import type { ApiKeyInfo } from '../../store/keys.js';
import { type Html, html } from '../html.js';
import type { ShownOnce } from '../sessions.js';
import { csrfField, describedBy, fieldError, layout, when } from './layout.js';

export interface KeysViewModel {
  csrf: string;
  keys: ApiKeyInfo[];
  shownOnce?: ShownOnce;
  notice?: string;
  /** The create form as posted, when it was refused. */
  label?: string;
  labelError?: string;
}

/** `/account/keys`: create (the key shown once), list without the keys themselves, revoke after a confirmation. */
export function keysView(m: KeysViewModel): Html {
  const active = m.keys.filter((k) => k.revoked_at === null);
  const revoked = m.keys.filter((k) => k.revoked_at !== null);
  const created =
    m.shownOnce?.kind === 'key'
      ? html`<section class="shown-once" aria-labelledby="new-key-label">
<p id="new-key-label"><strong>New key ${m.shownOnce.id}</strong>: shown this once, store it now. Only its hash is kept.</p>
<output id="new-key" data-copy aria-labelledby="new-key-label">${m.shownOnce.value}</output>
</section>`
      : '';
  return layout(
    { title: 'API keys', signedIn: { csrf: m.csrf }, copyScript: created !== '' },
    html`${m.notice ? html`<p class="notice" role="status">${m.notice}</p>` : ''}
${created}
<h2>Create a key</h2>
<form method="post" action="/account/keys">
${csrfField(m.csrf)}
<label for="label">Label</label>
<input type="text" id="label" name="label" required maxlength="100" value="${m.label ?? ''}"${describedBy('label', m.labelError)}>
${fieldError('label', m.labelError)}
<button type="submit" class="primary">Create key</button>
</form>
<h2>Active keys</h2>
${active.length === 0 ? html`<p class="muted">No active key.</p>` : keyTable(active, m.csrf, true)}
${revoked.length > 0 ? html`<h2>Revoked keys</h2>${keyTable(revoked, m.csrf, false)}` : ''}`,
  );
}

function keyTable(keys: ApiKeyInfo[], csrf: string, revocable: boolean): Html {
  const rows = keys.map(
    (k) => html`<tr id="${k.id}">
<td>${k.label ?? html`<span class="muted">no label</span>`}</td>
<td class="mono">${k.key_prefix ? `${k.key_prefix}…` : '—'}</td>
<td>${when(k.created_at)}</td>
<td>${when(k.last_used_at)}</td>
<td>${
      revocable
        ? html`<details><summary>Revoke…</summary>
<p>Requests with this key get 401 from the next one on. This cannot be undone.</p>
<form method="post" action="/account/keys/${k.id}/revoke">${csrfField(csrf)}<button type="submit">Revoke</button></form>
</details>`
        : when(k.revoked_at)
    }</td>
</tr>`,
  );
  return html`<div class="table-box"><table>
<thead><tr><th scope="col">Label</th><th scope="col">Starts with</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">${revocable ? 'Revoke' : 'Revoked'}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}
