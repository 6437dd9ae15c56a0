const SCAN_PREFIX = '/attendance/scan/';

/** The session id from /attendance/scan/{sessionId}; null when the path carries none. */
export function sessionIdFromPath(pathname: string): string | null {
  if (!pathname.startsWith(SCAN_PREFIX)) return null;
  const raw = pathname.slice(SCAN_PREFIX.length).split('/')[0] ?? '';
  try {
    const id = decodeURIComponent(raw).trim();
    return id || null;
  } catch {
    return null;
  }
}
