import { conflict } from './errors.ts';

/**
 * Turn a unique violation on a known constraint into a 409 that names the field; rethrow anything
 * else. Services wrap their inserts and updates with this.
 */
export function rethrowUnique(err: unknown, byConstraint: Record<string, { field: string; message: string }>): never {
  const e = err as { code?: string; constraint?: string };
  if (e.code === '23505' && e.constraint && byConstraint[e.constraint]) {
    const { field, message } = byConstraint[e.constraint]!;
    throw conflict(message, field);
  }
  throw err;
}

export async function withUniqueFields<T>(
  work: () => Promise<T>,
  byConstraint: Record<string, { field: string; message: string }>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    rethrowUnique(err, byConstraint);
  }
}
