import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { joinInstances } from '../../lib/instance-presence.ts';
import { buildUpload } from '../../test/factories.ts';
import { createTestDatabase } from '../../test/helpers.ts';
import { INTERRUPTED_IMPORT, MAX_IMPORT_MINUTES, recoverInterruptedUploads, startUpload, sweepInterruptedUploads } from './upload-log.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());
beforeEach(() => database.db.execute(sql`delete from file_uploads`));

/** Uploads as an instance leaves them: one stopped mid-import two hours ago, one a minute ago, one finished. */
async function seed(): Promise<Record<string, number>> {
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const rows = [
    await buildUpload(database.db, { uploadType: 'students', fileName: 'old.csv', fileSize: 10, status: 'processing', createdAt: ago(120) }),
    await buildUpload(database.db, { uploadType: 'students', fileName: 'recent.csv', fileSize: 10, status: 'processing', createdAt: ago(1) }),
    await buildUpload(database.db, { uploadType: 'courses', fileName: 'done.csv', fileSize: 10, status: 'completed', createdAt: ago(180) }),
  ];
  return Object.fromEntries(rows.map((r) => [r.fileName, r.id]));
}
const statuses = async () =>
  Object.fromEntries(
    (
      await database.db.execute<{ file_name: string; status: string; errors: unknown; completed: boolean }>(
        sql`select file_name, status, errors, completed_at is not null as completed from file_uploads`,
      )
    ).rows.map((r) => [r.file_name, r]),
  );

describe('uploads left processing by an interrupted import', () => {
  it('are marked failed on the next start, explaining the interruption, when no other instance runs', async () => {
    await seed();
    const log: string[] = [];
    const presence = await recoverInterruptedUploads(database, (m) => log.push(m));
    try {
      expect(presence.others).toBe(0);
      const s = await statuses();
      expect(s['old.csv']).toMatchObject({ status: 'failed', completed: true, errors: [{ row: 0, column: '', message: INTERRUPTED_IMPORT }] });
      expect(s['recent.csv']).toMatchObject({ status: 'failed' });
      expect(s['done.csv']).toMatchObject({ status: 'completed' });
      expect(log[0]).toMatch(/^2 interrupted import\(s\) marked failed/);
    } finally {
      await presence.leave();
    }
  });

  it(`leave a running instance's recent import alone; only records older than ${MAX_IMPORT_MINUTES} minutes are failed`, async () => {
    const other = await joinInstances(database.url);
    try {
      await seed();
      const presence = await recoverInterruptedUploads(database, () => {});
      expect(presence.others).toBe(1);
      await presence.leave();
      const s = await statuses();
      expect(s['old.csv']!.status).toBe('failed');
      expect(s['recent.csv']!.status).toBe('processing');
    } finally {
      await other.leave();
    }
    // The other instance has stopped: the next start fails what it left behind.
    const next = await recoverInterruptedUploads(database, () => {});
    expect(next.others).toBe(0);
    await next.leave();
    expect((await statuses())['recent.csv']!.status).toBe('failed');
  });

  it('an instance whose process died is no longer counted; one that lost its connection joins again', async () => {
    const crashed = await joinInstances(database.url, { rejoinMs: 50 });
    const alive = await joinInstances(database.url, { rejoinMs: 50 });
    expect(alive.others).toBe(1);
    // Both connections drop without unlocking (server side); the crashed process is not there to rejoin.
    await database.db.execute(sql`
      select pg_terminate_backend(pid) from pg_locks
       where locktype = 'advisory' and classid = 727102 and objid = 1 and pid <> pg_backend_pid()`);
    await crashed.leave();
    await new Promise((r) => setTimeout(r, 400));
    const fresh = await joinInstances(database.url);
    expect(fresh.others).toBe(1);
    await Promise.all([fresh.leave(), alive.leave()]);
  });

  it('an import whose own instance died is failed at once, even while other instances run; a live one is left alone', async () => {
    const survivor = await joinInstances(database.url);
    const doomed = await joinInstances(database.url);
    try {
      const live = await startUpload(database.db, {
        type: 'students',
        fileName: 'live.csv',
        fileSize: 1,
        dryRun: false,
        uploadedBy: null,
        ownerInstance: survivor.identity(),
      });
      const orphan = await startUpload(database.db, {
        type: 'students',
        fileName: 'orphan.csv',
        fileSize: 1,
        dryRun: false,
        uploadedBy: null,
        ownerInstance: doomed.identity(),
      });
      expect(await sweepInterruptedUploads(database.db)).toEqual([]);
      // kill -9 of the instance running orphan.csv: its presence connection goes with it.
      await doomed.leave();
      expect(await sweepInterruptedUploads(database.db)).toEqual([orphan]);
      const s = await statuses();
      expect(s['orphan.csv']).toMatchObject({ status: 'failed', errors: [{ message: INTERRUPTED_IMPORT }] });
      expect(s['live.csv']!.status).toBe('processing');
      expect(live).toBeGreaterThan(0);
    } finally {
      await Promise.all([survivor.leave(), doomed.leave()]);
    }
  });
});
