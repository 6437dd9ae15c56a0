import { getCoreRowModel, useReactTable, type PaginationState, type SortingState } from '@tanstack/react-table';
import { Download, UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { STUDENT_STATUSES } from '../../../common/constants.ts';
import { can } from '../../../common/permissions.ts';
import type { Student } from '../../../common/students.ts';
import { ProgramFilter } from '../../components/pickers/program-select.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TablePagination } from '../../components/ui/table-pagination.tsx';
import { Toolbar, ToolbarSelect } from '../../components/ui/toolbar.tsx';
import { STUDENT_STATUS_LABELS } from '../../components/student-status.ts';
import { useDebouncedValue } from '../../components/ui/use-debounced-value.ts';
import { readErrorBody } from '../../lib/api.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { studentColumns, studentName } from './student-columns.tsx';
import { StudentFormDialog } from './student-form-dialog.tsx';
import { useStudents } from '../../lib/shared-queries.ts';
import { useDeleteStudent, useExportStudents } from './students-api.ts';

/**
 * /students (SPEC §2): search, Program and Status filters, sort and paging happen on the server
 * (10,000 students stay fast); the table runs in TanStack's manual mode and only reports what the
 * user chose. Export downloads the filtered list, every page, as CSV.
 */
export function StudentsPage() {
  const user = useSignedInUser();
  const canManage = can(user.role, 'students:manage');
  const showSsn = can(user.role, 'students:view-ssn');
  const canExport = can(user.role, 'students:export');
  const [search, setSearch] = useState('');
  const [programFilter, setProgramFilter] = useState('');
  const [statusFilter, setStatusFilter] = useState('');
  const debouncedSearch = useDebouncedValue(search.trim(), 300);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'name', desc: false }]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 25 });
  const [editing, setEditing] = useState<Student | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Student | null>(null);
  const remove = useDeleteStudent();
  const exporter = useExportStudents();

  const sort = sorting[0];
  // What is on screen, but for the page: the export takes the same.
  const listed = {
    search: debouncedSearch,
    programId: programFilter ? Number(programFilter) : undefined,
    status: statusFilter || undefined,
    sort: sort?.id ?? 'name',
    order: sort?.desc ? ('desc' as const) : ('asc' as const),
  };
  const students = useStudents({ ...listed, page: pagination.pageIndex + 1, pageSize: pagination.pageSize });

  const columns = useMemo(
    () =>
      studentColumns({
        showSsn,
        canManage,
        onEdit: setEditing,
        onDelete: (s) => {
          remove.reset();
          setDeleting(s);
        },
      }),
    // remove.reset keeps its identity across renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [showSsn, canManage, remove.reset],
  );

  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: students.data?.items ?? [],
    columns,
    rowCount: students.data?.total ?? 0,
    state: { sorting, pagination },
    onSortingChange: (updater) => {
      setSorting(updater);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    },
    onPaginationChange: setPagination,
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    getRowId: (s) => String(s.id),
    getCoreRowModel: getCoreRowModel(),
  });

  // A new search or filter starts again at page 1.
  const refiltered = (set: (value: string) => void) => (value: string) => {
    set(value);
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  };

  const onExport = () =>
    exporter.mutate(listed, {
      onSuccess: (name) => notifySuccess('Export complete', `Saved ${name}.`),
      onError: (e) => notifyFailure(e, 'Failed to export students. Please try again.'),
    });

  const deleteError = remove.isError ? (readErrorBody(remove.error).message ?? 'Failed to delete student. Please try again.') : null;

  return (
    <>
      <PageHeader
        title="Students"
        subtitle="Student records, programs and enrollment status"
        actions={
          <>
            {canExport ? (
              <Button variant="secondary" onClick={onExport} disabled={exporter.isPending}>
                {exporter.isPending ? <Spinner className="size-4" /> : <Download aria-hidden="true" className="size-4" />}
                Export
              </Button>
            ) : null}
            {canManage ? (
              <Button onClick={() => setEditing('new')} icon={UserPlus}>
                Add Student
              </Button>
            ) : null}
          </>
        }
      />
      {students.isError ? <Alert className="mb-6">The student list could not be loaded. Reload the page to try again.</Alert> : null}
      <Card className="overflow-hidden">
        <Toolbar>
          <SearchInput
            label="Search students"
            placeholder="Search by name, e-mail, student ID or SIS ID"
            value={search}
            onChange={refiltered(setSearch)}
            className="sm:max-w-md sm:flex-1"
          />
          <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
            {students.isFetching && !students.isLoading ? (
              <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-600">
                <Spinner className="size-4 text-blue-700" /> Updating…
              </span>
            ) : null}
            <ProgramFilter id="student-program-filter" value={programFilter} onChange={refiltered(setProgramFilter)} />
            <ToolbarSelect id="student-status-filter" label="Status" value={statusFilter} onChange={refiltered(setStatusFilter)}>
              <option value="">All statuses</option>
              {STUDENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STUDENT_STATUS_LABELS[s]}
                </option>
              ))}
            </ToolbarSelect>
          </div>
        </Toolbar>
        <DataTable
          table={table}
          caption="Students"
          isLoading={students.isLoading}
          empty={
            programFilter || statusFilter
              ? debouncedSearch
                ? `No students match “${debouncedSearch}” with these filters.`
                : 'No students match these filters.'
              : debouncedSearch
                ? `No students match “${debouncedSearch}”.`
                : 'No students yet. Add one, or import them under Data Management.'
          }
          cardsOnPhone
        />
        <TablePagination table={table} noun="students" printAll={students.data?.everyRow} />
      </Card>

      <StudentFormDialog target={editing} canEditSsn={showSsn} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting ? studentName(deleting) : 'student'}?`}
        confirmLabel="Delete"
        pendingLabel="Deleting…"
        isPending={remove.isPending}
        error={deleteError}
        onConfirm={() => {
          if (!deleting) return;
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('Student deleted');
              setDeleting(null);
            },
            onError: (e) => notifyFailure(e, 'Failed to delete student. Please try again.'),
          });
        }}
      >
        The record is removed for good. A student with attendance history cannot be deleted: change their status instead.
      </ConfirmDialog>
    </>
  );
}
