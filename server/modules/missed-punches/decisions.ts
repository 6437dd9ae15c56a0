// Staff and the requests: the list, approving (the attendance module writes the punch), declining.
import type { MissedPunchApproval, MissedPunchListQuery, MissedPunchPage, MissedPunchRequest, MissedPunchSource } from '../../../common/missed-punches.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { assertMayDecideMissedPunch, assertMayUseSchedule, viewerScope } from '../access/service.ts';
import { correctMissedPunch } from '../attendance/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { lockRequest, selectRequestPage, setDecision, type RequestListRow } from './queries.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

const toRequest = (r: RequestListRow): MissedPunchRequest => ({
  id: r.id,
  studentId: r.studentId,
  studentName: `${r.firstName} ${r.lastName}`,
  sisStudentId: r.sisStudentId,
  scheduleId: r.scheduleId,
  courseName: r.courseName,
  sessionDate: r.sessionDate,
  checkInAt: r.checkInAt?.toISOString() ?? null,
  checkOutAt: r.checkOutAt?.toISOString() ?? null,
  reason: r.reason,
  source: r.source as MissedPunchSource,
  status: r.status,
  createdAt: r.createdAt.toISOString(),
  decidedAt: r.decidedAt?.toISOString() ?? null,
  decidedBy: r.decidedBy,
  decisionReason: r.decisionReason,
  recordId: r.recordId,
});

/**
 * GET /api/missed-punch-requests: a page of requests, newest meeting first. Instructors see their
 * own schedules' only (a schedule of another instructor named in the query: 403).
 */
export async function listMissedPunchRequests(db: DbOrTx, user: User, q: MissedPunchListQuery): Promise<MissedPunchPage> {
  if (q.scheduleId != null) await assertMayUseSchedule(db, user, q.scheduleId);
  const pageSize = q.pageSize ?? 50;
  const page = q.page ?? 1;
  const { rows, total } = await selectRequestPage(
    db,
    { status: q.status, scheduleId: q.scheduleId, date: q.date, studentId: q.studentId, instructorId: viewerScope(user).instructorId },
    { limit: pageSize, offset: (page - 1) * pageSize },
  );
  return { items: rows.map(toRequest), total };
}

async function requestView(db: DbOrTx, id: number): Promise<MissedPunchRequest> {
  const [row] = (await selectRequestPage(db, { id }, { limit: 1, offset: 0 })).rows;
  if (!row) throw notFound('Missed-punch request');
  return toRequest(row);
}

/** The request locked, after the per-record check (the class's instructor or an administrator); 409 once decided. */
async function pendingRequest(tx: DbOrTx, user: User, id: number) {
  const request = await lockRequest(tx, id);
  if (!request) throw notFound('Missed-punch request');
  await assertMayDecideMissedPunch(tx, user, request);
  if (request.status !== 'pending') throw conflict(`This request was already ${request.status}`);
  return request;
}

/**
 * POST /api/missed-punch-requests/{id}/approve: the punch written to the meeting's record by the
 * attendance module's rules (correctMissedPunch: the times the student gave, or those staff adjust
 * to; a correction flagged with this request), the request approved with the reason; all audited,
 * in one transaction.
 */
export async function approveMissedPunch(db: Db, user: User, id: number, body: MissedPunchApproval, ctx: Ctx): Promise<MissedPunchRequest> {
  await db.transaction(async (tx) => {
    const request = await pendingRequest(tx, user, id);
    const punch = await correctMissedPunch(
      tx,
      user,
      {
        studentId: request.studentId,
        scheduleId: request.scheduleId,
        sessionDate: request.sessionDate,
        checkInAt: body.checkInAt ? new Date(body.checkInAt) : request.checkInAt,
        checkOutAt: body.checkOutAt ? new Date(body.checkOutAt) : request.checkOutAt,
        reason: body.reason,
        missedPunchRequestId: id,
      },
      ctx,
    );
    const now = ctx.clock.now();
    await setDecision(tx, id, { status: 'approved', decidedBy: user.id, decidedAt: now, decisionReason: body.reason, recordId: punch.recordId });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'missed_punch_requests',
      recordId: id,
      ipAddress: ctx.ip,
      oldValues: { status: 'pending' },
      newValues: {
        status: 'approved',
        decisionReason: body.reason,
        recordId: punch.recordId,
        scanInTime: punch.scanInTime,
        scanOutTime: punch.scanOutTime,
        attendanceStatus: punch.status,
      },
      at: now,
    });
  });
  return requestView(db, id);
}

/** POST /api/missed-punch-requests/{id}/decline: nothing changes in the record; the request says why. */
export async function declineMissedPunch(db: Db, user: User, id: number, reason: string, ctx: Ctx): Promise<MissedPunchRequest> {
  await db.transaction(async (tx) => {
    await pendingRequest(tx, user, id);
    const now = ctx.clock.now();
    await setDecision(tx, id, { status: 'declined', decidedBy: user.id, decidedAt: now, decisionReason: reason });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'missed_punch_requests',
      recordId: id,
      ipAddress: ctx.ip,
      oldValues: { status: 'pending' },
      newValues: { status: 'declined', decisionReason: reason },
      at: now,
    });
  });
  return requestView(db, id);
}
