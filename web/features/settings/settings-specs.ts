import { attendanceSettingsSchema, securitySettingsSchema, systemSettingsSchema } from '../../../common/settings.ts';
import { CHECK_OUT_GRACE_MINUTES } from '../../../common/qr-sessions-limits.ts';
import type { GroupSpec } from './group-form.tsx';

const A = attendanceSettingsSchema.shape;
const S = securitySettingsSchema.shape;
const Y = systemSettingsSchema.shape;

/** SPEC §3 groups with the texts of each tab; ranges and messages come from common/settings.ts. */
export const ATTENDANCE: GroupSpec = {
  group: 'attendance',
  title: 'Attendance Rules',
  description: 'How check-ins are timed and marked. Changes apply to sessions started from now on.',
  savedText: 'Attendance settings have been updated successfully.',
  integers: {
    lateThresholdMinutes: {
      label: 'Late threshold (minutes)',
      subject: 'Late threshold',
      unit: 'minutes',
      schema: A.lateThresholdMinutes,
      help: 'A check-in later than class start plus this is late.',
    },
    earlyLeaveThresholdMinutes: {
      label: 'Early-leave threshold (minutes)',
      subject: 'Early-leave threshold',
      unit: 'minutes',
      schema: A.earlyLeaveThresholdMinutes,
      help: 'A check-out earlier than class end minus this is incomplete.',
    },
    // docs/decisions/042: a session lasts its class; this is the length of one started off schedule.
    qrCodeExpirationMinutes: {
      label: 'Off-schedule QR code expiration (minutes)',
      subject: 'QR code expiration',
      unit: 'minutes',
      schema: A.qrCodeExpirationMinutes,
      help: `A session started during its class stays open until the class ends, plus ${CHECK_OUT_GRACE_MINUTES} minutes for check-out. One started off schedule (another day or hour) stays open this long, and no session closes sooner.`,
    },
    autoMarkAbsentHours: {
      label: 'Auto-mark absent after (hours)',
      subject: 'Auto-mark absent',
      unit: 'hours',
      schema: A.autoMarkAbsentHours,
      help: 'After class ends, students still missing are marked absent.',
    },
  },
  switches: {
    // docs/decisions/046: off by default, and the label says it does nothing yet.
    enableBluetoothVerification: {
      label: 'Bluetooth verification (not available yet)',
      description:
        'Does nothing yet: Muster has no Bluetooth proximity check, so check-ins are never verified by Bluetooth, on or off. The switch is kept for when it exists.',
    },
    allowInstructorOverride: { label: 'Instructor override', description: 'Let instructors change a student’s status, with a required reason.' },
  },
  timeZone: { label: 'School time zone', hint: 'Session dates, class times and late marks use this zone.' },
  dates: {
    recordsStartDate: {
      label: 'Keep attendance from',
      hint: "For a school that starts using Muster mid-program: before this date nothing is scheduled or absent, and each student's hours are their opening balance (Hours tab). Blank: since each student's start.",
    },
  },
};

export const NOTIFICATIONS: GroupSpec = {
  group: 'notifications',
  title: 'Your notifications',
  description: "These switches are yours: they change what you are alerted about and sent, not anyone else's.",
  savedText: 'Notification settings have been updated successfully.',
  integers: {},
  switches: {
    emailNotifications: { label: 'Email notifications', description: 'Send me e-mail from Muster at all. Off: no e-mail, whatever the switches below say.' },
    smsNotifications: {
      label: 'SMS notifications',
      description: 'Staff are not sent text messages; the school default below decides whether students get absence texts.',
    },
    weeklyReports: {
      label: 'Weekly reports',
      description: 'Administrators: e-mail me the weekly report on Mondays at 07:00 school time (other roles are not sent it).',
    },
    lowAttendanceAlerts: {
      label: 'Low attendance alerts',
      description:
        'Show me alerts on the dashboard, and e-mail me when a rule newly fires for a student of my classes (administrators: any student), at most once a week per rule.',
    },
    systemMaintenanceNotices: {
      label: 'System maintenance notices',
      description: 'E-mail me when the Super Administrator announces maintenance (the banner shows to everyone).',
    },
  },
};

/** Settings › Notifications, second section (super_admin, it_admin): the school's defaults. */
export const NOTIFICATION_DEFAULTS: GroupSpec = {
  group: 'notifications',
  target: 'notification-defaults',
  formId: 'notification-defaults',
  saveLabel: 'Save School Defaults',
  title: 'School defaults',
  description: "What applies to people who have not chosen their own switches. Nobody's own choice is changed.",
  savedText: 'School notification defaults have been updated successfully.',
  integers: {},
  // Labels unlike the personal ones: each switch on the tab keeps one accessible name.
  switches: {
    emailNotifications: { label: 'E-mail by default', description: 'For people who have not chosen: e-mail notices.' },
    smsNotifications: {
      label: 'Text messages by default',
      description: 'School-wide: text students their absence notice (programs that copy the student; needs an SMS provider).',
    },
    weeklyReports: { label: 'Weekly summary by default', description: 'For administrators who have not chosen: the Monday weekly report.' },
    lowAttendanceAlerts: { label: 'Alerts by default', description: 'For people who have not chosen: low-attendance alerts on the dashboard and by e-mail.' },
    systemMaintenanceNotices: { label: 'Maintenance announcements by default', description: 'For people who have not chosen: maintenance announcements.' },
  },
};

export const SECURITY: GroupSpec = {
  group: 'security',
  title: 'Security',
  description: 'Sign-in sessions, passwords and the audit trail.',
  // SPEC §8 names three texts; the Security tab shares the System one.
  savedText: 'System settings have been updated successfully.',
  integers: {
    sessionTimeoutMinutes: {
      label: 'Session timeout (minutes)',
      subject: 'Session timeout',
      unit: 'minutes',
      schema: S.sessionTimeoutMinutes,
      help: 'Idle time after which a user must sign in again.',
    },
    sessionLifetimeHours: {
      label: 'Session lifetime (hours)',
      subject: 'Session lifetime',
      unit: 'hours',
      schema: S.sessionLifetimeHours,
      help: 'However active, a sign-in ends this long after it began.',
    },
    passwordMaxAgeDays: {
      label: 'Password age (days)',
      subject: 'Password age',
      unit: 'days',
      schema: S.passwordMaxAgeDays,
      help: 'With "Require password change" on, a password older than this must be replaced at the next sign-in.',
    },
  },
  switches: {
    requirePasswordChange: {
      label: 'Require password change',
      description:
        'At sign-in, an account whose password an administrator set, or older than the password age below, must choose a new one before anything else.',
    },
    twoFactorAuthentication: {
      label: 'Two-factor authentication',
      description:
        'Every account signing in with a password sets up an authenticator app (QR code, ten recovery codes) and gives a six-digit code at each sign-in. Accounts that set one up keep being asked if you turn this off.',
    },
    localSignInDisabled: {
      label: 'Single sign-on only',
      description:
        'Staff sign in with the school’s accounts (OpenID Connect); only the Super Administrator keeps a password. Can be turned on only once single sign-on is configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET).',
    },
    enableAuditLogging: { label: 'Audit logging', description: 'Record routine data changes. Sign-ins, settings and user changes are always recorded.' },
  },
};

export const SYSTEM: GroupSpec = {
  group: 'system',
  title: 'Data & Uploads',
  description: 'How long records are kept and how large an upload may be.',
  savedText: 'System settings have been updated successfully.',
  integers: {
    dataRetentionYears: {
      label: 'Data retention (years)',
      subject: 'Data retention',
      unit: 'years',
      schema: Y.dataRetentionYears,
      help: 'Records older than this are removed by the retention job.',
    },
    maxFileUploadSizeMB: {
      label: 'Maximum upload size (MB)',
      subject: 'Maximum upload size',
      unit: 'MB',
      schema: Y.maxFileUploadSizeMB,
      help: 'The largest CSV file an import accepts.',
    },
    backupsToKeep: {
      label: 'Backups to keep',
      subject: 'Backups to keep',
      unit: 'backups',
      schema: Y.backupsToKeep,
      help: 'Older backup files in the backups folder are removed after each backup.',
    },
  },
  times: {
    backupTimeOfDay: { label: 'Nightly backup time', hint: 'School time; the backup runs once a day after this time, on one instance.' },
  },
  texts: {
    schoolName: { label: 'School name', hint: 'Printed on time cards and the monthly hours report.', maxLength: 200 },
  },
  switches: {},
};
