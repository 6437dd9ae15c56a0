import { z } from 'zod';

const health = z.enum(['healthy', 'warning', 'error']);
const severity = z.enum(['high', 'medium', 'low']);
const trend = z.enum(['up', 'down', 'flat']);

/**
 * The dashboard's alert figures, counted once (server/modules/attendance-alerts/rules.ts) and shown alike
 * on Overview, Live and Analytics (decision 048): open alerts (acknowledged ones left out), the
 * high-severity ones among them ("Critical Alerts"), and the students they name ("Students at Risk").
 */
export const alertCountsSchema = z.object({
  open: z.number().int(),
  high: z.number().int(),
  students: z.number().int(),
  /** Acknowledged alerts that still hold (saying what they said when acknowledged). */
  acknowledged: z.number().int(),
});
export type AlertCounts = z.infer<typeof alertCountsSchema>;

export const executiveSummarySchema = z.object({
  systemHealth: z.object({
    database: health,
    databaseLatencyMs: z.number().nullable(),
    server: health,
    sync: health,
    lastHealthCheck: z.string(),
  }),
  todayMetrics: z.object({
    attendanceRate: z.number(),
    studentsCheckedIn: z.number().int(),
    totalStudentsExpected: z.number().int(),
    activeQrSessions: z.number().int(),
    criticalAlerts: z.number().int(),
    pendingSyncRecords: z.number().int(),
  }),
  alerts: alertCountsSchema,
});

const alertSchema = z.object({
  id: z.string(),
  courseName: z.string(),
  courseCode: z.string(),
  severity,
  rule: z.enum(['course_rate', 'student_rate', 'consecutive_absences', 'cannot_reach_required']),
  message: z.string(),
  timestamp: z.string(),
  studentId: z.number().int().nullable(),
  scheduleId: z.number().int().nullable(),
  /** Whom a student's alert names ('First Last'), for the link to their page; null for a course's. */
  studentName: z.string().nullable(),
  courseId: z.number().int(),
});
export type Alert = z.infer<typeof alertSchema>;

/** An alert someone acknowledged, still holding: kept visible apart from the open ones, never lost. */
const acknowledgedAlertSchema = alertSchema.extend({
  acknowledgedAt: z.string(),
  acknowledgedBy: z.string().nullable(),
  note: z.string().nullable(),
});
export type AcknowledgedAlert = z.infer<typeof acknowledgedAlertSchema>;

/** An alert's id as the rules build it: `<rule>:<id>[:<id>]`. */
const alertIdSchema = z
  .string()
  .max(100)
  .regex(
    /^(course_rate|student_rate|consecutive_absences|cannot_reach_required)(:\d{1,10}){1,2}$/,
    'id must be an alert id such as consecutive_absences:12:34',
  );

/** POST /api/dashboard/alerts/{id}/acknowledge */
export const acknowledgeAlertParamsSchema = z.object({ id: alertIdSchema });
// The body is optional: a POST without one acknowledges without a note.
export const acknowledgeAlertSchema = z.object({ note: z.string().trim().max(500, 'note must be at most 500 characters').optional() }).nullish();
export const alertAcknowledgementSchema = z.object({ alertId: z.string(), reason: z.string(), acknowledgedAt: z.string(), note: z.string().nullable() });

export const realTimeSchema = z.object({
  activeSessions: z.array(
    z.object({
      id: z.number().int(),
      sessionId: z.string(),
      courseName: z.string(),
      courseCode: z.string(),
      status: z.enum(['active', 'expiring', 'expired']),
      instructorName: z.string().nullable(),
      location: z.string().nullable(),
      expiresAt: z.string(),
      startTime: z.string(),
      checkedInStudents: z.number().int(),
      expectedStudents: z.number().int(),
      attendanceRate: z.number(),
    }),
  ),
  /** The open alerts, most serious first (at most 50; `alertCounts.open` says how many there are). */
  alerts: z.array(alertSchema),
  alertCounts: alertCountsSchema,
  /** Acknowledged alerts that still hold, newest acknowledgement first (at most 50). */
  acknowledgedAlerts: z.array(acknowledgedAlertSchema),
  /** The viewer's own low-attendance alerts switch: off means `alerts` is empty by choice, not calm. */
  alertsOn: z.boolean(),
  systemLoad: z.number(),
  totalActiveStudents: z.number().int(),
  avgResponseTimeMs: z.number().nullable(),
  responseSamples: z.number().int(),
  generatedAt: z.string(),
});

export const analyticsSchema = z.object({
  attendanceTrends: z.array(z.object({ date: z.string(), attendanceRate: z.number(), presentStudents: z.number().int(), totalStudents: z.number().int() })),
  performanceMetrics: z.array(z.object({ metric: z.string(), current: z.number(), target: z.number(), unit: z.string(), trend })),
  courseAnalytics: z.array(
    z.object({
      courseId: z.number().int(),
      courseName: z.string(),
      courseCode: z.string(),
      riskLevel: severity,
      totalSessions: z.number().int(),
      avgAttendanceRate: z.number(),
      trend,
    }),
  ),
  userActivity: z.object({
    dailyLogins: z.number().int(),
    avgSessionDuration: z.number(),
    topActiveUsers: z.array(z.object({ name: z.string(), sessions: z.number().int() })),
  }),
  generatedAt: z.string(),
});

export const statsSchema = z.object({
  totalStudents: z.number().int(),
  enrolledStudents: z.number().int(),
  totalCourses: z.number().int(),
  activeCourses: z.number().int(),
  activeSchedules: z.number().int(),
  instructors: z.number().int(),
  classesToday: z.number().int(),
  attendanceRate30d: z.number(),
});

/** First-run checklist: what the school already has, from real rows. */
export const gettingStartedSchema = z.object({
  /** A person chose the school's time zone (at setup or in Settings), not the server's default. */
  timeZoneChosen: z.boolean(),
  timeZone: z.string(),
  /** Settings › System has the school's name (printed on time cards, reports and e-mails; decision 045). */
  schoolNamed: z.boolean(),
  programs: z.number().int(),
  courses: z.number().int(),
  students: z.number().int(),
  instructors: z.number().int(),
  schedules: z.number().int(),
  attendanceRecords: z.number().int(),
});
export type GettingStarted = z.infer<typeof gettingStartedSchema>;

export const recentAttendanceSchema = z.array(
  z.object({
    id: z.number().int(),
    studentId: z.number().int(),
    studentName: z.string(),
    courseCode: z.string(),
    courseName: z.string(),
    sessionDate: z.string(),
    status: z.string(),
    scanInTime: z.string().nullable(),
    scanOutTime: z.string().nullable(),
    source: z.string(),
  }),
);
