import { z } from 'zod';
import { ATTENDANCE_STATUSES, ATTENDANCE_STATUS_LABELS, OVERRIDE_STATUSES, type AttendanceStatus } from './constants.ts';
import { dbId, isoDate, isoDateTime, queryDate, tokenText } from './validation.ts';
import { checkInFlagSchema } from './check-in-flags.ts';

export const qrSessionSchema = z.object({
  id: z.number().int(),
  sessionId: z.string(),
  scheduleId: z.number().int(),
  createdAt: z.string(),
  expiresAt: z.string(),
  endedAt: z.string().nullable(),
  sessionDate: z.string(),
  status: z.enum(['active', 'expiring', 'expired']),
  courseName: z.string(),
  courseCode: z.string(),
  roomNumber: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string(),
  instructorName: z.string().nullable(),
});
export type QrSession = z.infer<typeof qrSessionSchema>;

export const qrImageSchema = z.object({
  qrCode: z.string(),
  attendanceUrl: z.string(),
  /** When the token in this image stops being current; the panel fetches a new image then. */
  rotatesAt: z.string(),
  /** A short code students can type when the QR cannot be scanned from the back row. */
  shortCode: z.string(),
  /** The scan URL's host is this computer only (localhost, 127.x, ::1): no phone can reach it. */
  loopback: z.boolean(),
  /** When loopback: this machine's network addresses (http://192.168.1.20:3000) phones could reach. */
  networkUrls: z.array(z.string()),
});

export const publicSessionSchema = z.object({
  sessionId: z.string(),
  courseName: z.string(),
  courseCode: z.string(),
  roomNumber: z.string().nullable(),
  sessionDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  expiresAt: z.string(),
  serverTime: z.string(),
  status: z.enum(['active', 'expiring', 'expired']),
  /** Present when the page was opened from a fresh QR code: lets this device submit for a few minutes. */
  pass: z.string().nullable(),
  passExpiresAt: z.string().nullable(),
});

/** The `t` of a scan URL or the typed six digits (with an optional space): base64url and spaces only. */
const qrToken = (label: string) => tokenText(label, { max: 100, min: 0, extra: ' ' });
export const publicSessionQuerySchema = z.object({ t: qrToken('t').optional() });

/**
 * A submit's intent; none means check in (SPEC's clients send none). The break punches
 * (docs/decisions/051): `break-start` / `lunch-out` start a break, `break-end` / `lunch-in` end the
 * open one (either ends it, whatever its kind).
 */
export const SCAN_INTENTS = ['check-in', 'check-out', 'break-start', 'break-end', 'lunch-out', 'lunch-in'] as const;
export type ScanIntent = (typeof SCAN_INTENTS)[number];
/** The intents that punch a break, and the kind of break each starts (null: it ends the open one). */
export const BREAK_INTENTS = { 'break-start': 'break', 'lunch-out': 'lunch', 'break-end': null, 'lunch-in': null } as const;
type BreakIntent = keyof typeof BREAK_INTENTS;
export const isBreakIntent = (intent: string | undefined): intent is BreakIntent => intent != null && Object.hasOwn(BREAK_INTENTS, intent);

/**
 * A break between a check-in and a check-out (attendance_breaks): `break` and `lunch` punched by the
 * student, `instructor` a break for everyone. The punch pairs are [in, b1.start], [b1.end, b2.start]
 * … [bn.end, out]; a break never ended means the student left at its start.
 */
export const BREAK_KINDS = ['break', 'lunch', 'instructor'] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];
export const breakPunchSchema = z.object({ kind: z.enum(BREAK_KINDS), startedAt: z.string(), endedAt: z.string().nullable() });
export type BreakPunch = z.infer<typeof breakPunchSchema>;

/** The punch pairs of a record, in ms, in order; `out` null: not checked out (the pair runs on). */
export function punchPairs(
  scanIn: number,
  scanOut: number | null,
  breaks: readonly { startedAt: number; endedAt: number | null }[],
): { in: number; out: number | null }[] {
  const pairs: { in: number; out: number | null }[] = [];
  let from: number | null = scanIn;
  for (const b of [...breaks].sort((x, y) => x.startedAt - y.startedAt)) {
    if (from != null) pairs.push({ in: from, out: b.startedAt });
    // A break never ended: the student left at its start; nothing after it counts.
    from = b.endedAt;
  }
  if (from != null) pairs.push({ in: from, out: scanOut });
  return pairs;
}

/** Without a meal rule, lunch punches are offered from a class of this length (five hours). */
export const LUNCH_CLASS_MINUTES = 300;
/**
 * Whether the scan page offers Lunch out / Lunch in: the class is at least as long as the program's
 * meal rule's `afterMinutes` (the time after which the ledger deducts a meal unless a break is
 * punched), or LUNCH_CLASS_MINUTES without a meal rule. The one place this rule lives.
 */
export function offersLunchPunches(classMinutes: number, mealDeduction: { afterMinutes: number } | null): boolean {
  return classMinutes >= (mealDeduction?.afterMinutes ?? LUNCH_CLASS_MINUTES);
}

export const attendanceSubmitSchema = z.object({
  sessionId: z.string().trim().min(1, 'Session is required').max(100),
  studentId: z.string().trim().min(1, 'Student ID is required').max(100),
  firstName: z.string().trim().min(1, 'First name is required').max(100),
  lastName: z.string().trim().min(1, 'Last name is required').max(100),
  email: z.string().trim().min(1, 'Email is required').max(320),
  /** The phone's clock: recorded as a hint only; the server decides with its own. */
  scanInTime: isoDateTime('scanInTime').optional(),
  /** The QR's rotating token, or the six digits typed from the screen. */
  token: qrToken('token').optional(),
  pass: tokenText('pass', { max: 200, min: 0, extra: '.' }).optional(),
  /**
   * What the student asks for (docs/decisions/039): absent or `check-in`, a check-in, which never
   * checks out a student already checked in (it answers `already_checked_in`) and ends an open break;
   * `check-out`, a check-out; the break intents, a break's start or end (docs/decisions/051).
   */
  intent: z.enum(SCAN_INTENTS, { error: `intent must be one of ${SCAN_INTENTS.join(', ')}` }).optional(),
  /** With intent check-out: yes, leave before the end of class (the meeting counts as incomplete). */
  confirm: z.boolean().optional(),
});
export type AttendanceSubmit = z.infer<typeof attendanceSubmitSchema>;

export const attendanceSubmitResultSchema = z.object({
  message: z.string(),
  /**
   * already_checked_in: a check-in by a student checked in already; nothing changed. break_started,
   * break_ended: a break punch (a check-in on a break ends it: break_ended).
   */
  action: z.enum(['checked_in', 'checked_out', 'already_checked_in', 'already_recorded', 'break_started', 'break_ended']),
  status: z.enum(ATTENDANCE_STATUSES),
  courseName: z.string(),
  scanInTime: z.string().nullable(),
  scanOutTime: z.string().nullable(),
  minutesAttended: z.number().int().nullable(),
  /** Out on a break now (a break started and not ended). */
  onBreak: z.boolean(),
  /** The record's breaks so far, in order. */
  breaks: z.array(breakPunchSchema),
});
export type AttendanceSubmitResult = z.infer<typeof attendanceSubmitResultSchema>;

/** One roster row merged with the day's record; id is null while the student has no record. */
export const attendanceRowSchema = z.object({
  id: z.number().int().nullable(),
  studentId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  sisStudentId: z.string().nullable(),
  sessionDate: z.string(),
  status: z.enum(ATTENDANCE_STATUSES).nullable(),
  scanInTime: z.string().nullable(),
  scanOutTime: z.string().nullable(),
  minutesAttended: z.number().int().nullable(),
  scheduledMinutes: z.number().int().nullable(),
  isManualOverride: z.boolean(),
  overrideReason: z.string().nullable(),
  source: z.string().nullable(),
  /** Every break between the check-in and the check-out, in order (an open one: endedAt null, on a break now). */
  breaks: z.array(breakPunchSchema),
  /** "Possible proxy" flags on this record's check-in, newest first (empty for most rows). */
  flags: z.array(checkInFlagSchema),
});
export type AttendanceRow = z.infer<typeof attendanceRowSchema>;

export const OVERRIDE_VALIDATION = 'Validation Error: Please select a status and provide a reason for the override.';

const overrideFields = {
  status: z.enum(OVERRIDE_STATUSES, { error: OVERRIDE_VALIDATION }),
  isManualOverride: z.boolean().optional(),
  overrideReason: z.string({ error: OVERRIDE_VALIDATION }).trim().min(1, OVERRIDE_VALIDATION).max(500),
  /** A corrected punch: the times the student really came and left (the original stays in the record's history). */
  scanInTime: isoDateTime('scanInTime').optional(),
  scanOutTime: isoDateTime('scanOutTime').optional(),
};
const punchOrder = (o: { scanInTime?: string; scanOutTime?: string }) =>
  !o.scanInTime || !o.scanOutTime || Date.parse(o.scanOutTime) >= Date.parse(o.scanInTime);
const PUNCH_ORDER = { path: ['scanOutTime'], message: 'scanOutTime must not be before scanInTime' };

export const overrideSchema = z.object(overrideFields).refine(punchOrder, PUNCH_ORDER);

export const manualRecordSchema = z
  .object({
    ...overrideFields,
    scheduleId: dbId('scheduleId'),
    studentId: dbId('studentId'),
    sessionDate: isoDate('sessionDate').optional(),
  })
  .refine(punchOrder, PUNCH_ORDER);

/** GET /api/attendance/schedule/:scheduleId */
export const scheduleAttendanceParamsSchema = z.object({ scheduleId: dbId('scheduleId') });
export const scheduleAttendanceQuerySchema = z.object({ date: queryDate('date') });
/** GET /api/attendance/clock-hours */
export const clockHoursQuerySchema = z
  .object({ scheduleId: dbId('scheduleId').optional(), studentId: dbId('studentId').optional(), from: queryDate('from'), to: queryDate('to') })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], message: 'to must not be before from' });

export const clockHoursSchema = z.object({
  studentId: z.number().int(),
  scheduleId: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  courseCode: z.string(),
  meetings: z.number().int(),
  scheduledMinutes: z.number().int(),
  attendedMinutes: z.number().int(),
  excusedMinutes: z.number().int(),
  attendanceRate: z.number(),
});

// Scan page messages (SPEC §8 for the first two). Unknown IDs and wrong names get the same text.
export const SCAN_NOT_FOUND = 'This attendance session is either expired, invalid, or does not exist. Please check with your instructor for a new QR code.';
export const SCAN_EXPIRED = 'This attendance session has expired. Please check with your instructor if you need to mark your attendance.';
export const SCAN_OPEN_LINK = 'Open the link from the QR code in your classroom, then send the form again.';
export const SCAN_STALE_CODE = 'This QR code is no longer current. Scan the code on the classroom screen again.';
export const SCAN_NO_MATCH = "We couldn't match these details to a student in this class. Check your student ID and name, or ask your instructor.";
export const SCAN_DEVICE_USED = 'This device has already been used to check in another student for this class. Each student must use their own phone.';
export const SCAN_CODE_NO_MATCH = "That code doesn't match a class running now. Check the six digits on the classroom screen; they change every 15 seconds.";
/** A typed code that is wrong, and a right one with details that match no student, get this one answer. */
export const SCAN_CODE_OR_DETAILS =
  "We couldn't check you in with that code and these details. Type the code on the classroom screen now (it changes every 15 seconds) and check your student ID and name.";
export const SCAN_TOO_MANY_CODES =
  'Too many wrong codes have been typed from this network. Scan the QR code on the classroom screen instead, or ask your instructor to mark you present.';
export const SCAN_TYPE_SIX_DIGITS = 'Enter the six digits shown on the classroom screen';
export const typedCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{3}\s?\d{3}$/, SCAN_TYPE_SIX_DIGITS),
});
export const typedCodeResultSchema = z.object({ sessionId: z.string(), courseName: z.string(), pass: z.string(), passExpiresAt: z.string() });
/**
 * The answer to a scan that meets a record saying the student was not there (absent, excused): the
 * truth, and who to see. The instructor is told too (a scanned_after_override flag on the roster).
 */
export function standingRecordMessage(status: AttendanceStatus, byInstructor: boolean): string {
  const who = byInstructor ? 'Your instructor has recorded you' : 'You have been recorded';
  return `${who} as ${ATTENDANCE_STATUS_LABELS[status]} for this class. If you are here, please see your instructor.`;
}
// What a scan that went through says (the `message` of POST /api/attendance/submit).
export const SCAN_CHECKED_IN = 'You are checked in.';
export const SCAN_CHECKED_IN_LATE = 'You are checked in (late).';
export const SCAN_CHECKED_OUT = 'You are checked out. Have a good day!';
export const SCAN_CHECKED_OUT_EARLY = 'You are checked out. You left before the end of class, so this meeting counts as incomplete.';
export const SCAN_RECORDED_BY_INSTRUCTOR = 'Your attendance for this class has already been recorded by your instructor.';
/** A check-in by a student checked in already (docs/decisions/039): it changes nothing. */
export const SCAN_ALREADY_CHECKED_IN = 'You are already checked in. Nothing was changed.';
/** 409 CONFIRM_CHECK_OUT: a check-out before end − earlyLeaveThreshold without `confirm`; nothing was written. */
export const SCAN_CONFIRM_CHECK_OUT = 'Class has not ended yet: checking out now counts this class as incomplete. Confirm to check out.';
/** 409 NOT_CHECKED_IN: a check-out by a student with no check-in at this class meeting. */
export const SCAN_NOT_CHECKED_IN = 'You are not checked in to this class, so there is nothing to check out. Mark your attendance first.';
// Break punches (docs/decisions/051): the answers, and the 409s (codes in brackets).
export const SCAN_BREAK_STARTED = 'Your break has started. When you are back, open this page again (or scan the class code) and press Back from break.';
export const SCAN_LUNCH_STARTED = 'You are out for lunch. When you are back, open this page again (or scan the class code) and press Lunch in.';
export const SCAN_BREAK_ENDED = 'Welcome back. Your break has ended and your time counts again.';
export const SCAN_LUNCH_ENDED = 'Welcome back from lunch. Your time counts again.';
/** [NOT_CHECKED_IN] A break punch by a student with no check-in at this class meeting. */
export const SCAN_BREAK_NOT_CHECKED_IN = 'You are not checked in to this class, so there is no break to punch. Mark your attendance first.';
/** [ALREADY_CHECKED_OUT] A break punch after the check-out. */
export const SCAN_BREAK_AFTER_CHECK_OUT = 'You have checked out of this class, so no break can be punched. If that is wrong, ask your instructor.';
/** [ON_BREAK] A break started while another is open. */
export const SCAN_ALREADY_ON_BREAK = 'You are already on a break. Press Back from break when you are back.';
/** [ON_BREAK] A check-out while on a break: the break is ended first (not coming back needs no punch). */
export const SCAN_CHECK_OUT_ON_BREAK =
  'You are on a break. Press Back from break first, then check out. Not coming back today? There is nothing to do: your time stopped when your break started.';
/** [NOT_ON_BREAK] A break ended while none is open. */
export const SCAN_NOT_ON_BREAK = 'You are not on a break, so there is no break to end. Your time is counting.';
/** 409 of POST /api/attendance/{id}/undo-check-out. */
export const NO_CHECK_OUT_TO_UNDO = 'This record has no check-out to undo.';

/**
 * The public scan page's form (server/modules/scan): the submit's four typed fields as the JSON API
 * checks them, and the code on the classroom screen when the phone holds no pass.
 */
export const scanFormSchema = attendanceSubmitSchema
  .pick({ studentId: true, firstName: true, lastName: true, email: true, intent: true })
  .extend({ code: qrToken('code').optional(), confirm: z.literal('yes').optional() });
/**
 * The Check out and break buttons of a phone the server recognises (its device checked the student
 * in at this meeting): no details, the student is the device's; the code when the phone holds no pass.
 */
export const scanDevicePunchFormSchema = z.object({
  intent: z.enum(['check-out', 'break-start', 'break-end', 'lunch-out', 'lunch-in'], { error: 'intent is not a punch of this page' }),
  code: qrToken('code').optional(),
  confirm: z.literal('yes').optional(),
});

export const SESSION_ALREADY_OPEN = 'A session is already open for this class. End it before starting a new one.';

/**
 * Why a class does not meet now (another day, or outside its hours), or null when it does: the
 * answer of GET /api/qr-sessions/start-check and the `warning` of POST /api/qr-sessions. A session
 * may still be started (a make-up the calendar does not show yet); the screen asks first.
 */
export const startCheckQuerySchema = z.object({ scheduleId: dbId('scheduleId') });
export const startCheckSchema = z.object({ scheduleId: z.number().int(), sessionDate: z.string(), warning: z.string().nullable() });
export type StartCheck = z.infer<typeof startCheckSchema>;
/** POST /api/qr-sessions: the session, with the start check's warning (older clients ignore it). */
export const startedSessionSchema = qrSessionSchema.extend({ warning: z.string().nullable() });
/** A session may be started this long before the class's start time without a warning. */
export const START_EARLY_MINUTES = 30;

// ---- Meetings that did not take place, and meetings nobody took attendance at (decision 043) ----

/** POST /api/schedules/{id}/meetings/{date}/cancel: why the class did not meet. */
export const cancelMeetingSchema = z
  .object({ reason: z.string({ error: 'reason is required' }).trim().min(1, 'reason is required').max(500, 'reason must be at most 500 characters') })
  .strict();
export const meetingParamsSchema = z.object({ id: dbId('id'), date: isoDate('date') });

/** A past meeting with no QR session and no record for anyone: to take attendance for, or cancel. */
export const meetingToReviewSchema = z.object({
  scheduleId: z.number().int(),
  courseCode: z.string(),
  courseName: z.string(),
  date: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  rosterCount: z.number().int(),
});
export type MeetingToReview = z.infer<typeof meetingToReviewSchema>;
/** How far back the review list looks. */
export const MEETING_REVIEW_DAYS = 30;
