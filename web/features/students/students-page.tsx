import { getCoreRowModel, useReactTable, type PaginationState, type SortingState } from '@tanstack/react-table';
import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { can } from '../../../common/permissions.ts';
import type { Student } from '../../../common/students.ts';
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
import { Toolbar } from '../../components/ui/toolbar.tsx';
import { useDebouncedValue } from '../../components/ui/use-debounced-value.ts';
import { readErrorBody } from '../../lib/api.ts';
import { useSignedInUser } from '../../lib/use-auth.ts';
import { studentColumns, studentName } from './student-columns.tsx';
import { StudentFormDialog } from './student-form-dialog.tsx';
import { useStudents } from '../../lib/shared-queries.ts';
import { useDeleteStudent } from './students-api.ts';

/**
 * /students (SPEC §2): search, sort and paging happen on the server (10,000 students stay fast);
 * the table runs in TanStack's manual mode and only reports what the user chose.
 */
export function StudentsPage() {
  const user = useSignedInUser();
  const canManage = can(user.role, 'students:manage');
  const showSsn = can(user.role, 'students:view-ssn');
  const [search, setSearch] = useState('');
  const debouncedSearch = useDebouncedValue(search.trim(), 300);
  const [sorting, setSorting] = useState<SortingState>([{ id: 'name', desc: false }]);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: 25 });
  const [editing, setEditing] = useState<Student | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Student | null>(null);
  const remove = useDeleteStudent();

  const sort = sorting[0];
  const students = useStudents({
    search: debouncedSearch,
    sort: sort?.id ?? 'name',
    order: sort?.desc ? 'desc' : 'asc',
    page: pagination.pageIndex + 1,
    pageSize: pagination.pageSize,
  });

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

  const onSearch = (value: string) => {
    setSearch(value);
    setPagination((p) => ({ ...p, pageIndex: 0 }));
  };

  const deleteError = remove.isError ? (readErrorBody(remove.error).message ?? 'Failed to delete student. Please try again.') : null;

  return (
    <>
      <PageHeader
        title="Students"
        subtitle="Student records, programs and enrollment status"
        actions={
          canManage ? (
            <Button onClick={() => setEditing('new')} icon={UserPlus}>Add Student</Button>
          ) : null
        }
      />
      {students.isError ? <Alert className="mb-6">The student list could not be loaded. Reload the page to try again.</Alert> : null}
      <Card className="overflow-hidden">
        <Toolbar>
          <SearchInput
            label="Search students"
            placeholder="Search by name, e-mail, student ID or SIS ID"
            value={search}
            onChange={onSearch}
            className="sm:max-w-md sm:flex-1"
          />
          {students.isFetching && !students.isLoading ? (
            <span role="status" className="inline-flex items-center gap-2 text-sm text-slate-600">
              <Spinner className="size-4 text-blue-700" /> Updating…
            </span>
          ) : null}
        </Toolbar>
        <DataTable
          table={table}
          caption="Students"
          isLoading={students.isLoading}
          empty={debouncedSearch ? `No students match “${debouncedSearch}”.` : 'No students yet. Add one, or import them under Data Management.'}
          cardsOnPhone
        />
        <TablePagination table={table} noun="students" />
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
