import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  attendanceRowSchema,
  meetingToReviewSchema,
  qrImageSchema,
  qrSessionSchema,
  startCheckSchema,
  startedSessionSchema,
  type AttendanceRow,
  type QrSession,
  type StartCheck,
} from '../../../common/attendance.ts';
import { checkInFlagSchema, type CheckInFlag, type FlagDecision } from '../../../common/check-in-flags.ts';
import { ATTENDANCE_STATUS_LABELS, REALTIME_REFRESH_MS, type AttendanceStatus } from '../../../common/constants.ts';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { apiParse, apiRequest, readErrorBody } from '../../lib/api.ts';
import { serverNow } from '../../lib/server-clock.ts';
import { TODAYS_CLASSES_KEY } from '../../lib/todays-classes.ts';

/**
 * Query hooks of the Take Attendance screen, one per endpoint (server/modules/qr-sessions and
 * attendance). Answers are parsed with the shared contract in common/; the schedule list it picks
 * from is lib/shared-queries.ts.
 */

type QrImage = z.infer<typeof qrImageSchema>;

export const ACTIVE_SESSIONS_KEY = ['/api/qr-sessions/active'] as const;
const qrImageKey = (sessionId: string) => ['/api/qr-sessions', sessionId, 'qr-image'] as const;
/** Prefix of every roster query of a schedule (any date), for invalidation. */
export const rosterKey = (scheduleId: number) => ['/api/attendance/schedule', scheduleId] as const;

export function useActiveSessions() {
  return useQuery<QrSession[]>({
    queryKey: ACTIVE_SESSIONS_KEY,
    queryFn: () => apiParse(z.array(qrSessionSchema), 'GET', '/api/qr-sessions/active'),
    // Sessions expire on their own: a screen opened again must not list yesterday's.
    refetchOnMount: 'always',
  });
}

/** A session still takes scans until its expiry (or until it is ended, which drops it from the list). */
export const isOpen = (s: Pick<QrSession, 'expiresAt'>, now = serverNow()): boolean => Date.parse(s.expiresAt) > now;

// The token in the QR changes every 15 s. Fetch the next image right as it rotates; never wait
// longer than the rotation step, whatever the clocks say.
const ROTATE_FALLBACK_MS = 15_000;

function msUntilRotation(image: QrImage | undefined): number {
  if (!image) return ROTATE_FALLBACK_MS;
  const wait = Date.parse(image.rotatesAt) - serverNow() + 250;
  return Math.min(ROTATE_FALLBACK_MS, Math.max(1000, Number.isNaN(wait) ? ROTATE_FALLBACK_MS : wait));
}

export const isGone = (error: unknown): boolean => /^(404|410): /.test(error instanceof Error ? error.message : '');

/**
 * The current QR image of a session, refetched as its token rotates. 410 means the session ended
 * or expired: not a failure worth a toast; the caller shows the session as over. Other failures
 * toast once (SPEC §8) and are retried every few seconds, since a frozen code is useless.
 */
export function useQrImage(sessionId: string | null) {
  const queryClient = useQueryClient();
  const key = qrImageKey(sessionId ?? '');
  return useQuery<QrImage>({
    queryKey: key,
    queryFn: async () => {
      try {
        return await apiParse(qrImageSchema, 'GET', `/api/qr-sessions/${encodeURIComponent(sessionId ?? '')}/qr-image`);
      } catch (error) {
        const failingAlready = queryClient.getQueryState(key)?.status === 'error';
        if (!isGone(error) && !failingAlready) notifyFailure(error, 'Failed to generate QR code. Please try again.', 'QR Code Error');
        throw error;
      }
    },
    enabled: sessionId != null,
    refetchInterval: (query) => (query.state.status === 'error' ? (isGone(query.state.error) ? false : 5000) : msUntilRotation(query.state.data)),
    // A projector tab brought back to the front must not show a code that rotated meanwhile.
    refetchOnWindowFocus: 'always',
  });
}

/**
 * The roster merged with one meeting's records (a session's date, else today on the server),
 * polled every 5 s while a session is live (SPEC §4).
 */
export function useRoster(scheduleId: number | null, date: string | null, live: boolean) {
  return useQuery<AttendanceRow[]>({
    queryKey: [...rosterKey(scheduleId ?? 0), date ?? 'today'],
    queryFn: () => apiParse(z.array(attendanceRowSchema), 'GET', `/api/attendance/schedule/${scheduleId}${date ? `?date=${date}` : ''}`),
    enabled: scheduleId != null,
    // Same class, other meeting key (a session started or ended): keep the rows on screen meanwhile.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === scheduleId ? previous : undefined),
    refetchInterval: live ? REALTIME_REFRESH_MS : false,
  });
}

/** GET /api/qr-sessions/start-check: whether the class meets now, asked before starting a session. */
export const fetchStartCheck = (scheduleId: number): Promise<StartCheck> =>
  apiParse(startCheckSchema, 'GET', `/api/qr-sessions/start-check?scheduleId=${scheduleId}`);

export function useStartSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (scheduleId: number): Promise<QrSession> => {
      const { warning: _warning, ...session } = await apiParse(startedSessionSchema, 'POST', '/api/qr-sessions', { scheduleId });
      return session;
    },
    onSuccess: (session) => {
      queryClient.setQueryData<QrSession[]>(ACTIVE_SESSIONS_KEY, (list) => [session, ...(list ?? []).filter((s) => s.id !== session.id)]);
      void queryClient.invalidateQueries({ queryKey: ACTIVE_SESSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: TODAYS_CLASSES_KEY });
      void queryClient.invalidateQueries({ queryKey: rosterKey(session.scheduleId) });
      notifySuccess('QR Session Started', `Students can check in to ${session.courseName} now.`);
    },
    onError: (error) => {
      // 409: this class already has an open session (perhaps from another tab): show it.
      if (/^409: /.test(error.message)) void queryClient.invalidateQueries({ queryKey: ACTIVE_SESSIONS_KEY });
      const specific = /^(403|409): /.test(error.message) ? readErrorBody(error).message : null;
      notifyFailure(error, specific ?? 'Failed to start QR session. Please try again.');
    },
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (session: Pick<QrSession, 'sessionId' | 'scheduleId'>) =>
      apiParse(qrSessionSchema, 'PUT', `/api/qr-sessions/${encodeURIComponent(session.sessionId)}/deactivate`),
    onSuccess: (ended) => {
      queryClient.setQueryData<QrSession[]>(ACTIVE_SESSIONS_KEY, (list) => (list ?? []).filter((s) => s.sessionId !== ended.sessionId));
      queryClient.removeQueries({ queryKey: qrImageKey(ended.sessionId) });
      void queryClient.invalidateQueries({ queryKey: ACTIVE_SESSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: TODAYS_CLASSES_KEY });
      void queryClient.invalidateQueries({ queryKey: rosterKey(ended.scheduleId) });
      notifySuccess('Session Ended', `${ended.courseName} no longer accepts check-ins.`);
    },
    onError: (error) => notifyFailure(error, 'Failed to end session. Please try again.'),
  });
}

export type OverrideInput = {
  row: AttendanceRow;
  scheduleId: number;
  status: Exclude<AttendanceStatus, 'incomplete'>;
  reason: string;
  scanInTime?: string;
  scanOutTime?: string;
};

/** PUT the record, or create one (POST) for a rostered student who has no record yet. */
export function useOverride() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ row, scheduleId, status, reason, scanInTime, scanOutTime }: OverrideInput) =>
      row.id == null
        ? apiParse(attendanceRowSchema, 'POST', '/api/attendance', {
            scheduleId,
            studentId: row.studentId,
            sessionDate: row.sessionDate,
            status,
            overrideReason: reason,
            scanInTime,
            scanOutTime,
          })
        : apiParse(attendanceRowSchema, 'PUT', `/api/attendance/${row.id}`, {
            status,
            isManualOverride: true,
            overrideReason: reason,
            scanInTime,
            scanOutTime,
          }),
    onSuccess: (updated, { scheduleId }) => {
      queryClient.setQueriesData<AttendanceRow[]>({ queryKey: rosterKey(scheduleId) }, (rows) =>
        rows?.map((r) => (r.studentId === updated.studentId && r.sessionDate === updated.sessionDate ? updated : r)),
      );
      void queryClient.invalidateQueries({ queryKey: rosterKey(scheduleId) });
      notifySuccess(
        'Attendance Updated',
        `${updated.firstName} ${updated.lastName} is now marked ${updated.status ? ATTENDANCE_STATUS_LABELS[updated.status] : 'Absent'}.`,
      );
    },
    onError: (error) => {
      // A date the class does not meet, a student not on the roster, a locked past meeting: worth saying exactly.
      const specific = refusalOf(error);
      notifyFailure(error, specific ?? 'Failed to update attendance record. Please try again.', 'Update Failed');
    },
  });
}

/**
 * Undo a check-out made by mistake (decision 039), in one action: the record is the check-in again; the
 * check-out stays in the record's history.
 */
export function useUndoCheckOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ row }: { row: AttendanceRow; scheduleId: number }) => apiParse(attendanceRowSchema, 'POST', `/api/attendance/${row.id}/undo-check-out`),
    onSuccess: (updated, { scheduleId }) => {
      queryClient.setQueriesData<AttendanceRow[]>({ queryKey: rosterKey(scheduleId) }, (rows) =>
        rows?.map((r) => (r.studentId === updated.studentId && r.sessionDate === updated.sessionDate ? updated : r)),
      );
      void queryClient.invalidateQueries({ queryKey: rosterKey(scheduleId) });
      const status = updated.status ? ATTENDANCE_STATUS_LABELS[updated.status] : 'Present';
      notifySuccess(
        'Check-out Undone',
        `${updated.firstName} ${updated.lastName} is checked in again (${status}); the check-out stays in the record's history.`,
      );
    },
    onError: (error) => notifyFailure(error, refusalOf(error) ?? 'Failed to undo the check-out. Please try again.', 'Update Failed'),
  });
}

/** The server's reason for refusing a change (400, 403, 409), for the screen to show as it is. */
export const refusalOf = (error: unknown): string | null =>
  error instanceof Error && /^(400|403|409): /.test(error.message) ? readErrorBody(error).message : null;

type FlagReviewInput = { flag: CheckInFlag; scheduleId: number; decision: FlagDecision; studentName: string };

/** The toast after a decision: a proxy verdict, or a scan made while marked absent accepted or dismissed. */
function reviewNotice({ flag, decision, studentName }: FlagReviewInput): [string, string] {
  if (decision === 'accept_scan') {
    const status = flag.evidence.scanStatus ?? 'present';
    return ['Attendance Updated', `${studentName} is now marked ${ATTENDANCE_STATUS_LABELS[status]}, checked in at the time of the scan.`];
  }
  if (flag.reason === 'scanned_after_override') return ['Scan Dismissed', `${studentName}'s record stays as it was.`];
  return decision === 'confirmed'
    ? ['Proxy Confirmed', `${studentName}'s check-in is marked as a proxy check-in.`]
    : ['Flag Cleared', `${studentName}'s check-in is marked as genuine.`];
}

/** Decide on a check-in flag (confirm, clear, accept a scan); the roster is read again to show it. */
export function useReviewFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flag, decision }: FlagReviewInput) => apiParse(checkInFlagSchema, 'POST', `/api/attendance/flags/${flag.id}/review`, { decision }),
    onSuccess: (_flag, input) => {
      void queryClient.invalidateQueries({ queryKey: rosterKey(input.scheduleId) });
      notifySuccess(...reviewNotice(input));
    },
    onError: (error) => notifyFailure(error, 'Failed to save the review. Please try again.'),
  });
}

// ---- Classes nobody took attendance at (decision 043) ----

const MEETINGS_TO_REVIEW_KEY = ['/api/attendance/meetings-to-review'] as const;

/** GET /api/attendance/meetings-to-review: the viewer's past meetings with nothing recorded. */
export function useMeetingsToReview() {
  return useQuery({ queryKey: MEETINGS_TO_REVIEW_KEY, queryFn: () => apiParse(z.array(meetingToReviewSchema), 'GET', '/api/attendance/meetings-to-review') });
}

/** POST /api/schedules/{id}/meetings/{date}/cancel: the class did not meet (never an absence). */
export function useCancelMeeting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scheduleId, date, reason }: { scheduleId: number; date: string; reason: string }) =>
      apiRequest('POST', `/api/schedules/${scheduleId}/meetings/${date}/cancel`, { reason }).then(() => undefined),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MEETINGS_TO_REVIEW_KEY }),
  });
}
