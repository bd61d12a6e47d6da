import Type, { type Static } from 'typebox';

/**
 * The account pages' forms (DESIGN 7), as posted (`application/x-www-form-urlencoded`): every field text, a
 * repeated field (event types) an array. Every form carries `_csrf`. Limits are the pages' own: the spec sets none.
 */
export const ACCOUNT_FORM_LIMITS = { tokenMax: 512, labelMax: 100, urlMax: 2048, csrfMax: 512 } as const;

const Csrf = Type.String({ minLength: 1, maxLength: ACCOUNT_FORM_LIMITS.csrfMax });

export const SignInForm = Type.Object({
  _csrf: Csrf,
  token: Type.String({ minLength: 1, maxLength: ACCOUNT_FORM_LIMITS.tokenMax }),
});
export type SignInForm = Static<typeof SignInForm>;

export const CreateKeyForm = Type.Object({
  _csrf: Csrf,
  label: Type.String({ minLength: 1, maxLength: ACCOUNT_FORM_LIMITS.labelMax, pattern: '\\S' }),
});
export type CreateKeyForm = Static<typeof CreateKeyForm>;

export const AddWebhookForm = Type.Object({
  _csrf: Csrf,
  url: Type.String({ minLength: 1, maxLength: ACCOUNT_FORM_LIMITS.urlMax, pattern: '\\S' }),
  /** None checked: every event type. Names are checked against EVENT_TYPES by the registration. */
  events: Type.Optional(
    Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })]),
  ),
});
export type AddWebhookForm = Static<typeof AddWebhookForm>;

/** A form whose only field is its CSRF token (revoke, enable, remove, send a test event, sign out). */
export const ActionForm = Type.Object({ _csrf: Csrf });
export type ActionForm = Static<typeof ActionForm>;
