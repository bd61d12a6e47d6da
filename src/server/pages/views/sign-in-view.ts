import { type Html, html } from '../html.js';
import { csrfField, describedBy, fieldError, layout } from './layout.js';

/** `/account/`: the sign-in form (the token is never echoed back, even when wrong), or where to go once signed in. */
export function signInView(opts: { csrf: string; error?: string; signedIn?: boolean; tokenFile?: string }): Html {
  if (opts.signedIn) {
    return layout(
      { title: 'Account', signedIn: { csrf: opts.csrf } },
      html`<p>You are signed in. Manage <a href="/account/keys">API keys</a> or
<a href="/account/webhooks">webhooks</a>.</p>`,
    );
  }
  return layout(
    { title: 'Sign in' },
    html`<form method="post" action="/account/sign-in">
${csrfField(opts.csrf)}
<label for="token">Admin token</label>
<input type="password" id="token" name="token" required autocomplete="current-password"${describedBy('token', opts.error)}>
${fieldError('token', opts.error)}
<p class="muted">${
      opts.tokenFile
        ? html`The token is in <code>${opts.tokenFile}</code> (readable by the server's user only),`
        : html`The token is the one the server was started with (<code>--admin-token</code>) or the one in
<code>DIR/admin-token</code> of its data dir,`
    } or set with <code>svc-monitor server --admin-token</code>.</p>
<button type="submit" class="primary">Sign in</button>
</form>`,
  );
}
