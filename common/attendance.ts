import { z } from 'zod';
import { ATTENDANCE_STATUSES, OVERRIDE_STATUSES } from './constants.ts';
import { dbId, isoDate, isoDateTime, queryDate, tokenText } from './validation.ts';

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
export type PublicSession = z.infer<typeof publicSessionSchema>;

/** The `t` of a scan URL or the typed six digits (with an optional space): base64url and spaces only. */
const qrToken = (label: string) => tokenText(label, { max: 100, min: 0, extra: ' ' });
export const publicSessionQuerySchema = z.object({ t: qrToken('t').optional() });

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
});
export type AttendanceSubmit = z.infer<typeof attendanceSubmitSchema>;

export const attendanceSubmitResultSchema = z.object({
  message: z.string(),
  action: z.enum(['checked_in', 'checked_out', 'already_recorded']),
  status: z.enum(ATTENDANCE_STATUSES),
  courseName: z.string(),
  scanInTime: z.string().nullable(),
  scanOutTime: z.string().nullable(),
  minutesAttended: z.number().int().nullable(),
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
});
export type AttendanceRow = z.infer<typeof attendanceRowSchema>;

export const OVERRIDE_VALIDATION = 'Validation Error: Please select a status and provide a reason for the override.';

export const overrideSchema = z.object({
  status: z.enum(OVERRIDE_STATUSES, { error: OVERRIDE_VALIDATION }),
  isManualOverride: z.boolean().optional(),
  overrideReason: z.string({ error: OVERRIDE_VALIDATION }).trim().min(1, OVERRIDE_VALIDATION).max(500),
});

export const manualRecordSchema = overrideSchema.extend({
  scheduleId: dbId('scheduleId'),
  studentId: dbId('studentId'),
  sessionDate: isoDate('sessionDate').optional(),
});

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
export const SCAN_STALE_CODE = 'This QR code is no longer current. Scan the code on the classroom screen again.';
export const SCAN_NO_MATCH = "We couldn't match these details to a student in this class. Check your student ID and name, or ask your instructor.";
export const SCAN_DEVICE_USED = 'This device has already been used to check in another student for this class. Each student must use their own phone.';
export const SCAN_CODE_NO_MATCH = "That code doesn't match a class running now. Check the six digits on the classroom screen; they change every 15 seconds.";
/** A typed code that is wrong, and a right one with details that match no student, get this one answer. */
export const SCAN_CODE_OR_DETAILS =
  "We couldn't check you in with that code and these details. Type the code on the classroom screen now (it changes every 15 seconds) and check your student ID and name.";
export const SCAN_TOO_MANY_CODES =
  'Too many wrong codes have been typed from this network. Scan the QR code on the classroom screen instead, or ask your instructor to mark you present.';
export const typedCodeSchema = z.object({ code: z.string().trim().regex(/^\d{3}\s?\d{3}$/, 'Enter the six digits shown on the classroom screen') });
export const typedCodeResultSchema = z.object({ sessionId: z.string(), courseName: z.string(), pass: z.string(), passExpiresAt: z.string() });
export const SESSION_ALREADY_OPEN = 'A session is already open for this class. End it before starting a new one.';
