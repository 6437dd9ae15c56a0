// /attendance/scan: the six digits typed by a student who cannot scan the QR, and the pass they give.
import { typedCodeSchema } from '../../../common/attendance.ts';
import { AppError } from '../../lib/errors.ts';
import { translateAnswer } from '../../lib/student-i18n.ts';
import { SCAN_PAGES_PATH, checkInDevice, sessionForTypedCode, setPassCookie } from '../qr-sessions/service.ts';
import { codeEntryView } from './pages.ts';
import { address, formText, page, retryAfter, secure, sessionPath, type ScanAnswer, type ScanDeps, type Visit } from './visit.ts';

/** GET /attendance/scan: for a student who cannot scan the QR (back row, broken camera). */
export const codeEntryPage = (deps: ScanDeps, v: Visit): ScanAnswer => page(deps, v, 200, codeEntryView(v.t, address(SCAN_PAGES_PATH, v), {}), SCAN_PAGES_PATH);

/**
 * POST /attendance/scan: the typed code finds the running class (qr-sessions' sessionForTypedCode,
 * every attempt counted) and gives this phone the same pass as a fresh QR code, as a cookie; the
 * answer sends the browser to that class's form (303), where the pass spares it the code.
 */
export async function submitCodeForm(deps: ScanDeps, v: Visit, rawBody: unknown): Promise<ScanAnswer> {
  const body = (typeof rawBody === 'object' && rawBody !== null ? rawBody : {}) as Record<string, unknown>;
  const action = address(SCAN_PAGES_PATH, v);
  const value = formText(body, 'code');
  const parsed = typedCodeSchema.safeParse(body);
  if (!parsed.success) return page(deps, v, 400, codeEntryView(v.t, action, { value, error: v.t('scanTypeSixDigits') }), SCAN_PAGES_PATH);
  const device = checkInDevice(v.req, v.reply, secure(deps, v.req));
  try {
    const found = await sessionForTypedCode(deps.db, parsed.data.code, device.id, { ip: v.req.ip, now: deps.clock.now() });
    setPassCookie(v.reply, secure(deps, v.req), found.sessionId, found.pass, found.passExpiresAt);
    return { redirect: address(sessionPath(found.sessionId), v) };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    retryAfter(v, err);
    return page(deps, v, err.statusCode, codeEntryView(v.t, action, { value, alert: translateAnswer(v.language, err.message) }), SCAN_PAGES_PATH);
  }
}
