import { createColumnHelper, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { LogOut, MonitorSmartphone, RefreshCw } from 'lucide-react';
import { useRef } from 'react';
import type { LoginSessionInfo } from '../../../common/auth.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
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

  // A table on a screen, one card per session on a phone (it overflowed at 390 px).
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: sessions.data ?? NO_SESSIONS,
    columns: sessionColumns(onEnd, endOne.isPending),
    autoResetPageIndex: false,
    enableSorting: false,
    getRowId: (s) => String(s.id),
    getCoreRowModel: getCoreRowModel(),
  });

  return (
    <>
      <PageHeader
        title="Your sessions"
        subtitle="Where you are signed in to Muster. End any session you do not recognise, then tell an administrator."
        actions={
          <>
            <Button variant="secondary" onClick={() => void sessions.refetch()} disabled={sessions.isFetching} icon={RefreshCw}>
              Refresh
            </Button>
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
          <div ref={tableRef} tabIndex={-1} className="rounded-xl outline-none focus-visible:outline-2 focus-visible:outline-blue-600">
            <DataTable table={table} caption="Your sessions, most recently used first" empty="No sessions" cardsOnPhone />
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

const col = createColumnHelper<LoginSessionInfo>();
const NO_SESSIONS: LoginSessionInfo[] = [];

/** Row headers and buttons named after their session, so keyboard and screen-reader users get the same as everyone else. */
function sessionColumns(onEnd: (s: LoginSessionInfo) => void, ending: boolean): ColumnDef<LoginSessionInfo, never>[] {
  const columns = [
    col.accessor('browser', {
      header: 'Browser',
      meta: { rowHeader: true, className: 'font-medium text-slate-900' },
      cell: ({ row: { original: s } }) => (
        <span className="flex flex-wrap items-center gap-2">
          {s.browser}
          {s.current ? <Badge tone="blue">This browser</Badge> : null}
        </span>
      ),
    }),
    col.accessor('ipAddress', { header: 'Address', meta: { className: 'tabular-nums' }, cell: ({ getValue }) => getValue() ?? 'Unknown' }),
    col.accessor('createdAt', { header: 'Signed in', cell: ({ getValue }) => formatDateTime(getValue()) }),
    col.accessor('lastSeenAt', { header: 'Last active', cell: ({ getValue }) => formatDateTime(getValue()) }),
    col.accessor('expiresAt', { header: 'Ends by', cell: ({ getValue }) => formatDateTime(getValue()) }),
    col.display({
      id: 'actions',
      header: () => <span className="sr-only">Action</span>,
      meta: { className: 'text-right' },
      cell: ({ row: { original: s } }) =>
        s.current ? (
          <Button size="sm" variant="secondary" onClick={signOut}>
            Sign out
          </Button>
        ) : (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => onEnd(s)}
            disabled={ending}
            aria-label={`End session: ${s.browser}, signed in ${formatDateTime(s.createdAt)}`}
          >
            End session
          </Button>
        ),
    }),
  ];
  return columns as ColumnDef<LoginSessionInfo, never>[];
}
