import { useId, useState } from 'react';
import type { Course } from '../../../common/courses.ts';
import { cn } from '../../lib/cn.ts';

type Props = {
  /** Candidate courses: every course except the one being edited (never its own prerequisite). */
  courses: Course[];
  value: number[];
  onChange: (ids: number[]) => void;
  error?: string | undefined;
};

/** A filterable checklist of other courses; a cycle reported by the server shows beneath it. */
export function PrerequisitePicker({ courses, value, onChange, error }: Props) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const term = filter.trim().toLowerCase();
  const shown = term ? courses.filter((c) => `${c.courseCode} ${c.courseName}`.toLowerCase().includes(term)) : courses;
  const selected = new Set(value);
  const toggle = (courseId: number, on: boolean) => onChange(on ? [...value, courseId] : value.filter((v) => v !== courseId));
  const codes = courses.filter((c) => selected.has(c.id)).map((c) => c.courseCode);

  return (
    <fieldset tabIndex={-1} aria-invalid={error ? true : undefined} aria-describedby={`${id}-summary${error ? ` ${id}-error` : ''}`} className="outline-none">
      <legend className="text-sm font-medium text-slate-800">Prerequisites</legend>
      <p id={`${id}-summary`} className="mt-0.5 text-xs text-slate-600">
        {codes.length === 0 ? 'None selected. Courses a student must complete first.' : `${codes.length} selected: ${codes.join(', ')}`}
      </p>
      <div className={cn('mt-2 rounded-lg border bg-white shadow-sm', error ? 'border-red-600' : 'border-slate-300')}>
        {courses.length > 6 ? (
          <div className="border-b border-slate-200 p-2">
            <label htmlFor={`${id}-filter`} className="sr-only">
              Filter prerequisite courses
            </label>
            <input
              id={`${id}-filter`}
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="Filter courses"
              className="block h-8 w-full rounded-md border border-slate-300 px-2.5 text-sm placeholder:text-slate-500"
            />
          </div>
        ) : null}
        {courses.length === 0 ? (
          <p className="px-3 py-3 text-sm text-slate-600">There are no other courses yet.</p>
        ) : shown.length === 0 ? (
          <p className="px-3 py-3 text-sm text-slate-600">No course matches “{filter}”.</p>
        ) : (
          <ul className="max-h-48 divide-y divide-slate-100 overflow-y-auto">
            {shown.map((c) => (
              <li key={c.id}>
                <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-slate-50">
                  <input
                    type="checkbox"
                    checked={selected.has(c.id)}
                    onChange={(e) => toggle(c.id, e.target.checked)}
                    className="size-4 rounded border-slate-400 accent-blue-700"
                  />
                  <span className="font-mono text-xs font-semibold text-slate-900">{c.courseCode}</span>
                  <span className="truncate text-slate-700">{c.courseName}</span>
                  {!c.isActive ? <span className="ml-auto text-xs text-slate-500">Inactive</span> : null}
                </label>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-xs font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
