import { Download, Plus, Upload } from 'lucide-react';
import { useMemo, useState } from 'react';
import type { Course } from '../../../common/courses.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { DataTable } from '../../components/ui/data-table.tsx';
import { notifyFailure, notifySuccess } from '../../components/ui/notify.ts';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TablePagination } from '../../components/ui/table-pagination.tsx';
import { Toolbar, ToolbarSelect } from '../../components/ui/toolbar.tsx';
import { useSearchableTable } from '../../components/ui/use-searchable-table.ts';
import { BulkImportDialog } from './bulk-import-dialog.tsx';
import { courseColumns } from './course-columns.tsx';
import { CourseFormDialog } from './course-form-dialog.tsx';
import { useCourses } from '../../lib/shared-queries.ts';
import { useExportCourses, useToggleCourseStatus } from './courses-api.ts';

type StatusFilter = '' | 'active' | 'inactive';

/** /courses (SPEC §2): catalog table, add/edit, activate/deactivate, CSV export and bulk import. */
export function CoursesPage() {
  const courses = useCourses();
  const [statusFilter, setStatusFilter] = useState<StatusFilter>('');
  const [editing, setEditing] = useState<Course | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const toggle = useToggleCourseStatus();
  const exporter = useExportCourses();

  const all = useMemo(() => courses.data ?? [], [courses.data]);
  const codes = useMemo(() => new Map(all.map((c) => [c.id, c.courseCode])), [all]);
  const data = useMemo(() => (statusFilter ? all.filter((c) => c.isActive === (statusFilter === 'active')) : all), [all, statusFilter]);
  const togglingId = toggle.isPending ? (toggle.variables ?? null) : null;

  const columns = useMemo(
    () =>
      courseColumns({
        codeOf: (id) => codes.get(id) ?? `#${id}`,
        onEdit: setEditing,
        onToggle: (c) =>
          toggle.mutate(c.id, {
            onSuccess: () => notifySuccess('Course status updated', `${c.courseCode} is now ${c.isActive ? 'inactive' : 'active'}.`),
            onError: (e) => notifyFailure(e, 'Failed to update course status'),
          }),
        togglingId,
      }),
    // toggle.mutate keeps its identity across renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [codes, toggle.mutate, togglingId],
  );

  const { table, search, setSearch } = useSearchableTable({
    data,
    columns,
    initialSorting: [{ id: 'courseCode', desc: false }],
    getRowId: (c) => String(c.id),
    columnVisibility: { sisCourseId: false },
  });

  const onExport = () =>
    exporter.mutate(undefined, {
      onSuccess: () => notifySuccess('Export complete', 'Courses exported successfully.'),
      onError: (e) => notifyFailure(e, 'Failed to export courses.'),
    });

  return (
    <>
      <PageHeader
        title="Courses"
        subtitle="Course catalog, clock hours and prerequisites"
        actions={
          <>
            <Button variant="secondary" onClick={onExport} disabled={exporter.isPending}>
              {exporter.isPending ? <Spinner className="size-4" /> : <Download aria-hidden="true" className="size-4" />}
              Export
            </Button>
            <Button variant="secondary" onClick={() => setImporting(true)} icon={Upload}>
              Bulk Import
            </Button>
            <Button onClick={() => setEditing('new')} icon={Plus}>
              Add Course
            </Button>
          </>
        }
      />
      {courses.isError ? <Alert className="mb-6">The course list could not be loaded. Reload the page to try again.</Alert> : null}
      <Card className="overflow-hidden">
        <Toolbar>
          <SearchInput
            label="Search courses"
            placeholder="Search by code, name, program or SIS ID"
            value={search}
            onChange={setSearch}
            className="sm:max-w-md sm:flex-1"
          />
          <ToolbarSelect id="course-status-filter" label="Status" value={statusFilter} onChange={(v) => setStatusFilter(v as StatusFilter)}>
            <option value="">All</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </ToolbarSelect>
        </Toolbar>
        <DataTable
          cardsOnPhone
          table={table}
          caption="Course catalog"
          isLoading={courses.isLoading}
          empty={search || statusFilter ? 'No courses match your search.' : 'No courses yet. Add one, or import a file with Bulk Import.'}
        />
        <TablePagination table={table} noun="courses" />
      </Card>

      <CourseFormDialog target={editing} courses={all} onClose={() => setEditing(null)} />
      <BulkImportDialog open={importing} onOpenChange={setImporting} />
    </>
  );
}
