import { getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { Activity, ChevronLeft, ChevronRight, Download, FilePenLine, FilterX, ShieldAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { AuditEntry } from '../../../common/audit-logs.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageSizeSelect } from '../../components/ui/page-size-select.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useDebouncedValue } from '../../components/ui/use-debounced-value.ts';
import { cn } from '../../lib/cn.ts';
import { auditColumns } from './audit-columns.tsx';
import { tableLabel } from './audit-format.ts';
import { AuditDetailsDialog } from './audit-details-dialog.tsx';
import { downloadAuditCsv, NO_FILTERS, useAuditLogs, useAuditSummary, type AuditFilters } from './audit-logs-api.ts';
import { formatCount } from '../../lib/format.ts';

/** SPEC §2 filter choices. */
const ACTIONS = ['Create', 'Update', 'Delete', 'Upload', 'Login'] as const;
const TABLES = ['students', 'courses', 'attendance', 'users', 'schedules'] as const;
const PAGE_SIZES = [25, 50, 100];

/**
 * /audit-logs: filtered and paged on the server (PRODUCT.md); 'Showing X of Y audit logs' where X is
 * the rows on this page and Y the server's filtered total; Export Logs downloads the filtered CSV.
 */
export function AuditLogsPage() {
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0]!);
  const [details, setDetails] = useState<AuditEntry | null>(null);
  const [exporting, setExporting] = useState(false);

  const search = useDebouncedValue(filters.search.trim(), 300);
  const applied = useMemo(() => ({ ...filters, search }), [filters, search]);
  const datesInvalid = Boolean(applied.startDate && applied.endDate && applied.endDate < applied.startDate);

  const logs = useAuditLogs(applied, page, pageSize, !datesInvalid);
  const summary = useAuditSummary(applied, !datesInvalid);

  const columns = useMemo(() => auditColumns(setDetails), []);
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: logs.data?.items ?? [],
    columns,
    manualPagination: true,
    // The server keeps the log newest first; there is no other order to offer.
    enableSorting: false,
    getRowId: (e) => String(e.id),
    getCoreRowModel: getCoreRowModel(),
  });

  const update = (patch: Partial<AuditFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const filtered = filters.search.trim() !== '' || filters.action !== 'all' || filters.table !== 'all' || filters.startDate !== '' || filters.endDate !== '';

  const total = logs.data?.total ?? 0;
  const shown = logs.data?.items.length ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));

  const exportLogs = async () => {
    setExporting(true);
    try {
      const name = await downloadAuditCsv(applied);
      notifySuccess('Export Complete', `${name} has been downloaded.`);
    } catch (e) {
      notifyFailure(e, 'Failed to export audit logs. Please try again.', 'Export Failed');
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageHeader
        title="Audit Logs"
        subtitle="Who changed what, when, and from where"
        actions={
          <Button variant="secondary" onClick={() => void exportLogs()} disabled={exporting || datesInvalid}>
            {exporting ? <Spinner className="size-4" /> : <Download aria-hidden="true" className="size-4" />}
            {exporting ? 'Exporting...' : 'Export Logs'}
          </Button>
        }
      />

      <section aria-label="Summary" className="mb-6 grid gap-4 sm:grid-cols-3">
        <SummaryCard
          testId="summary-recent"
          label="Recent Activity (24h)"
          icon={Activity}
          value={summary.data?.recentActivity24h}
          note="Entries in the last 24 hours"
        />
        <SummaryCard
          testId="summary-failed-logins"
          label="Failed Login Attempts"
          icon={ShieldAlert}
          value={summary.data?.failedLoginAttempts24h}
          note="Failed sign-ins in the last 24 hours"
          alert={(summary.data?.failedLoginAttempts24h ?? 0) > 0}
        />
        <SummaryCard
          testId="summary-modifications"
          label="Data Modifications"
          icon={FilePenLine}
          value={summary.data?.dataModifications}
          note={filtered ? 'Creates, updates and deletes matching the filters' : 'Creates, updates and deletes'}
        />
      </section>

      {logs.isError ? <Alert className="mb-6">The audit log could not be loaded. Reload the page to try again.</Alert> : null}

      <Card className="overflow-hidden">
        <div className="grid gap-3 border-b border-slate-200 px-4 py-4 sm:grid-cols-2 lg:grid-cols-[minmax(11rem,1.6fr)_minmax(7.5rem,1fr)_minmax(7.5rem,1fr)_minmax(9.5rem,1fr)_minmax(9.5rem,1fr)_auto] lg:items-end">
          <div className="sm:col-span-2 lg:col-span-1">
            <span className="mb-1.5 block text-sm font-medium text-slate-800" aria-hidden="true">
              Search
            </span>
            <SearchInput label="Search audit logs" placeholder="Action, table, user" value={filters.search} onChange={(search) => update({ search })} />
          </div>
          <SelectField label="Action" name="action" value={filters.action} onChange={(e) => update({ action: e.target.value })}>
            <option value="all">All actions</option>
            {ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </SelectField>
          <SelectField label="Table" name="table" value={filters.table} onChange={(e) => update({ table: e.target.value })}>
            <option value="all">All tables</option>
            {TABLES.map((t) => (
              <option key={t} value={t}>
                {tableLabel(t)}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Start date"
            name="startDate"
            type="date"
            value={filters.startDate}
            max={filters.endDate || undefined}
            onChange={(e) => update({ startDate: e.target.value })}
          />
          <TextField
            label="End date"
            name="endDate"
            type="date"
            value={filters.endDate}
            min={filters.startDate || undefined}
            onChange={(e) => update({ endDate: e.target.value })}
            error={datesInvalid ? 'End date must not be before the start date' : undefined}
          />
          <Button variant="ghost" onClick={() => update(NO_FILTERS)} disabled={!filtered} className="lg:mb-0" icon={FilterX}>
            Clear
          </Button>
        </div>

        <DataTable
          cardsOnPhone
          table={table}
          caption="Audit log entries, newest first"
          isLoading={logs.isLoading}
          empty="No audit logs found"
          className={cn(logs.isPlaceholderData && 'opacity-60 transition-opacity')}
        />

        <div className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 text-sm text-slate-700 sm:flex-row sm:items-center sm:justify-between">
          <p aria-live="polite" data-testid="audit-count">
            Showing {formatCount(shown)} of {formatCount(total)} audit logs
          </p>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <PageSizeSelect
              value={pageSize}
              options={PAGE_SIZES}
              onChange={(size) => {
                setPageSize(size);
                setPage(1);
              }}
            />
            <span className="whitespace-nowrap">
              Page {formatCount(Math.min(page, pageCount))} of {formatCount(pageCount)}
            </span>
            <div className="flex gap-1">
              <Button
                variant="secondary"
                size="sm"
                onClick={() => setPage((p) => Math.max(1, p - 1))}
                disabled={page <= 1 || logs.isFetching}
                icon={ChevronLeft}
              >
                Previous
              </Button>
              <Button variant="secondary" size="sm" onClick={() => setPage((p) => p + 1)} disabled={page >= pageCount || logs.isFetching}>
                Next
                <ChevronRight aria-hidden="true" className="size-4" />
              </Button>
            </div>
          </div>
        </div>
      </Card>

      <AuditDetailsDialog entry={details} onClose={() => setDetails(null)} />
    </>
  );
}

function SummaryCard({
  label,
  value,
  note,
  icon: Icon,
  alert = false,
  testId,
}: {
  label: string;
  value: number | undefined;
  note: string;
  icon: typeof Activity;
  alert?: boolean;
  testId: string;
}) {
  return (
    <Card className="flex items-start justify-between gap-3 p-5" data-testid={testId}>
      <div>
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p className="mt-1 text-3xl font-bold tracking-tight text-slate-900 tabular-nums">{value === undefined ? '—' : formatCount(value)}</p>
        <p className="mt-1 text-xs text-slate-600">{note}</p>
      </div>
      <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-lg', alert ? 'bg-red-50 text-red-700' : 'bg-blue-50 text-blue-700')}>
        <Icon aria-hidden="true" className="size-5" />
      </span>
    </Card>
  );
}
