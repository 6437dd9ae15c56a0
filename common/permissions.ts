import type { Role } from './roles.ts';

/**
 * The one role × action table. The server enforces it on every /api route (onRequest hook);
 * the web app reads it only to hide what a role cannot do. Actions are `area:verb`.
 */
export const ACTIONS = [
  'dashboard:view',
  'attendance:take', // Take Attendance screen, QR sessions, roster, overrides
  'users:view',
  'users:manage',
  'students:view',
  'students:manage',
  'students:view-ssn',
  'students:export', // the Students screen's CSV of the filtered list (decision 033)
  'programs:view',
  'programs:manage',
  'courses:view',
  'courses:manage',
  'schedules:view',
  'schedules:manage',
  'data:manage', // imports, exports, wizard, file uploads
  'audit:view',
  'settings:view',
  'settings:edit-attendance',
  'settings:edit-notifications', // the caller's own notification switches
  'settings:edit-notification-defaults', // the school's defaults for users who have not chosen
  'settings:edit-security',
  'settings:edit-system',
  'backups:view', // the backup history, with hosts and paths
  'backups:run', // Back up now
  'calendar:view', // school closures
  'calendar:manage',
  'hours:view', // the clock-hour ledger, time cards, record history (instructors: their rosters' students)
  'hours:export', // the hours CSV of a program or the school
  'make-up:record', // make-up sessions (instructors: their rosters' students, supervised by themselves)
  'compliance:view', // the withdrawal watch, SAP, excused cap, make-up owed, the regulators' reports
  'leaves:manage', // record, end or extend a leave of absence
  'opening-balances:manage', // a student's hours from before the school kept attendance in Muster (decision 041)
  'withdrawals:manage', // record or reverse a withdrawal
  'users:reset-two-factor', // forget a user's authenticator so they enrol again
  'maintenance:manage', // post and remove maintenance notices
  'reports:preview', // send oneself a preview of the weekly report
  'operations:view', // e-mail and SMS delivery, the background jobs' history
  'operations:test-email', // send oneself a test e-mail
] as const;
export type Action = (typeof ACTIONS)[number];

const ALL: readonly Role[] = ['super_admin', 'it_admin', 'instructor', 'support_staff'];
const ADMINS: readonly Role[] = ['super_admin', 'it_admin'];

const PERMISSIONS: Record<Action, readonly Role[]> = {
  'dashboard:view': ALL,
  'attendance:take': ['super_admin', 'it_admin', 'instructor'],
  'users:view': ADMINS,
  'users:manage': ADMINS,
  // SPEC §6: the students screen needs only a sign-in; instructors read students for rosters.
  'students:view': ALL,
  'students:manage': ['super_admin', 'it_admin', 'support_staff'],
  'students:view-ssn': ADMINS,
  // Need-to-know: the roles SPEC §6 shows the Students screen to; instructors read their rosters, not a bulk file.
  'students:export': ['super_admin', 'it_admin', 'support_staff'],
  'programs:view': ALL,
  'programs:manage': ADMINS,
  'courses:view': ALL,
  'courses:manage': ADMINS,
  'schedules:view': ALL,
  'schedules:manage': ADMINS,
  'data:manage': ADMINS,
  'audit:view': ADMINS,
  'settings:view': ALL,
  'settings:edit-attendance': ADMINS,
  'settings:edit-notifications': ALL, // SPEC §6: notification switches are unrestricted (each user's own)
  'settings:edit-notification-defaults': ADMINS,
  'settings:edit-security': ['super_admin'],
  'settings:edit-system': ['super_admin'],
  'backups:view': ADMINS,
  'backups:run': ['super_admin'],
  'calendar:view': ALL,
  'calendar:manage': ADMINS,
  'hours:view': ALL,
  'hours:export': ['super_admin', 'it_admin', 'support_staff'],
  'make-up:record': ['super_admin', 'it_admin', 'instructor'],
  'compliance:view': ['super_admin', 'it_admin', 'support_staff'],
  'leaves:manage': ADMINS,
  'opening-balances:manage': ADMINS,
  'withdrawals:manage': ADMINS,
  'users:reset-two-factor': ['super_admin'],
  'maintenance:manage': ['super_admin'],
  'reports:preview': ADMINS,
  'operations:view': ADMINS,
  'operations:test-email': ADMINS,
};

export function can(role: Role | null | undefined, action: Action): boolean {
  return role != null && PERMISSIONS[action].includes(role);
}

/** Sidebar entries of SPEC §2 with the roles that see them (SPEC §6 menu table). */
export const NAV_ITEMS = [
  { label: 'Dashboard', path: '/', roles: ALL },
  { label: 'Take Attendance', path: '/attendance', roles: ['super_admin', 'it_admin', 'instructor'] },
  { label: 'User Management', path: '/users', roles: ADMINS },
  { label: 'Students', path: '/students', roles: ['super_admin', 'it_admin', 'support_staff'] },
  { label: 'Programs', path: '/programs', roles: ADMINS },
  { label: 'Hours', path: '/hours', roles: ['super_admin', 'it_admin', 'support_staff'] },
  { label: 'Compliance', path: '/compliance', roles: ['super_admin', 'it_admin', 'support_staff'] },
  { label: 'Courses', path: '/courses', roles: ADMINS },
  { label: 'Schedules', path: '/schedules', roles: ADMINS },
  { label: 'Data Management', path: '/data-management', roles: ADMINS },
  { label: 'Audit Logs', path: '/audit-logs', roles: ADMINS },
  { label: 'School Calendar', path: '/calendar', roles: ADMINS },
  { label: 'Settings', path: '/settings', roles: ['super_admin', 'it_admin', 'instructor'] },
] as const satisfies readonly { label: string; path: string; roles: readonly Role[] }[];

export function navItemsFor(role: Role): { label: string; path: string }[] {
  return NAV_ITEMS.filter((item) => (item.roles as readonly Role[]).includes(role));
}
