import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

type Validator = ReturnType<typeof Compile>;
const compiled = new WeakMap<TSchema, Validator>();

/** A sentence for one field's failing keyword, in the words the page shows beside the field. */
function say(keyword: string, params: Record<string, unknown>): string {
  switch (keyword) {
    case 'minLength':
    case 'pattern':
    case 'required':
      return 'must not be empty';
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    case 'maxItems':
      return `must name at most ${String(params.limit)}`;
    default:
      return 'is not valid';
  }
}

/**
 * Checks a posted form against its contract schema: the form's value, or one message per field (the first problem
 * of each). A missing field counts as empty.
 */
export function checkForm<T>(
  schema: TSchema,
  body: unknown,
): { ok: true; value: T } | { ok: false; errors: Record<string, string> } {
  let validator = compiled.get(schema);
  if (!validator) {
    validator = Compile(schema);
    compiled.set(schema, validator);
  }
  const value = typeof body === 'object' && body !== null ? { ...(body as Record<string, unknown>) } : {};
  if (validator.Check(value)) return { ok: true, value: value as T };
  const errors: Record<string, string> = {};
  for (const issue of validator.Errors(value)) {
    const params = (issue.params ?? {}) as Record<string, unknown>;
    const field =
      issue.keyword === 'required'
        ? String((params.requiredProperties as string[] | undefined)?.[0] ?? '')
        : (issue.instancePath.split('/')[1] ?? '');
    if (!(field in errors)) errors[field] = say(issue.keyword, params);
  }
  return { ok: false, errors };
}

/** A text field of a posted form as it was typed (to put back in the field), never longer than `max`. */
export const postedText = (body: unknown, name: string, max: number): string => {
  const raw = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof raw === 'string' ? raw.slice(0, max) : '';
};
