import { Compile } from 'typebox/compile';
import { EdgeEvent, type EventType, InsuranceEvent, TestEvent } from '../../contract/events.js';

/**
 * Compiled on first use, one family at a time: `server webhooks test` checks a test event only, and compiling the
 * insurance and edge schemas as well cost it most of its start-up.
 */
const schemas = { insurance: InsuranceEvent, edge: EdgeEvent, test: TestEvent };
type Family = keyof typeof schemas;
const compiled = new Map<Family, Validator>();
type Validator = ReturnType<typeof Compile>;

function validatorFor(eventType: EventType): Validator {
  const family: Family = eventType.startsWith('insurance.')
    ? 'insurance'
    : eventType.startsWith('edge.')
      ? 'edge'
      : 'test';
  let validator = compiled.get(family);
  if (!validator) {
    validator = Compile(schemas[family]);
    compiled.set(family, validator);
  }
  return validator;
}

/** Why a payload does not match the contract for its event type (and its `event_type`), or undefined. */
export function contractProblem(eventType: EventType, payload: object): string | undefined {
  const validator = validatorFor(eventType);
  if (!validator.Check(payload)) {
    const [first] = validator.Errors(payload);
    return `${first?.instancePath || '/'} ${first?.message ?? 'does not match'}`;
  }
  if ((payload as { event_type?: string }).event_type !== eventType) return `/event_type is not ${eventType}`;
  return undefined;
}
