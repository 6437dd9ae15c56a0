import { CalendarDays, Clock, MapPin, SearchX } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { SESSION_NOT_FOUND, SESSION_NOT_FOUND_TEXT } from '../../common/messages.ts';
import { BrandMark } from '../components/ui/brand-mark.tsx';
import { loadPublicSession, type PublicSession } from './load-session.ts';
import { sessionIdFromPath } from './session-id.ts';

type State = { kind: 'loading' } | { kind: 'not-found' } | { kind: 'ready'; session: PublicSession };

/**
 * Public page a student opens from the class QR code. Its own entry and bundle: no admin code,
 * no router, no query cache, so it stays fast on a cheap phone.
 */
export function ScanPage() {
  // The id is fixed for the page's life: it comes from the URL the QR code opened.
  const [sessionId] = useState(() => sessionIdFromPath(window.location.pathname));
  const [state, setState] = useState<State>(() => (sessionId ? { kind: 'loading' } : { kind: 'not-found' }));

  useEffect(() => {
    if (!sessionId) return;
    let cancelled = false;
    const token = new URLSearchParams(window.location.search).get('t');
    void loadPublicSession(sessionId, token).then((session) => {
      if (!cancelled) setState(session ? { kind: 'ready', session } : { kind: 'not-found' });
    });
    return () => {
      cancelled = true;
    };
  }, [sessionId]);

  useEffect(() => {
    if (state.kind === 'not-found') document.title = `${SESSION_NOT_FOUND} · Muster`;
    if (state.kind === 'ready') document.title = `${state.session.courseName} · Muster`;
  }, [state]);

  return (
    <main className="flex min-h-screen flex-col items-center bg-slate-50 px-4 py-10">
      <BrandMark className="mb-8" />
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        {state.kind === 'loading' ? (
          <div role="status" aria-label="Loading" className="flex justify-center py-10">
            <span className="size-8 animate-spin rounded-full border-4 border-slate-200 border-t-blue-700" />
          </div>
        ) : state.kind === 'not-found' ? (
          <div className="py-4 text-center">
            <span className="mx-auto flex size-12 items-center justify-center rounded-full bg-red-50">
              <SearchX aria-hidden="true" className="size-6 text-red-700" />
            </span>
            <h1 className="mt-4 text-xl font-bold text-slate-900">{SESSION_NOT_FOUND}</h1>
            <p className="mt-2 text-sm leading-6 text-slate-600">{SESSION_NOT_FOUND_TEXT}</p>
          </div>
        ) : (
          <SessionDetails session={state.session} />
        )}
      </div>
    </main>
  );
}

function SessionDetails({ session }: { session: PublicSession }) {
  return (
    <div>
      <p className="text-sm font-semibold text-blue-700">Mark attendance for</p>
      <h1 className="mt-1 text-xl font-bold text-slate-900">{session.courseName}</h1>
      <dl className="mt-4 space-y-2 text-sm text-slate-700">
        {session.roomNumber ? <Detail icon={<MapPin className="size-4" />} label="Room" value={session.roomNumber} /> : null}
        {session.sessionDate ? <Detail icon={<CalendarDays className="size-4" />} label="Date" value={session.sessionDate} /> : null}
        {session.startTime ? <Detail icon={<Clock className="size-4" />} label="Starts" value={session.startTime} /> : null}
      </dl>
    </div>
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
