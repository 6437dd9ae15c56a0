import { LogOut, MonitorSmartphone, RefreshCw } from 'lucide-react';
import { useRef } from 'react';
import type { LoginSessionInfo } from '../../../common/auth.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { signOut } from '../../lib/navigation.ts';
import { useEndOtherSessions, useEndSession, useSessions } from './auth-api.ts';
import { formatDateTime } from '../../lib/format.ts';


/**
 * /sessions: every signed-in user sees where they are signed in and ends what they do not
 * recognise. A table with row headers and buttons named after their session, so keyboard and
 * screen-reader users get the same as everyone else.
 */
export function SessionsPage() {
  const sessions = useSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const tableRef = useRef<HTMLDivElement>(null);
  const others = (sessions.data ?? []).filter((s) => !s.current);

  // The ended row disappears with its button: keep the user's place on the table instead.
  const focusTable = () => requestAnimationFrame(() => tableRef.current?.focus());

  const onEnd = (s: LoginSessionInfo) =>
    endOne.mutate(s.id, {
      onSuccess: () => {
        notifySuccess('Session ended', `${s.browser} is signed out.`);
        focusTable();
      },
      onError: (error) => notifyFailure(error, 'Failed to end the session. Please try again.'),
    });

  const onEndOthers = () =>
    endOthers.mutate(undefined, {
      onSuccess: ({ ended }) => {
        notifySuccess('Other sessions ended', ended === 1 ? 'One other session is signed out.' : `${ended} other sessions are signed out.`);
        focusTable();
      },
      onError: (error) => notifyFailure(error, 'Failed to end the other sessions. Please try again.'),
    });

  return (
    <>
      <PageHeader
        title="Your sessions"
        subtitle="Where you are signed in to Muster. End any session you do not recognise, then tell an administrator."
        actions={
          <>
            <Button variant="secondary" onClick={() => void sessions.refetch()} disabled={sessions.isFetching} icon={RefreshCw}>Refresh</Button>
            <Button variant="destructive" onClick={onEndOthers} disabled={others.length === 0 || endOthers.isPending}>
              {endOthers.isPending ? <Spinner className="size-4" /> : <LogOut aria-hidden="true" className="size-4" />}
              Sign out all other sessions
            </Button>
          </>
        }
      />
      {sessions.isLoading ? (
        <Card role="status" aria-label="Loading your sessions" className="flex justify-center py-16">
          <Spinner className="size-6 text-blue-700" />
        </Card>
      ) : sessions.isError ? (
        <Alert>Could not load your sessions. Please try again.</Alert>
      ) : sessions.data && sessions.data.length > 0 ? (
        <Card>
          <div ref={tableRef} tabIndex={-1} className="overflow-x-auto rounded-xl outline-none focus-visible:outline-2 focus-visible:outline-blue-600">
            <table className="min-w-full text-left text-sm">
              <caption className="sr-only">Your sessions, most recently used first</caption>
              <thead className="border-b border-slate-200 bg-slate-50 text-xs text-slate-600 uppercase">
                <tr>
                  <th scope="col" className="px-4 py-2 sm:px-6">Browser</th>
                  <th scope="col" className="px-4 py-2">Address</th>
                  <th scope="col" className="px-4 py-2">Signed in</th>
                  <th scope="col" className="px-4 py-2">Last active</th>
                  <th scope="col" className="px-4 py-2">Ends by</th>
                  <th scope="col" className="px-4 py-2">
                    <span className="sr-only">Action</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {sessions.data.map((s) => (
                  <tr key={s.id}>
                    <th scope="row" className="px-4 py-3 font-medium text-slate-900 sm:px-6">
                      <span className="flex flex-wrap items-center gap-2">
                        {s.browser}
                        {s.current ? <Badge tone="blue">This browser</Badge> : null}
                      </span>
                    </th>
                    <td className="px-4 py-3 text-slate-700 tabular-nums">{s.ipAddress ?? 'Unknown'}</td>
                    <td className="px-4 py-3 text-slate-700">{formatDateTime(s.createdAt)}</td>
                    <td className="px-4 py-3 text-slate-700">{formatDateTime(s.lastSeenAt)}</td>
                    <td className="px-4 py-3 text-slate-700">{formatDateTime(s.expiresAt)}</td>
                    <td className="px-4 py-3 text-right">
                      {s.current ? (
                        <Button size="sm" variant="secondary" onClick={signOut}>
                          Sign out
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          variant="secondary"
                          onClick={() => onEnd(s)}
                          disabled={endOne.isPending}
                          aria-label={`End session: ${s.browser}, signed in ${formatDateTime(s.createdAt)}`}
                        >
                          End session
                        </Button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : (
        <EmptyState icon={MonitorSmartphone} title="No sessions">
          Sign in again to see your sessions here.
        </EmptyState>
      )}
    </>
  );
}
