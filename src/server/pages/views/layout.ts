import { type Html, html } from '../html.js';

export interface LayoutOptions {
  title: string;
  /** Signed in: the nav and the sign-out form (with its CSRF token). */
  signedIn?: { csrf: string };
  /** Loads the copy button's script (pages that show a value once). */
  copyScript?: boolean;
}

/** Every page: one stylesheet and at most one script, both from this server (the CSP allows nothing else). */
export function layout(opts: LayoutOptions, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · svc-monitor reference service</title>
<link rel="stylesheet" href="/account/pages.css">
${opts.copyScript ? html`<script src="/account/copy.js" defer></script>` : ''}
</head>
<body>
<header>
<p class="brand">svc-monitor reference service</p>
${
  opts.signedIn
    ? html`<nav aria-label="Account"><a href="/account/keys">Keys</a> <a href="/account/webhooks">Webhooks</a></nav>
<form method="post" action="/account/sign-out" class="inline">
<input type="hidden" name="_csrf" value="${opts.signedIn.csrf}">
<button type="submit">Sign out</button>
</form>`
    : ''
}
</header>
<main>
<h1>${opts.title}</h1>
${body}
</main>
</body>
</html>
`;
}

/** A page's error beside its field: the field points at it with aria-describedby. */
export const fieldError = (id: string, message: string | undefined): Html =>
  message ? html`<p class="error" id="${id}-error">${message}</p>` : html``;

export const describedBy = (id: string, message: string | undefined): Html =>
  message ? html` aria-describedby="${id}-error" aria-invalid="true"` : html``;

export const csrfField = (token: string): Html => html`<input type="hidden" name="_csrf" value="${token}">`;

/** `2026-11-24T11:52:00.000Z` -> `2026-11-24 11:52 UTC`; null -> `never`. */
export const when = (iso: string | null, never = 'never'): string =>
  iso === null ? never : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
