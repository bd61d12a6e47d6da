import { type Html, html } from '../html.js';
import { csrfField, describedBy, fieldError, layout } from './layout.js';

/**
 * `/account/`: the sign-in form (the token is never echoed back, even when wrong), or where to go once signed in.
 * The token file's full path is not shown: an anonymous visitor has no business knowing the server's paths.
 */
export function signInView(opts: { csrf: string; error?: string; signedIn?: boolean }): Html {
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
<p class="muted">The token is the one the server was started with (<code>--admin-token</code>), or else the one it
keeps in the file <code>admin-token</code> of its data dir (readable by the server's user only).</p>
<button type="submit" class="primary">Sign in</button>
</form>`,
  );
}
