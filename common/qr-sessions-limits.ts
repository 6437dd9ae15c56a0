// How long a QR session stays open (docs/decisions/042): plain numbers, with no schema, so a screen
// that only says them (Settings) does not load the session contracts. common/qr-sessions.ts re-exports them.

/**
 * After the end of class a session stays open this long, for the check-out of the students in the
 * door. (Check-out before the end opens at end − earlyLeaveThresholdMinutes; see decision 042.)
 */
export const CHECK_OUT_GRACE_MINUTES = 15;
/** One extension adds at most this many minutes. */
export const EXTEND_MAX_MINUTES = 60;
/** What the Extend button of the projector and the session panel adds. */
export const EXTEND_STEP_MINUTES = 15;
/** However often it is extended, a session closes at most this many hours after it started. */
export const SESSION_MAX_HOURS = 12;
/** The projector and the session panel warn this long before a session closes (the server's 'expiring'). */
export const CLOSING_WARNING_MINUTES = 5;
