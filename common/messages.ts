import { ROLE_LABELS, type Role } from './roles.ts';

/**
 * On-screen texts that SPEC.md fixes word for word (§2, §6, §8). Kept in one place so the web app,
 * the scan page and the browser tests quote the same strings.
 */
export const PRODUCT_NAME = 'Muster';
export const ATTENDANCE_SCREEN = 'Take Attendance';

export const ACCESS_DENIED = 'Access Denied';

export const ATTENDANCE_ACCESS_DENIED = `You don't have permission to access the attendance interface. Only instructors and administrators can ${ATTENDANCE_SCREEN}.`;
export const DATA_MANAGEMENT_ACCESS_DENIED =
  "You don't have permission to access data management. Only Super Administrators and IT Administrators can manage data.";
export const AUDIT_LOGS_ACCESS_DENIED =
  "You don't have permission to view audit logs. Only Super Administrators and IT Administrators can access audit information.";

/** SPEC §6: User Management names the viewer's role; courses, schedules and students follow suit. */
export function roleAccessDenied(role: Role, what: string): string {
  return `Your role (${ROLE_LABELS[role]}) does not have permission to ${what}.`;
}

export const UNAUTHORIZED_TITLE = 'Unauthorized';
export const UNAUTHORIZED_DESCRIPTION = 'You are logged out. Logging in again...';

export const PAGE_NOT_FOUND = 'Page Not Found';

export const SESSION_NOT_FOUND = 'Session Not Found';
/** The scan page's title when the record of the class says the student was not there (absent, excused). */
export const SEE_YOUR_INSTRUCTOR = 'See your instructor';
export const SESSION_NOT_FOUND_TEXT =
  'This attendance session is either expired, invalid, or does not exist. Please check with your instructor for a new QR code.';
export const SESSION_EXPIRED = 'Session Expired';
export const SESSION_EXPIRED_TEXT = 'This attendance session has expired. Please check with your instructor if you need to mark your attendance.';
