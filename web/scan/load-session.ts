import type { AttendanceSubmit, AttendanceSubmitResult, PublicSession } from '../../common/attendance.ts';
import { ApiError, apiJson, readErrorBody } from '../lib/api.ts';
import { noteServerReading } from '../lib/server-clock.ts';

/**
 * The public session (common/attendance.ts, SPEC §3) as this page keeps it: instants as ms, and
 * a body missing its optional parts still usable. Checked by hand and typed from the contract
 * with `import type`: zod itself would triple this bundle.
 */
export type ScanSession = Pick<PublicSession, 'sessionId' | 'courseName'> & {
  [K in 'courseCode' | 'roomNumber' | 'sessionDate' | 'startTime' | 'endTime' | 'pass']: PublicSession[K] | null;
} & { expiresAt: number; expired: boolean; passExpiresAt: number | null };

const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
const instant = (v: unknown) => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? null : t;
};

function asScanSession(body: unknown): ScanSession | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Partial<Record<keyof PublicSession, unknown>>;
  const sessionId = text(b.sessionId);
  const courseName = text(b.courseName);
  const expiresAt = instant(b.expiresAt);
  if (!sessionId || !courseName || expiresAt === null) return null;
  return {
    sessionId,
    courseName,
    expiresAt,
    courseCode: text(b.courseCode),
    roomNumber: text(b.roomNumber),
    sessionDate: text(b.sessionDate),
    startTime: text(b.startTime),
    endTime: text(b.endTime),
    expired: b.status === 'expired',
    pass: text(b.pass),
    passExpiresAt: instant(b.passExpiresAt),
  };
}

/**
 * GET the public session; SPEC §7 allows one retry. Any failure or unusable body is "not found".
 * The QR code's rotating token (`?t=`) is passed on: a fresh one is what lets this phone submit.
 * The answer's serverTime sets the server clock (lib/server-clock.ts): phone clocks are often wrong.
 */
export async function loadPublicSession(sessionId: string, token: string | null): Promise<ScanSession | null> {
  const query = token ? `?t=${encodeURIComponent(token)}` : '';
  const url = `/api/qr-sessions/public/${encodeURIComponent(sessionId)}${query}`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const sentAt = Date.now();
      const body = await apiJson<unknown>('GET', url);
      const serverTime = instant((body as { serverTime?: unknown } | null)?.serverTime);
      if (serverTime !== null) noteServerReading(serverTime, 1, sentAt, Date.now());
      return asScanSession(body);
    } catch (error) {
      // A 4xx answer is final; only a network error or 5xx is worth the one retry.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return null;
    }
  }
  return null;
}

export type Submission = Omit<AttendanceSubmit, 'scanInTime'>;

export type SubmitOutcome =
  | { ok: true; result: AttendanceSubmitResult }
  | { ok: false; status: number | null; message: string };

export const SUBMIT_FAILED = 'Failed to submit attendance';

/** POST the form. On failure, the server's message (SPEC §8) or 'Failed to submit attendance'. */
export async function submitAttendance(form: Submission): Promise<SubmitOutcome> {
  try {
    // The server serialises the answer with attendanceSubmitResultSchema.
    const result = await apiJson<AttendanceSubmitResult>('POST', '/api/attendance/submit', { ...form, scanInTime: new Date().toISOString() });
    return { ok: true, result };
  } catch (error) {
    const status = error instanceof ApiError ? error.status : null;
    const message = status !== null && status < 500 ? readErrorBody(error).message : null;
    return { ok: false, status, message: message ?? SUBMIT_FAILED };
  }
}
