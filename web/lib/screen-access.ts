import { ATTENDANCE_ACCESS_DENIED, AUDIT_LOGS_ACCESS_DENIED, DATA_MANAGEMENT_ACCESS_DENIED, roleAccessDenied } from '../../common/messages.ts';
import { NAV_ITEMS, can } from '../../common/permissions.ts';
import type { Role } from '../../common/roles.ts';

export type ScreenKey =
  | 'dashboard'
  | 'attendance'
  | 'users'
  | 'students'
  | 'programs'
  | 'calendar'
  | 'courses'
  | 'schedules'
  | 'data-management'
  | 'audit-logs'
  | 'settings'
  | 'student'
  | 'hours'
  | 'compliance';

type ScreenRule = { allows: (role: Role) => boolean; deniedMessage: (role: Role) => string };

function navRoles(path: (typeof NAV_ITEMS)[number]['path']): readonly Role[] {
  return NAV_ITEMS.find((item) => item.path === path)?.roles ?? [];
}

/**
 * SPEC §6 screen-level checks, read from the shared permission table (common/permissions.ts).
 * The server refuses the same roles; this only decides what the screen shows.
 */
export const SCREEN_ACCESS: Record<ScreenKey, ScreenRule> = {
  dashboard: { allows: (r) => can(r, 'dashboard:view'), deniedMessage: (r) => roleAccessDenied(r, 'view the dashboard') },
  attendance: { allows: (r) => can(r, 'attendance:take'), deniedMessage: () => ATTENDANCE_ACCESS_DENIED },
  users: { allows: (r) => can(r, 'users:view'), deniedMessage: (r) => roleAccessDenied(r, 'manage users') },
  // The Students screen is the record-keeping screen of its menu entry's roles; instructors read
  // students only through their own rosters.
  students: { allows: (r) => navRoles('/students').includes(r), deniedMessage: (r) => roleAccessDenied(r, 'view students') },
  programs: { allows: (r) => can(r, 'programs:manage'), deniedMessage: (r) => roleAccessDenied(r, 'manage programs') },
  calendar: { allows: (r) => can(r, 'calendar:manage'), deniedMessage: (r) => roleAccessDenied(r, 'manage the school calendar') },
  courses: { allows: (r) => can(r, 'courses:manage'), deniedMessage: (r) => roleAccessDenied(r, 'manage courses') },
  schedules: { allows: (r) => can(r, 'schedules:manage'), deniedMessage: (r) => roleAccessDenied(r, 'manage schedules') },
  'data-management': { allows: (r) => can(r, 'data:manage'), deniedMessage: () => DATA_MANAGEMENT_ACCESS_DENIED },
  'audit-logs': { allows: (r) => can(r, 'audit:view'), deniedMessage: () => AUDIT_LOGS_ACCESS_DENIED },
  settings: { allows: (r) => can(r, 'settings:view'), deniedMessage: (r) => roleAccessDenied(r, 'view settings') },
  // One student's page: the Students screen's roles reach any student, instructors the students
  // of their own rosters; the server answers 404/403 for the rest and the page says so.
  student: { allows: (r) => can(r, 'hours:view'), deniedMessage: (r) => roleAccessDenied(r, 'view student records') },
  hours: { allows: (r) => navRoles('/hours').includes(r), deniedMessage: (r) => roleAccessDenied(r, 'view the hours ledger') },
  compliance: { allows: (r) => can(r, 'compliance:view'), deniedMessage: (r) => roleAccessDenied(r, 'view compliance') },
};
