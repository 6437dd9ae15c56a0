// The instructor's decision on a check-in's flag: a proxy flag judged, or a scan made while marked absent accepted.
import type { CheckInFlag, FlagDecision } from '../../../common/check-in-flags.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { recordAudit } from '../audit-logs/service.ts';
import { getSettings } from '../settings/service.ts';
import { flagView, judgeFlag, recordFlagReview, storedScanEvidence } from './proxy-flags.ts';
import { assertMayOverride, recordValues } from './punch-corrections.ts';
import { flagById, lockFlag } from './proxy-flag-queries.ts';
import { lockRecordForOverride, setAcceptedScan } from './queries.ts';
import { insertCorrection } from './history-queries.ts';
import { checkInStatus, classWindow, minutesAttended, scheduledMinutes } from './rules.ts';

type User = { id: number; role: Role };
type Ctx = { clock: Clock; ip: string | null };

/**
 * The instructor's decision on a flag of a check-in: a proxy flag confirmed or cleared, a scan made
 * while marked absent accepted (the record becomes what the scan would have given) or dismissed.
 */
export async function reviewFlag(db: Db, user: User, flagId: number, decision: FlagDecision, ctx: Ctx): Promise<CheckInFlag> {
  return decision === 'accept_scan' ? acceptScan(db, user, flagId, ctx) : judgeFlag(db, user, flagId, decision, ctx);
}

/**
 * Accept a scan made while the record said absent or excused: the record becomes the check-in the
 * scan would have been (present or late as the school's threshold gave it then, scan-in at the
 * scan's time, minutes from then to the end of class), the override marker is cleared and the flag
 * is marked accepted; both audited. An override by another name: the same per-record rules apply
 * (instructors on their own schedules, and only while instructor overrides are allowed).
 */
async function acceptScan(db: Db, user: User, flagId: number, ctx: Ctx): Promise<CheckInFlag> {
  const found = await flagById(db, flagId);
  if (!found) throw notFound('Flag');
  const schedule = await assertMayOverride(db, user, found.scheduleId);
  const evidence = found.reason === 'scanned_after_override' ? storedScanEvidence(found.evidence) : null;
  if (!evidence) throw badRequest('Only a scan made while marked absent can be accepted');
  const { attendance } = await getSettings(db);
  const now = ctx.clock.now();
  await db.transaction(async (tx) => {
    const flag = await lockFlag(tx, flagId);
    if (!flag) throw notFound('Flag');
    if (flag.status === 'accepted') return; // pressed twice: the record already shows the scan
    const before = await lockRecordForOverride(tx, found.attendanceRecordId);
    if (!before) throw notFound('Attendance record');
    const scanAt = new Date(evidence.checkedInAt);
    const window = classWindow(before.sessionDate, schedule.startTime, schedule.endTime, attendance.timeZone, schedule.breaks);
    const status = evidence.scanStatus ?? checkInStatus(scanAt, window, attendance.lateThresholdMinutes);
    const minutes = minutesAttended(scanAt, null, window);
    await setAcceptedScan(tx, found.attendanceRecordId, {
      status,
      scanInTime: scanAt,
      minutes,
      scheduledMinutes: before.scheduledMinutes ?? scheduledMinutes(window),
      qrSessionId: evidence.qrSessionId,
      deviceId: evidence.deviceId,
      now,
    });
    await recordAudit(tx, {
      userId: user.id,
      action: 'Update',
      tableName: 'attendance',
      recordId: found.attendanceRecordId,
      ipAddress: ctx.ip,
      oldValues: {
        status: before.status,
        isManualOverride: before.isManualOverride,
        overrideReason: before.overrideReason,
        source: before.source,
        scanInTime: before.scanInTime,
        scanOutTime: before.scanOutTime,
      },
      newValues: { status, isManualOverride: false, source: 'qr', scanInTime: scanAt, scanOutTime: null, minutesAttended: minutes, acceptedScanFlagId: flagId },
      at: now,
    });
    await insertCorrection(tx, {
      attendanceRecordId: found.attendanceRecordId,
      changedBy: user.id,
      changedAt: now,
      reason: 'Accepted the scan made while marked absent',
      before: recordValues(before),
      after: recordValues({ status, scanInTime: scanAt, scanOutTime: null, minutesAttended: minutes, source: 'qr', overrideReason: null }),
    });
    await recordFlagReview(tx, { flagId, from: flag.status, to: 'accepted', about: found, userId: user.id, ip: ctx.ip, at: now });
  });
  return flagView(db, flagId);
}
