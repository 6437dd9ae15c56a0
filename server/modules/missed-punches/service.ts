/**
 * Missed-punch requests (docs/decisions/053). A student without an account asks, from the
 * e-mailed hours link (which names the student) or from the phone that checked in (its device
 * cookie), for the check-in or check-out they forgot: the time and why. The class instructor or an
 * administrator approves (the attendance module writes the punch, a correction flagged as an
 * exception) or declines. The student pages live in student-hours; this module decides.
 */

// The module's door: what a student may ask about (missed-meetings.ts), filing (filing.ts), staff's
// list and decisions (decisions.ts), exception rates (exception-rates.ts).
export { missedMeetingsOfDevice, missedMeetingsOfStudent, type MissedMeeting } from './missed-meetings.ts';
export { fileMissedPunch, type Filer, type FilingProblem } from './filing.ts';
export { approveMissedPunch, declineMissedPunch, listMissedPunchRequests } from './decisions.ts';
export { exceptionRates, studentExceptions } from './exception-rates.ts';
