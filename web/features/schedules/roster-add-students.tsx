import { UserPlus } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useDebouncedValue } from '../../components/ui/use-debounced-value.ts';
import { studentStatusLabel } from '../../components/student-status.ts';
import { useStudents } from '../../lib/shared-queries.ts';
import { useAddToRoster } from './schedules-api.ts';
import { formatCount } from '../../lib/format.ts';

/** Find students (server search, 20 at a time) and add the ticked ones to the roster. */
export function RosterAddStudents({ scheduleId, onRoster }: { scheduleId: number; onRoster: ReadonlySet<number> }) {
  const headingId = useId();
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const [chosen, setChosen] = useState<number[]>([]);
  const students = useStudents({ search: debounced, pageSize: 20 });
  const add = useAddToRoster(scheduleId);
  const results = students.data?.items ?? [];

  const toggle = (id: number, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));
  const onAdd = () =>
    add.mutate(chosen, {
      onSuccess: () => {
        notifySuccess('Roster updated', `${chosen.length} ${chosen.length === 1 ? 'student' : 'students'} added.`);
        setChosen([]);
      },
      onError: (e) => notifyFailure(e, 'Failed to add students to the roster. Please try again.'),
    });

  return (
    <section aria-labelledby={headingId} className="mt-6">
      <h3 id={headingId} className="text-sm font-semibold text-slate-900">
        Add students
      </h3>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row">
        <SearchInput label="Search students to add" placeholder="Name, e-mail, student ID or SIS ID" value={search} onChange={setSearch} className="flex-1" />
        <Button onClick={onAdd} disabled={chosen.length === 0 || add.isPending}>
          {add.isPending ? <Spinner className="size-4" /> : <UserPlus aria-hidden="true" className="size-4" />}
          Add selected ({chosen.length})
        </Button>
      </div>
      <div className="mt-2 rounded-lg border border-slate-200" aria-busy={students.isFetching || undefined}>
        {students.isLoading ? (
          <p role="status" className="flex items-center gap-2 px-3 py-3 text-sm text-slate-600">
            <Spinner className="size-4 text-blue-700" /> Searching…
          </p>
        ) : results.length === 0 ? (
          <p className="px-3 py-3 text-sm text-slate-600">{debounced ? `No students match “${debounced}”.` : 'No students yet.'}</p>
        ) : (
          <ul aria-label="Matching students" className="max-h-56 divide-y divide-slate-100 overflow-y-auto">
            {results.map((s) => {
              const already = onRoster.has(s.id);
              return (
                <li key={s.id}>
                  <label className={`flex items-center gap-3 px-3 py-2 text-sm ${already ? 'text-slate-500' : 'cursor-pointer hover:bg-slate-50'}`}>
                    <input
                      type="checkbox"
                      disabled={already}
                      checked={already || chosen.includes(s.id)}
                      onChange={(e) => toggle(s.id, e.target.checked)}
                      className="size-4 rounded border-slate-400 accent-blue-700"
                    />
                    <span className="font-medium text-slate-900">
                      {s.lastName}, {s.firstName}
                    </span>
                    <span className="hidden truncate sm:inline">{s.email ?? ''}</span>
                    <span className="ml-auto shrink-0 text-xs text-slate-600">
                      {already ? 'On roster' : [s.sisStudentId, s.programName, studentStatusLabel(s.status)].filter(Boolean).join(' · ')}
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {students.data && students.data.total > results.length ? (
        <p className="mt-1.5 text-xs text-slate-600">
          Showing the first {results.length} of {formatCount(students.data.total)} matches; type more to narrow the search.
        </p>
      ) : null}
    </section>
  );
}
