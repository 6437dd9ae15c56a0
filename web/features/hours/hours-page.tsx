import { getCoreRowModel, useReactTable, type PaginationState, type SortingState } from '@tanstack/react-table';
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { can } from '../../../common/permissions.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TablePagination } from '../../components/ui/table-pagination.tsx';
import { ProgramFilter } from '../../components/pickers/program-select.tsx';
import { timeClockLinesShown } from '../../components/time-clock-lines.ts';
import { Toolbar } from '../../components/ui/toolbar.tsx';
import { useDebouncedValue } from '../../components/ui/use-debounced-value.ts';
import { downloadFile, localDate } from '../../lib/download.ts';
import { formatDate } from '../../lib/format.ts';
import { usePrograms } from '../../lib/shared-queries.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { useHoursSummary, type HoursSortKey } from './hours-api.ts';
import { hoursColumns } from './hours-columns.tsx';
import { serverToday } from '../../lib/server-clock.ts';

/**
 * /hours: the clock-hour ledger of every student of a program (or the school) as of a date:
 * totals, attendance, the payment period under way and the hours it still needs, SAP and the last
 * date of attendance. Search, sort and paging happen on the server; Export CSV gives the same
 * figures as a file.
 */
export function HoursPage() {
  const user = useSignedInUser();
  const canExport = can(user.role, 'hours:export');
  const programs = usePrograms();
  const [programId, setProgramId] = useState('');
  const [asOf, setAsOf] = useState('');
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search.trim(), 300);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'lastName', desc: false }]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 25 });
  const [exporting, setExporting] = useState(false);

  const sort = sorting[0];
  const rows = useHoursSummary({
    programId: programId ? Number(programId) : undefined,
    asOf: asOf || undefined,
    search: debouncedSearch || undefined,
    sort: (sort?.id ?? 'lastName') as HoursSortKey,
    order: sort?.desc ? 'desc' : 'asc',
    page: pagination.pageIndex + 1,
    pageSize: pagination.pageSize,
  });

  const firstPage = () => setPagination((p) => ({ ...p, pageIndex: 0 }));
  // The time-clock lines that say something for the students listed: none where the rules changed nothing.
  const timeClockLines = timeClockLinesShown((rows.data?.items ?? []).map((r) => r.totals));

  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows.data?.items ?? [],
    columns: hoursColumns,
    rowCount: rows.data?.total ?? 0,
    // One program chosen: its name on every row says nothing (and the table stays narrower).
    state: { sorting, pagination, columnVisibility: { program: !programId } },
    onSortingChange: (updater) => {
      setSorting(updater);
      firstPage();
    },
    onPaginationChange: setPagination,
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    getRowId: (r) => String(r.studentId),
    getCoreRowModel: getCoreRowModel(),
  });

  const exportCsv = async () => {
    setExporting(true);
    try {
      const q = new URLSearchParams();
      if (programId) q.set('programId', programId);
      // The figures up to the as-of date, like the table; no date: up to today.
      if (asOf) q.set('to', asOf);
      const query = q.toString();
      await downloadFile(`/api/export/hours${query ? `?${query}` : ''}`, { fallbackName: `hours_export_${localDate()}.csv` });
      notifySuccess('Export Complete', 'The hours have been exported.');
    } catch (e) {
      notifyFailure(e, 'Failed to export the hours. Please try again.', 'Export Failed');
    } finally {
      setExporting(false);
    }
  };

  const programName = programId ? programs.data?.find((p) => String(p.id) === programId)?.programName : null;

  return (
    <>
      <PageHeader
        title="Hours"
        subtitle="Clock hours, payment periods and satisfactory academic progress per student"
        actions={
          canExport ? (
            <Button variant="secondary" onClick={() => void exportCsv()} disabled={exporting}>
              {exporting ? <Spinner className="size-4" /> : <FileDown aria-hidden="true" className="size-4" />}
              Export CSV
            </Button>
          ) : null
        }
      />
      {rows.isError ? <Alert className="mb-6">The hours could not be loaded. Reload the page to try again.</Alert> : null}
      <Card className="overflow-hidden">
        <Toolbar className="flex-wrap sm:items-end">
          <SearchInput
            label="Search students"
            placeholder="Search by name or SIS ID"
            value={search}
            onChange={(v) => {
              setSearch(v);
              firstPage();
            }}
            className="sm:max-w-xs sm:flex-1"
          />
          <div className="flex flex-wrap items-center gap-3">
            <ProgramFilter
              id="hours-program"
              value={programId}
              onChange={(v) => {
                setProgramId(v);
                firstPage();
              }}
            />
            <div className="flex items-center gap-2 text-sm">
              <label htmlFor="hours-as-of" className="text-slate-700">
                As of
              </label>
              <input
                id="hours-as-of"
                type="date"
                max={serverToday()}
                value={asOf}
                onChange={(e) => {
                  setAsOf(e.target.value);
                  firstPage();
                }}
                className="h-10 rounded-lg border border-slate-300 bg-white px-3 text-sm shadow-sm"
              />
            </div>
            {rows.isFetching && !rows.isLoading ? (
              <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-600">
                <Spinner className="size-4 text-blue-700" /> Updating…
              </span>
            ) : null}
          </div>
        </Toolbar>
        <DataTable
          cardsOnPhone
          table={table}
          caption={`Hours of ${programName ?? 'all programs'} as of ${asOf ? formatDate(asOf, 'medium') : 'today'}`}
          isLoading={rows.isLoading}
          empty={debouncedSearch ? `No students match “${debouncedSearch}”.` : 'No students to show.'}
        />
        {timeClockLines.length > 0 ? (
          <div className="border-t border-slate-200 px-4 py-3 text-xs text-slate-600 sm:px-6">
            <p>
              Under Credited, the time-clock lines since each student’s start where the program’s rules changed the minutes: attended = rounded − meal − over
              cap.
            </p>
            <dl className="mt-1 space-y-1">
              {timeClockLines.map((l) => (
                <div key={l.key}>
                  <dt className="inline font-semibold text-slate-700">{l.short}:</dt> <dd className="inline">{l.description}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
        <TablePagination table={table} noun="students" printAll={rows.data?.everyRow} />
      </Card>
    </>
  );
}
