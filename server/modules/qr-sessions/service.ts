// The module's door. Each concern in its file: a session's state and how one is found (sessions.ts),
// starting one (start.ts), running an open one (open-sessions.ts), the public check-in's way in
// (public-check-in.ts), the meeting's instructor-led breaks (breaks.ts).

// The public check-in's cookies, for this module's routes and the attendance submit route.
export {
  PUBLIC_RATE_LIMIT,
  SCAN_PAGES_PATH,
  TYPED_CODE_RATE_LIMIT,
  checkInDevice,
  passFromCookie,
  setPassCookie,
  type CheckInDevice,
} from './device-cookies.ts';
export type { PassFacts } from './tokens.ts';
export type { SessionRow } from './queries.ts';
export { closeExpiredSessions, findPublicSession, findSession, isSessionUuid, listRecentSessionMeetings, runnableSession, sessionClosing } from './sessions.ts';
export { startCheck, startSession } from './start.ts';
export { currentQrImage, endSession, extendSession, getSession, listActiveSessions, listActiveSessionsIn } from './open-sessions.ts';
export { admitToCheckIn, publicSession, sessionForTypedCode } from './public-check-in.ts';
export { endedMeetingBreaksOf, meetingBreakOf, toMeetingBreak } from './breaks.ts';
// Retention (server/jobs/retention.ts) removes old sessions through their owner.
export { deleteSessionsBefore } from './queries.ts';
