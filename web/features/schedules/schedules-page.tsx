import { CalendarDays, Plus } from 'lucide-react';
import { useState } from 'react';
import type { Schedule } from '../../../common/schedules.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useDebouncedValue } from '../../components/ui/use-debounced-value.ts';
import { RosterDialog } from './roster-dialog.tsx';
import { ScheduleCard } from './schedule-card.tsx';
import { ScheduleFormDialog } from './schedule-form-dialog.tsx';
import { useSchedules } from '../../lib/shared-queries.ts';

/** /schedules (SPEC §2): searchable schedule cards, create and edit, and each schedule's roster. */
export function SchedulesPage() {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const schedules = useSchedules(debounced);
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const [rosterOf, setRosterOf] = useState<Schedule | null>(null);
  const list = schedules.data ?? [];
  // Keep the open roster's header current after roster changes refresh the list.
  const rosterSchedule = rosterOf ? (list.find((s) => s.id === rosterOf.id) ?? rosterOf) : null;

  return (
    <>
      <PageHeader
        title="Schedules"
        subtitle="Class meetings by cohort, term, day and room"
        actions={
          <Button onClick={() => setEditing('new')} icon={Plus}>
            Create Schedule
          </Button>
        }
      />
      <Card className="mb-6 flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchInput
          label="Search schedules"
          placeholder="Search by course, instructor, room or SIS ID"
          value={search}
          onChange={setSearch}
          className="sm:max-w-md sm:flex-1"
        />
        <p className="inline-flex items-center gap-2 text-sm text-slate-600" aria-live="polite">
          {schedules.isFetching ? <Spinner className="size-4 text-blue-700" /> : null}
          {schedules.isSuccess ? `${list.length} ${list.length === 1 ? 'schedule' : 'schedules'}` : null}
        </p>
      </Card>

      {schedules.isError ? <Alert className="mb-6">The schedules could not be loaded. Reload the page to try again.</Alert> : null}
      {schedules.isLoading ? (
        <div role="status" className="flex items-center justify-center gap-2 py-16 text-sm text-slate-600">
          <Spinner className="size-5 text-blue-700" /> Loading schedules…
        </div>
      ) : list.length === 0 && schedules.isSuccess ? (
        <EmptyState icon={CalendarDays} title={debounced ? 'No schedules match your search' : 'No schedules yet'}>
          {debounced ? 'Try a course code, an instructor’s name or a room.' : 'Create a schedule for each course, cohort and weekly meeting.'}
        </EmptyState>
      ) : (
        <ul aria-label="Schedules" className="grid gap-5 md:grid-cols-2 2xl:grid-cols-3">
          {list.map((s) => (
            <li key={s.id}>
              <ScheduleCard schedule={s} onEdit={() => setEditing(s)} onRoster={() => setRosterOf(s)} />
            </li>
          ))}
        </ul>
      )}

      <ScheduleFormDialog target={editing} onClose={() => setEditing(null)} />
      <RosterDialog schedule={rosterSchedule} onClose={() => setRosterOf(null)} />
    </>
  );
}
