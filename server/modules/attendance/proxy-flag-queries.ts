// The proxy check's evidence (check_in_origins) and its flags (check_in_flags), as proxy-flags.ts reads and writes them.
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { CheckInFlagEvidence, CheckInFlagReason, CheckInFlagStatus } from '../../../common/check-in-flags.ts';
import type { DbOrTx } from '../../db/client.ts';
import { attendanceRecords, checkInFlags, students, users } from '../../db/schema/index.ts';
import { asDate } from '../../lib/sql-values.ts';
import { sameOrigin } from './check-in-queries.ts';
import { NAMED_LOCK_CLASSES } from '../../db/advisory-locks.ts';

// ---- Proxy evidence ----

/** Serialise the proxy checks of one (QR session, address, browser signature) until the transaction ends. */
export async function lockOrigin(tx: DbOrTx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${NAMED_LOCK_CLASSES.proxyOrigin}), hashtext(${key}))`);
}

export type OriginMatch = {
  recordId: number;
  studentId: number;
  checkedInAt: Date;
  /** Its device had checked that same student in before: a phone the student has used at an earlier meeting. */
  knownDevice: boolean;
  /** Its student had never checked in from any phone before: their first time with Muster. */
  firstUse: boolean;
  /** It already carries a shared_browser flag. */
  flagged: boolean;
};

// The student has no record made from a phone (any class) before `before`, this one aside: their first time with Muster.
const firstUseOf = (studentId: SQL | unknown, recordId: SQL | unknown, before: SQL | unknown) => sql`
  not exists (select 1 from attendance_records p
               where p.student_id = ${studentId} and p.device_id is not null and p.id <> ${recordId} and p.created_at < ${before})`;
/**
 * Other students' check-ins of this QR session from the same address and browser signature within
 * [from, to], oldest first (the latest `limit` of them), each with what the proxy check needs to know about it.
 */
export async function sameOriginCheckIns(
  tx: DbOrTx,
  q: {
    qrSessionId: number;
    ip: string | null;
    browserSignature: string;
    from: Date;
    to: Date;
    excludeRecordId: number;
    excludeStudentId: number;
    limit: number;
  },
): Promise<OriginMatch[]> {
  const { rows } = await tx.execute<Omit<OriginMatch, 'checkedInAt'> & { checkedInAt: Date | string }>(sql`
    select * from (
      select o.attendance_record_id as "recordId", a.student_id as "studentId", o.created_at as "checkedInAt",
             exists (select 1 from attendance_records p
                      where p.student_id = a.student_id and p.device_id = a.device_id and p.id <> a.id and p.created_at < a.created_at) as "knownDevice",
             ${firstUseOf(sql`a.student_id`, sql`a.id`, sql`a.created_at`)} as "firstUse",
             exists (select 1 from check_in_flags f where f.attendance_record_id = a.id and f.reason = 'shared_browser') as flagged
        from check_in_origins o join attendance_records a on a.id = o.attendance_record_id
       where ${sameOrigin(q)}
       order by o.created_at desc
       limit ${q.limit}) latest
     order by "checkedInAt"`);
  return rows.map((r) => ({ ...r, checkedInAt: asDate(r.checkedInAt) }));
}

/** The records a record's shared_browser flags were raised with: those its flag names, and those whose flags name it (among `among`). */
export async function flagPartners(tx: DbOrTx, recordId: number, among: readonly number[]): Promise<number[]> {
  const { rows } = await tx.execute<{ id: number }>(sql`
    select (jsonb_array_elements_text(f.evidence -> 'otherRecordIds'))::int as id
      from check_in_flags f where f.attendance_record_id = ${recordId} and f.reason = 'shared_browser'
    union
    select f.attendance_record_id from check_in_flags f
     where f.attendance_record_id = any(${sql.param([...among])}::int[]) and f.reason = 'shared_browser'
       and f.evidence -> 'otherRecordIds' @> jsonb_build_array(${recordId}::int)`);
  return rows.map((r) => Number(r.id));
}

type CheckInStanding = Pick<OriginMatch, 'knownDevice' | 'firstUse' | 'flagged'>;

/** What the proxy check needs about the new check-in itself: a known phone of its student, its student's first time, already flagged. */
export async function checkInStanding(tx: DbOrTx, d: { studentId: number; deviceId: string; recordId: number; before: Date }): Promise<CheckInStanding> {
  const { rows } = await tx.execute<CheckInStanding>(sql`
    select exists (select 1 from attendance_records
                    where student_id = ${d.studentId} and device_id = ${d.deviceId} and id <> ${d.recordId} and created_at < ${d.before}) as "knownDevice",
           ${firstUseOf(d.studentId, d.recordId, d.before)} as "firstUse",
           exists (select 1 from check_in_flags where attendance_record_id = ${d.recordId} and reason = 'shared_browser') as flagged`);
  return { knownDevice: rows[0]?.knownDevice ?? false, firstUse: rows[0]?.firstUse ?? false, flagged: rows[0]?.flagged ?? false };
}

export type NewFlag = { attendanceRecordId: number; reason: CheckInFlagReason; evidence: CheckInFlagEvidence; createdAt: Date };

export async function insertFlags(tx: DbOrTx, flags: NewFlag[]): Promise<{ id: number; attendanceRecordId: number }[]> {
  if (flags.length === 0) return [];
  return tx.insert(checkInFlags).values(flags).returning({ id: checkInFlags.id, attendanceRecordId: checkInFlags.attendanceRecordId });
}

/** A flag unless the record has an open one of that reason (check_in_flags_one_open): its id, or null. */
export async function insertOpenFlag(tx: DbOrTx, flag: NewFlag): Promise<number | null> {
  const [row] = await tx.insert(checkInFlags).values(flag).onConflictDoNothing().returning({ id: checkInFlags.id });
  return row?.id ?? null;
}

// ---- Flags for staff ----

export type FlagRow = {
  id: number;
  attendanceRecordId: number;
  reason: string;
  status: CheckInFlagStatus;
  evidence: unknown;
  createdAt: Date;
  reviewedAt: Date | null;
  reviewerFirstName: string | null;
  reviewerLastName: string | null;
};

const flagColumns = {
  id: checkInFlags.id,
  attendanceRecordId: checkInFlags.attendanceRecordId,
  reason: checkInFlags.reason,
  status: checkInFlags.status,
  evidence: checkInFlags.evidence,
  createdAt: checkInFlags.createdAt,
  reviewedAt: checkInFlags.reviewedAt,
  reviewerFirstName: users.firstName,
  reviewerLastName: users.lastName,
};

/** Every flag on the records of one meeting of a schedule, newest first. */
export async function meetingFlags(db: DbOrTx, scheduleId: number, sessionDate: string): Promise<FlagRow[]> {
  return db
    .select(flagColumns)
    .from(checkInFlags)
    .innerJoin(attendanceRecords, eq(attendanceRecords.id, checkInFlags.attendanceRecordId))
    .leftJoin(users, eq(users.id, checkInFlags.reviewedBy))
    .where(and(eq(attendanceRecords.scheduleId, scheduleId), eq(attendanceRecords.sessionDate, sessionDate)))
    .orderBy(desc(checkInFlags.createdAt), desc(checkInFlags.id));
}

export async function flagById(db: DbOrTx, flagId: number): Promise<(FlagRow & { scheduleId: number; sessionDate: string; studentId: number }) | null> {
  const [row] = await db
    .select({ ...flagColumns, scheduleId: attendanceRecords.scheduleId, sessionDate: attendanceRecords.sessionDate, studentId: attendanceRecords.studentId })
    .from(checkInFlags)
    .innerJoin(attendanceRecords, eq(attendanceRecords.id, checkInFlags.attendanceRecordId))
    .leftJoin(users, eq(users.id, checkInFlags.reviewedBy))
    .where(eq(checkInFlags.id, flagId));
  return row ?? null;
}

/** Lock a flag for its review; its status before the review, or null when there is none. */
export async function lockFlag(tx: DbOrTx, flagId: number): Promise<{ status: string } | null> {
  const [row] = await tx.select({ status: checkInFlags.status }).from(checkInFlags).where(eq(checkInFlags.id, flagId)).for('update');
  return row ?? null;
}

export async function setFlagReview(tx: DbOrTx, flagId: number, r: { status: CheckInFlagStatus; reviewedBy: number; reviewedAt: Date }): Promise<void> {
  await tx.update(checkInFlags).set({ status: r.status, reviewedBy: r.reviewedBy, reviewedAt: r.reviewedAt }).where(eq(checkInFlags.id, flagId));
}

/** The students of some records, for naming them in flag evidence. */
export async function studentsOfRecords(
  db: DbOrTx,
  recordIds: number[],
): Promise<{ recordId: number; studentId: number; firstName: string; lastName: string }[]> {
  if (recordIds.length === 0) return [];
  return db
    .select({ recordId: attendanceRecords.id, studentId: students.id, firstName: students.firstName, lastName: students.lastName })
    .from(attendanceRecords)
    .innerJoin(students, eq(students.id, attendanceRecords.studentId))
    .where(inArray(attendanceRecords.id, recordIds));
}
