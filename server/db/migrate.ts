import fs from 'node:fs';
import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { PROJECT_ROOT } from '../lib/project-root.ts';
import type { Db } from './client.ts';
import { SINGLE_LOCKS } from './advisory-locks.ts';

// The committed SQL, read from the checkout both in development and from the compiled server.
export const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, 'server', 'db', 'migrations');

/** Apply committed SQL migrations. Serialised with an advisory lock so several instances can start at once. */
export async function migrateDatabase(db: Db): Promise<void> {
  const client = await db.$client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [SINGLE_LOCKS.migrate]);
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [SINGLE_LOCKS.migrate]).catch(() => {});
    client.release();
  }
}

/** True when every committed migration has been applied (for /api/ready). */
export async function migrationsCurrent(db: Db): Promise<boolean> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((e) => e.when));
  const { rows } = await db.$client.query<{ applied: string | null }>('select max(created_at)::text as applied from drizzle.__drizzle_migrations');
  return rows[0]?.applied != null && Number(rows[0].applied) >= newest;
}
