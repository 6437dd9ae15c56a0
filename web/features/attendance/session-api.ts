import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QrSession } from '../../../common/attendance.ts';
import {
  EXTEND_STEP_MINUTES,
  meetingBreakAnswerSchema,
  qrSessionAnswerSchema,
  qrSessionDetailSchema,
  type MeetingBreakAnswer,
  type QrSessionDetail,
} from '../../../common/qr-sessions.ts';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { apiParse, readErrorBody } from '../../lib/api.ts';
import { formatLocalTime } from '../../lib/format.ts';
import { TODAYS_CLASSES_KEY } from '../../lib/todays-classes.ts';
import { ACTIVE_SESSIONS_KEY, rosterKey } from './attendance-api.ts';

/**
 * One QR session's own reads and its extension (server/modules/qr-sessions; docs/decisions/042):
 * the projector follows its session, open or closed, and both it and the session panel offer
 * Extend before the session closes. The panel also sends the class on a break and ends it
 * (server/modules/meeting-breaks; docs/decisions/052).
 */

export const sessionKey = (sessionId: string) => ['/api/qr-sessions', sessionId] as const;

// Read again this often, so an extension or End Session made on another screen shows here.
const FOLLOW_MS = 30_000;

/** GET /api/qr-sessions/{id}: the session, open or closed (`closed`: ended by the instructor, or expired), with its meeting's break. */
export function useSession(sessionId: string | null) {
  return useQuery<QrSessionDetail>({
    queryKey: sessionKey(sessionId ?? ''),
    queryFn: () => apiParse(qrSessionDetailSchema, 'GET', `/api/qr-sessions/${encodeURIComponent(sessionId ?? '')}`),
    enabled: sessionId != null,
    refetchInterval: (query) => (query.state.data?.closed || query.state.status === 'error' ? false : FOLLOW_MS),
    refetchOnWindowFocus: 'always',
    retry: (count, error) => !/^(403|404): /.test(error.message) && count < 2,
  });
}

/** The server's message for a refused extension (400, 403, 409, 410), else null. */
const refusalOf = (error: unknown): string | null =>
  error instanceof Error && /^(400|403|409|410): /.test(error.message) ? readErrorBody(error).message : null;

/** POST /api/qr-sessions/{id}/extend: EXTEND_STEP_MINUTES more for an open session. */
export function useExtendSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (session: Pick<QrSession, 'sessionId'>) =>
      apiParse(qrSessionAnswerSchema, 'POST', `/api/qr-sessions/${encodeURIComponent(session.sessionId)}/extend`, { minutes: EXTEND_STEP_MINUTES }),
    onSuccess: (extended) => {
      queryClient.setQueryData<QrSession[]>(ACTIVE_SESSIONS_KEY, (list) => list?.map((s) => (s.sessionId === extended.sessionId ? extended : s)));
      queryClient.setQueryData<QrSessionDetail>(sessionKey(extended.sessionId), (before) => ({ ...extended, meetingBreak: before?.meetingBreak ?? null }));
      void queryClient.invalidateQueries({ queryKey: ACTIVE_SESSIONS_KEY });
      void queryClient.invalidateQueries({ queryKey: TODAYS_CLASSES_KEY });
      notifySuccess('Session Extended', `${extended.courseName} now closes at ${formatLocalTime(extended.expiresAt)}.`);
    },
    onError: (error, session) => {
      void queryClient.invalidateQueries({ queryKey: sessionKey(session.sessionId) });
      notifyFailure(error, refusalOf(error) ?? 'Failed to extend the session. Please try again.', 'Extend Failed');
    },
  });
}

type BreakTarget = Pick<QrSession, 'sessionId' | 'scheduleId' | 'courseName'>;

/** After a break starts or ends: the session read shows it, the roster its students (out, or back). */
function useBreakMutation(
  request: (session: BreakTarget) => Promise<MeetingBreakAnswer>,
  done: (answer: MeetingBreakAnswer, session: BreakTarget) => void,
  failure: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (answer, session) => {
      queryClient.setQueryData<QrSessionDetail>(sessionKey(session.sessionId), (before) => before && { ...before, meetingBreak: answer.meetingBreak });
      void queryClient.invalidateQueries({ queryKey: sessionKey(session.sessionId) });
      void queryClient.invalidateQueries({ queryKey: rosterKey(session.scheduleId) });
      done(answer, session);
    },
    onError: (error, session) => {
      // 409: another screen started or ended it already; show the truth.
      void queryClient.invalidateQueries({ queryKey: sessionKey(session.sessionId) });
      notifyFailure(error, refusalOf(error) ?? failure, 'Break Failed');
    },
  });
}

const studentsOut = (n: number) => (n === 1 ? '1 student is' : `${n} students are`);

/** POST /api/qr-sessions/{id}/break: everyone checked in is checked out until the break ends. */
export const useStartBreak = () =>
  useBreakMutation(
    (session) => apiParse(meetingBreakAnswerSchema, 'POST', `/api/qr-sessions/${encodeURIComponent(session.sessionId)}/break`),
    (answer, session) => notifySuccess('Class On Break', `${studentsOut(answer.studentsOnBreak)} checked out of ${session.courseName} for the break.`),
    'Failed to start the break. Please try again.',
  );

/** POST /api/qr-sessions/{id}/break/end: students scan the code again to come back (the default window). */
export const useEndBreak = () =>
  useBreakMutation(
    (session) => apiParse(meetingBreakAnswerSchema, 'POST', `/api/qr-sessions/${encodeURIComponent(session.sessionId)}/break/end`, {}),
    (answer) => notifySuccess('Break Ended', `Students scan the code again to check back in, until ${formatLocalTime(answer.meetingBreak.recheckUntil)}.`),
    'Failed to end the break. Please try again.',
  );
