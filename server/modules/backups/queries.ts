import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { backupRuns } from '../../db/schema/index.ts';

export type BackupRun = typeof backupRuns.$inferSelect;
type Trigger = (typeof backupRuns.$inferInsert)['trigger'];

export async function insertRun(db: DbOrTx, run: { trigger: Trigger; host: string; requestedBy: number | null; startedAt: Date }): Promise<number> {
  const [row] = await db
    .insert(backupRuns)
    .values({ ...run, status: 'running' })
    .returning({ id: backupRuns.id });
  return row!.id;
}

/** Claim the scheduled run of a school day; null when another instance already has it. */
export async function claimScheduledRun(db: DbOrTx, day: string, host: string, startedAt: Date): Promise<number | null> {
  const [row] = await db
    .insert(backupRuns)
    .values({ trigger: 'scheduled', status: 'running', scheduledFor: day, host, startedAt })
    .onConflictDoNothing({ target: backupRuns.scheduledFor })
    .returning({ id: backupRuns.id });
  return row?.id ?? null;
}

export async function finishRun(
  db: DbOrTx,
  id: number,
  done: { status: 'completed' | 'failed'; filePath: string | null; bytes: number | null; error: string | null; finishedAt: Date },
): Promise<void> {
  await db.update(backupRuns).set(done).where(eq(backupRuns.id, id));
}

export async function lastCompletedRun(db: DbOrTx): Promise<BackupRun | null> {
  const [row] = await db.select().from(backupRuns).where(eq(backupRuns.status, 'completed')).orderBy(desc(backupRuns.finishedAt)).limit(1);
  return row ?? null;
}

export async function recentRuns(db: DbOrTx, limit: number): Promise<BackupRun[]> {
  return db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt), desc(backupRuns.id)).limit(limit);
}
