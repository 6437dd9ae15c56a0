import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Link } from 'react-router';
import type { HoursSummaryRow } from '../../../common/hours.ts';
import { SAP_STATUS } from '../../components/sap-status.ts';
import { timeClockLinesShown } from '../../components/time-clock-lines.ts';
import { Badge } from '../../components/ui/badge.tsx';
import { formatDate, formatHm, formatHours, formatPercent } from '../../lib/format.ts';

const col = createColumnHelper<HoursSummaryRow>();
const none = <span className="text-slate-500">—</span>;

/**
 * The Hours view's columns. Sortable ids are the server's sort keys (lastName, sisStudentId); the
 * figures come from the ledger as of the chosen date and are not sortable. Under Credited, the
 * student's time-clock lines that are not zero, in a word each (the page explains them): a column
 * per line would push the table past a laptop's width.
 */
export const hoursColumns = [
  col.accessor('lastName', {
    id: 'lastName',
    header: 'Student',
    meta: { rowHeader: true },
    cell: ({ row }) => (
      <Link to={`/students/${row.original.studentId}`} className="font-medium whitespace-nowrap text-blue-800 underline-offset-2 hover:underline">
        {row.original.lastName}, {row.original.firstName}
      </Link>
    ),
  }),
  col.accessor('sisStudentId', {
    id: 'sisStudentId',
    header: 'SIS ID',
    cell: ({ getValue }) => <span className="font-mono text-xs whitespace-nowrap">{getValue() ?? none}</span>,
  }),
  col.accessor('programName', {
    id: 'program',
    header: 'Program',
    enableSorting: false,
    cell: ({ getValue }) => <span className="whitespace-nowrap">{getValue() ?? none}</span>,
  }),
  col.accessor((r) => r.totals.scheduledMinutes, {
    id: 'scheduled',
    header: 'Scheduled h',
    enableSorting: false,
    meta: { className: 'text-right tabular-nums' },
    cell: ({ getValue }) => formatHm(getValue()),
  }),
  col.accessor((r) => r.totals.creditedMinutes, {
    id: 'credited',
    header: 'Credited h',
    enableSorting: false,
    meta: { className: 'text-right tabular-nums' },
    cell: ({ row }) => {
      const totals = row.original.totals;
      const lines = timeClockLinesShown([totals]);
      return (
        <>
          <span className="font-medium text-slate-900">{formatHm(totals.creditedMinutes)}</span>
          {lines.length > 0 ? (
            <dl className="mt-0.5 text-xs text-slate-600">
              {lines.map((l) => (
                <div key={l.key} className="whitespace-nowrap">
                  <dt className="inline">{l.short}</dt> <dd className="inline">{formatHm(totals[l.key])}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </>
      );
    },
  }),
  col.accessor('attendancePercent', {
    id: 'attendance',
    header: 'Attendance',
    enableSorting: false,
    meta: { className: 'text-right tabular-nums' },
    cell: ({ getValue }) => formatPercent(getValue()),
  }),
  col.display({
    id: 'period',
    header: 'Payment period',
    cell: ({ row }) => {
      const { currentPaymentPeriod: period, hoursRemaining } = row.original;
      if (period == null) return row.original.programId == null ? none : <span className="whitespace-nowrap">All completed</span>;
      return (
        <span className="whitespace-nowrap">
          Period {period}
          {hoursRemaining != null ? <span className="block text-xs text-slate-600">{formatHours(hoursRemaining)} h to go</span> : null}
        </span>
      );
    },
  }),
  col.accessor('sapStatus', {
    id: 'sap',
    header: 'SAP',
    enableSorting: false,
    cell: ({ row }) => <Badge tone={SAP_STATUS[row.original.sapStatus].tone}>{SAP_STATUS[row.original.sapStatus].label}</Badge>,
  }),
  col.accessor('lastDateOfAttendance', {
    id: 'lda',
    header: () => <abbr title="Last date of attendance">LDA</abbr>,
    enableSorting: false,
    cell: ({ getValue }) => {
      const v = getValue();
      return v ? <span className="whitespace-nowrap">{formatDate(v, 'medium')}</span> : none;
    },
  }),
] as ColumnDef<HoursSummaryRow, never>[];
