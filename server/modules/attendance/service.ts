// The module's door for its routes and the scan pages: the public check-in (submit.ts, taken from a
// browser by browser-check-in.ts) and the proxy flags (proxy-flags.ts) live in their own files; the
// device and pass cookies come from the qr-sessions module.
export { checkInFromBrowser } from './browser-check-in.ts';
// The meeting rules the hours ledger shares (one definition of when a class meets and for how long).
export { classWindow, scheduledBreakIntervals, scheduledMinutes, whyNotAMeeting, type ClassWindow, type MeetingCalendar } from './rules.ts';
export { PUBLIC_RATE_LIMIT } from '../qr-sessions/service.ts';
// An approved missed-punch request written into the record (the missed-punches module decides, this writes).
export { correctMissedPunch } from './punch-corrections.ts';
// Each concern in its file: a meeting's roster (roster.ts), staff changes of a record (overrides.ts),
// a flag's review (flag-review.ts), the scan page's questions (scan-page.ts), meetings as a whole
// (meetings.ts), clock hours and a record's history (reports.ts).
export { listScheduleAttendance } from './roster.ts';
export { createManualRecord, minutesAfterBreakStarted, overrideAttendance, undoCheckOut } from './overrides.ts';
export { reviewFlag } from './flag-review.ts';
export { checkOutPreview, deviceStanding, lunchPunchesOffered, type DeviceStanding } from './scan-page.ts';
export { cancelMeeting, heldMeetings, markAbsentees, meetingsToReview, restoreMeeting } from './meetings.ts';
// Retention (server/jobs/retention.ts) removes records through their owner.
export { deleteRecordsOfStudentsExitedBefore } from './absence-queries.ts';
export { clockHours, recordHistoryUnchecked } from './reports.ts';
