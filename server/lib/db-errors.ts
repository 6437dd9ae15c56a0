import { conflict } from './errors.ts';

/**
 * Turn a unique violation on a known constraint into a 409 that names the field; rethrow anything
 * else. Services wrap their inserts and updates with this.
 */
type PgError = { code?: string; constraint?: string; detail?: string };

/** The PostgreSQL error behind an error, whether or not Drizzle wrapped it (DrizzleQueryError.cause). */
export function pgError(err: unknown): PgError {
  const e = err as PgError & { cause?: unknown };
  if (e && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e;
  if (e?.cause) return pgError(e.cause);
  return {};
}

function rethrowUnique(err: unknown, byConstraint: Record<string, { field: string; message: string }>): never {
  const e = pgError(err);
  if (e.code === '23505' && e.constraint && byConstraint[e.constraint]) {
    const { field, message } = byConstraint[e.constraint]!;
    throw conflict(message, field);
  }
  throw err;
}

export async function withUniqueFields<T>(work: () => Promise<T>, byConstraint: Record<string, { field: string; message: string }>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    rethrowUnique(err, byConstraint);
  }
}
