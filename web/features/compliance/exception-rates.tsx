import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { Link } from 'react-router';
import { addDays } from '../../../common/dates.ts';
import { exceptionRatesSchema, type ExceptionRate } from '../../../common/missed-punches.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { apiParse, readErrorBody } from '../../lib/api.ts';
import { formatPercent } from '../../lib/format.ts';
import { serverToday } from '../../lib/server-clock.ts';

const col = createColumnHelper<ExceptionRate>();
const NO_ROWS: ExceptionRate[] = [];
const COLUMNS = [
  col.accessor('name', {
    header: 'Student',
    meta: { rowHeader: true, className: 'font-medium' },
    cell: ({ row }) => (
      // Underlined: beside the SIS ID, colour alone would not mark it as a link.
      <Link to={`/students/${row.original.studentId}`} className="text-blue-800 underline underline-offset-2 hover:decoration-2">
        {row.original.name}
      </Link>
    ),
  }),
  col.accessor('sisStudentId', { header: 'SIS ID', cell: ({ getValue }) => <span className="font-mono text-xs">{getValue() ?? '—'}</span> }),
  col.accessor('meetingsAttended', { header: 'Meetings', meta: { className: 'text-right tabular-nums' } }),
  col.accessor('exceptions', { header: 'Exceptions', meta: { className: 'text-right tabular-nums' } }),
  col.accessor('exceptionRate', {
    header: 'Exception rate',
    meta: { className: 'text-right tabular-nums' },
    cell: ({ getValue }) => formatPercent(getValue()),
  }),
] as ColumnDef<ExceptionRate, never>[];

const dateInput = 'h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm';

/**
 * Students by punch-exception rate for a period (decision 053): of the meetings each student attended
 * or asked about, the share with a missed-punch request or a correction that approved one. Only
 * students with an exception are listed, highest rate first; the program filter is the page's.
 */
export function ExceptionRates({ programId }: { programId: string }) {
  const today = serverToday();
  const [from, setFrom] = useState(() => addDays(today, -29));
  const [to, setTo] = useState(today);
  const query = new URLSearchParams({ from, to, ...(programId ? { programId } : {}) });
  const rates = useQuery({
    queryKey: ['/api/missed-punch-requests/exception-rates', from, to, programId],
    queryFn: () => apiParse(exceptionRatesSchema, 'GET', `/api/missed-punch-requests/exception-rates?${query}`),
    enabled: from !== '' && to !== '',
    placeholderData: keepPreviousData,
  });
  const rows = rates.data?.items ?? NO_ROWS;
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns: COLUMNS,
    enableSorting: false,
    autoResetPageIndex: false,
    getRowId: (r) => String(r.studentId),
    getCoreRowModel: getCoreRowModel(),
  });
  const refusal = rates.isError ? (readErrorBody(rates.error).message ?? 'The exception rates could not be loaded. Reload the page to try again.') : null;

  return (
    <Card className="mt-6 overflow-hidden">
      <section aria-labelledby="exception-rates-heading">
        <div className="flex flex-wrap items-end justify-between gap-4 px-5 py-4 sm:px-6">
          <div className="max-w-xl">
            <h2 id="exception-rates-heading" className="text-base font-semibold text-slate-900">
              Punch exceptions
            </h2>
            <p className="text-sm text-slate-600">
              Students whose meetings needed a missed-punch request, by rate: requests of any outcome, and the corrections that approved them.
            </p>
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
              From
              <input type="date" value={from} max={to || today} onChange={(e) => setFrom(e.target.value)} className={dateInput} />
            </label>
            <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
              To
              <input type="date" value={to} min={from} max={today} onChange={(e) => setTo(e.target.value)} className={dateInput} />
            </label>
          </div>
        </div>
        {refusal ? <Alert className="mx-5 mb-4 sm:mx-6">{refusal}</Alert> : null}
        <DataTable
          table={table}
          caption="Students by punch-exception rate for the period"
          isLoading={rates.isLoading}
          empty="No punch exceptions in this period."
          className="border-t border-slate-200"
          cardsOnPhone
        />
      </section>
    </Card>
  );
}
