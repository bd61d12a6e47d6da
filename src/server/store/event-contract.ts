import { Compile } from 'typebox/compile';
import { EdgeEvent, type EventType, InsuranceEvent, TestEvent } from '../../contract/events.js';

const validators = {
  insurance: Compile(InsuranceEvent),
  edge: Compile(EdgeEvent),
  test: Compile(TestEvent),
};

const validatorFor = (eventType: EventType) =>
  eventType.startsWith('insurance.')
    ? validators.insurance
    : eventType.startsWith('edge.')
      ? validators.edge
      : validators.test;

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
