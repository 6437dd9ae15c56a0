import { z } from 'zod';
import { publicSessionSchema, qrSessionSchema } from './attendance.ts';
import { EXTEND_MAX_MINUTES, SESSION_MAX_HOURS } from './qr-sessions-limits.ts';

// How long a QR session stays open, and how it closes (docs/decisions/042).
// The session and public-read shapes stay common/attendance.ts's (SPEC's contract); this adds to them.

export { CHECK_OUT_GRACE_MINUTES, CLOSING_WARNING_MINUTES, EXTEND_STEP_MINUTES, SESSION_MAX_HOURS } from './qr-sessions-limits.ts';

/**
 * How a session closed: `ended` when the instructor ended it (End Session) before its time,
 * `expired` when its time ran out; null while it is open. `status` stays SPEC's active / expiring /
 * expired (it says `expired` for both).
 */
export const SESSION_CLOSINGS = ['ended', 'expired'] as const;
export type SessionClosing = (typeof SESSION_CLOSINGS)[number];
const closedField = { closed: z.enum(SESSION_CLOSINGS).nullable() };

/** A QR session as the staff routes answer it: SPEC's fields and `closed`. */
export const qrSessionAnswerSchema = qrSessionSchema.extend(closedField);
export type QrSessionAnswer = z.infer<typeof qrSessionAnswerSchema>;
/** POST /api/qr-sessions: the session, with the start check's warning. */
export const startedSessionAnswerSchema = qrSessionAnswerSchema.extend({ warning: z.string().nullable() });
/** GET /api/qr-sessions/public/{id}: SPEC's public read and `closed`, so the scan page can say "ended". */
export const publicSessionAnswerSchema = publicSessionSchema.extend(closedField);
export type PublicSessionAnswer = z.infer<typeof publicSessionAnswerSchema>;

/** POST /api/qr-sessions/{id}/extend */
export const extendSessionSchema = z.object({
  minutes: z
    .number({ error: 'minutes must be a whole number of minutes' })
    .int('minutes must be a whole number of minutes')
    .min(1, 'minutes must be at least 1')
    .max(EXTEND_MAX_MINUTES, `minutes must be at most ${EXTEND_MAX_MINUTES}`),
});
/** 409 EXTEND_LIMIT: the extension would keep the session open past SESSION_MAX_HOURS after its start. */
export const EXTEND_LIMIT = `A session stays open at most ${SESSION_MAX_HOURS} hours after it started. Start a new session instead.`;
/** 410 of extend (and of the QR image) on a session the instructor ended. */
export const SESSION_WAS_ENDED = 'This session has ended. Start a new session to take attendance again.';
/** 410 of extend (and of the QR image) on a session whose time ran out. */
export const SESSION_HAS_EXPIRED = 'This session has expired. Start a new session to take attendance again.';

// What a student is told about a session the instructor ended (for the scan page and the submit
// route, which answer `expired` otherwise): the English; the scan page's Spanish goes with its texts.
export const SCAN_SESSION_ENDED = 'Session Ended';
export const SCAN_SESSION_ENDED_TEXT =
  'Your instructor has ended this attendance session. Please check with your instructor if you need to mark your attendance.';

// ---- Instructor-led breaks (docs/decisions/052) ----

/** How long after "End break" students may scan again and be back from the break's end. */
export const RECHECK_DEFAULT_MINUTES = 5;
const RECHECK_MAX_MINUTES = 30;

/** A break for everyone of one meeting: open while endedAt is null; re-check-in open until recheckUntil. */
export const meetingBreakSchema = z.object({
  id: z.number().int(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  recheckUntil: z.string().nullable(),
});
export type MeetingBreak = z.infer<typeof meetingBreakSchema>;

/** POST /api/qr-sessions/{id}/break and …/break/end: the break, and how many students it has out now. */
export const meetingBreakAnswerSchema = z.object({ meetingBreak: meetingBreakSchema, studentsOnBreak: z.number().int() });
export type MeetingBreakAnswer = z.infer<typeof meetingBreakAnswerSchema>;

/** POST /api/qr-sessions/{id}/break/end (the body may be left out: RECHECK_DEFAULT_MINUTES). */
export const endMeetingBreakSchema = z.object({
  recheckMinutes: z
    .number({ error: 'recheckMinutes must be a whole number of minutes' })
    .int('recheckMinutes must be a whole number of minutes')
    .min(1, 'recheckMinutes must be at least 1')
    .max(RECHECK_MAX_MINUTES, `recheckMinutes must be at most ${RECHECK_MAX_MINUTES}`)
    .optional(),
});

/** GET /api/qr-sessions/{id}: the session and its meeting's open break, or the latest one (null: none today). */
export const qrSessionDetailSchema = qrSessionAnswerSchema.extend({ meetingBreak: meetingBreakSchema.nullable() });
export type QrSessionDetail = z.infer<typeof qrSessionDetailSchema>;

/** 409s of the break routes. */
export const BREAK_ALREADY_OPEN = 'The class is already on a break. End it before starting another.';
export const NO_BREAK_OPEN = 'The class is not on a break.';
export const BREAK_SESSION_CLOSED = 'This session has closed: start a session to send the class on a break.';
