import { ApiError, apiJson, apiRequest, readErrorBody } from '../lib/api.ts';

/**
 * The public session as the scan page uses it (SPEC §3: courseName, roomNumber, sessionDate,
 * startTime, expiresAt; plus the server's clock and the device pass, see common/attendance.ts).
 * Parsed by hand: zod would triple this bundle.
 */
export type PublicSession = {
  sessionId: string;
  courseName: string;
  courseCode: string | null;
  roomNumber: string | null;
  sessionDate: string | null;
  startTime: string | null;
  endTime: string | null;
  expiresAt: number;
  /** Server time minus this phone's time, in ms: phone clocks are often wrong. */
  clockOffset: number;
  expired: boolean;
  pass: string | null;
  passExpiresAt: number | null;
};

const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
const instant = (v: unknown) => {
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? null : t;
};

function asPublicSession(body: unknown, receivedAt: number): PublicSession | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  const sessionId = text(b.sessionId);
  const courseName = text(b.courseName);
  const expiresAt = instant(b.expiresAt);
  if (!sessionId || !courseName || expiresAt === null) return null;
  const serverTime = instant(b.serverTime);
  return {
    sessionId,
    courseName,
    expiresAt,
    courseCode: text(b.courseCode),
    roomNumber: text(b.roomNumber),
    sessionDate: text(b.sessionDate),
    startTime: text(b.startTime),
    endTime: text(b.endTime),
    clockOffset: serverTime === null ? 0 : serverTime - receivedAt,
    expired: b.status === 'expired',
    pass: text(b.pass),
    passExpiresAt: instant(b.passExpiresAt),
  };
}

/**
 * GET the public session; SPEC §7 allows one retry. Any failure or unusable body is "not found".
 * The QR code's rotating token (`?t=`) is passed on: a fresh one is what lets this phone submit.
 */
export async function loadPublicSession(sessionId: string, token: string | null): Promise<PublicSession | null> {
  const query = token ? `?t=${encodeURIComponent(token)}` : '';
  const url = `/api/qr-sessions/public/${encodeURIComponent(sessionId)}${query}`;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const body = await apiJson<unknown>('GET', url);
      return asPublicSession(body, Date.now());
    } catch (error) {
      // A 4xx answer is final; only a network error or 5xx is worth the one retry.
      if (error instanceof ApiError && error.status >= 400 && error.status < 500) return null;
    }
  }
  return null;
}

export type Submission = {
  sessionId: string;
  studentId: string;
  firstName: string;
  lastName: string;
  email: string;
  pass?: string;
  token?: string;
};

export type SubmitResult = {
  message: string;
  action: 'checked_in' | 'checked_out' | 'already_recorded';
  status: string | null;
  courseName: string | null;
  scanInTime: string | null;
  scanOutTime: string | null;
  minutesAttended: number | null;
};

export type SubmitOutcome =
  | { ok: true; result: SubmitResult }
  | { ok: false; status: number | null; message: string };

export const SUBMIT_FAILED = 'Failed to submit attendance';

/** POST the form. On failure, the server's message (SPEC §8) or 'Failed to submit attendance'. */
export async function submitAttendance(form: Submission): Promise<SubmitOutcome> {
  try {
    const res = await apiRequest('POST', '/api/attendance/submit', { ...form, scanInTime: new Date().toISOString() });
    const b = ((await res.json()) ?? {}) as Record<string, unknown>;
    const action = b.action === 'checked_out' || b.action === 'already_recorded' ? b.action : 'checked_in';
    return {
      ok: true,
      result: {
        message: text(b.message) ?? '',
        action,
        status: text(b.status),
        courseName: text(b.courseName),
        scanInTime: text(b.scanInTime),
        scanOutTime: text(b.scanOutTime),
        minutesAttended: typeof b.minutesAttended === 'number' ? b.minutesAttended : null,
      },
    };
  } catch (error) {
    const status = error instanceof ApiError ? error.status : null;
    const message = status !== null && status < 500 ? readErrorBody(error).message : null;
    return { ok: false, status, message: message ?? SUBMIT_FAILED };
  }
}
