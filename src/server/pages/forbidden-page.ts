import { html } from './html.js';
import { layout } from './views/layout.js';

/** A page that says what happened and where to go, for the answers that are not a form's own. */
export const messagePage = (title: string, message: string) =>
  layout({ title }, html`<p>${message}</p><p><a href="/account/">Account</a></p>`);

export const forbiddenPage = () =>
  messagePage(
    'Forbidden',
    'This form was already used, has expired, or did not come from these pages, or you are not signed in; nothing was changed. Open the page again and retry.',
  );
