// Business constants and limits of SPEC §9.
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/**
 * A program's clock hours and a course's, wherever they are entered: import, API, form, and (for a
 * program) its clock-hour policy's programHours, the same figure (docs/decisions/040).
 */
export const PROGRAM_HOURS = { min: 1, max: 10_000, step: 0.5 } as const;
export const COURSE_HOURS = { min: 1, max: 2_000, step: 0.5 } as const;
/** SPEC's documented ranges (programs 50–350; courses 1–120 imported, 50–150 typed): outside them is a warning, never a refusal (decision 040). */
export const SPEC_PROGRAM_HOURS = { min: 50, max: 350 } as const;
export const SPEC_COURSE_HOURS = { min: 1, max: 150 } as const;
export const COHORT = { min: 1, max: 30 } as const;
export const TERM = { min: 1, max: 4 } as const;
export const DAY_OF_WEEK = { min: 0, max: 6 } as const;
export const ATTENDANCE_STATUSES = ['present', 'late', 'absent', 'incomplete', 'excused'] as const;
export type AttendanceStatus = (typeof ATTENDANCE_STATUSES)[number];
/** How a status reads on screen and in the scan page's answers. */
export const ATTENDANCE_STATUS_LABELS: Record<AttendanceStatus, string> = {
  present: 'Present',
  late: 'Late',
  absent: 'Absent',
  incomplete: 'Incomplete',
  excused: 'Excused',
};
export const OVERRIDE_STATUSES = ['present', 'late', 'absent', 'excused'] as const;
export const ATTENDANCE_SOURCES = ['qr', 'manual', 'auto'] as const;
export const SYNC_STATUSES = ['pending', 'synced', 'failed', 'manual'] as const;
export const PROGRAM_STATUSES = ['active', 'inactive', 'suspended'] as const;
export const CREDENTIAL_TYPES = ['Certificate', 'Diploma', 'Associate Degree'] as const;
export const COURSE_CATEGORIES = ['Core', 'Elective', 'Clinical'] as const;
export const EMPLOYMENT_TYPES = ['Full-time', 'Part-time', 'Adjunct'] as const;
export const STUDENT_STATUSES = [
  'enrolled',
  'active',
  'loa', // on an approved leave of absence (decision 016)
  'suspended',
  'withdrawn',
  'graduated',
  'inactive',
] as const;
export type StudentStatus = (typeof STUDENT_STATUSES)[number];
export const UPLOAD_TYPES = ['programs', 'courses', 'instructors', 'students', 'schedules'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

export const REALTIME_REFRESH_MS = 5000;
export const ANALYTICS_STALE_MS = 60000;
export const UNAUTHORIZED_REDIRECT_MS = 500;
export const TOAST_DURATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1000000;

/** Minimum cumulative attendance schools typically require (DOMAIN.md: 80–90 %); alerts use it. */
export const REQUIRED_ATTENDANCE_PERCENT = 80;
/** Statuses that count as attended for rates (minutes come from the record itself). */
export const ATTENDED_STATUSES = ['present', 'late', 'incomplete'] as const;
export const isAttendedStatus = (status: string): boolean => (ATTENDED_STATUSES as readonly string[]).includes(status);
