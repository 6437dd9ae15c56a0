import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler as zodValidatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { UNSTORABLE_TEXT, findUnstorableText } from '../../common/validation.ts';

/**
 * Every route's params, query and body pass through here before their zod schema: a string
 * (or key) PostgreSQL cannot store — NUL, an unpaired surrogate — is refused as a validation
 * error naming the field, so no string field anywhere can reach the database with one and answer
 * 500. Then the route's own schema validates as usual.
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> = (route) => {
  const validate = zodValidatorCompiler(route);
  const refuse = zodValidatorCompiler({ ...route, schema: storableTextOnly });
  return (data) => {
    if (findUnstorableText(data) !== null) return refuse(data);
    return validate(data);
  };
};

// Only ever run on data that has unstorable text, to turn it into the usual zod validation error.
const storableTextOnly = z.unknown().superRefine((data, ctx) => {
  const path = findUnstorableText(data);
  if (path) ctx.addIssue({ code: 'custom', path, message: `${path.length ? String(path.at(-1)) : 'Text'} ${UNSTORABLE_TEXT}` });
});
