import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Closure } from '../../../common/calendar.ts';
import { daysBetween } from '../../../common/dates.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { IconButton } from '../../components/ui/icon-button.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { readErrorBody } from '../../lib/api.ts';
import { localDate } from '../../lib/download.ts';
import { useClosures, useDeleteClosure } from './calendar-api.ts';
import { dateRange, monthOf } from './calendar-dates.ts';
import { ClosureFormDialog } from './closure-form-dialog.tsx';
import { MonthView } from './month-view.tsx';

/** /calendar: the school's closures (holidays, breaks, a program's own days off), a month at a time and as a list. */
export function CalendarPage() {
  const closures = useClosures();
  const [month, setMonth] = useState(() => monthOf(localDate()));
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<Closure | null>(null);
  const all = closures.data ?? [];

  return (
    <>
      <PageHeader
        title="School Calendar"
        subtitle="Closures: days the school or a program does not meet"
        actions={
          <Button onClick={() => setAdding(true)} icon={Plus}>
            Add Closure
          </Button>
        }
      />
      {closures.isError ? <Alert className="mb-6">The closures could not be loaded. Reload the page to try again.</Alert> : null}
      {/* Stacked: the month grid takes the full width, so its seven columns fit without scrolling. */}
      <div className="grid gap-6">
        <MonthView month={month} onMonthChange={setMonth} closures={all} />
        <ClosureList closures={all} isLoading={closures.isLoading} onDelete={setDeleting} onShow={(c) => setMonth(monthOf(c.startDate))} />
      </div>
      <ClosureFormDialog open={adding} onClose={() => setAdding(false)} onCreated={(c) => setMonth(monthOf(c.startDate))} />
      <DeleteClosureDialog closure={deleting} onClose={() => setDeleting(null)} />
    </>
  );
}

function ClosureList({
  closures,
  isLoading,
  onDelete,
  onShow,
}: {
  closures: Closure[];
  isLoading: boolean;
  onDelete: (c: Closure) => void;
  onShow: (c: Closure) => void;
}) {
  return (
    <Card className="p-4 sm:p-6">
      <h2 className="mb-4 text-lg font-semibold text-slate-900">All closures</h2>
      {isLoading ? (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4 text-blue-700" /> Loading…
        </p>
      ) : closures.length === 0 ? (
        <p className="text-sm text-slate-600">No closures yet. Add the school's holidays and breaks with Add Closure.</p>
      ) : (
        <ul aria-label="Closures" className="divide-y divide-slate-100">
          {closures.map((c) => {
            const days = daysBetween(c.startDate, c.endDate) + 1;
            return (
              <li key={c.id} className="flex items-start justify-between gap-3 py-3">
                <div className="min-w-0">
                  <h3 className="font-medium text-slate-900">{c.name}</h3>
                  <p className="text-sm text-slate-600">
                    {dateRange(c.startDate, c.endDate)} · {days} {days === 1 ? 'day' : 'days'}
                  </p>
                  <p className="text-xs text-slate-600">{c.programName ? `${c.programName} only` : 'The whole school'}</p>
                </div>
                <div className="flex shrink-0 gap-0.5">
                  <Button variant="ghost" size="sm" onClick={() => onShow(c)} aria-label={`Show ${c.name} in the month view`}>
                    Show
                  </Button>
                  <IconButton icon={Trash2} tone="danger" label={`Delete ${c.name}`} onClick={() => onDelete(c)} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

function DeleteClosureDialog({ closure, onClose }: { closure: Closure | null; onClose: () => void }) {
  const remove = useDeleteClosure();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <ConfirmDialog
      open={closure !== null}
      onOpenChange={(open) => !open && close()}
      title="Delete closure?"
      confirmLabel="Delete closure"
      pendingLabel="Deleting…"
      isPending={remove.isPending}
      error={error}
      onConfirm={() =>
        closure &&
        remove.mutate(closure.id, {
          onSuccess: () => {
            notifySuccess('Closure deleted', closure.name);
            close();
          },
          onError: (e) => {
            setError(readErrorBody(e).message ?? 'The closure could not be deleted.');
            notifyFailure(e, 'Failed to delete the closure');
          },
        })
      }
    >
      {closure
        ? `${closure.name} (${dateRange(closure.startDate, closure.endDate)}) will no longer close ${closure.programName ?? 'the school'}: its days become class days again.`
        : ''}
    </ConfirmDialog>
  );
}
