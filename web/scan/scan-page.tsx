import { CalendarDays, CircleCheck, Clock, LogIn, LogOut, MapPin, SearchX, TimerOff, UserRound } from 'lucide-react';
import { useEffect, useRef, useState, type Dispatch, type FormEvent, type ReactNode, type RefObject, type SetStateAction } from 'react';
import { ATTENDANCE_STATUS_LABELS, isAttendedStatus } from '../../common/constants.ts';
import { SEE_YOUR_INSTRUCTOR, SESSION_EXPIRED, SESSION_EXPIRED_TEXT, SESSION_NOT_FOUND, SESSION_NOT_FOUND_TEXT } from '../../common/messages.ts';
import { Alert } from '../components/ui/alert.tsx';
import { BrandMark } from '../components/ui/brand-mark.tsx';
import type { AttendanceSubmitResult as SubmitResult } from '../../common/attendance.ts';
import { formatClock, formatCountdown, formatDate, formatLocalTime } from '../lib/format.ts';
import { serverNow, useServerNow } from '../lib/server-clock.ts';
import { loadPublicSession, submitAttendance, type ScanSession } from './load-session.ts';
import { CodeEntry } from './code-entry.tsx';
import { EmailMyHours } from './email-my-hours.tsx';
import { ScanField } from './scan-field.tsx';
import { sessionIdFromPath } from './session-id.ts';
import { rememberDetails, rememberedDetails, storePass, storedPass } from './stored.ts';

type State =
  | { kind: 'loading' }
  | { kind: 'enter-code' }
  | { kind: 'not-found' }
  | { kind: 'expired'; session: ScanSession | null }
  | { kind: 'form'; session: ScanSession }
  | { kind: 'success'; session: ScanSession; result: SubmitResult; markedAt: number; student: { studentId: string; email: string } };

type SetState = Dispatch<SetStateAction<State>>;

/**
 * The record of this class says the student was not there (marked absent or excused before they
 * scanned): the scan did not change it, so the page must not say "Attendance Marked!".
 */
const notMarked = (result: SubmitResult): boolean => result.action === 'already_recorded' && !isAttendedStatus(result.status);

/** A pass from opening a fresh code now, or one this tab earned a moment ago (a reload). */
function withPass(session: ScanSession): ScanSession {
  if (session.pass && session.passExpiresAt) {
    storePass(session.sessionId, { pass: session.pass, expiresAt: session.passExpiresAt });
    return session;
  }
  const kept = storedPass(session.sessionId);
  return kept && kept.expiresAt > serverNow() ? { ...session, pass: kept.pass, passExpiresAt: kept.expiresAt } : session;
}

const TITLES: Record<State['kind'], string> = {
  loading: 'Mark Attendance',
  'enter-code': 'Enter the class code',
  'not-found': SESSION_NOT_FOUND,
  expired: SESSION_EXPIRED,
  form: 'Mark Attendance',
  success: 'Attendance Marked!',
};

/**
 * Public page a student opens from the class QR code (SPEC §2, §4): loading, then Session Not
 * Found, Session Expired, the form, or Attendance Marked! (or See your instructor, when the record of
 * the class says absent or excused). Its own entry and bundle: no admin
 * code, no router, no query cache, so it stays fast on a cheap phone.
 */
export function ScanPage() {
  // The id is fixed for the page's life: it comes from the URL the QR code opened.
  const [sessionId] = useState(() => sessionIdFromPath(window.location.pathname));
  const [state, setState] = useState<State>(() => (sessionId ? { kind: 'loading' } : { kind: 'enter-code' }));
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    const token = new URLSearchParams(window.location.search).get('t');
    void loadPublicSession(sessionId, token).then((loaded) => {
      if (cancelled) return;
      if (!loaded) return setState({ kind: 'not-found' });
      const session = withPass(loaded);
      const over = session.expired || session.expiresAt <= serverNow();
      setState(over ? { kind: 'expired', session } : { kind: 'form', session });
    });
    return () => {
      cancelled = true;
    };
  }, [sessionId]);

  const title = state.kind === 'success' && notMarked(state.result) ? SEE_YOUR_INSTRUCTOR : TITLES[state.kind];
  useEffect(() => {
    document.title = `${title} · Muster`;
    // A terminal state replaces the form: move focus to its heading so it is read out.
    if (state.kind === 'not-found' || state.kind === 'expired' || state.kind === 'success') headingRef.current?.focus();
  }, [state.kind, title]);

  return (
    <main className="flex min-h-dvh flex-col items-center bg-slate-50 px-4 pt-6 pb-10 sm:pt-10">
      <BrandMark className="mb-6" />
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-8">
        {state.kind === 'loading' ? (
          <div role="status" aria-label="Loading" className="flex justify-center py-10">
            <span className="size-8 animate-spin rounded-full border-4 border-slate-200 border-t-blue-700" />
          </div>
        ) : state.kind === 'enter-code' ? (
          <CodeEntry headingRef={headingRef} />
        ) : state.kind === 'not-found' ? (
          <Terminal headingRef={headingRef} icon={<SearchX className="size-7 text-red-700" />} tone="bg-red-50" title={SESSION_NOT_FOUND}>
            <p className="mt-2 text-sm leading-6 text-slate-600">{SESSION_NOT_FOUND_TEXT}</p>
          </Terminal>
        ) : state.kind === 'expired' ? (
          <Terminal headingRef={headingRef} icon={<TimerOff className="size-7 text-amber-700" />} tone="bg-amber-50" title={SESSION_EXPIRED}>
            {state.session ? <p className="mt-1 text-sm font-medium text-slate-800">{state.session.courseName}</p> : null}
            <p className="mt-2 text-sm leading-6 text-slate-600">{SESSION_EXPIRED_TEXT}</p>
          </Terminal>
        ) : state.kind === 'form' ? (
          <AttendanceForm session={state.session} setState={setState} />
        ) : notMarked(state.result) ? (
          <SeeInstructor headingRef={headingRef} session={state.session} result={state.result} />
        ) : (
          <Success headingRef={headingRef} session={state.session} result={state.result} markedAt={state.markedAt} student={state.student} />
        )}
      </div>
      {/* Always in the page, so screen readers announce the result when its text appears. */}
      <p role="status" className="sr-only">
        {state.kind === 'success' ? resultAnnouncement(state.result, state.markedAt, state.session.courseName) : ''}
      </p>
    </main>
  );
}

function Terminal({
  headingRef,
  icon,
  tone,
  title,
  children,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  icon: ReactNode;
  tone: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <div className="py-4 text-center">
      <span aria-hidden="true" className={`mx-auto flex size-14 items-center justify-center rounded-full ${tone}`}>
        {icon}
      </span>
      <h1 ref={headingRef} tabIndex={-1} className="mt-4 text-xl font-bold text-slate-900 outline-none">
        {title}
      </h1>
      {children}
    </div>
  );
}

function AttendanceForm({ session, setState }: { session: ScanSession; setState: SetState }) {
  // The server's clock, read on this phone: refreshed every second (SPEC §9).
  const now = useServerNow();
  const remaining = session.expiresAt - now;
  const [details, setDetails] = useState(() => rememberedDetails() ?? { studentId: '', firstName: '', lastName: '', email: '' });
  const [remember, setRemember] = useState(() => rememberedDetails() !== null);
  const [code, setCode] = useState('');
  const [codeAsked, setCodeAsked] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  // Without a fresh QR (a shared link, or the pass ran out) the code on the classroom screen is needed.
  const passValid = session.pass != null && (session.passExpiresAt ?? 0) > now;
  const needsCode = codeAsked || !passValid;
  const expired = remaining <= 0;

  useEffect(() => {
    if (expired) setState({ kind: 'expired', session });
  }, [expired, session, setState]);

  const filled = [details.studentId, details.firstName, details.lastName, details.email].every((v) => v.trim() !== '');
  const codeDigits = code.replace(/\D/g, '');
  const ready = filled && (!needsCode || codeDigits.length === 6);

  const set = (field: keyof typeof details) => (e: { target: { value: string } }) => setDetails((d) => ({ ...d, [field]: e.target.value }));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!ready || submitting) return;
    setSubmitting(true);
    setError(null);
    const trimmed = {
      studentId: details.studentId.trim(),
      firstName: details.firstName.trim(),
      lastName: details.lastName.trim(),
      email: details.email.trim(),
    };
    const outcome = await submitAttendance({
      sessionId: session.sessionId,
      ...trimmed,
      ...(passValid && session.pass ? { pass: session.pass } : {}),
      ...(needsCode ? { token: codeDigits } : {}),
    });
    setSubmitting(false);
    if (outcome.ok) {
      rememberDetails(remember ? trimmed : null);
      setState({ kind: 'success', session, result: outcome.result, markedAt: serverNow(), student: { studentId: trimmed.studentId, email: trimmed.email } });
      return;
    }
    if (outcome.status === 404) return setState({ kind: 'not-found' });
    if (outcome.status === 410) return setState({ kind: 'expired', session });
    if (outcome.status === 403) {
      // The code was not fresh: ask for the one on the screen now.
      storePass(session.sessionId, null);
      setCodeAsked(true);
      setCode('');
      requestAnimationFrame(() => codeRef.current?.focus());
    }
    setError(outcome.message);
  };

  return (
    <div>
      <div className="flex items-start justify-between gap-3">
        <p className="text-sm font-semibold text-blue-700">Mark attendance for</p>
        <p className="shrink-0 rounded-full bg-emerald-50 px-2.5 py-1 text-xs font-semibold text-emerald-800 ring-1 ring-emerald-600/20 ring-inset">
          <span id="time-left-label">Time left</span>{' '}
          <span role="timer" aria-labelledby="time-left-label" className="font-mono tabular-nums">
            {formatCountdown(remaining)}
          </span>
        </p>
      </div>
      <h1 className="mt-1 text-2xl leading-tight font-bold text-slate-900">{session.courseName}</h1>
      {session.courseCode ? <p className="text-sm font-medium text-slate-600">{session.courseCode}</p> : null}
      <dl className="mt-4 grid gap-2 rounded-xl bg-slate-50 p-3.5 text-sm text-slate-700">
        {session.roomNumber ? <Detail icon={<MapPin className="size-4" />} label="Room" value={session.roomNumber} /> : null}
        {session.sessionDate ? <Detail icon={<CalendarDays className="size-4" />} label="Date" value={formatDate(session.sessionDate, 'long')} /> : null}
        {session.startTime ? (
          <Detail
            icon={<Clock className="size-4" />}
            label="Starts"
            value={session.endTime ? `${formatClock(session.startTime)} (until ${formatClock(session.endTime)})` : formatClock(session.startTime)}
          />
        ) : null}
      </dl>
      <p className="mt-3 text-xs text-slate-600">Not your class? Don’t submit: scan the code shown in your own classroom.</p>

      <form onSubmit={(e) => void onSubmit(e)} className="mt-6 space-y-4" aria-label="Mark my attendance">
        {needsCode ? (
          <ScanField
            inputRef={codeRef}
            label="Code on the classroom screen"
            name="code"
            hint="The 6 digits under the QR code. They change every 15 seconds."
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
          />
        ) : null}
        <ScanField label="Student ID" name="studentId" autoComplete="off" autoCapitalize="none" autoCorrect="off" spellCheck={false} value={details.studentId} onChange={set('studentId')} required />
        <ScanField label="First Name" name="firstName" autoComplete="given-name" value={details.firstName} onChange={set('firstName')} required />
        <ScanField label="Last Name" name="lastName" autoComplete="family-name" value={details.lastName} onChange={set('lastName')} required />
        <ScanField label="Email" name="email" type="email" inputMode="email" autoComplete="email" autoCapitalize="none" value={details.email} onChange={set('email')} required />
        <label className="flex items-center gap-2.5 py-1 text-sm text-slate-700">
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="size-5 rounded border-slate-300 accent-blue-700" />
          Remember me on this phone
        </label>
        {/* Beside the button the student just pressed; role=alert reads it out. */}
        {error ? <Alert>{error}</Alert> : null}
        <button
          type="submit"
          disabled={!ready || submitting}
          className="flex h-12 w-full items-center justify-center gap-2 rounded-xl bg-blue-700 px-4 text-base font-semibold text-white shadow-sm transition-colors hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:bg-blue-700/50"
        >
          {submitting ? <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-white/40 border-t-white" /> : null}
          {submitting ? 'Submitting...' : 'Mark My Attendance'}
        </button>
      </form>
    </div>
  );
}

/** Check-in or check-out, and when (the server's time, shown on this phone's clock face). */
function describeResult(result: SubmitResult, markedAt: number) {
  const out = result.action === 'checked_out';
  const at = formatLocalTime(out ? result.scanOutTime : result.scanInTime) ?? formatLocalTime(new Date(markedAt).toISOString());
  const what = result.action === 'already_recorded' ? 'Already recorded' : out ? 'Checked out' : 'Checked in';
  return { out, what, at };
}

function resultAnnouncement(result: SubmitResult, markedAt: number, courseName: string): string {
  if (notMarked(result)) return `${SEE_YOUR_INSTRUCTOR}. ${result.courseName ?? courseName}: recorded as ${ATTENDANCE_STATUS_LABELS[result.status]}. ${result.message}`;
  const { what, at } = describeResult(result, markedAt);
  return `Attendance marked for ${result.courseName ?? courseName}. ${what}${at ? ` at ${at}` : ''}. ${result.message}`;
}

function Success({
  headingRef,
  session,
  result,
  markedAt,
  student,
}: {
  headingRef: RefObject<HTMLHeadingElement | null>;
  session: ScanSession;
  result: SubmitResult;
  markedAt: number;
  student: { studentId: string; email: string };
}) {
  const { out, what, at } = describeResult(result, markedAt);
  const Icon = out ? LogOut : LogIn;
  return (
    <div className="py-2 text-center">
      <span aria-hidden="true" className="mx-auto flex size-16 items-center justify-center rounded-full bg-emerald-50">
        <CircleCheck className="size-9 text-emerald-600" />
      </span>
      <h1 ref={headingRef} tabIndex={-1} className="mt-4 text-2xl font-bold text-slate-900 outline-none">
        Attendance Marked!
      </h1>
      <p className="mt-1 text-base font-medium text-slate-800">{result.courseName ?? session.courseName}</p>
      <div className="mt-5 rounded-xl bg-slate-50 px-4 py-4">
        <p className="flex items-center justify-center gap-2 text-lg font-semibold text-slate-900">
          <Icon aria-hidden="true" className="size-5 text-emerald-700" />
          {what}
          {at ? ` at ${at}` : ''}
        </p>
        {result.message ? <p className="mt-1 text-sm text-slate-700">{result.message}</p> : null}
        {out && result.minutesAttended != null ? (
          <p className="mt-1 text-sm text-slate-700">Minutes attended: {result.minutesAttended}</p>
        ) : null}
      </div>
      {result.action === 'checked_in' ? <p className="mt-4 text-sm text-slate-600">Leaving early? Scan the class code again to check out.</p> : null}
      <p className="mt-4 text-sm font-medium text-slate-700">You can close this page now.</p>
      <EmailMyHours studentId={student.studentId} email={student.email} />
    </div>
  );
}

/** Not a success: what the record says, and who can change it. Amber, not green: nothing was marked. */
function SeeInstructor({ headingRef, session, result }: { headingRef: RefObject<HTMLHeadingElement | null>; session: ScanSession; result: SubmitResult }) {
  return (
    <Terminal headingRef={headingRef} icon={<UserRound className="size-7 text-amber-700" />} tone="bg-amber-50" title={SEE_YOUR_INSTRUCTOR}>
      <p className="mt-1 text-base font-medium text-slate-800">{result.courseName ?? session.courseName}</p>
      <div className="mt-5 rounded-xl bg-amber-50 px-4 py-4 ring-1 ring-amber-600/20 ring-inset">
        <p className="text-lg font-semibold text-slate-900">Recorded as {ATTENDANCE_STATUS_LABELS[result.status]}</p>
        <p className="mt-1 text-sm text-slate-700">{result.message}</p>
      </div>
      <p className="mt-4 text-sm text-slate-600">Your instructor can see that you scanned, and when.</p>
    </Terminal>
  );
}

function Detail({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <div className="flex items-center gap-2">
      <span aria-hidden="true" className="text-slate-500">
        {icon}
      </span>
      <dt className="font-medium">{label}:</dt>
      <dd>{value}</dd>
    </div>
  );
}
