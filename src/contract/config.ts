import Type, { type Static } from 'typebox';

/** `<config dir>/svc-monitor/config.json`. Unknown keys are refused, so a typo is an error, not a silent default. */
export const MonitorConfig = Type.Object(
  {
    base_url: Type.Optional(Type.String({ minLength: 1 })),
    api_key: Type.Optional(Type.String({ minLength: 1 })),
    auth: Type.Optional(Type.Union([Type.Literal('x-api-key'), Type.Literal('bearer')])),
    webhook_secrets: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /** Poll interval per stream in seconds (cities, current, forecasts, no24, yescore, svc-max-picks, fusion-locks). */
    intervals: Type.Optional(Type.Record(Type.String(), Type.Number({ minimum: 1 }))),
  },
  { additionalProperties: false },
);
export type MonitorConfig = Static<typeof MonitorConfig>;
