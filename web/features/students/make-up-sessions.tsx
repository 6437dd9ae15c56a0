import { CalendarPlus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { MakeUpSession } from '../../../common/make-ups.ts';
import { can } from '../../../common/permissions.ts';
import { ROLE_LABELS, ROLES } from '../../../common/roles.ts';
import type { Student } from '../../../common/students.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { formatClockRange, formatDate, formatHm } from '../../lib/format.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { DeleteMakeUpDialog, RecordMakeUpDialog } from './make-up-dialogs.tsx';
import { useMakeUpSessions } from './students-api.ts';
import { ScrollBox } from '../../components/ui/scroll-box.tsx';

// Who may record, read from the one permission table: a role without the button is told why.
const RECORDERS = new Intl.ListFormat('en', { type: 'disjunction' }).format(ROLES.filter((r) => can(r, 'make-up:record')).map((r) => ROLE_LABELS[r]));

/** The student's make-up sessions, newest first, with Record make-up and Delete (with a reason) for the roles that record them. */
export function MakeUpSessions({ student }: { student: Student }) {
  const user = useSignedInUser();
  const canRecord = can(user.role, 'make-up:record');
  const sessions = useMakeUpSessions(student.id);
  const [recording, setRecording] = useState(false);
  const [deleting, setDeleting] = useState<MakeUpSession | null>(null);
  const rows = [...(sessions.data ?? [])].sort((a, b) => b.date.localeCompare(a.date) || b.startTime.localeCompare(a.startTime));

  return (
    <Card className="overflow-hidden">
      <section aria-labelledby="make-up-heading">
        <div className="flex flex-col gap-3 px-5 pt-5 sm:flex-row sm:items-start sm:justify-between sm:px-6">
          <div>
            <h2 id="make-up-heading" className="text-lg font-semibold text-slate-900">
              Make-up sessions
            </h2>
            <p className="mt-1 text-sm text-slate-600">Supervised time outside the regular schedule that replaces missed time.</p>
          </div>
          {canRecord ? (
            <Button icon={CalendarPlus} onClick={() => setRecording(true)} className="shrink-0">
              Record make-up
            </Button>
          ) : (
            <p className="shrink-0 text-sm text-slate-600 sm:max-w-xs sm:text-right" data-testid="make-up-read-only">
              Read only: make-up sessions are recorded by a {RECORDERS}.
            </p>
          )}
        </div>
        {sessions.isError ? <Alert className="mx-5 mt-4 sm:mx-6">The make-up sessions could not be loaded. Reload the page to try again.</Alert> : null}
        <ScrollBox label="Make-up sessions" className="mt-4">
          <table className="min-w-full text-left text-sm">
            <caption className="sr-only">Make-up sessions</caption>
            <thead className="border-y border-slate-200 bg-slate-50/80 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-2 pl-5 sm:pl-6">
                  Date
                </th>
                <th scope="col" className="px-3 py-2">
                  Time
                </th>
                <th scope="col" className="px-3 py-2">
                  Hours
                </th>
                <th scope="col" className="px-3 py-2">
                  Supervisor
                </th>
                <th scope="col" className="px-3 py-2">
                  Course
                </th>
                <th scope="col" className="px-3 py-2">
                  Note
                </th>
                {canRecord ? (
                  <th scope="col" className="w-px px-3 py-2 pr-5 sm:pr-6">
                    <span className="sr-only">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={canRecord ? 7 : 6} className="px-5 py-8 text-center text-sm text-slate-600">
                    {sessions.isLoading ? (
                      <span role="status" className="inline-flex items-center gap-2">
                        <Spinner className="size-4 text-blue-700" /> Loading…
                      </span>
                    ) : (
                      'No make-up sessions recorded.'
                    )}
                  </td>
                </tr>
              ) : (
                rows.map((s) => (
                  <tr key={s.id}>
                    <th scope="row" className="px-3 py-2.5 pl-5 font-medium whitespace-nowrap text-slate-900 sm:pl-6">
                      {formatDate(s.date, 'medium')}
                    </th>
                    <td className="px-3 py-2.5 whitespace-nowrap">{formatClockRange(s.startTime, s.endTime)}</td>
                    <td className="px-3 py-2.5 tabular-nums">{formatHm(s.minutes)}</td>
                    <td className="px-3 py-2.5 whitespace-nowrap">{s.supervisorName}</td>
                    <td className="px-3 py-2.5 whitespace-nowrap">{s.courseCode ?? <span className="text-slate-500">—</span>}</td>
                    <td className="max-w-xs px-3 py-2.5 break-words">{s.note ?? <span className="text-slate-500">—</span>}</td>
                    {canRecord ? (
                      <td className="px-3 py-2.5 pr-5 text-right sm:pr-6">
                        <IconButton icon={Trash2} tone="danger" label={`Delete make-up of ${formatDate(s.date, 'medium')}`} onClick={() => setDeleting(s)} />
                      </td>
                    ) : null}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </ScrollBox>
      </section>
      {canRecord ? <RecordMakeUpDialog student={student} open={recording} onClose={() => setRecording(false)} /> : null}
      <DeleteMakeUpDialog student={student} session={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}
