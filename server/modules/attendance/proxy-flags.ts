import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { z } from 'zod';
import {
  ONE_AFTER_ANOTHER_SECONDS,
  SHARED_BROWSER_WINDOW_MINUTES,
  checkInFlagEvidenceSchema,
  type CheckInFlag,
  type CheckInFlagEvidence,
  type CheckInFlagReason,
  type CheckInFlagStatus,
} from '../../../common/check-in-flags.ts';
import type { AttendanceStatus } from '../../../common/constants.ts';
import type { Role } from '../../../common/roles.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { assertMayUseSchedule } from '../access/service.ts';
import { recordAudit } from '../audit-logs/service.ts';
import type { PassFacts } from '../qr-sessions/service.ts';
import {
  flagById,
  flagPartners,
  checkInStanding,
  insertFlags,
  insertOpenFlag,
  lockFlag,
  lockOrigin,
  meetingFlags,
  sameOriginCheckIns,
  setFlagReview,
  studentsOfRecords,
  type FlagRow,
  type NewFlag,
  type OriginMatch,
} from './proxy-flag-queries.ts';

/**
 * "Possible proxy" detection (docs/decisions/006-proxy-check-ins.md). A web page cannot prove which
 * phone it runs on, so nothing here refuses a check-in: it records where each one came from and
 * flags, with the evidence, check-ins that look made for someone else, for the instructor to confirm
 * or clear.
 */

// Headers a browser sends the same way on every request and that differ between browser builds and
// settings. Nothing here identifies a person; a script can send anything (see the decision record).
const SIGNATURE_HEADERS = ['user-agent', 'accept-language', 'sec-ch-ua', 'sec-ch-ua-mobile', 'sec-ch-ua-platform'] as const;

/** SHA-256 (hex) of what the browser says about itself: user agent, languages and client hints. */
export function browserSignature(headers: IncomingHttpHeaders): string {
  const parts = SIGNATURE_HEADERS.map((h) => {
    const v = headers[h];
    return (Array.isArray(v) ? v.join(',') : (v ?? '')).trim().slice(0, 512);
  });
  return createHash('sha256').update(parts.join('\n')).digest('hex');
}

const SIGNATURE_SHOWN = 12;
const SHARED_BROWSER_WINDOW_MS = SHARED_BROWSER_WINDOW_MINUTES * 60_000;
const ONE_AFTER_ANOTHER_MS = ONE_AFTER_ANOTHER_SECONDS * 1000;

/** The check-ins a new one at `now` is compared with: those within the shared-browser window around it. */
export const sameOriginWindow = (now: Date) => ({
  from: new Date(now.getTime() - SHARED_BROWSER_WINDOW_MS),
  to: new Date(now.getTime() + SHARED_BROWSER_WINDOW_MS),
});

/** How the browser came back without the device cookie it was given, if it did. */
export const droppedCookie = (origin: CheckInOrigin): 'missing' | 'replaced' | null =>
  !origin.devicePresented ? 'missing' : origin.pass && !origin.pass.forThisDevice ? 'replaced' : null;
// Evidence names at most this many other check-ins (and counts the rest).
const MAX_OTHERS = 20;

type CheckInOrigin = {
  ip: string | null;
  browserSignature: string;
  deviceId: string;
  /** The browser sent the device cookie (false: this request was given a new one). */
  devicePresented: boolean;
  /** The pass the browser sent, when it is one this server issued for this session (to any device). */
  pass: PassFacts | null;
};

type OneAfterAnother = { previous: OriginMatch; run: OriginMatch[]; gapSeconds: number };

/**
 * Whether a check-in of a student new to Muster, whose page was opened at `openedAt`, followed
 * another first-timer's as one phone makes them: no check-in of that origin was sent while this page
 * was open (that proves two browsers at once); the last one before was sent at most
 * ONE_AFTER_ANOTHER_SECONDS before the page opened; and in the window before that one nobody else
 * from that origin checked in, the run it already belongs to aside (at a busy moment a close gap is
 * likely by chance: docs/decisions/044 has the figures).
 */
async function oneAfterAnother(tx: DbOrTx, openedAt: Date, matches: OriginMatch[], around: OriginMatch[]): Promise<OneAfterAnother | null> {
  // Sent while this page was open: two browsers at once.
  if (around.some((m) => m.checkedInAt > openedAt)) return null;
  const previous = matches.at(-1);
  const gap = previous ? openedAt.getTime() - previous.checkedInAt.getTime() : Infinity;
  if (!previous?.firstUse || gap > ONE_AFTER_ANOTHER_MS) return null;
  const partners = new Set(
    await flagPartners(
      tx,
      previous.recordId,
      around.map((m) => m.recordId),
    ),
  );
  const run = around.filter((m) => m === previous || partners.has(m.recordId));
  const quietFrom = previous.checkedInAt.getTime() - SHARED_BROWSER_WINDOW_MS;
  if (around.some((m) => !run.includes(m) && m.checkedInAt.getTime() >= quietFrom)) return null;
  return { previous, run, gapSeconds: Math.round(gap / 1000) };
}

/**
 * Flag a new check-in that may have been made for someone else. Runs after the check-in commits, in a
 * short transaction of its own holding a lock on (QR session, address, signature): of two check-ins
 * from one browser, the one committed later always sees the earlier one, and check-ins from different
 * browsers still run in parallel. Each record gets at most one flag per reason.
 *
 * - shared_browser: another student's check-in of this QR session came from the same address with
 *   the same browser signature within SHARED_BROWSER_WINDOW_MINUTES. Both are flagged, unless each
 *   came from a phone its own student had used at an earlier meeting (identical phones on one school
 *   Wi-Fi are common; a private tab is always a new device), or both students are new to Muster (a
 *   first meeting, where every phone is new): then only when one came after the other as one phone
 *   makes them (oneAfterAnother).
 * - dropped_cookie: the browser came back without the device cookie it was given: it sent none (the
 *   scan page always receives one before it can submit), or it sent a pass this server issued to
 *   another device cookie.
 *
 * The caller calls it only for a check-in worth the look: a dropped cookie, or another student's
 * check-in from the same origin (checkInsSharingOrigin, one unlocked read for a whole batch).
 */
export async function flagPossibleProxy(
  db: Db,
  c: { recordId: number; studentId: number; qrSessionId: number; now: Date; origin: CheckInOrigin },
): Promise<void> {
  const { origin, now } = c;
  const base = { checkedInAt: now.toISOString(), ipAddress: origin.ip, signature: origin.browserSignature.slice(0, SIGNATURE_SHOWN) };
  const window = sameOriginWindow(now);
  // From a window earlier: whether the moment before a one-after-another check-in was quiet.
  const query = {
    qrSessionId: c.qrSessionId,
    ip: origin.ip,
    browserSignature: origin.browserSignature,
    from: new Date(window.from.getTime() - SHARED_BROWSER_WINDOW_MS),
    to: window.to,
    excludeRecordId: c.recordId,
    excludeStudentId: c.studentId,
    limit: 200,
  };
  // When this browser's page was opened: its pass says. Without one (a code typed into the form) it
  // cannot be shown to have been open beside another, so it counts as opened when sent.
  const openedAt = origin.pass?.issuedAt ?? now;
  const dropped = droppedCookie(origin);
  await db.transaction(async (tx) => {
    await lockOrigin(tx, `origin:${c.qrSessionId}:${origin.ip ?? ''}:${origin.browserSignature}`);
    const flags: NewFlag[] = [];
    const around = await sameOriginCheckIns(tx, query);
    const matches = around.filter((m) => m.checkedInAt >= window.from);
    if (matches.length > 0) {
      const self = await checkInStanding(tx, { studentId: c.studentId, deviceId: origin.deviceId, recordId: c.recordId, before: now });
      // Two phones each known to its student are not flagged (006); two students new to Muster only one after another (044).
      const sameBrowser = matches.filter((m) => !(self.knownDevice && m.knownDevice) && !(self.firstUse && m.firstUse));
      const followed = self.firstUse ? await oneAfterAnother(tx, openedAt, matches, around) : null;
      const followedFacts = followed ? { oneAfterAnother: true, gapSeconds: followed.gapSeconds } : {};
      const suspicious = [...sameBrowser, ...(followed?.run ?? [])].sort((a, b) => a.checkedInAt.getTime() - b.checkedInAt.getTime());
      // A record already flagged by an earlier check-in keeps that flag: a class of identical phones
      // must not add a flag to every earlier check-in on each new one.
      if (suspicious.length > 0 && !self.flagged) {
        const named = suspicious.slice(-MAX_OTHERS);
        flags.push({
          attendanceRecordId: c.recordId,
          reason: 'shared_browser',
          createdAt: now,
          evidence: {
            ...base,
            otherRecordIds: named.map((m) => m.recordId),
            otherCheckedInAt: named.map((m) => m.checkedInAt.toISOString()),
            windowMinutes: SHARED_BROWSER_WINDOW_MINUTES,
            ...(followed ? { ...followedFacts, passIssuedAt: origin.pass ? openedAt.toISOString() : null } : {}),
          },
        });
      }
      // The others are flagged with this one: each sameBrowser one, and the check-in this one followed
      // (the rest of its run were flagged when they joined it).
      for (const m of [...sameBrowser, ...(followed ? [followed.previous] : [])].filter((x) => !x.flagged)) {
        flags.push({
          attendanceRecordId: m.recordId,
          reason: 'shared_browser',
          createdAt: now,
          evidence: {
            ...base,
            checkedInAt: m.checkedInAt.toISOString(),
            otherRecordIds: [c.recordId],
            otherCheckedInAt: [now.toISOString()],
            windowMinutes: SHARED_BROWSER_WINDOW_MINUTES,
            ...(m === followed?.previous ? followedFacts : {}),
          },
        });
      }
    }

    if (dropped) {
      flags.push({
        attendanceRecordId: c.recordId,
        reason: 'dropped_cookie',
        createdAt: now,
        evidence: { ...base, deviceCookie: dropped, passIssuedAt: origin.pass && !origin.pass.forThisDevice ? origin.pass.issuedAt.toISOString() : null },
      });
    }

    const raised = await insertFlags(tx, flags);
    for (const [i, f] of raised.entries()) {
      // A security event: written even when routine audit logging is off.
      await recordAudit(tx, {
        userId: null,
        action: 'Create',
        tableName: 'check_in_flags',
        recordId: f.id,
        ipAddress: origin.ip,
        newValues: { attendanceRecordId: f.attendanceRecordId, reason: flags[i]!.reason, status: 'flagged', evidence: flags[i]!.evidence },
        always: true,
        at: now,
      });
    }
  });
}

// What a scanned_after_override flag keeps beyond what the roster shows: the device cookie itself
// and the QR session, so that accepting the scan records it as the check-in it would have been.
const scanEvidenceSchema = checkInFlagEvidenceSchema.extend({ deviceId: z.string(), qrSessionId: z.number().int() });
type ScanEvidence = z.infer<typeof scanEvidenceSchema>;

/** The stored evidence of a scanned_after_override flag, or null when it is not one. */
export function storedScanEvidence(v: unknown): ScanEvidence | null {
  const parsed = scanEvidenceSchema.safeParse(v);
  return parsed.success ? parsed.data : null;
}

type ScanAfterOverride = {
  recordId: number;
  qrSessionId: number;
  standingStatus: AttendanceStatus;
  /** What the scan would have given at its time. */
  scanStatus: 'present' | 'late';
  /** The scan's time of day on the school's clock, HH:MM. */
  localTime: string;
  now: Date;
  origin: Pick<CheckInOrigin, 'ip' | 'browserSignature' | 'deviceId'>;
};

/**
 * A scan by a student whose record of the meeting says they were not there (an instructor's
 * absent or excused, or the auto-absent job's): flagged for the instructor, in the scan's own
 * transaction, with when and from where. One open flag per record: scanning again adds nothing.
 * Audited like the proxy flags, whatever the audit setting.
 */
export async function flagScanAfterOverride(tx: DbOrTx, c: ScanAfterOverride): Promise<void> {
  const shown: CheckInFlagEvidence = {
    checkedInAt: c.now.toISOString(),
    ipAddress: c.origin.ip,
    signature: c.origin.browserSignature.slice(0, SIGNATURE_SHOWN),
    device: createHash('sha256').update(c.origin.deviceId).digest('hex').slice(0, SIGNATURE_SHOWN),
    standingStatus: c.standingStatus,
    scanStatus: c.scanStatus,
    localTime: c.localTime,
  };
  const evidence: ScanEvidence = { ...shown, deviceId: c.origin.deviceId, qrSessionId: c.qrSessionId };
  const id = await insertOpenFlag(tx, { attendanceRecordId: c.recordId, reason: 'scanned_after_override', evidence, createdAt: c.now });
  if (id == null) return;
  await recordAudit(tx, {
    userId: null,
    action: 'Create',
    tableName: 'check_in_flags',
    recordId: id,
    ipAddress: c.origin.ip,
    newValues: { attendanceRecordId: c.recordId, reason: 'scanned_after_override', status: 'flagged', evidence: shown },
    always: true,
    at: c.now,
  });
}

const parseEvidence = (v: unknown): CheckInFlagEvidence => {
  const parsed = checkInFlagEvidenceSchema.safeParse(v);
  return parsed.success ? parsed.data : { checkedInAt: '', ipAddress: null, signature: '' };
};

/**
 * Flags as the roster shows them, with the students their evidence names. A record's shared-browser
 * flag names the check-ins seen when it was raised; later ones name it in theirs, and are shown on
 * both (within the flags read together, one meeting's).
 */
async function toFlags(db: DbOrTx, rows: FlagRow[]): Promise<CheckInFlag[]> {
  const evidence = rows.map((r) => parseEvidence(r.evidence));
  const others = rows.map((r, i) => {
    const later = rows
      .filter((o, j) => j !== i && o.reason === r.reason && evidence[j]!.otherRecordIds?.includes(r.attendanceRecordId))
      .map((o) => o.attendanceRecordId);
    return [...new Set([...(evidence[i]!.otherRecordIds ?? []), ...later])];
  });
  const named = await studentsOfRecords(db, [...new Set(others.flat())]);
  const byRecord = new Map(named.map((s) => [s.recordId, { recordId: s.recordId, studentId: s.studentId, name: `${s.firstName} ${s.lastName}` }]));
  return rows.map((r, i) => ({
    id: r.id,
    attendanceRecordId: r.attendanceRecordId,
    reason: r.reason as CheckInFlagReason,
    status: r.status,
    evidence: evidence[i]!,
    otherStudents: others[i]!.flatMap((id) => byRecord.get(id) ?? []),
    raisedAt: r.createdAt.toISOString(),
    reviewedAt: r.reviewedAt?.toISOString() ?? null,
    reviewedBy: r.reviewerFirstName == null ? null : `${r.reviewerFirstName} ${r.reviewerLastName ?? ''}`.trim(),
  }));
}

/** The flags of one meeting by record id. The caller has checked that the viewer may see the schedule. */
export async function flagsOfMeeting(db: DbOrTx, scheduleId: number, sessionDate: string): Promise<Map<number, CheckInFlag[]>> {
  const flags = await toFlags(db, await meetingFlags(db, scheduleId, sessionDate));
  const byRecord = new Map<number, CheckInFlag[]>();
  for (const f of flags) byRecord.set(f.attendanceRecordId, [...(byRecord.get(f.attendanceRecordId) ?? []), f]);
  return byRecord;
}

/** One flag as the roster shows it. */
export async function flagView(db: DbOrTx, flagId: number): Promise<CheckInFlag> {
  const row = await flagById(db, flagId);
  if (!row) throw notFound('Flag');
  const [flag] = await toFlags(db, [row]);
  return flag!;
}

/**
 * The instructor's judgement on a flag: a proxy flag confirmed (it was a proxy check-in) or cleared
 * (it was not); a scan flag cleared (dismissed). Instructors review flags on their own schedules
 * only; administrators any. The record itself is not changed: an override does that, with its own
 * reason (or, for a scan flag, accepting the scan). Audited, whatever the audit setting.
 */
export async function judgeFlag(
  db: Db,
  user: { id: number; role: Role },
  flagId: number,
  decision: 'confirmed' | 'cleared',
  ctx: { clock: Clock; ip: string | null },
): Promise<CheckInFlag> {
  const found = await flagById(db, flagId);
  if (!found) throw notFound('Flag');
  await assertMayUseSchedule(db, user, found.scheduleId);
  if (decision === 'confirmed' && found.reason === 'scanned_after_override') {
    throw badRequest('A scan made while marked absent is accepted or dismissed, not confirmed as a proxy');
  }
  const now = ctx.clock.now();
  await db.transaction(async (tx) => {
    const before = await lockFlag(tx, flagId);
    if (!before) throw notFound('Flag');
    // The record was changed by accepting the scan; an override changes it back, not the flag.
    if (before.status === 'accepted') throw conflict('This scan was accepted; override the attendance record to change it');
    await recordFlagReview(tx, { flagId, from: before.status, to: decision, about: found, userId: user.id, ip: ctx.ip, at: now });
  });
  return flagView(db, flagId);
}

/** Sets a flag's review and audits it (whatever the audit setting): the status before and after, and the record it is about. */
export async function recordFlagReview(
  tx: DbOrTx,
  r: {
    flagId: number;
    from: string;
    to: CheckInFlagStatus;
    about: { attendanceRecordId: number; studentId: number };
    userId: number;
    ip: string | null;
    at: Date;
  },
): Promise<void> {
  await setFlagReview(tx, r.flagId, { status: r.to, reviewedBy: r.userId, reviewedAt: r.at });
  await recordAudit(tx, {
    userId: r.userId,
    action: 'Update',
    tableName: 'check_in_flags',
    recordId: r.flagId,
    ipAddress: r.ip,
    oldValues: { status: r.from },
    newValues: { status: r.to, attendanceRecordId: r.about.attendanceRecordId, studentId: r.about.studentId },
    always: true,
    at: r.at,
  });
}
