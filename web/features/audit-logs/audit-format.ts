import type { AuditEntry } from '../../../common/audit-logs.ts';
import type { BadgeTone } from '../../components/ui/badge.tsx';

const timestampFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

const datePart = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const timePart = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** The table cell's two lines: date, then time of day. */
export function timestampParts(iso: string): { date: string; time: string } {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? { date: iso, time: '' } : { date: datePart.format(t), time: timePart.format(t) };
}

export function formatTimestamp(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : timestampFormat.format(t);
}

/** SPEC §2: an entry without a user was made by the system. */
export function userLabel(e: Pick<AuditEntry, 'userId' | 'userName'>): string {
  if (e.userId == null) return 'System';
  return e.userName ?? `User #${e.userId}`;
}

export const ACTION_TONES: Record<string, BadgeTone> = {
  Create: 'green',
  Update: 'blue',
  Delete: 'red',
  Upload: 'violet',
  Login: 'slate',
  Logout: 'slate',
  Export: 'amber',
  Purge: 'red',
};

/** A failed sign-in is a Login entry whose new values say so. */
export function isFailedLogin(e: Pick<AuditEntry, 'action' | 'newValues'>): boolean {
  return e.action === 'Login' && typeof e.newValues === 'object' && e.newValues !== null && (e.newValues as { outcome?: unknown }).outcome === 'failed';
}

/** What each audit table holds, in words ("students" → "Student"); unknown tables fall back to words from their name. */
const TABLE_LABELS: Record<string, string> = {
  students: 'Student',
  courses: 'Course',
  programs: 'Program',
  program_policies: 'Program clock-hour policy',
  schedules: 'Class schedule',
  schedule_rosters: 'Class roster',
  attendance: 'Attendance record',
  users: 'User',
  user_notification_settings: 'Notification settings',
  login_sessions: 'Sign-in session',
  qr_sessions: 'QR session',
  check_in_flags: 'Check-in flag',
  make_up_sessions: 'Make-up session',
  student_leaves: 'Leave of absence',
  student_withdrawals: 'Withdrawal',
  student_opening_balances: 'Opening balance',
  calendar_closures: 'School closure',
  maintenance_notices: 'Maintenance notice',
  alert_acknowledgements: 'Alert acknowledgement',
  settings: 'Settings',
  wizard_progress: 'Setup wizard',
  audit_logs: 'Audit log',
  analytics: 'Analytics',
  retention: 'Data retention',
  backups: 'Backup',
  hours: 'Hours',
  time_card: 'Time card',
  sap_report: 'SAP report',
  monthly_hours_report: 'Monthly hours report',
  seed: 'Demo data',
};

/** Field names as people say them; the rest are turned into words (see humanize). */
const FIELD_LABELS: Record<string, string> = {
  scanInTime: 'Check-in time',
  scanOutTime: 'Check-out time',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail',
  studentId: 'Student',
  scheduleId: 'Class',
  courseId: 'Course',
  programId: 'Program',
  instructorId: 'Instructor',
  sessionDate: 'Meeting date',
  isManualOverride: 'Manual override',
  cohortNumber: 'Cohort',
  termNumber: 'Term',
  roomNumber: 'Room',
  isActive: 'Active',
  expiresAt: 'Closes at',
  attendanceRecordId: 'Attendance record',
  dob: 'Date of birth',
  ssn: 'Social Security number',
};

// Short words written in capitals wherever they appear in a name.
const ACRONYMS: Record<string, string> = {
  qr: 'QR',
  sis: 'SIS',
  id: 'ID',
  ids: 'IDs',
  sap: 'SAP',
  ip: 'IP',
  url: 'URL',
  sms: 'SMS',
  mb: 'MB',
  sso: 'SSO',
  totp: 'TOTP',
  csv: 'CSV',
  pdf: 'PDF',
};

/** 'qrCodeExpirationMinutes' or 'make_up_threshold' → 'QR code expiration minutes', 'Make up threshold'. */
function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .map((w) => ACRONYMS[w] ?? w);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The Table column and filter: "Student" for students. */
export function tableLabel(tableName: string): string {
  return TABLE_LABELS[tableName] ?? humanize(tableName);
}

/** A field of the details dialog: "Check-in time" for scanInTime; nested settings as "Notifications › Weekly reports". */
export function fieldLabel(path: string): string {
  return path
    .split('.')
    .map((part) => FIELD_LABELS[part] ?? humanize(part))
    .join(' › ');
}

/** The record an entry is about: its name when the server could give it, else its id ("#214"). */
export function recordLabel(e: Pick<AuditEntry, 'recordId' | 'recordName'>): string | null {
  if (e.recordName) return e.recordName;
  return e.recordId ? `#${e.recordId}` : null;
}
