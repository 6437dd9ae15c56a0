import type { FastifyServerOptions } from 'fastify';

/**
 * What the server's log may hold. Logs are copied to consoles, files and log services that are not
 * protected like the database, so nothing personal goes in: no query parameters (a failed SQL
 * carries the student's name or e-mail it was writing), no values PostgreSQL echoes back
 * (`detail`: "Key (email)=(…) already exists", "Failing row contains (…)"), no request bodies,
 * cookies or query-string values (search terms, set-password tokens).
 */

/** Error fields that are safe: kinds, codes and the database's own identifiers (constraint, table, column). */
const SAFE_ERROR_FIELDS = ['code', 'statusCode', 'severity', 'constraint', 'table', 'column', 'schema', 'dataType', 'routine'] as const;
const SAFE = Symbol('log-safe');
const MAX_DEPTH = 5;

type Loggable = Record<string, unknown> & { type: string; message: string; stack: string };

function safeMessage(err: Record<string, unknown>): string {
  const message = String(err.message ?? '');
  // Drizzle: "Failed query: <sql>\nparams: <values>". The SQL text has placeholders, not values.
  if (typeof err.query === 'string' && 'params' in err) {
    const n = Array.isArray(err.params) ? err.params.length : 0;
    return `Failed query: ${err.query.slice(0, 2000)} (${n} parameter value${n === 1 ? '' : 's'} not logged)`;
  }
  // PostgreSQL data exceptions (class 22) quote the offending input: `invalid input syntax for type date: "…"`.
  if (typeof err.code === 'string' && /^22[0-9A-Z]{3}$/.test(err.code)) return message.replace(/"[^"]*"/g, '"(value not logged)"');
  return message;
}

/** An error as the log may show it: type, safe message, stack frames, safe fields and causes. */
export function safeError(err: unknown, depth = 0): unknown {
  if (!err || typeof err !== 'object' || typeof (err as { message?: unknown }).message !== 'string') return err;
  const e = err as Record<string | symbol, unknown>;
  if (e[SAFE]) return err;
  const type = typeof e.constructor === 'function' && e.constructor !== Object ? (e.constructor as { name: string }).name : String(e.name ?? 'Error');
  const message = safeMessage(e as Record<string, unknown>);
  // The stack repeats the message on its first line(s): keep only the frames.
  const frames = typeof e.stack === 'string' ? e.stack.split('\n').filter((l) => /^\s+at /.test(l)) : [];
  const out: Loggable = { type, message, stack: [`${type}: ${message}`, ...frames].join('\n') };
  for (const k of SAFE_ERROR_FIELDS) if (e[k] !== undefined && e[k] !== null && typeof e[k] !== 'object') out[k] = e[k];
  if (depth < MAX_DEPTH && e.cause) out.cause = safeError(e.cause, depth + 1);
  if (depth < MAX_DEPTH && Array.isArray(e.errors)) out.aggregateErrors = e.errors.map((x) => safeError(x, depth + 1));
  Object.defineProperty(out, SAFE, { value: true });
  return out;
}

/** A request as the log shows it: the path and the names of query parameters, never their values. */
function safeRequest(req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
  const [path, query] = req.url.split('?', 2) as [string, string | undefined];
  const keys = query ? [...new URLSearchParams(query).keys()] : [];
  return {
    method: req.method,
    url: keys.length > 0 ? `${path}?${keys.map((k) => `${k}=…`).join('&')}` : path,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/**
 * The Fastify logger options of the server (main.ts; tests pass a stream to read what is logged).
 * Every `err` logged anywhere (error handler, jobs, streams, Fastify itself) goes through
 * `safeError`; anything logged under the usual names of secrets is censored.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    serializers: { err: (err: Error) => safeError(err) as Loggable, req: safeRequest },
    redact: {
      paths: [
        'password',
        '*.password',
        'cookie',
        '*.cookie',
        'body',
        '*.body',
        'params',
        '*.params',
        'headers.cookie',
        '*.headers.cookie',
        'headers.authorization',
        '*.headers.authorization',
      ],
      censor: '[not logged]',
    },
    ...(stream ? { stream } : {}),
  };
}
