// Flags on public check-ins (decision 006): their reasons, evidence, statuses and review; re-exported by common/attendance.ts.
import { z } from 'zod';
import { ATTENDANCE_STATUSES } from './constants.ts';
import { dbId } from './validation.ts';

// Flags on public check-ins for the instructor: "possible proxy" (docs/decisions/006-proxy-check-ins.md),
// and a scan by a student whose record of the meeting already said they were not there (004).
const PROXY_FLAG_REASONS = ['shared_browser', 'dropped_cookie'] as const;
export const CHECK_IN_FLAG_REASONS = [...PROXY_FLAG_REASONS, 'scanned_after_override'] as const;
/** `accepted`: the scan was accepted and the record set to what it would have given. */
export const CHECK_IN_FLAG_STATUSES = ['flagged', 'confirmed', 'cleared', 'accepted'] as const;
export type CheckInFlagReason = (typeof CHECK_IN_FLAG_REASONS)[number];
export type CheckInFlagStatus = (typeof CHECK_IN_FLAG_STATUSES)[number];
export const isProxyFlagReason = (reason: CheckInFlagReason): boolean => (PROXY_FLAG_REASONS as readonly string[]).includes(reason);
/** Check-ins from one address and browser signature this close together are flagged together. */
export const SHARED_BROWSER_WINDOW_MINUTES = 3;
/**
 * Students new to Muster (a first meeting): one check-in followed another "as one phone would" when
 * its page was opened at most this long after the other was sent (docs/decisions/044).
 */
export const ONE_AFTER_ANOTHER_SECONDS = 60;

/** What was seen, as stored with the flag and written to the audit log when it is raised. */
export const checkInFlagEvidenceSchema = z.object({
  /** When this check-in arrived (server clock). */
  checkedInAt: z.string(),
  ipAddress: z.string().nullable(),
  /** The first 12 hex digits of the browser signature (SHA-256 of what the browser says about itself). */
  signature: z.string(),
  /** shared_browser: the other check-ins of this QR session from that address and signature, in the window. */
  otherRecordIds: z.array(z.number().int()).optional(),
  otherCheckedInAt: z.array(z.string()).optional(),
  windowMinutes: z.number().int().optional(),
  /** dropped_cookie: the device cookie was missing at check-in, or another one than the pass was issued to. */
  deviceCookie: z.enum(['missing', 'replaced']).optional(),
  /** dropped_cookie, and shared_browser one after another: when the scan page this browser submitted from was given its pass. */
  passIssuedAt: z.string().nullable().optional(),
  /**
   * shared_browser between students new to Muster: the check-ins came one after another, as one phone
   * makes them (never open at once, the next page opened soon after the previous was sent, nobody else
   * from that address and browser in between or in the window before).
   */
  oneAfterAnother: z.boolean().optional(),
  /** oneAfterAnother: seconds from the earlier check-in being sent to the later one's page being opened. */
  gapSeconds: z.number().int().optional(),
  /** scanned_after_override: the first 12 hex digits of SHA-256 of the scanning browser's device cookie. */
  device: z.string().optional(),
  /** scanned_after_override: the status that stood when the student scanned. */
  standingStatus: z.enum(ATTENDANCE_STATUSES).optional(),
  /** scanned_after_override: what the scan would have given (the school's late threshold at that time). */
  scanStatus: z.enum(['present', 'late']).optional(),
  /** scanned_after_override: the scan's time of day on the school's clock, HH:MM. */
  localTime: z.string().optional(),
});
export type CheckInFlagEvidence = z.infer<typeof checkInFlagEvidenceSchema>;

export const checkInFlagSchema = z.object({
  id: z.number().int(),
  attendanceRecordId: z.number().int(),
  reason: z.enum(CHECK_IN_FLAG_REASONS),
  status: z.enum(CHECK_IN_FLAG_STATUSES),
  evidence: checkInFlagEvidenceSchema,
  /** The students of evidence.otherRecordIds, for the instructor reading the evidence. */
  otherStudents: z.array(z.object({ recordId: z.number().int(), studentId: z.number().int(), name: z.string() })),
  raisedAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
});
export type CheckInFlag = z.infer<typeof checkInFlagSchema>;

/** POST /api/attendance/flags/:flagId/review */
export const flagReviewParamsSchema = z.object({ flagId: dbId('flagId') });
/** confirmed / cleared: a proxy flag's verdict (cleared also dismisses a scan flag); accept_scan: a scan flag's correction. */
const FLAG_DECISIONS = ['confirmed', 'cleared', 'accept_scan'] as const;
export const flagReviewSchema = z.object({
  decision: z.enum(FLAG_DECISIONS, { error: 'decision must be confirmed, cleared or accept_scan' }),
});
export type FlagDecision = z.infer<typeof flagReviewSchema>['decision'];
/** The flag's status after each decision. */
export const FLAG_STATUS_AFTER: Record<FlagDecision, CheckInFlagStatus> = { confirmed: 'confirmed', cleared: 'cleared', accept_scan: 'accepted' };
