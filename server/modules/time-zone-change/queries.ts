import { and, count, eq, gt, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, qrSessions, schedules } from '../../db/schema/index.ts';

/** How much history reads the school's clock: active schedules, attendance records (and those with a check-in), open sessions. */
export async function countClockedHistory(
  db: DbOrTx,
  now: Date,
): Promise<{ schedules: number; attendanceRecords: number; checkIns: number; openSessions: number }> {
  const [[s], [a], [c], [q]] = await Promise.all([
    db.select({ n: count() }).from(schedules).where(eq(schedules.isActive, true)),
    db.select({ n: count() }).from(attendanceRecords),
    db.select({ n: count() }).from(attendanceRecords).where(isNotNull(attendanceRecords.scanInTime)),
    db
      .select({ n: count() })
      .from(qrSessions)
      .where(and(eq(qrSessions.isActive, true), gt(qrSessions.expiresAt, now))),
  ]);
  return { schedules: s?.n ?? 0, attendanceRecords: a?.n ?? 0, checkIns: c?.n ?? 0, openSessions: q?.n ?? 0 };
}
