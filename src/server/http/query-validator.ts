import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

interface PropertySchema {
  type?: string;
  default?: unknown;
}

/**
 * Query strings are text, so the contract's schemas need one conversion step before they can judge them. Ajv's
 * coercion is too generous (it reads `1e400` as Infinity and `0x10` as 16); here an integer parameter converts only
 * from plain decimal digits, a repeated parameter is its own error, defaults are filled, then the TypeBox schema
 * from `src/contract/` decides. Errors keep Ajv's shape, which the errors plugin turns into one sentence.
 */
export const queryValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema }) => {
  const validator = Compile(schema);
  const properties = (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
  return (data: unknown) => {
    const value: Record<string, unknown> = { ...(data as Record<string, unknown>) };
    for (const [name, property] of Object.entries(properties)) {
      const raw = value[name];
      if (Array.isArray(raw)) {
        const repeated: FastifySchemaValidationError = {
          keyword: 'repeated',
          instancePath: `/${name}`,
          schemaPath: `#/properties/${name}`,
          params: {},
          message: 'is given more than once',
        };
        return { error: [repeated] };
      }
      if (raw === undefined) {
        if (property.default !== undefined) value[name] = property.default;
      } else if (property.type === 'integer' && typeof raw === 'string' && /^-?\d{1,15}$/.test(raw)) {
        value[name] = Number(raw);
      }
    }
    if (validator.Check(value)) return { value };
    return { error: validator.Errors(value) as FastifySchemaValidationError[] };
  };
};
