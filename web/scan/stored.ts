// What this phone keeps between visits. Storage can be refused (private mode): never fail on it.

export type StudentDetails = { studentId: string; firstName: string; lastName: string; email: string };

const DETAILS_KEY = 'muster.scan.student';
const passKey = (sessionId: string) => `muster.scan.pass.${sessionId}`;

function read<T>(storage: () => Storage, key: string): T | null {
  try {
    const raw = storage().getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: unknown): void {
  try {
    if (value === null) storage().removeItem(key);
    else storage().setItem(key, JSON.stringify(value));
  } catch {
    // Storage refused: the student types their details again next time.
  }
}

/** Details the student asked this phone to remember ("Remember me on this phone"). */
export function rememberedDetails(): StudentDetails | null {
  const d = read<Partial<StudentDetails>>(() => localStorage, DETAILS_KEY);
  if (!d || typeof d.studentId !== 'string') return null;
  return { studentId: d.studentId, firstName: d.firstName ?? '', lastName: d.lastName ?? '', email: d.email ?? '' };
}

export const rememberDetails = (details: StudentDetails | null): void => write(() => localStorage, DETAILS_KEY, details);

/**
 * The pass this phone earned by opening a fresh QR code, kept for the tab's life so a reload
 * (or a phone that drops the page) does not force the student to scan again.
 */
export function storedPass(sessionId: string): { pass: string; expiresAt: number } | null {
  const p = read<{ pass?: unknown; expiresAt?: unknown }>(() => sessionStorage, passKey(sessionId));
  return p && typeof p.pass === 'string' && typeof p.expiresAt === 'number' ? { pass: p.pass, expiresAt: p.expiresAt } : null;
}

export const storePass = (sessionId: string, pass: { pass: string; expiresAt: number } | null): void => write(() => sessionStorage, passKey(sessionId), pass);
