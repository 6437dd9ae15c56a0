import { apiJson } from '../lib/api.ts';

/** What the public read gives the page (SPEC §3: courseName, roomNumber, sessionDate, startTime, expiresAt). */
export type PublicSession = {
  courseName: string;
  roomNumber: string | null;
  sessionDate: string | null;
  startTime: string | null;
  expiresAt: string;
};

function asPublicSession(body: unknown): PublicSession | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v ? v : null);
  const courseName = text(b.courseName);
  const expiresAt = text(b.expiresAt);
  if (!courseName || !expiresAt) return null;
  return { courseName, expiresAt, roomNumber: text(b.roomNumber), sessionDate: text(b.sessionDate), startTime: text(b.startTime) };
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
      return asPublicSession(await apiJson<unknown>('GET', url));
    } catch (error) {
      // A 4xx answer is final; only a network error or 5xx is worth the one retry.
      const status = Number(/^(\d{3}):/.exec(error instanceof Error ? error.message : '')?.[1]);
      if (status >= 400 && status < 500) return null;
    }
  }
  return null;
}
