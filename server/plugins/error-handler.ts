import type { FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { pgError } from '../lib/db-errors.ts';
import { AppError, type FieldError } from '../lib/errors.ts';

/** Postgres error codes that are the caller's fault, mapped to answers that name the constraint. */
function fromPostgres(err: { code?: string; constraint?: string; detail?: string }): AppError | null {
  if (err.code === '23505') return new AppError(409, 'CONFLICT', `Already exists (${err.constraint ?? 'unique'})`);
  if (err.code === '23503') return new AppError(409, 'CONFLICT', `Referenced record is missing or still in use (${err.constraint ?? 'foreign key'})`);
  if (err.code === '23514') return new AppError(400, 'VALIDATION', `Value out of range (${err.constraint ?? 'check'})`);
  // A date or time the database cannot hold or read (year 0, out of range): the caller's value, never a 500.
  if (err.code === '22007' || err.code === '22008') return new AppError(400, 'VALIDATION', 'A date or time is out of range or not valid');
  return null;
}

/** The fields a schema refused, each with its message; null when the error is not a validation error. */
export function validationFieldErrors(error: unknown): FieldError[] | null {
  if (!hasZodFastifySchemaValidationErrors(error)) return null;
  return error.validation.flatMap((v) => {
    const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') || '';
    // A strict body's unknown key is named as the field itself, not as "body".
    const unknownKeys = v.keyword === 'unrecognized_keys' ? (v.params as { keys?: unknown[] }).keys : undefined;
    if (Array.isArray(unknownKeys) && unknownKeys.length > 0) {
      return unknownKeys.map((key) => ({ field: field ? `${field}.${String(key)}` : String(key), message: `${String(key)} is not a known field` }));
    }
    return [{ field: field || 'body', message: v.message ?? 'Invalid value' }];
  });
}

/**
 * Headers that described a streamed body (plugins/compression.ts's content-encoding, a download's
 * content-disposition). A stream that fails before its first byte (an export whose first read
 * failed) is answered with an error instead, as plain JSON: left in place, they would tell the
 * client to gunzip a body that is not gzip, or to save the error as the export's file.
 */
const STREAM_HEADERS = ['content-encoding', 'content-disposition'] as const;

function dropStreamHeaders(reply: FastifyReply): void {
  if (reply.raw.headersSent) return;
  for (const name of STREAM_HEADERS) reply.removeHeader(name);
  // Fastify copied the stream's headers onto the raw response (setHeader) as it started the stream,
  // and those merge into whatever is sent next: its content-type (text/csv) would even keep the
  // error's object from being serialised as JSON. Fastify sets the error answer's own afresh.
  for (const name of [...STREAM_HEADERS, 'content-type', 'content-length']) reply.raw.removeHeader(name);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    dropStreamHeaders(reply);
    const errors = validationFieldErrors(error);
    if (errors) {
      const summary = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
      return reply.status(400).send({ message: `Validation failed: ${summary}`, code: 'VALIDATION', errors });
    }
    if (error instanceof AppError) {
      // Every refusal that knows when to come back says so in the header too (sign-in, typed codes).
      const retryAfter = error.details?.retryAfterSeconds;
      if (error.statusCode === 429 && typeof retryAfter === 'number') reply.header('retry-after', String(Math.ceil(retryAfter)));
      return reply.status(error.statusCode).send({ message: error.message, code: error.code, ...error.details });
    }
    const pgErr = fromPostgres(pgError(error));
    if (pgErr) return reply.status(pgErr.statusCode).send({ message: pgErr.message, code: pgErr.code });
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.status(status).send({ message: (error as Error).message, code: (error as { code?: string }).code ?? 'BAD_REQUEST' });
    }
    request.log.error({ err: error }, 'unhandled error');
    // 5xx details never reach the client.
    return reply.status(500).send({ message: 'Internal Server Error', code: 'INTERNAL' });
  });
}
