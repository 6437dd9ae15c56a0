import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../components/ui/data-table.tsx';
import { useSortableTable } from '../../components/ui/use-sortable-table.ts';
import { formatCount } from '../../lib/format.ts';
import { formatPercent } from './format.ts';
import type { CourseAnalytics } from './dashboard-api.ts';
import { LevelBadge, Trend } from './widgets.tsx';

const RISK_ORDER: Record<string, number> = { high: 0, medium: 1, low: 2 };
const col = createColumnHelper<CourseAnalytics>();

/** Course Performance Analysis: sortable, riskiest first. */
export function CourseTable({ courses }: { courses: CourseAnalytics[] }) {
  const columns = useMemo(
    () => [
      col.accessor('courseName', {
        id: 'course',
        header: 'Course',
        meta: { rowHeader: true },
        cell: ({ row }) => (
          <span className="block">
            <span className="block font-medium text-slate-900">{row.original.courseName}</span>
            <span className="block text-xs text-slate-600">{row.original.courseCode}</span>
          </span>
        ),
      }),
      col.accessor((c) => RISK_ORDER[c.riskLevel] ?? 3, {
        id: 'risk',
        header: 'Risk Level',
        cell: ({ row }) => <LevelBadge level={row.original.riskLevel} kind="risk" />,
      }),
      col.accessor('totalSessions', { header: 'Sessions', meta: { className: 'text-right tabular-nums' }, cell: (c) => formatCount(c.getValue()) }),
      col.accessor('avgAttendanceRate', {
        header: 'Avg Rate',
        meta: { className: 'text-right tabular-nums' },
        cell: ({ row }) =>
          row.original.totalSessions === 0 ? <span className="text-slate-600">No sessions</span> : formatPercent(row.original.avgAttendanceRate),
      }),
      col.accessor('trend', { header: 'Trend', enableSorting: false, cell: (c) => <Trend trend={c.getValue()} /> }),
    ],
    [],
  );
  const table = useSortableTable({ data: courses, columns, getRowId: (c) => String(c.courseId), initialSorting: [{ id: 'risk', desc: false }] });
  return (
    <>
      {/* A phone gets one card per course; wider screens the sortable table. */}
      <ul className="divide-y divide-slate-100 sm:hidden" aria-label="Course performance, last 30 days">
        {courses.length === 0 ? <li className="px-5 py-8 text-center text-sm text-slate-600">No active courses with classes yet.</li> : null}
        {table.getRowModel().rows.map(({ original: c }) => (
          <li key={c.courseId} className="px-5 py-3">
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="text-sm font-medium text-slate-900">{c.courseName}</p>
                <p className="text-xs text-slate-600">{c.courseCode}</p>
              </div>
              <LevelBadge level={c.riskLevel} kind="risk" />
            </div>
            <div className="mt-1.5 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700">
              <span className="tabular-nums">{c.totalSessions === 0 ? 'No sessions' : `${formatPercent(c.avgAttendanceRate)} average`}</span>
              <span className="tabular-nums">
                {formatCount(c.totalSessions)} {c.totalSessions === 1 ? 'session' : 'sessions'}
              </span>
              <Trend trend={c.trend} />
            </div>
          </li>
        ))}
      </ul>
      <DataTable table={table} caption="Course performance, last 30 days" empty="No active courses with classes yet." className="hidden sm:block" />
    </>
  );
}
